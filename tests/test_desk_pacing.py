"""The release schedule (host_sim/desk/pacing.py): the promoter paces a three-day promotion
(at most one 状元 a day, two 对堂 a day, 一秀 so many an hour) with `pace`; two event kiosks, the
firmware's own game (bobing.game.Table on the desk's grants, the kiosk profile's lower_tier rule),
play eleven hours a day on a simulated clock (the desk's clock: django.utils.timezone.now), asking
the desk for stock as the bowl does (allot.answer) and reporting their awards (ingest). The prizes
handed out per day stay within the schedule, every day gets its share, a 状元 rolled when none is
released pays the next class down as the game's own rule says, and the forecast page shows the
schedule against the expected demand. Bad schedules are refused saying what is allowed."""
import datetime
import json
import random

import pytest

import deskkit


from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from bobing import game, rules
from host_sim.desk import allot, pacing
from host_sim.desk.ingest import ingest
from host_sim.desk.models import Award, Event, PaceRule

SECRET = bytes(range(120, 136))
EV = "pc-fest"
BOWLS = ("PC-1", "PC-2")
TOTALS = ["zhuangyuan=3", "duitang=6", "sanhong=30", "sijin=90", "erju=600", "yixiu=3000"]
SCHEDULE = ["zhuangyuan=1/day", "duitang=2/day", "yixiu=12/hour"]
CUSTOMERS_AN_HOUR = 12  # per bowl


@pytest.fixture(scope="module", autouse=True)
def _two_bowls_only(tmp_path_factory):
    # a raise is the release over the bowls the desk knows: here the two kiosks, not the other
    # desk tests' bowls in this process's database (with them PC-1 got 262 一秀 and PC-2 132)
    with deskkit.own_database(tmp_path_factory.mktemp("pacing-desk")):
        yield


class Clock:
    """The desk's simulated clock: timezone.now() answers it."""

    def __init__(self, start):
        self.t = start

    def __call__(self):
        return self.t


def screen(t, out):
    """The bowl's result screen after the roll, as text (the firmware's own drawing)."""
    from host_sim.sim.player import _TextFrame, _TextScreen, screen_lines
    s = _TextScreen(_TextFrame())
    s.set_lang("zh")
    s.result(t, out, 0)
    return "\n".join(screen_lines(s.fb.items))


def play_three_days(monkeypatch, seed=35):
    """-> ({day: {class: awards}}, {(day, hour): yixiu awards}, [(rank, class paid)] of 状元 rolls
    paid something lower)."""
    call_command("stock", "--event", EV, *TOTALS)
    call_command("pace", "--event", EV, *SCHEDULE)
    start = timezone.make_aware(datetime.datetime(2026, 9, 25, 10, 0))
    clock = Clock(start)
    monkeypatch.setattr(timezone, "now", clock)
    Event.objects.filter(name=EV).update(started=start)
    tables, awards_no = {}, {}
    for b in BOWLS:
        deskkit.bowl(b, SECRET)
        tables[b] = game.Table("kiosk", 1, bowl_id=b, event=True, game_no=1)
        awards_no[b] = 0

    def ask(b):
        t = tables[b]
        _r, _what, p = allot.answer(EV, b, t.grant_s, dict(t.left()), first=not t.grant_s, now=clock.t)
        if p is not None:
            a = json.loads(p)
            for e in t.stock_events(a["s"], [tuple(x) for x in a["grant"]]):
                t.apply(*e)
    rng = random.Random(seed)
    per_day, per_hour, lowered = {}, {}, []
    for day in range(3):
        for hour in range(11):
            for k in range(CUSTOMERS_AN_HOUR):
                clock.t = start + datetime.timedelta(days=day, hours=hour, minutes=k * 60 // CUSTOMERS_AN_HOUR)
                for b in BOWLS:
                    t = tables[b]
                    ask(b)
                    if not t.stocked():
                        continue
                    t.apply(game.EV_CUSTOMER, None)
                    won = []
                    while t.shakes_left and not t.ended:
                        out = t.apply(game.EV_ROLL, tuple(rng.randint(1, 6) for _ in range(6)))
                        if rules.tier(out.rank) == rules.tier(rules.rank_code("sihong")) and out.won and \
                                out.won[0][0] != "zhuangyuan":
                            lowered.append((rules.RANK_IDS[out.rank], out.won[0][0], screen(t, out)))
                        won += [c for c, _src in out.won]
                    first = awards_no[b] + 1
                    awards_no[b] += len(won)
                    if won:  # the bowl's awards reach the desk (as over MQTT) before its next ask
                        ingest(b, 1, [(first + i, c, t.customer) for i, c in enumerate(won)], None, "mqtt", event=EV)
                    d = per_day.setdefault(day + 1, {})
                    for c in won:
                        d[c] = d.get(c, 0) + 1
                        if c == "yixiu":
                            per_hour[(day, hour)] = per_hour.get((day, hour), 0) + 1
    return per_day, per_hour, lowered


def test_a_paced_three_day_promotion_spreads_the_top_prizes_over_the_days(monkeypatch):
    per_day, per_hour, lowered = play_three_days(monkeypatch)
    print("prizes handed out per day:", json.dumps(per_day, sort_keys=True))
    for day in (1, 2, 3):
        assert per_day[day].get("zhuangyuan", 0) == 1, per_day  # one a day: not all three on day one
        assert per_day[day].get("duitang", 0) == 2, per_day
    assert max(per_hour.values()) <= 12 and sum(per_hour.values()) > 12 * 11  # released hour by hour
    # each bowl gets its share of an hour's release, not the first to ask all of it
    for b in BOWLS:
        assert Award.objects.filter(bowl__bowl_id=b, cls="yixiu").count() >= 150, b
    # the desk's own record agrees: awards per local day of the class paced by the day
    seen = [timezone.localtime(a.seen).date() for a in Award.objects.filter(bowl__bowl_id__in=BOWLS,
                                                                            cls="zhuangyuan")]
    assert sorted(seen) == [datetime.date(2026, 9, d) for d in (25, 26, 27)]
    # a 状元 rolled with none released: the kiosk's own lower_tier rule paid the next class with stock,
    # and the customer's screen says so (the prize he got, by its name)
    assert lowered and all(c != "zhuangyuan" for _r, c, _text in lowered), lowered
    names = {"duitang": "对堂", "sanhong": "三红", "sijin": "四进", "erju": "二举", "yixiu": "一秀"}
    for _rank, c, text in lowered:
        assert "得" + names[c] in text, text  # e.g. "四红" then "得对堂": the rank rolled, the prize paid
    print("a 状元 roll with no 状元 released, on the bowl's screen:\n" + lowered[0][2])
    ev = Event.objects.get(name=EV)
    grants = allot.granted(allot.current(ev))
    assert grants["zhuangyuan"] <= 3 and grants["duitang"] <= 6


def test_the_forecast_shows_the_schedule_against_the_demand(monkeypatch):
    call_command("stock", "--event", "pc-fc", "zhuangyuan=3", "yixiu=500")
    call_command("pace", "--event", "pc-fc", "zhuangyuan=1/day", "yixiu=5/hour")
    rows = pacing.against_demand("pc-fc", "kiosk", 30.0, 2)
    by = {r["cls"]: r for r in rows}
    # counted by hand: a 一秀 is exactly one 4 (6 * 5^5 of 6^6 rolls) but not 1-2-3-4-5-6 (720 rolls, a
    # 对堂); three shakes a customer, 30 customers an hour at each of 2 bowls, for one hour
    assert by["yixiu"]["demand"] == pytest.approx(3 * 30 * 2 * (6 * 5 ** 5 - 720) / 6 ** 6)
    assert by["yixiu"]["short"] and by["zhuangyuan"]["demand"] > 1  # a day's demand of 状元 above the one
    assert by["zhuangyuan"]["n"] == 1 and by["zhuangyuan"]["per"] == "day"
    deskkit.bowl("PC-F", SECRET)
    import os
    path, _shown = deskkit.kiosk_game(os.path.join(deskkit.setup(), "flash-PC-F"), "PC-F", SECRET, 5, 3)
    deskkit.attendant("pc-amy")
    c = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert c.login(username="pc-amy", password=deskkit.PASSWORD)
    from django.core.files.uploadedfile import SimpleUploadedFile
    with open(path, "rb") as f:
        c.post("/import", {"journal": SimpleUploadedFile(os.path.basename(path), f.read())})
    page = c.get("/forecast?bowl=PC-F&rate=30&event=pc-fc").content.decode()
    assert 'id="pace"' in page and "每小时" in page and "每天" in page
    # a networked kiosk has no imported journal: the event's schedule against the demand still shows
    r = c.get("/forecast?event=pc-fc&rate=30")
    assert r.status_code == 200 and 'id="pace"' in r.content.decode() and 'data-cls="yixiu"' in r.content.decode()
    r = c.get("/forecast?event=pc-fc&rate=-3")
    assert r.status_code == 400


def test_a_bad_schedule_is_refused_and_changes_nothing():
    call_command("stock", "--event", "pc-bad", "zhuangyuan=2")
    call_command("pace", "--event", "pc-bad", "zhuangyuan=1/day")
    for bad, says in ((["zhuangyuan=1/week"], "N/hour or CLASS=N/day"), (["zy=1/day"], "not one of the firmware"),
                      (["zhuangyuan=x/day"], "a whole number"), (["zhuangyuan"], "write CLASS=N/hour"),
                      (["zhuangyuan=1/day", "zhuangyuan=2/day"], "given twice"),
                      (["zhuangyuan=-1/day"], "a whole number")):
        with pytest.raises(CommandError, match=says):
            call_command("pace", "--event", "pc-bad", *bad)
    with pytest.raises(CommandError, match="has no stock yet"):
        call_command("pace", "--event", "pc-none", "zhuangyuan=1/day")
    assert [(r.cls, r.n, r.per) for r in PaceRule.objects.filter(event__name="pc-bad")] == [("zhuangyuan", 1, "day")]
    call_command("pace", "--event", "pc-bad", "zhuangyuan=off")
    assert not PaceRule.objects.filter(event__name="pc-bad").exists()
