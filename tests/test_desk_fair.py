"""Verifiable fairness at the prize desk (host_sim/desk/fair.py, views_fair.py): the listener's
handler records a bowl's commitment with its time and answers with its own
random value on the bowl's retained seed topic (the same value for a copy, a
refusal for a changed one), checks the reveal with the bowl's derivation, and
shows everything on a public page (no login, Chinese first) and in the export
that `python -m host_sim verify-fair --desk` checks; a claim's QR text leads to
its customer's row."""
import json
import os

import deskkit

from bobing import dice, fair, game, rules


from django.test import Client

from host_sim import cli
from host_sim.analysis import fair_check
from host_sim.desk import bus
from host_sim.desk.models import Award, Bowl, Commitment, Import

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
    assert "已验证" in html and "未验证" in html and "密钥从未公开" in html
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

    # the export, checked by verify-fair: customer 1 verified; 3 not matching, 1 never revealed, 3 after it
    ex = Client().get("/fair/export.json")
    assert ex.status_code == 200 and "code" not in ex.content.decode()  # claim codes are not public
    p = tmp_path / "export.json"
    p.write_bytes(ex.content)
    assert json.loads(ex.content)["commitments"][0]["c"] == dice.commitment(s).hex()
    assert cli.main(["verify-fair", "--desk", str(p), "--bowl", BOWL, "--game", "5"]) == 1
    out = capsys.readouterr().out
    assert out.strip().endswith(("fair: %d rolls verified, 7 unverified (commitment never revealed: 1; "
                                 "reveal does not match the commitment: 3; "
                                 "roll under a customer's second commitment (a retry or a re-draw?): 3)")
                                % len(rolls)), out


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
    assert "未验证" in html and "Not verified: 0 rolls verified, 3 unverified" in html
    assert "although the desk had sent it" in html  # (its value was sent: the bowl said it did not come)
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


PF = "kiosk"  # the rules a format-2 test bowl commits to, and its stock at each customer's start
STOCK = [1, 2, 5, 10, 20, 40]


def _turn2(g, k, root, rolls=3, pays=False):
    """A format-2 bowl's honest turn: customer k's secret from the chain grown from root,
    the desk's value for him -> (secret, desk value, rolls as text). pays: he shakes on past
    `rolls` until a roll pays (the desk's value is its own random)."""
    a, p = dice.chain_place(k)
    r, pub = bus.handle(EVENT, _topic("commit"), fair.commit2_payload(g, k, a, dice.chain_at(root, 0), PF, STOCK))
    assert r in ("commit", "known") and len(pub) == 1 and pub[0][0] == _topic("seed"), (r, pub)
    g2, k2, c, d = fair.decode_seed(EVENT, pub[0][0], pub[0][1], BOWL)
    assert (g2, k2, c) == (g, k, None)
    s = dice.chain_at(root, p)
    der = dice.Derived(s, d, g, k, bytes(16))
    out = []
    while len(out) < rolls or pays and not any(game.turn_awards(PF, STOCK, out)):
        out.append("".join(map(str, der.roll(len(out), bytearray(6)))))
    return s, d, out


def _paid(g, k, rolls, first=1, bowl=BOWL):
    """The awards the bowl's rules give customer k's rolls, received by the desk as the
    bowl sends them (numbered from `first`) -> their classes."""
    from django.utils import timezone
    b = Bowl.objects.get(bowl_id=bowl)
    won = [c for w in game.turn_awards(PF, STOCK, rolls) for c in w]
    for i, c in enumerate(won):
        Award.objects.create(bowl=b, game_no=g, award_no=first + i, cls=c, customer=k, code="P%d-%d-%d" % (g, k, i),
                             source="mqtt", seen=timezone.now())
    return won


def test_format_2_one_anchor_per_chain_one_value_per_customer_whatever_the_bowl_asks(tmp_path, capsys):
    """The desk's side of fair format 2: the chain's first anchor stands, a customer's
    value is the same however often he is asked for (a bowl that reveals nothing and
    asks again, hoping for other dice, gets the same value), the first reveal stands,
    and a secret not of the chain is caught."""
    Commitment.objects.all().delete()
    deskkit.bowl(BOWL, SECRET)
    root = os.urandom(32)
    s1, d1, rolls1 = _turn2(7, 1, root)
    row = Commitment.objects.get(bowl__bowl_id=BOWL, game_no=7, q=1)
    assert row.fmt == 2 and row.desk == d1.hex() and row.commit == dice.chain_at(root, 0).hex()
    # a re-draw: the bowl reveals no rolls and asks again for the same customer -> the same value
    assert _turn2(7, 1, root)[1] == d1
    # another anchor for the same chain (a bowl re-drawing its chain): refused, no value sent
    r, pub = bus.handle(EVENT, _topic("commit"), fair.commit2_payload(7, 2, 1, dice.chain_at(os.urandom(32), 0), PF,
                                                                   STOCK))
    assert r == "refused" and not pub
    _paid(7, 1, rolls1)  # (the bowl sends a turn's awards before its reveal)
    assert bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(7, 1, s1, rolls1))[0] == "reveal"
    row.refresh_from_db()
    assert row.verdict == "3 rolls verified, 0 unverified", row.verdict
    # a second reveal that differs (fewer rolls): refused, the first stands
    assert bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(7, 1, s1, rolls1[:1]))[0] == "refused"
    # customer 2: the bowl reveals a secret that is not his place in the chain
    _s2, _d2, rolls2 = _turn2(7, 2, root)
    _paid(7, 2, rolls2, first=50)
    bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(7, 2, os.urandom(32), rolls2))
    assert fair_check.CHAIN in Commitment.objects.get(game_no=7, q=2).verdict
    # customer 3 never revealed
    _turn2(7, 3, root)
    p = tmp_path / "export.json"
    p.write_bytes(Client().get("/fair/export.json", {"bowl": BOWL, "game": "7"}).content)
    ex = json.loads(p.read_text())
    assert [c["a"] for c in ex["chains"]] == [1] and [t["k"] for t in ex["turns"]] == [1, 2, 3]
    assert cli.main(["verify-fair", "--desk", str(p), "--bowl", BOWL, "--game", "7"]) == 1
    out = capsys.readouterr().out
    assert out.strip().endswith("fair: 3 rolls verified, 4 unverified (commitment never revealed: 1; %s: 3)"
                                % fair_check.CHAIN), out
    html = Client().get("/fair", {"bowl": BOWL, "game": "7"}).content.decode()
    assert d1.hex() in html and " ".join(rolls1) in html



def test_the_public_page_marks_a_customer_whole_a_retried_row_is_never_green():
    """A format-1 bowl retried customer 2 (commitment 2 never revealed, commitment 3
    revealed honestly): the page's mark is his, first in the row and on both rows
    unverified, as his claim page says; customer 1 alone is verified."""
    import re
    Commitment.objects.all().delete()
    deskkit.bowl(BOWL, SECRET)
    s, _d, rolls = _turn(8, 1, 1)
    bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(8, 1, 1, s, rolls))
    _turn(8, 2, 2)  # "power cut": never revealed
    s3, _d3, rolls3 = _turn(8, 2, 3)
    bus.handle(EVENT, _topic("reveal"), fair.reveal_payload(8, 2, 3, s3, rolls3))
    html = Client().get("/fair", {"bowl": BOWL, "game": "8"}).content.decode()
    rows = re.findall(r"<tr><td class=\"(on|off)\">.*?</td><td[^>]*>%s</td><td[^>]*>8</td>"
                      r"<td[^>]*>(\d) \((\d)\)</td>" % BOWL, html, re.S)
    assert sorted(rows) == [("off", "2", "2"), ("off", "2", "3"), ("on", "1", "1")], rows
    assert re.search(r"<tr><th>结论</th>", html), html  # the verdict first, in the page's language


def test_a_claim_page_says_bowl_and_desk_trusted_and_an_award_without_a_commitment_is_not_verified():
    """Format 2 on the customer's claim page: a verified turn without a seed of his own
    says 信任碗和兑奖台 / bowl and desk trusted (Chinese first); an award of the same fair
    game whose customer has no commitment is Not verified (it used to say "cannot be
    checked", as for a bowl that does not play fair)."""
    from django.utils import timezone
    Commitment.objects.all().delete()
    deskkit.bowl(BOWL, SECRET)
    b = Bowl.objects.get(bowl_id=BOWL)
    root = os.urandom(32)
    s, _d, rolls = _turn2(9, 1, root, pays=True)
    won = _paid(9, 1, rolls)
    bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(9, 1, s, rolls))
    Award.objects.create(bowl=b, game_no=9, award_no=len(won) + 1, cls="yixiu", customer=5, code="C5",
                         source="mqtt", seen=timezone.now())
    html = Client().get("/F/%s/9-1/YIXIU" % BOWL).content.decode()
    assert "已验证" in html and html.index("信任碗和兑奖台") < html.index("Bowl and desk trusted"), html
    assert 'href="/V/%s/9-1" id="phone-check"' % BOWL in html, html  # his own check, in his phone
    html = Client().get("/F/%s/9-%d/YIXIU" % (BOWL, len(won) + 1)).content.decode()
    assert html.index("未验证") < html.index("Not verified: this bowl committed for the other customers"), html


def test_a_customer_s_seed_from_his_phone_goes_to_his_bowl_and_a_substituted_one_is_caught():
    """Format 2, the customer's own input: his phone posts 16 random bytes to /fair/seed
    once the desk has sent his value; the desk keeps the first (a second is refused),
    passes it on to the bowl with the same value, and the verdict holds the reveal to it:
    a bowl (or desk) that rolls with another seed is caught; a turn with his seed is no
    longer 'bowl and desk trusted'."""
    Commitment.objects.all().delete()
    deskkit.bowl(BOWL, SECRET)
    root = os.urandom(32)
    s1, d1, _r = _turn2(10, 1, root)
    u = os.urandom(16)
    phone = Client()
    got = phone.post("/fair/seed", {"bowl": BOWL, "g": "10", "k": "1", "u": u.hex()})
    assert got.status_code == 200 and got.json()["d"] == d1.hex()
    assert got.json()["anchor"] == dice.chain_at(root, 0).hex()
    again = phone.post("/fair/seed", {"bowl": BOWL, "g": "10", "k": "1", "u": os.urandom(16).hex()})
    assert again.status_code == 409 and "以第一个为准" in again.json()["error"]
    bad = phone.post("/fair/seed", {"bowl": BOWL, "g": "10", "k": "1", "u": "zz"})
    assert bad.status_code == 400 and bad.json()["error"].index("格式") < bad.json()["error"].index("Malformed")
    from host_sim.desk import fair as desk_fair
    todo = desk_fair.seeds_to_publish(EVENT)
    assert len(todo) == 1 and fair.decode_seed(EVENT, todo[0][1], todo[0][2], BOWL) == (10, 1, u, d1)
    desk_fair.seeds_published([pk for pk, _t, _p in todo])
    assert not desk_fair.seeds_to_publish(EVENT)
    der = dice.Derived(s1, d1, 10, 1, u)
    rolls = ["".join(map(str, der.roll(i, bytearray(6)))) for i in range(3)]
    _paid(10, 1, rolls)
    bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(10, 1, s1, rolls, p=u))
    assert Commitment.objects.get(game_no=10, q=1).verdict == "3 rolls verified, 0 unverified"
    # customer 2: his seed goes in, but the bowl rolls with one of its own choosing
    s2, d2, _r = _turn2(10, 2, root)
    assert phone.post("/fair/seed", {"bowl": BOWL, "g": "10", "k": "2", "u": os.urandom(16).hex()}).status_code == 200
    mine = os.urandom(16)
    der = dice.Derived(s2, d2, 10, 2, mine)
    bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(10, 2, s2, ["".join(map(str, der.roll(i, bytearray(6))))
                                                                         for i in range(3)], p=mine))
    assert fair_check.SEED_NOT_USED in Commitment.objects.get(game_no=10, q=2).verdict
    r = fair_check.check_export(json.loads(Client().get("/fair/export.json", {"bowl": BOWL, "game": "10"}).content),
                                fair_check.Report())
    assert r.verified == 3 and r.unverified == {fair_check.SEED_NOT_USED: 3} and not r.trusted, (r.summary(), r.trusted)
    assert phone.post("/fair/seed", {"bowl": BOWL, "g": "10", "k": "1", "u": u.hex()}).status_code == 409  # over


def test_the_desk_s_log_is_hash_chained_and_a_saved_receipt_shows_a_rewritten_history(tmp_path, capsys):
    """Every anchor, value, seed and reveal goes on the desk's append-only, hash-chained
    log; a customer's claim page gives him his reveal's entry and head (his receipt);
    verify-fair --desk checks the chain and that the receipt is still there. An operator
    who deletes an entry, or changes one and recomputes every head after it, is caught."""
    import re
    from django.utils import timezone
    from host_sim.desk.models import FairLog
    Commitment.objects.all().delete()  # (the log keeps what the tests before wrote: it is never cut)
    deskkit.bowl(BOWL, SECRET)
    b = Bowl.objects.get(bowl_id=BOWL)
    root = os.urandom(32)
    before = FairLog.objects.count()
    n = 1
    for k in (1, 2):
        s, _d, rolls = _turn2(11, k, root, pays=True)
        n += len(_paid(11, k, rolls, first=n))
        bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(11, k, s, rolls))
    rolled = len(Commitment.objects.get(bowl=b, game_no=11, q=1).rolls) + len(
        Commitment.objects.get(bowl=b, game_no=11, q=2).rolls)
    assert [e.kind for e in FairLog.objects.order_by("pk")][before:] == ["chain", "value", "reveal", "value", "reveal"]
    html = Client().get("/F/%s/11-1/YIXIU" % BOWL).content.decode()
    n, head = re.search(r"desk log entry (\d+) · <code>([0-9a-f]{64})</code>", html).groups()
    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps({"n": int(n), "head": head}))
    assert FairLog.objects.get(pk=int(n)).kind == "reveal"

    def verify():
        p = tmp_path / "export.json"
        p.write_bytes(Client().get("/fair/export.json").content)
        code = cli.main(["verify-fair", "--desk", str(p), "--receipt", str(receipt)])
        return code, capsys.readouterr().out

    code, out = verify()
    assert code == 0 and out.strip().endswith("fair: %d rolls verified, 0 unverified" % rolled), out
    history = json.loads((tmp_path / "export.json").read_text())["log"]
    # the operator deletes customer 2's value from the log
    FairLog.objects.filter(kind="value", body__contains='"g":11,"k":2').delete()
    code, out = verify()
    assert code == 1 and "%s: 2" % fair_check.LOG_BROKEN in out and "%s: 1" % fair_check.LOG_MISSING in out, out
    # ... and every page says so, Chinese first: the public page above its verdicts, his claim page in his
    html = Client().get("/fair").content.decode()
    assert 'id="log"' in html and html.index("兑奖台的日志断了") < html.index("log is broken (an entry"), html[:3000]
    html = Client().get("/F/%s/11-1/YIXIU" % BOWL).content.decode()
    assert "未验证" in html and "兑奖台的日志断了" in html and html.index("未验证") < html.index("Not verified"), html
    # ... or changes customer 1's reveal and recomputes every head after it: the chain holds,
    # the customer's receipt does not
    FairLog.objects.all().delete()
    prev = "0" * 64
    for e in history:
        body = e["body"].replace('"unseeded":0', '"unseeded":1') if e["kind"] == "reveal" else e["body"]
        prev = fair_check.log_head(prev, body)
        FairLog.objects.create(pk=e["n"], kind=e["kind"], body=body, head=prev, at=timezone.now())
    code, out = verify()
    assert code == 1 and fair_check.LOG_BROKEN not in out and "%s: 1" % fair_check.RECEIPT in out, out
    assert "rewritten" in out


def test_publish_writes_the_fair_pages_as_static_files_that_still_verify(tmp_path, capsys):
    """python -m host_sim.desk publish DIR: the public page, the export (with its log) and
    each fair award's claim page at its link's path, so a customer can check after the
    event on any web host; the written export verifies as the live one does."""
    from django.core.management import call_command
    Commitment.objects.all().delete()
    deskkit.bowl(BOWL, SECRET)
    b = Bowl.objects.get(bowl_id=BOWL)
    s, _d, rolls = _turn2(12, 1, os.urandom(32), pays=True)
    won = _paid(12, 1, rolls)
    Award.objects.filter(bowl=b, game_no=12, award_no=1).update(code="SECRETCODE1")
    bus.handle(EVENT, _topic("reveal"), fair.reveal2_payload(12, 1, s, rolls))
    call_command("publish", str(tmp_path / "site"))
    assert "%d claim pages and 1 receipt pages" % len(won) in capsys.readouterr().out
    page = (tmp_path / "site" / "F" / BOWL / "12-1" / won[0].upper() / "index.html").read_text()
    assert page.index("已验证") < page.index("Verified") and s.hex() in page and "SECRETCODE1" not in page
    assert "结论" in (tmp_path / "site" / "fair" / "index.html").read_text()
    assert cli.main(["verify-fair", "--desk", str(tmp_path / "site" / "fair" / "export.json"), "--bowl", BOWL,
                     "--game", "12"]) == 0


def test_the_phone_s_micropython_is_the_pinned_package_unchanged():
    """The WebAssembly port the receipt page runs is the npm package's files, byte for byte
    (their sha256 as host_sim/desk/static/desk/README.md pins them), and the desk serves
    the bowl's own bobing/dice.py to it unchanged."""
    import hashlib
    here = os.path.join(os.path.dirname(fair_check.__file__), "..", "desk", "static", "desk")
    with open(os.path.join(here, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for name in ("micropython.mjs", "micropython.wasm"):
        with open(os.path.join(here, "mpwasm", name), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        assert "%s %s" % (name, digest) in readme.replace("\n", " "), name
    with open(dice.__file__, "rb") as f:
        assert Client().get("/fair/fw/dice.py").content == f.read()
