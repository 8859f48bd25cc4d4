"""The event's shared stock on the desk (host_sim/desk/allot.py): the `stock`
command, the allotment policy (first status, ask, low mark, a stale or replayed
ask, an ask from a future the desk never granted), and the safety claim under
races: several processes granting at once on one SQLite file while the totals
are changed never grant a class beyond its total."""
import json
import os
import subprocess
import sys

import pytest

import deskkit


from django.core.management import call_command
from django.core.management.base import CommandError

from host_sim.desk import allot
from host_sim.desk.models import Award, Event

SECRET = bytes(range(70, 86))


def grants(event):
    return {b: (s, g) for b, (s, g) in allot.current(Event.objects.get(name=event)).items()}


def payload(p):
    return json.loads(p) if p is not None else None


def test_stock_command_sets_totals_and_refuses_bad_input(capsys):
    call_command("stock", "--event", "st-1", "duitang=20", "zhuangyuan=2", "--step", "duitang=5")
    out = capsys.readouterr().out
    assert "zhuangyuan" in out.splitlines()[2] and "duitang" in out.splitlines()[3]  # highest class first
    ev = Event.objects.get(name="st-1")
    assert [(r["cls"], r["total"], r["step"]) for r in allot.overview(ev)][1] == ("duitang", 20, 5)
    for bad, says in ((["dui=3"], "not one of the firmware's classes"), (["duitang"], "write CLASS=N"),
                      (["duitang=-1"], "write CLASS=N"), (["duitang=1", "duitang=2"], "given twice"),
                      (["duitang=x"], "write CLASS=N")):
        with pytest.raises(CommandError, match=says):
            call_command("stock", "--event", "st-1", *bad)
    every = ["%s=100000" % c for c in allot.class_order()]  # every class at the largest total, in one step:
    call_command("stock", "--event", "st-big", *every, *[x for c in every for x in ("--step", c)])
    deskkit.bowl("ST-BIG", SECRET)
    raised, _what, p = allot.answer("st-big", "ST-BIG", 0, {}, first=True)
    assert raised and len(payload(p)["grant"]) == 12 and len(p) <= 256  # fits (250 bytes even at s=MAX_SEQ)
    with pytest.raises(CommandError, match="--event"):
        call_command("stock", "--event", "a/b", "duitang=1")
    with pytest.raises(CommandError, match="no stock yet"):
        call_command("stock", "--event", "st-none")
    deskkit.bowl("ST-B1", SECRET)
    raised, _what, p = allot.answer("st-1", "ST-B1", 0, {}, first=True)
    assert raised and payload(p)["grant"] == [["zhuangyuan", 1], ["duitang", 5]]
    with pytest.raises(CommandError, match=r"already granted 5 of it; a total can only be set to 5 or more"):
        call_command("stock", "--event", "st-1", "duitang=4", "zhuangyuan=9")
    assert {r["cls"]: r["total"] for r in allot.overview(ev)} == {"zhuangyuan": 2, "duitang": 20}  # nothing changed
    call_command("stock", "--event", "st-1", "duitang=5")  # down to what is granted: fine
    assert "duitang             5      5        5            0" in capsys.readouterr().out


_games = [1000]


def pay(bowl_id, **paid):
    """The bowl paid these awards ({class: n}); the desk has them (they arrive before its ask)."""
    from host_sim.desk.ingest import ingest
    _games[0] += 1
    awards = [c for c, n in paid.items() for _ in range(n)]
    ingest(bowl_id, _games[0], [(i + 1, c, i + 1) for i, c in enumerate(awards)], None, source="mqtt")


def test_policy_first_status_ask_low_mark_stale_and_future_asks():
    call_command("stock", "--event", "po-1", "zhuangyuan=2", "duitang=10", "yixiu=100", "--step", "yixiu=20",
                 "--step", "duitang=4", "--step", "zhuangyuan=1")
    for b in ("PO-1", "PO-2"):
        deskkit.bowl(b, SECRET)
    raised, what, p = allot.answer("po-1", "PO-1", 0, {}, first=True)
    assert raised and payload(p) == {"v": 2, "s": 1, "grant": [["zhuangyuan", 1], ["duitang", 4], ["yixiu", 20]]}
    assert allot.answer("po-1", "PO-1", 0, {}, first=True)[:2] == (False, "already granted s=1")  # a 2nd status
    # not low (yixiu 6 > 20 // 4): nothing raised, the current allot republished
    raised, what, p = allot.answer("po-1", "PO-1", 1, {"zhuangyuan": 1, "duitang": 2, "yixiu": 6})
    assert not raised and payload(p)["s"] == 1 and "republished s=1" in what
    # yixiu at a quarter of its step, duitang 1 of 4 (step // 4 = 1): both raised, the 状元 (step 1) is not empty
    pay("PO-1", duitang=3, yixiu=15)
    raised, what, p = allot.answer("po-1", "PO-1", 1, {"zhuangyuan": 1, "duitang": 1, "yixiu": 5})
    assert raised and payload(p) == {"v": 2, "s": 2, "grant": [["zhuangyuan", 1], ["duitang", 8], ["yixiu", 40]]}
    # the same ask again (replayed, or sent before s=2 arrived): the grant on its way counts, nothing new
    raised, what, p = allot.answer("po-1", "PO-1", 1, {"zhuangyuan": 1, "duitang": 1, "yixiu": 5})
    assert not raised and payload(p)["s"] == 2
    # stale, and empty: the 状元 is low even counting s=2's grant (raised), 对堂 and 一秀 are not
    pay("PO-1", zhuangyuan=1)
    raised, what, p = allot.answer("po-1", "PO-1", 1, {"zhuangyuan": 0, "duitang": 0, "yixiu": 0})
    assert raised and payload(p)["grant"] == [["zhuangyuan", 2], ["duitang", 8], ["yixiu", 40]]
    pay("PO-1", zhuangyuan=1, duitang=5, yixiu=25)
    raised, what, p = allot.answer("po-1", "PO-1", 3, {})  # up to date and empty: 对堂 has only 2 left
    assert raised and payload(p)["grant"] == [["zhuangyuan", 2], ["duitang", 10], ["yixiu", 60]]
    # an s the desk never granted (a desk database older than the bowl's): refused, nothing raised
    with pytest.raises(allot.StockError, match="only up to s=4"):
        allot.answer("po-1", "PO-1", 7, {})
    with pytest.raises(allot.StockError, match="not known here"):
        allot.answer("po-1", "ghost", 0, {})
    with pytest.raises(allot.StockError, match="has no stock at this desk"):
        allot.answer("po-none", "PO-1", 0, {})
    # the other bowl gets what is left, never beyond a total: the 状元s and 对堂s are gone
    raised, what, p = allot.answer("po-1", "PO-2", 0, {}, first=True)
    assert payload(p)["grant"] == [["yixiu", 20]]
    for _ in range(10):
        pay("PO-2", yixiu=20)
        allot.answer("po-1", "PO-2", grants("po-1")["PO-2"][0], {})
    assert grants("po-1")["PO-2"] == (2, {"yixiu": 40})
    tot = allot.granted(allot.current(Event.objects.get(name="po-1")))
    assert tot == {"zhuangyuan": 2, "duitang": 10, "yixiu": 100}
    assert allot.answer("po-1", "PO-2", grants("po-1")["PO-2"][0], {})[0] is False  # all granted


def test_an_ask_claiming_empty_stock_raises_nothing_the_desk_has_no_awards_for():
    """Before: one bowl repeating asks that claimed empty stock moved most of the event's
    stock into its own grant (yixiu 25 -> 175 of 200 in 11 s)."""
    call_command("stock", "--event", "gr-1", "yixiu=200", "--step", "yixiu=25")
    deskkit.bowl("GR-1", SECRET)
    assert allot.answer("gr-1", "GR-1", 0, {}, first=True)[0]
    for _ in range(20):
        s = grants("gr-1")["GR-1"][0]
        assert allot.answer("gr-1", "GR-1", s, {"yixiu": 0})[0] is False
    assert grants("gr-1")["GR-1"] == (1, {"yixiu": 25})
    pay("GR-1", yixiu=18)  # 7 left by the desk's record: still not low (the low mark is 25 // 4 = 6)
    assert allot.answer("gr-1", "GR-1", 1, {"yixiu": 0})[0] is False
    pay("GR-1", yixiu=1)  # 6 left: low, the ask is granted
    assert allot.answer("gr-1", "GR-1", 1, {"yixiu": 6})[0] is True
    assert grants("gr-1")["GR-1"] == (2, {"yixiu": 50})




def test_racing_desks_and_stock_commands_never_grant_beyond_a_total(tmp_path):
    """Four processes answer asks of six bowls at once on one database file while
    a fifth raises totals and tries to lower them below what is granted. Every
    bowl is always empty (always low), so the whole stock is granted in the end:
    exactly the totals, never more, and no bowl's grant ever went down (a last
    round of asks after the last change of totals drains what the racers left)."""
    folder = str(tmp_path)
    env = dict(os.environ, BOBING_DESK_DIR=folder)
    env.pop("DJANGO_SETTINGS_MODULE", None)

    def desk(*args):
        r = subprocess.run([sys.executable, "-m", "host_sim.desk"] + list(args), cwd=deskkit.ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
        return r
    bowls = ["%04d" % (800 + i) for i in range(6)]
    # the six bowls added by the addbowl command in one process (a desk process's start is most of a
    # command's time here; the racers below are the processes that must be apart)
    add = "".join("call_command('addbowl', %r, '--secret-hex', %r)\n" % (b, SECRET.hex()) for b in bowls)
    r = desk("shell", "-c", "from django.core.management import call_command\n" + add)
    assert r.returncode == 0 and r.stdout.count("added bowl") == len(bowls), r.stdout + r.stderr
    assert desk("stock", "--event", "race", "zhuangyuan=3", "duitang=17", "yixiu=50",
                "--step", "zhuangyuan=1", "--step", "duitang=2", "--step", "yixiu=5").returncode == 0
    procs = [subprocess.Popen([sys.executable, "-c", deskkit.ASKER, "race", ",".join(bowls), "40", str(i)],
                              cwd=deskkit.ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(4)]
    refused = 0
    for total in range(18, 24):  # meanwhile the promoter adds 对堂s, and once tries to take some back
        assert desk("stock", "--event", "race", "duitang=%d" % total).returncode == 0
        r = desk("stock", "--event", "race", "yixiu=1")
        if r.returncode:
            refused += 1
            assert "a total can only be set to" in r.stderr and "Nothing was changed" in r.stderr, r.stderr
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outs]
    assert refused  # the stock was already partly granted when the promoter tried
    drain = subprocess.run([sys.executable, "-c", deskkit.ASKER, "race", ",".join(bowls), "60", "9"], cwd=deskkit.ROOT,
                           env=env, capture_output=True, text=True, timeout=300)  # asks after the last total
    assert drain.returncode == 0, drain.stderr[-2000:]
    # the same database, read by a fresh process: every bowl's history, and the sums
    check = r"""
import os, sys, json
os.environ["DJANGO_SETTINGS_MODULE"] = "host_sim.desk.settings"
from host_sim import compat
compat.install()
import django
django.setup()
from host_sim.desk.models import Allot, EventClass
rows = [(a.bowl.bowl_id, a.seq, a.grant) for a in Allot.objects.filter(event__name="race").order_by("bowl_id", "seq")]
totals = {e.cls: e.total for e in EventClass.objects.filter(event__name="race")}
print(json.dumps([rows, totals]))
"""
    rows, totals = json.loads(subprocess.run([sys.executable, "-c", check], cwd=deskkit.ROOT, env=env,
                                             capture_output=True, text=True, timeout=60, check=True).stdout)
    assert totals == {"zhuangyuan": 3, "duitang": 23, "yixiu": 50}
    last = {}
    for b, s, g in rows:
        g = dict(g)
        before_s, before = last.get(b, (0, {}))
        assert s == before_s + 1, (b, s)  # 1, 2, 3, ...: no gap, no repeat
        assert all(g.get(c, 0) >= n for c, n in before.items()), (b, before, g)  # never lowered
        last[b] = (s, g)
    sums = {}
    for _s, g in last.values():
        for c, n in g.items():
            sums[c] = sums.get(c, 0) + n
    assert sums == totals, (sums, totals)  # all of it granted, none beyond
    assert sum(int(o[0].split()[-1]) for o in outs + [(drain.stdout,)]) == len(rows)


def test_the_bowls_page_counts_the_event_awarded_redeemed_and_granted():
    """The page's figures: per class total, step, granted, awarded and redeemed by
    the event's bowls since its stock was set, not yet granted; per bowl its
    status, grant and last award. (Login: test_desk's every-page test.)"""
    import re
    from django.test import Client
    from host_sim.desk import counter
    from host_sim.desk.ingest import ingest
    call_command("stock", "--event", "pg-1", "duitang=9", "yixiu=40", "--step", "duitang=3", "--step", "yixiu=10")
    deskkit.bowl("PG-1", SECRET)
    deskkit.bowl("PG-2", SECRET)
    allot.answer("pg-1", "PG-1", 0, {}, first=True)
    ingest("PG-1", 2, [(1, "yixiu", 1), (2, "duitang", 1), (3, "yixiu", 2)], None, source="mqtt")
    ingest("PG-2", 5, [(1, "yixiu", 1)], None, source="mqtt")  # PG-2 has no grant: not the event's
    user = deskkit.attendant("pia")
    a = Award.objects.get(bowl__bowl_id="PG-1", game_no=2, award_no=3)
    assert counter.redeem(user, counter.Claim(a.bowl, 2, 3, "yixiu", a.code, a))[0]
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username="pia", password=deskkit.PASSWORD)
    page = c.get("/bowls?event=pg-1").content.decode()
    assert 'id="live"' in page and "setTimeout(poll, 2000)" in page
    part = c.get("/bowls?part=1&event=pg-1").content.decode()
    assert "<h1>" not in part  # only the live part
    rows = {m.group(1): re.sub(r"<[^>]+>", " ", m.group(2)).split() for m in
            re.finditer(r'<tr data-cls="(\w+)">(.*?)</tr>', part, re.S)}
    assert rows["duitang"][-6:] == ["9", "3", "3", "1", "0", "6"]  # total step granted awarded redeemed not
    assert rows["yixiu"][-6:] == ["40", "10", "10", "2", "1", "30"]
    pg1 = re.search(r'<tr id="bowl-PG-1">(.*?)</tr>', part, re.S).group(1)
    assert "never seen" in pg1 and "s=1: duitang 3, yixiu 10" in pg1 and "2-3" in pg1


def test_the_bowls_page_shows_a_bowl_that_talks_to_the_broker_without_tls():
    """net.txt's tls=off is an explicit choice the promoter sees per bowl (firmware/PROTOCOL.md "TLS")."""
    import re
    from django.test import Client
    from bobing import outbox
    from host_sim.desk import bus
    deskkit.bowl("TL-1", SECRET)
    deskkit.bowl("TL-2", SECRET)
    deskkit.attendant("tia")
    for b, tls in (("TL-1", 0), ("TL-2", 1)):
        body = ('{"v":2,"on":1,"b":1,"c":1,"i":1,"fw":"1","g":1,"left":[],"faults":[],"bat":0,"tls":%d}' % tls)
        assert bus.handle("tl-1", outbox.topic("tl-1", b, "status"), body.encode())[0] == "status"
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username="tia", password=deskkit.PASSWORD)
    part = c.get("/bowls?part=1").content.decode()
    row = lambda b: re.search(r'<tr id="bowl-%s">(.*?)</tr>' % b, part, re.S).group(1)  # noqa: E731
    assert "no TLS (net.txt: tls=off)" in row("TL-1") and "TLS" not in row("TL-2")
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert zh.login(username="tia", password=deskkit.PASSWORD)
    assert "未加密" in zh.get("/bowls?part=1").content.decode()
