"""Only journals the desk can authenticate (bobing/seal.py): an attendant forges a
journal without the bowl's secret, with the firmware's own journal code (the
attack that worked before: the forgery was imported, took a future game number
so the bowl's real journal of that game was refused whole and its customers'
codes were refused at the counter, and its stock of 99,999 in game 99999999
took over the Stock page). Now the forgery is refused, in Chinese first, and a
journal of older firmware (no seals) goes in only on a supervisor's tick."""
import html
import os
import re

import deskkit

FOLDER = deskkit.folder()

from django.test import Client  # noqa: E402

from bobing import journal  # noqa: E402
from host_sim.desk.models import Award, Game, Import  # noqa: E402

SECRET = bytes(range(100, 116))
FORGER = b"not-the-bowl-key"  # what an attendant without the bowl's secret has


def login(name, lang="en", staff=False):
    u = deskkit.attendant(name)
    if u.is_staff != staff:
        u.is_staff = staff
        u.save()
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    assert c.login(username=name, password=deskkit.PASSWORD)
    return c


def msgs(r):
    return [html.unescape(m) for m in re.findall(r'class="msg[^"]*"[^>]*>(.*?)</div>', r.content.decode(), re.S)]


def upload(c, data, name, **extra):
    from django.core.files.uploadedfile import SimpleUploadedFile
    return c.post("/import", dict({"journal": SimpleUploadedFile(name, data)}, **extra), follow=True)


def played(root, bowl, secret, customers, seed, game_id=0, counts=None):
    """A kiosk game played on the firmware's journal -> (its bytes, file name,
    [(game, award, class, code)] as the claim screen shows them)."""
    path, shown = deskkit.kiosk_game(root, bowl, secret, customers, seed, counts=counts, game_id=game_id)
    with open(path, "rb") as f:
        return f.read(), os.path.basename(path), shown


def forged(bowl, game_id, secret, counts, seed):
    """What the attacker uploads: a journal for the bowl, made without its secret
    (a wrong key, or none: the older, unsealed format)."""
    root = os.path.join(FOLDER, "forger-%s-%d-%s" % (bowl, game_id, "sealed" if secret else "plain"))
    data, name, _ = played(root, bowl, secret, 3, seed, game_id=game_id, counts=counts)
    return data, name


def test_a_forged_journal_is_refused_and_the_real_one_still_counts():
    deskkit.bowl("SEAL-A", SECRET)
    amy = login("seal-amy")
    # the bowl's real game 1 is at the desk; game 2 is being played
    data1, name1, shown1 = played(os.path.join(FOLDER, "bowl-A"), "SEAL-A", SECRET, 6, 1)
    assert "%d new awards" % len(shown1) in msgs(upload(amy, data1, name1))[0]
    # the attacker takes game 2 (the bowl's next) and game 99999999 with a stock of 99,999
    for gid in (2, journal.MAX_GAME_ID):
        for key in (FORGER, None):
            data, name = forged("SEAL-A", gid, key, {"yixiu": 99999}, gid)
            m = msgs(upload(amy, data, name))[0]
            assert "Nothing was imported" in m, m
            if key is None:  # the bowl's game 1 came sealed: an unsealed one is a downgrade
                assert "downgrade" in m and "older format" in m, m
            else:
                assert "does not match bowl SEAL-A's secret" in m, m
    assert not Game.objects.filter(bowl__bowl_id="SEAL-A", game_no__gt=1).exists()
    assert Award.objects.filter(bowl__bowl_id="SEAL-A").count() == len(shown1)
    # the bowl's real game 2 goes in whole, and its customers' codes hold at the counter
    root = os.path.join(FOLDER, "bowl-A")
    data2, name2, shown2 = played(root, "SEAL-A", SECRET, 6, 2)
    assert name2 == "g00000002.bbj"
    assert "%d new awards" % len(shown2) in msgs(upload(amy, data2, name2))[0]
    for g, n, cls, code in shown2[:3]:
        r = amy.post("/check", {"code": code})
        page = r.content.decode()
        assert r.status_code == 200 and 'id="handover"' in page and ">%d-%d<" % (g, n) in page
    # the Stock page shows the bowl's real games, not the forged stock nor game 99999999
    # (its own section: other test files' bowls share this desk's database)
    page = amy.get("/stock").content.decode()
    assert "SEAL-A" in page, page
    seal_a = page.split("SEAL-A", 1)[1].split("<h2", 1)[0]
    assert "99999" not in seal_a and "99,999" not in seal_a, seal_a
    # each refusal is in the import log, with who tried
    refused = Import.objects.filter(ok=False, by__username="seal-amy")
    assert refused.count() == 4


def test_the_refusal_is_in_chinese_first():
    deskkit.bowl("SEAL-Z", SECRET)
    c = login("seal-zhou", lang="zh-hans")
    data, name = forged("SEAL-Z", 1, FORGER, None, 7)
    m = msgs(upload(c, data, name))[0]
    assert "封印" in m and "SEAL-Z" in m and "没有导入" in m, m
    data, name = forged("SEAL-Z", 2, None, None, 8)
    m = msgs(upload(c, data, name))[0]
    assert "主管" in m and "旧格式" in m, m


def test_a_forged_extension_of_a_real_journal_adds_nothing():
    # the real journal, then records and a seal made with another key: only the real part counts
    deskkit.bowl("SEAL-X", SECRET)
    c = login("seal-xu")
    data, name, shown = played(os.path.join(FOLDER, "bowl-X"), "SEAL-X", SECRET, 4, 3)
    j2 = played(os.path.join(FOLDER, "forger-X"), "SEAL-X", FORGER, 8, 3)[0]
    longer = data + j2[len(data):]  # the forger's game has the same header and first records but a wrong seal
    m = msgs(upload(c, longer, name))[0]
    assert "fails its seal" in m or "does not match" in m, m
    assert Award.objects.filter(bowl__bowl_id="SEAL-X").count() <= len(shown)


def test_an_old_journal_needs_a_supervisors_tick():
    deskkit.bowl("SEAL-O", SECRET)
    # older firmware: a kiosk journal without seals (its codes are the same HMAC of the same secret)
    data, name, _ = played(os.path.join(FOLDER, "bowl-O"), "SEAL-O", None, 5, 4)
    assert data[3] < journal.SEALED
    amy = login("seal-olga")
    page = amy.get("/import").content.decode()
    assert 'id="id_unsealed"' not in page  # an attendant is not offered the tick
    for extra in ({}, {"unsealed": "on"}):  # nor believed when she sends it anyway
        m = msgs(upload(amy, data, name, **extra))[0]
        assert "supervisor" in m and "Nothing was imported" in m, m
    boss = login("seal-boss", staff=True)
    assert 'id="id_unsealed"' in boss.get("/import").content.decode()
    m = msgs(upload(boss, data, name))[0]
    assert "supervisor" in m and "Nothing was imported" in m, m  # not without the tick
    m = msgs(upload(boss, data, name, unsealed="on"))[0]
    assert "new awards" in m and "not authenticated" in m and "seal-boss" in m, m
    assert Award.objects.filter(bowl__bowl_id="SEAL-O").exists()
    log = Import.objects.filter(ok=True, bowl_id="SEAL-O").get()
    assert log.by.username == "seal-boss" and "not authenticated" in log.message
    page = boss.get("/import").content.decode()
    assert "not authenticated" in html.unescape(page)


def test_the_command_line_takes_an_old_journal_only_when_told():
    from django.core.management import CommandError, call_command
    deskkit.bowl("SEAL-C", SECRET)
    data, name, _ = played(os.path.join(FOLDER, "bowl-C"), "SEAL-C", None, 3, 5)
    path = os.path.join(FOLDER, "bowl-C", name)
    try:
        call_command("importjournal", path)
        raise AssertionError("imported")
    except CommandError:
        pass
    assert not Award.objects.filter(bowl__bowl_id="SEAL-C").exists()
    call_command("importjournal", "--unauthenticated", path)
    assert Award.objects.filter(bowl__bowl_id="SEAL-C").exists()


def test_an_unsealed_journal_from_a_bowl_seen_sealed_is_a_downgrade_even_for_a_supervisor():
    # the attack: the bowl's firmware seals (its game 1 came in sealed); a forged journal in the
    # older format, for its next game, with a stock of 99,999, is ticked through by a supervisor
    # (talked into it, or the attacker). Before, it went in and took game 2 from the real bowl.
    from django.core.management import CommandError, call_command
    deskkit.bowl("SEAL-D", SECRET)
    amy = login("seal-dai")
    data1, name1, shown1 = played(os.path.join(FOLDER, "bowl-D"), "SEAL-D", SECRET, 4, 11)
    assert "new award" in msgs(upload(amy, data1, name1))[0]
    boss = login("seal-dboss", staff=True)
    data, name = forged("SEAL-D", 2, None, {"yixiu": 99999}, 12)
    assert data[3] < journal.SEALED
    m = msgs(upload(boss, data, name, unsealed="on"))[0]
    assert "downgrade" in m and "sealed journal" in m and "Nothing was imported" in m, m
    assert "game 1" in m, m  # which sealed game the desk has
    m = msgs(upload(amy, data, name))[0]  # an attendant gets the same reason (no tick would help)
    assert "downgrade" in m, m
    path = os.path.join(FOLDER, "forger-SEAL-D-2-plain", name)
    try:
        call_command("importjournal", "--unauthenticated", path)
        raise AssertionError("imported")
    except CommandError:
        pass
    assert not Game.objects.filter(bowl__bowl_id="SEAL-D", game_no=2).exists()
    assert Award.objects.filter(bowl__bowl_id="SEAL-D").count() == len(shown1)
    # in Chinese first, saying what to do
    zh = login("seal-dboss", lang="zh-hans", staff=True)
    m = msgs(upload(zh, data, name, unsealed="on"))[0]
    assert "降级" in m and "封印" in m and "SEAL-D" in m, m
    # the bowl's real, sealed game 2 still goes in
    data2, name2, shown2 = played(os.path.join(FOLDER, "bowl-D"), "SEAL-D", SECRET, 3, 13)
    assert name2 == "g00000002.bbj"
    assert "new award" in msgs(upload(amy, data2, name2))[0]
    # a game before the first sealed one (older firmware's, imported late): refused too, saying
    # that its codes hold at the counter in the full form
    deskkit.bowl("SEAL-F", SECRET)
    root = os.path.join(FOLDER, "bowl-F")
    old_game, old_name, _ = played(root, "SEAL-F", None, 8, 15)  # game 1, older firmware
    new_game, new_name, _ = played(root, "SEAL-F", SECRET, 3, 16)  # game 2, sealed
    assert "new award" in msgs(upload(amy, new_game, new_name))[0]
    m = msgs(upload(boss, old_game, old_name, unsealed="on"))[0]
    assert "since its game 2" in m and "full form" in m and "Nothing was imported" in m, m
    # (older firmware's screen showed the code the secret makes: the journal keeps the award, not the code)
    from bobing import claim
    from host_sim.desk.ingest import read_journal
    path = os.path.join(FOLDER, "old-" + old_name)
    with open(path, "wb") as f:
        f.write(old_game)
    n, cls, _customer = read_journal(path)[1][0]
    g, code = 1, claim.code(SECRET, "SEAL-F", 1, n, cls)
    r = amy.post("/check", {"code": code, "bowl": "SEAL-F", "game": g, "award": n, "cls": cls})
    assert r.status_code == 200 and 'id="handover"' in r.content.decode()
    # a bowl the desk never saw sealed: the supervisor's path is as before
    deskkit.bowl("SEAL-E", SECRET)
    old, oname, _ = played(os.path.join(FOLDER, "bowl-E"), "SEAL-E", None, 3, 14)
    m = msgs(upload(boss, old, oname, unsealed="on"))[0]
    assert "not authenticated" in m and "downgrade" not in m, m


def test_a_bowl_heard_only_over_the_network_with_fair_dice_takes_no_unsealed_journal():
    """The attack: a bowl the desk knows only from MQTT (its fair dice's commitments), no
    journal imported; a forged journal in the older format, no seal, 129 awards, ticked through
    by a supervisor. Before: "129 new awards ... not authenticated"."""
    from bobing import fair
    from host_sim.desk import fair as desk_fair
    deskkit.bowl("0771", SECRET)
    topic = "bobing/fairnet/0771/commit"
    got, _out = desk_fair.handle("fairnet", topic, fair.commit_payload(3, 1, 1, bytes(32)))
    assert got == "commit", got
    boss = login("seal-netboss", staff=True)
    data, name = forged("0771", 4, None, {"yixiu": 99999}, 21)
    m = msgs(upload(boss, data, name, unsealed="on"))[0]
    assert "fair-dice messages over the network since its game 3" in m and "Nothing was imported" in m, m
    assert not Award.objects.filter(bowl__bowl_id="0771").exists()
    zh = login("seal-netboss", lang="zh-hans", staff=True)
    assert "公平骰子" in msgs(upload(zh, data, name, unsealed="on"))[0]
