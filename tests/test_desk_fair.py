"""Verifiable fairness at the prize desk (host_sim/desk/fair.py): the listener's
handler records a bowl's commitment with its time and answers with its own
random value on the bowl's retained seed topic (the same value for a copy, a
refusal for a changed one), checks the reveal with the bowl's derivation, and
shows everything on a public page (no login, Chinese first) and in the export
that `python -m host_sim verify-fair --desk` checks; a claim's QR text leads to
its customer's row."""
import json
import os

import deskkit

from bobing import dice, fair, rules

deskkit.setup()

from django.test import Client  # noqa: E402

from host_sim import cli  # noqa: E402
from host_sim.desk import bus  # noqa: E402
from host_sim.desk.models import Award, Bowl, Commitment, Import  # noqa: E402

EVENT = "fairday"
BOWL = "0031"
SECRET = b"fair-desk-secret-16"


_RULES = rules.Rules()


def _topic(leaf, bowl=BOWL):
    return "bobing/%s/%s/%s" % (EVENT, bowl, leaf)


def _turn(g, k, q, rolls=3, secret=None, pays=False):
    """A bowl's honest turn against the desk -> (secret, desk value, rolls as text). pays: the
    customer shakes on past `rolls` until a roll pays (the test gives that turn an award; the
    desk's value is its own random, so three shakes may all pay nothing)."""
    s = secret or os.urandom(32)
    r, pub = bus.handle(EVENT, _topic("commit"), fair.commit_payload(g, k, q, dice.commitment(s)))
    assert r == "commit" and len(pub) == 1 and pub[0][0] == _topic("seed"), (r, pub)
    g2, q2, c, d = fair.decode_seed(EVENT, pub[0][0], pub[0][1], BOWL)
    assert (g2, q2, c) == (g, q, dice.commitment(s).hex()[:16])
    der = dice.Derived(s, d, g, k)
    out = []
    while len(out) < rolls or pays and not any(rules.rank_of(_RULES.evaluate([int(x) for x in r])) != rules.NONE
                                               for r in out):
        out.append("".join(map(str, der.roll(len(out), bytearray(6)))))
    return s, d, out


def test_the_desk_records_answers_checks_and_shows_it_to_anyone(tmp_path, capsys):
    Commitment.objects.all().delete()
    deskkit.bowl(BOWL, SECRET)
    s, d, rolls = _turn(5, 1, 1, pays=True)
    row = Commitment.objects.get(bowl__bowl_id=BOWL, game_no=5, q=1)
    assert row.desk == d.hex() and row.commit == dice.commitment(s).hex() and row.seen is not None
    # a copy of the commitment (QoS 1) gets the same value; a changed one is refused
    r, pub = bus.handle(EVENT, _topic("commit"), fair.commit_payload(5, 1, 1, dice.commitment(s)))
    assert r == "known" and fair.decode_seed(EVENT, pub[0][0], pub[0][1], BOWL)[3] == d
    r, pub = bus.handle(EVENT, _topic("commit"), fair.commit_payload(5, 1, 1, dice.commitment(os.urandom(32))))
    assert r == "refused" and not pub
    r, _ = bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(5, 1, 1, s, rolls))
    assert r == "reveal"
    row.refresh_from_db()
    assert row.secret == s.hex() and row.rolls == rolls
    assert row.verdict == "%d rolls verified, 0 unverified" % len(rolls)
    # a cheating bowl: a secret that is not the committed one; a retried commitment left unrevealed
    s2, d2, rolls2 = _turn(5, 2, 2)
    bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(5, 2, 2, os.urandom(32), rolls2))
    assert "reveal does not match" in Commitment.objects.get(game_no=5, q=2).verdict
    _turn(5, 3, 3)  # never revealed ("power cut")
    s4, d4, rolls4 = _turn(5, 3, 4)
    bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(5, 3, 4, s4, rolls4))
    # a reveal for nothing the desk recorded, and a malformed one: refused with the reason
    assert bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(5, 9, 9, s, rolls))[0] == "refused"
    assert bus.handle(EVENT, _topic("reveal"), b'{"v":2,"g":5,"k":1,"q":1,"s":"zz","r":[]}')[0] == "refused"
    from host_sim.desk import mqttlog
    mqttlog.flush()
    assert Import.objects.filter(message__contains="never recorded it").exists()

    # the public page: no login, Chinese first, English beside
    page = Client().get("/fair")
    assert page.status_code == 200, page.status_code
    html = page.content.decode()
    assert "公平骰子" in html and dice.commitment(s).hex()[:16] in html and d.hex() in html
    assert "已核实" in html and "未核实" in html and "密钥从未公开" in html
    en = Client(HTTP_ACCEPT_LANGUAGE="en").get("/fair").content.decode()
    assert "Fair dice: every commitment" in en and "never revealed" in en
    # the claim screen's QR text leads to that award's customer
    from django.utils import timezone
    from bobing import claim
    code = claim.code(SECRET, BOWL, 5, 1, "yixiu")
    Award.objects.create(bowl_id=row.bowl_id, game_no=5, award_no=1, cls="yixiu", customer=1, code=code,
                         source="mqtt", seen=timezone.now())
    # the counter's claim page links to it
    deskkit.attendant("fairdesk")
    counter = Client()
    assert counter.login(username="fairdesk", password=deskkit.PASSWORD)
    page = counter.post("/check", {"code": code}).content.decode()
    assert 'href="/fair?bowl=%s&amp;game=5&amp;award=1" id="fair"' % BOWL in page and "公平骰子" in page, page[-2000:]
    html = Client().get("/fair", {"claim": "BB1:%s:5-1:YIXIU:X" % BOWL}).content.decode()
    assert s.hex()[:16] in html and s4.hex()[:16] not in html
    assert "还没有" in Client().get("/fair", {"claim": "BB1:%s:5-9:YIXIU:X" % BOWL}).content.decode()
    html = Client().get("/fair", {"bowl": BOWL, "game": "5", "award": "1"}).content.decode()  # the counter's link
    assert s.hex()[:16] in html and s4.hex()[:16] not in html

    # the export, checked by verify-fair: customer 1's + 2 verified; 3 not matching, 1 never revealed, 1 after it
    ex = Client().get("/fair/export.json")
    assert ex.status_code == 200 and "code" not in ex.content.decode()  # claim codes are not public
    p = tmp_path / "export.json"
    p.write_bytes(ex.content)
    assert json.loads(ex.content)["commitments"][0]["c"] == dice.commitment(s).hex()
    assert cli.main(["verify-fair", "--desk", str(p), "--bowl", BOWL, "--game", "5"]) == 1
    out = capsys.readouterr().out
    assert out.strip().endswith(("fair: %d rolls verified, 5 unverified (commitment never revealed: 1; "
                                 "first roll after a commitment never revealed (a retry?): 1; "
                                 "reveal does not match the commitment: 3)") % (len(rolls) + 2)), out


def test_the_claim_qr_link_leads_a_phone_to_its_verdict_and_the_counter_still_takes_it():
    """A fair kiosk's claim QR is a link (bobing/claim.py): a customer's phone opens that
    award's verdict, Chinese first and English beside, without the code (the link's "#"
    part is never sent) and without other customers; the counter's scanner types the
    link in and the counter checks it as it checks the BB1 text; a turn the desk did not
    answer in time (the bowl's own dice) shows as unverified."""
    from django.utils import timezone
    from bobing import claim
    from host_sim.desk import codes
    deskkit.bowl(BOWL, SECRET)
    b = Bowl.objects.get(bowl_id=BOWL)
    s, d, rolls = _turn(6, 1, 1, pays=True)
    bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(6, 1, 1, s, rolls))
    s2, _d2, rolls2 = _turn(6, 2, 2)  # another customer: not on the first one's page
    bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(6, 2, 2, s2, rolls2, unseeded=True))
    codes_ = {}
    for n, k in ((1, 1), (2, 2)):
        codes_[n] = claim.code(SECRET, BOWL, 6, n, "yixiu")
        Award.objects.create(bowl=b, game_no=6, award_no=n, cls="yixiu", customer=k, code=codes_[n],
                             source="mqtt", seen=timezone.now())
    link = claim.link("HTTP://TESTSERVER", BOWL, "6-1", "YIXIU", codes_[1])
    assert link == "HTTP://TESTSERVER/F/%s/6-1/YIXIU#%s" % (BOWL, codes_[1])
    path = link[len("HTTP://TESTSERVER"):].partition("#")[0]  # what a phone's browser asks for
    page = Client().get(path)
    html = page.content.decode()
    assert page.status_code == 200 and page["Referrer-Policy"] == "no-referrer"
    assert html.index("已验证") < html.index("Verified: all %d of your rolls" % len(rolls)) and s.hex()[:16] in html
    assert dice.commitment(s).hex()[:16] in html and d.hex() in html
    assert s2.hex()[:16] not in html and codes_[1] not in html and codes_[2] not in html
    html = Client().get("/F/%s/6-2/YIXIU" % BOWL).content.decode()  # the unanswered turn
    assert "未验证" in html and "Not verified: 0 rolls verified, 3 unverified" in html and "none came in time" in html
    missing = Client().get("/F/%s/6-9/YIXIU" % BOWL)
    assert missing.status_code == 404 and "奖台还没有收到这个奖" in missing.content.decode()
    # the counter: the scanner types the link; the same fields as the BB1 text
    bb1 = "BB1:%s:6-1:YIXIU:%s" % (BOWL, codes_[1])
    assert codes.parse_qr(link, ["yixiu"]) == codes.parse_qr(bb1, ["yixiu"]) == {
        "code": codes_[1], "bowl": BOWL, "game": "6", "award": "1", "cls": "yixiu"}
    deskkit.attendant("fairlink")
    counter = Client()
    assert counter.login(username="fairlink", password=deskkit.PASSWORD)
    by_link = counter.post("/check", {"code": link}).content.decode()
    assert "redeem" in by_link and codes_[1] in by_link, by_link[-1500:]
    for bad in ("HTTP://TESTSERVER/F/%s/6-1#X" % BOWL, "http://example.com/other"):
        page = counter.post("/check", {"code": bad}).content.decode()
        assert "not a claim screen" in page or "不是" in page, page[-800:]
