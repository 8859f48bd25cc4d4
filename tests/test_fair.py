# Verifiable fairness (firmware/PROTOCOL.md "Verifiable fairness", the threat
# model in bobing/dice.py): the derivation as specified, its dice as fair as
# the bowl's own, a customer's turn on the simulated bowl (commit, the desk's
# value, derived rolls, reveal; nothing secret on flash before the reveal; a
# power cut mid-turn shows as unverified), and cheating bowls that
# `python -m host_sim verify-fair` catches.
import binascii
import hashlib
import hmac
import os
import random

from bobing import console as C
from bobing import dice, fair, game, journal, rules
from host_sim import cli
from host_sim.analysis import fair_check
import dice_stats
from host_sim.sim import player
from bowlkit import customer_seed, desk_value, key, new_sim, press, roll, to_kiosk

EVENT = "midautumn"
NET = "ssid=mall\npassword=secret123\ntls=off\nbroker=127.0.0.1\nevent=%s\nfair=on\n" % EVENT
SECRET = b"0123456789abcdef"
# what verify-fair FOLDER (no desk export) ends with: the bowl agrees with itself, no verdict
OWN = "fair: consistency only (no desk export): %d rolls agree with the bowl's own log, %d do not"
COUNTS = {"zhuangyuan": 5, "duitang": 10, "sanhong": 20, "sijin": 40, "erju": 80, "yixiu": 200}


def test_the_derivation_is_hmac_sha256_as_the_protocol_says():
    rng = random.Random(5)
    for _ in range(20):
        s = bytes(rng.randrange(256) for _ in range(32))
        d = bytes(rng.randrange(256) for _ in range(16))
        g, k, i, j = rng.randrange(1, 10 ** 8), rng.randrange(1, 10 ** 6), rng.randrange(65536), rng.randrange(3)
        msg = b"bobing-fair-v1" + d + g.to_bytes(4, "big") + k.to_bytes(4, "big") + i.to_bytes(2, "big") + bytes([j])
        assert dice.Derived(s, d, g, k).block(i, j) == hmac.new(s, msg, hashlib.sha256).digest()
    assert dice.commitment(s) == hashlib.sha256(b"bobing-commit-v1" + s).digest()
    # faces: the bytes below 252 in order, b % 6 + 1 (a block of 252s needs the next block)
    out = dice.Derived(s, d, 1, 1).roll(7, bytearray(6))
    want = [b % 6 + 1 for b in dice.Derived(s, d, 1, 1).block(7, 0) if b < 252][:6]
    assert list(out) == want


class _Turns:
    """The bowl's derived dice as dice_stats.sample draws them: 3 rolls a customer, each
    customer a fresh secret and desk value."""

    def __init__(self, seed):
        self.src = dice_stats.SeededSource(seed)
        self.n = 0

    def roll(self, out):
        if self.n % 3 == 0:
            self.d = dice.Derived(self.src(32), self.src(16), 1, self.n // 3 + 1)
        self.d.roll(self.n % 3, out)
        self.n += 1
        return out


def test_derived_dice_pass_the_fairness_tests():
    r = rules.Rules()
    faces, ranks = dice_stats.sample(_Turns("fair-1"), r, 60000)
    res = dice_stats.assess(faces, ranks, dice_stats.exact_rank_counts(r), rules.RANK_IDS)
    assert res["faces"]["pass"] and res["ranks"]["pass"], res


def _fair_kiosk(tmp_path, net=NET):
    (tmp_path / "net.txt").write_text(net)
    sim = new_sim(tmp_path)
    to_kiosk(sim)
    c = sim.console
    assert c.fair is not None
    c.allot(1, tuple(COUNTS.items()))
    sim.step(100)
    return sim


class Desk:
    """The desk's side of the exchange in the bowl's own formats (the real desk's
    handler is tested in test_desk_fair.py): records a commitment, answers a value."""

    def __init__(self):
        self.rows = []

    def answer(self, c):
        leaf, p = c.fair.pending.pop(0)
        assert leaf == "commit"
        d = os.urandom(16)
        g, k, a, anchor, took = desk_value(c, p, d, EVENT)
        self.rows.append((g, k, a, anchor, d))
        assert took


def _customer(sim):
    key(sim)
    assert sim.console.table.shakes_left == 3


def _screen(sim):
    return "\n".join(player.shown_lines(sim.app, sim.console))


def _files(root):
    out = b""
    for name in os.listdir(root):
        p = os.path.join(root, name)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                out += f.read()
    return out


def _verify(capsys, *args):
    code = cli.main(["verify-fair"] + [str(a) for a in args])
    return code, capsys.readouterr().out


def test_a_customer_shakes_only_after_the_desk_has_his_commitment_and_anyone_can_verify(tmp_path, capsys):
    sim = _fair_kiosk(tmp_path)
    c = sim.console
    desk = Desk()
    _customer(sim)
    # the commitment is on flash and queued for the desk; no shake counts before the desk answers
    assert c.view == C.V_SEED and [m[0] for m in c.fair.pending] == ["commit"]
    assert "等待奖台" in _screen(sim)
    n = c.table.events
    sim.shake()
    sim.step(3000)
    assert c.table.events == n and c.table.shakes_left == 3, "a shake counted before the desk's value"
    secret = c.fair.turn[2]
    desk.answer(c)
    sim.step(100)
    assert c.view == C.V_TURN
    rolls = [roll(sim) for _ in range(2)]
    # mid-turn: the fair log holds the chain's anchor and the desk's value, not the secret
    # (the chain's root is in the key file only, so a power cut goes on with the same dice)
    g = c.j.game_id
    log = open(fair.log_path(str(tmp_path), g), "rb").read()
    assert binascii.hexlify(secret) not in log
    rolls.append(roll(sim))
    sim.step(100)
    assert [m[0] for m in c.fair.pending] == ["reveal"] and c.fair.turn is None
    f, _b, body = fair.form(EVENT, "bobing/%s/%s/reveal" % (EVENT, c.settings.bowl_id), c.fair.pending[0][1],
                            "reveal")
    g2, k, s, r, u, _p = fair.decode_reveal2(body)
    assert f == 2 and (g2, k) == (g, 1) and s == secret and r == ["".join(map(str, o.dice)) for o in rolls]
    assert not u and dice.chain_holds(s, 1, desk.rows[0][3])  # customer 1: one link from the anchor
    assert binascii.hexlify(secret) in open(fair.log_path(str(tmp_path), g), "rb").read()  # with the reveal
    code, out = _verify(capsys, tmp_path)
    assert out.strip().endswith(OWN % (3, 0)) and code == 3, out


def test_a_boot_reads_net_txt_once(tmp_path, monkeypatch):
    # the event, the fair dice and the network each read it again (three reads a boot)
    from bowl import net
    reads = []
    real = net.read_config
    monkeypatch.setattr(net, "read_config", lambda root: reads.append(root) or real(root))
    sim = _fair_kiosk(tmp_path)
    sim.power_cut()
    sim.step(100)
    assert sim.console.fair is not None and len(reads) == 2, reads  # the first boot's and this one's


def test_an_event_kiosk_plays_fair_by_default_and_a_family_game_keeps_its_dice(tmp_path):
    """net.txt without a fair= line: the event kiosk commits before its customer shakes
    (fair=off, a promoter's explicit choice, loads nothing of it); a family game on the
    same bowl rolls at once, with no commitment (no desk in the game to answer one)."""
    (tmp_path / "net.txt").write_text(NET.replace("fair=on\n", ""))
    sim = new_sim(tmp_path)
    c = sim.console
    assert c.fair is not None
    assert roll(sim) is not None and not c.fair.pending  # the family game: today's dice
    to_kiosk(sim)
    c.allot(1, tuple(COUNTS.items()))
    sim.step(100)
    _customer(sim)
    assert c.view == C.V_SEED and [m[0] for m in c.fair.pending] == ["commit"]
    off = tmp_path / "off"
    off.mkdir()
    (off / "net.txt").write_text(NET.replace("fair=on", "fair=off"))
    assert new_sim(off).console.fair is None


def test_a_desk_that_does_not_answer_lets_the_customer_play_unverified_never_silently(tmp_path, capsys):
    """The desk (or the broker) is down when a customer starts: he waits on 等待奖台 for
    at most fair.SEED_WAIT_MS, then his shakes roll the bowl's own dice, marked on flash
    ("U"), revealed with u=1 and counted unverified by verify-fair; a desk value that
    comes later is not used for his turn. The next customer commits again."""
    sim = _fair_kiosk(tmp_path)
    c = sim.console
    _customer(sim)
    sim.step(fair.SEED_WAIT_MS - 2000)
    assert c.view == C.V_SEED and c.table.shakes_left == 3
    sim.step(3000)
    assert c.view == C.V_TURN and c.fair.unseeded()
    assert any("no desk value" in line for line in sim.board.lines), sim.board.lines[-5:]
    g, _k, _a, _anchor, took = desk_value(c, c.fair.pending[0][1], os.urandom(16), EVENT)  # late
    assert not took
    b = c.settings.bowl_id
    for _ in range(3):
        roll(sim)
    sim.step(100)
    assert [m[0] for m in c.fair.pending] == ["commit", "reveal"]
    r = fair.decode_reveal2(fair.form(EVENT, "bobing/%s/%s/reveal" % (EVENT, b), c.fair.pending[1][1], "reveal")[2])
    assert r[4] is True and len(r[3]) == 3
    assert [x[0] for x in fair.read_log(fair.log_path(str(tmp_path), g))[0]] == ["A", "W", "S"]
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and out.strip().endswith((OWN % (0, 3)) + " (%s: 3)" % fair_check.UNSEEDED), out


class _OwnDice:
    """The bowl's own dice (fair.Fair's own, the console's Dice), scripted: a win to be sure of a claim."""

    failed = None

    def __init__(self, rolls):
        self.rolls = list(rolls)

    def roll(self, buf):
        buf[:] = bytes(self.rolls.pop(0))
        return buf

    def absorb(self, *a):
        pass


def _both(sim):
    """The screen on show as the customer reads it: (Chinese, English)."""
    return [" ".join(player.shown_lines(sim.app, sim.console, lang)) for lang in ("zh", "en")]


def _turn_seen(sim):
    """A customer's three shakes, every screen he sees from his turn to his claims:
    [(what, Chinese, English)], what: "turn", "shaking", "result N" (each page), "claim"."""
    c = sim.console
    seen = [("turn",) + tuple(_both(sim))]
    for k in range(3):
        sim.shake()
        assert sim.run_until(lambda s: s.console.view == C.V_SHAKING, 15000)
        seen.append(("shaking",) + tuple(_both(sim)))
        assert sim.run_until(lambda s: s.console.view == C.V_RESULT, 15000)
        while c.view in (C.V_RESULT, C.V_CLAIM):
            seen.append(("result %d" % k if c.view == C.V_RESULT else "claim",) + tuple(_both(sim)))
            press(sim, "ok")
        if c.view == C.V_TURN:
            seen.append(("turn",) + tuple(_both(sim)))
    return seen


def test_the_bowl_s_own_screen_marks_a_turn_its_desk_did_not_answer_unverified(tmp_path):
    """A fair kiosk: the first customer's desk answers, and nothing on the bowl says
    unverified; the desk then goes silent, the next customer waits on 等待奖台 until
    fair_wait, then plays the bowl's own dice: his turn, his shakes, each result and
    his claim say 未验证 / unverified, as verify-fair and the desk's page will; the
    attendant's screen after him does not (the next customer may be verified)."""
    sim = _fair_kiosk(tmp_path, NET + "fair_wait=10\n")
    c = sim.console
    _customer(sim)
    Desk().answer(c)
    sim.step(100)
    seen = _turn_seen(sim)
    assert [s for s in seen if s[0] == "shaking"] and not c.fair.unseeded()
    assert not [s for s in seen if "未验证" in s[1] or "nverified" in s[2]], seen
    _customer(sim)  # the desk is silent from now on
    zh, en = _both(sim)
    assert c.view == C.V_SEED and "等待奖台" in zh and "未验证" not in zh and "unverified" not in en, (zh, en)
    sim.step(10500)
    assert c.view == C.V_TURN and c.fair.unseeded()
    c.dice = _OwnDice([(4, 4, 4, 1, 2, 3), (1, 2, 3, 5, 6, 6), (4, 1, 2, 3, 6, 6)])  # 三红, nothing, 一秀
    seen = _turn_seen(sim)
    assert [s[0] for s in seen].count("shaking") == 3 and [s for s in seen if s[0] == "claim"], seen
    for what, zh, en in seen:
        if not what.startswith("result"):  # the turn, each shake, each claim
            assert "未验证" in zh and "unverified" in en, (what, zh, en)
    for k in range(3):  # each roll's result: its last page says why
        pages = [s for s in seen if s[0] == "result %d" % k]
        assert [p for p in pages if "骰子未验证" in p[1]], pages
        assert [p for p in pages if "Unverified: no desk value" in p[2]], pages
    zh, en = _both(sim)
    assert c.view == C.V_GATE and "未验证" not in zh and "unverified" not in en, (zh, en)


def test_a_power_cut_mid_turn_goes_on_with_the_same_dice_and_asks_nothing_new(tmp_path, capsys):
    """Fair format 2: a power cut (faked or not) mid-turn cannot give the customer other
    dice: the bowl comes back with the same secret (the chain's root on flash) and the
    desk's value from its log, asks the desk nothing, and his next shake rolls the next
    position of the same sequence."""
    sim = _fair_kiosk(tmp_path)
    desk = Desk()
    _customer(sim)
    desk.answer(sim.console)
    sim.step(100)
    first = roll(sim)
    sim.power_cut()
    sim.step(200)
    c = sim.console
    while c.view in (C.V_RESULT, C.V_NOTICE, C.V_CLAIM):  # the roll before the cut, shown again
        press(sim, "ok")
    assert c.table.shakes_left == 2 and c.view == C.V_TURN and not c.fair.pending, (c.view, c.fair.pending)
    assert any("goes on at roll 2" in line for line in sim.board.lines), sim.board.lines[-5:]
    rest = [roll(sim), roll(sim)]
    sim.step(100)
    g, k, s, r, _u, _p = fair.decode_reveal2(fair.form(EVENT, "bobing/%s/%s/reveal" % (EVENT, c.settings.bowl_id),
                                                   c.fair.pending[0][1], "reveal")[2])
    d = desk.rows[0][4]
    assert r == ["".join(map(str, o.dice)) for o in [first] + rest]
    assert r == [fair_check.derive(s, d, g, k, i, bytes(16)) for i in range(3)]  # one sequence, no gap
    code, out = _verify(capsys, tmp_path)
    assert code == 3 and out.strip().endswith(OWN % (3, 0)), out


def test_a_customer_s_own_seed_counts_when_it_comes_before_his_first_shake(tmp_path, capsys):
    """The customer's phone sent 16 bytes of its own through the desk: they come with the
    desk's value (the same D) before his first shake, and his dice use them (the reveal
    says which); one that comes after his first shake changes nothing and is said."""
    sim = _fair_kiosk(tmp_path)
    c = sim.console
    desk = Desk()
    _customer(sim)
    desk.answer(c)
    sim.step(100)
    g, k, _a, _anchor, d = desk.rows[0]
    u = os.urandom(16)
    assert customer_seed(c, g, k, d, u, EVENT)
    sim.step(100)
    assert any("his own seed %s came before his first shake" % u.hex()[:8] in x for x in sim.board.lines)
    rolls = [roll(sim) for _ in range(3)]
    sim.step(100)
    g2, k2, s, r, _u, p = fair.decode_reveal2(fair.form(EVENT, "bobing/%s/%s/reveal" % (EVENT, c.settings.bowl_id),
                                                        c.fair.pending[-1][1], "reveal")[2])
    assert p == u and r == ["".join(map(str, o.dice)) for o in rolls]
    assert r == [fair_check.derive(s, d, g, k, i, u) for i in range(3)]
    assert r != [fair_check.derive(s, d, g, k, i, bytes(16)) for i in range(3)]
    code, out = _verify(capsys, tmp_path)
    assert code == 3 and fair_check.TRUSTED not in out, out  # (his own seed: not only bowl and desk)
    # the next customer's seed comes after his first shake: not used
    del c.fair.pending[:]  # (the desk has the reveal)
    _customer(sim)
    desk.answer(c)
    sim.step(100)
    roll(sim)
    g, k, _a, _anchor, d = desk.rows[1]
    assert not customer_seed(c, g, k, d, os.urandom(16), EVENT)
    sim.step(100)
    assert any("his own seed came after his first shake: not used" in x for x in sim.board.lines)


def _spill(sim):
    """The customer's next shake is a spill (the detector says so, as spill_detect would)."""
    from bobing import shake
    det = sim.console.detector
    feed = det.feed
    det.feed = lambda *a: (setattr(det, "feed", feed), shake.EV_SPILL)[1]
    sim.step(100)
    while sim.console.view == C.V_RESULT:
        press(sim, "ok")


def test_a_spill_on_a_fair_kiosk_uses_up_no_dice(tmp_path, capsys):
    """Fair format 2: a spilled shake takes no position of the customer's sequence, so his
    next shake rolls what the spill would have: a bowl voiding a good roll as a spill
    only hands the same dice to the next shake (and the reveal lists the spill)."""
    sim = _fair_kiosk(tmp_path)
    desk = Desk()
    _customer(sim)
    desk.answer(sim.console)
    sim.step(100)
    first = roll(sim)
    _spill(sim)
    c = sim.console
    assert c.table.shakes_left == 1 and c.fair.turn[4][-1] == "-"
    last = roll(sim)
    sim.step(100)
    g, k, s, r, _u, _p = fair.decode_reveal2(fair.form(EVENT, "bobing/%s/%s/reveal" % (EVENT, c.settings.bowl_id),
                                                   c.fair.pending[0][1], "reveal")[2])
    d = desk.rows[0][4]
    assert r == ["".join(map(str, first.dice)), "-", "".join(map(str, last.dice))]
    assert r[2] == fair_check.derive(s, d, g, k, 1, bytes(16))  # the position after the first roll
    code, out = _verify(capsys, tmp_path)
    # (no preset turns spill_detect on: on this game a spill can only be the bowl's doing)
    assert code == 1 and "it would have rolled %s" % r[2] in out and out.strip().endswith(
        (OWN % (2, 1)) + " (%s: 1)" % fair_check.SPILL_OFF), out


# ------------------------------------------------------------ cheating bowls
def _game(root, cheat=None, customers=2):
    """A kiosk game with its fair log, as an honest bowl writes it, or a cheating one.
    -> (game id, the desk's export of what the desk saw)."""
    os.makedirs(root, exist_ok=True)
    j = journal.start(root, "kiosk", None, 1, COUNTS, "0007", SECRET)
    g = j.game_id
    rng = random.Random(3)
    export = {"v": 1, "commitments": [], "awards": []}
    q = 0
    t0 = 1000
    for k in range(1, customers + 1):
        j.play(game.EV_CUSTOMER, None)
        if cheat == "late" and k == 1:
            j.play(game.EV_ROLL, (4, 4, 4, 4, 1, 2))  # rolled before it committed
        q += 1
        s = bytes(rng.randrange(256) for _ in range(32))
        d = bytes(rng.randrange(256) for _ in range(16))
        if cheat == "redraw" and k == 1:
            # committed, saw the desk's value, revealed with no rolls and committed again: a re-draw
            c0 = dice.commitment(s)
            fair.append(root, g, "C %d %d %d %s" % (q, k, j.table.events, c0.hex()))
            fair.append(root, g, "D %d %s" % (q, d.hex()))
            fair.append(root, g, "R %d %s" % (q, s.hex()))
            export["commitments"].append({"bowl": "0007", "g": g, "k": k, "q": q, "c": c0.hex(),
                                          "seen": "2026-12-01T10:00:%02d+00:00" % (t0 % 60), "d": d.hex(),
                                          "s": s.hex(), "r": []})
            q += 1
            s = bytes(rng.randrange(256) for _ in range(32))
            d = bytes(rng.randrange(256) for _ in range(16))
        if cheat == "hidden" and k == 2:
            # committed, saw the desk's value, did not like roll 1, "lost power", committed again:
            # the first commitment is at the desk, left out of the journal
            export["commitments"].append({"bowl": "0007", "g": g, "k": k, "q": q, "c": dice.commitment(s).hex(),
                                          "seen": "2026-12-01T10:00:%02d+00:00" % (t0 % 60), "d": d.hex(),
                                          "s": None, "r": []})
            q += 1
            s = bytes(rng.randrange(256) for _ in range(32))
            d = bytes(rng.randrange(256) for _ in range(16))
        c = dice.commitment(s)
        fair.append(root, g, "C %d %d %d %s" % (q, k, j.table.events, c.hex()))  # ("late": after its roll)
        fair.append(root, g, "D %d %s" % (q, d.hex()))
        if cheat == "chosen" and k == 1:
            # a secret chosen after seeing the desk's value: the first one whose roll 1 pays 对堂 or better
            while rules.rank_of(rules.Rules().evaluate(list(dice.Derived(s, d, g, k).roll(0, bytearray(6))))) < 5:
                s = os.urandom(32)
        der = dice.Derived(s, d, g, k)
        rolls = []
        for i in range(3 - (1 if cheat == "late" and k == 1 else 0)):
            f = tuple(der.roll(i, bytearray(6)))
            if cheat == "changed" and k == 2 and i == 1:
                f = (4, 4, 4, 4, 4, 4)  # the roll written differs from the one derived
            if cheat == "spill" and k == 1 and i == 1:
                j.play(game.EV_SPILL, None)  # its shake's position used up: what it would have rolled shows
                rolls.append("-")
                continue
            j.play(game.EV_ROLL, f)
            rolls.append("".join(map(str, f)))
        revealed = os.urandom(32) if cheat == "mismatch" and k == 1 else s
        fair.append(root, g, "R %d %s" % (q, revealed.hex()))
        t0 += 5
        export["commitments"].append({"bowl": "0007", "g": g, "k": k, "q": q, "c": c.hex(),
                                      "seen": "2026-12-01T10:00:%02d+00:00" % (t0 % 60), "d": d.hex(),
                                      "s": revealed.hex(), "r": rolls})
    j.close()
    return g, export


def test_an_honest_game_verifies_from_the_journal_and_from_the_desk(tmp_path, capsys):
    g, export = _game(str(tmp_path / "bowl"))
    code, out = _verify(capsys, tmp_path / "bowl")
    assert code == 3 and out.strip() == OWN % (6, 0), out
    r = fair_check.check_export(export, fair_check.Report())
    assert r.ok and r.verified == 6, r.summary()
    r = fair_check.check_game(str(tmp_path / "bowl"), g, fair_check.Report(), export, "0007")
    assert r.ok and r.verified == 6, (r.summary(), r.lines)



def test_a_file_that_is_no_journal_is_named_in_plain_words(tmp_path, capsys):
    bowl = tmp_path / "bowl"
    g, _ = _game(str(bowl))
    (bowl / ("g%08d.bbj" % g)).write_bytes(b"a letter, not a journal")
    code, out = _verify(capsys, bowl)
    assert code == 1 and "b'" not in out and "start with BBJ" in out, out
    assert "game %d: 日志有误（设置无效）journal problem: " % g in out, out

def test_a_roll_changed_after_the_reveal_is_caught(tmp_path, capsys):
    _game(str(tmp_path), "changed")
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and (OWN % (5, 1)) + " (%s: 1)" % fair_check.MISMATCH_DICE in out, out
    assert "is 444444 in the journal" in out


def test_a_commitment_published_after_the_first_shake_is_caught(tmp_path, capsys):
    _game(str(tmp_path), "late")
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and "%s: 1" % fair_check.NO_COMMIT in out, out
    # at the desk: the customer's award arrived before his commitment was recorded
    export = {"v": 1, "commitments": [{"bowl": "0007", "g": 1, "k": 1, "q": 1, "c": dice.commitment(bytes(32)).hex(),
                                       "seen": "2026-12-01T10:00:05+00:00", "d": "00" * 16, "s": "00" * 32,
                                       "r": ["%d%d%d%d%d%d" % tuple(dice.Derived(bytes(32), bytes(16), 1, 1).roll(
                                           0, bytearray(6)))]}],
              "awards": [{"bowl": "0007", "g": 1, "n": 1, "k": 1, "c": "yixiu", "seen": "2026-12-01T10:00:01+00:00"}]}
    r = fair_check.check_export(export, fair_check.Report())
    assert not r.ok and r.unverified == {fair_check.LATE: 1}, r.summary()


def test_a_secret_chosen_after_seeing_the_desk_value_is_caught(tmp_path, capsys):
    g, export = _game(str(tmp_path), "chosen")
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and (OWN % (3, 3)) + " (%s: 3)" % fair_check.MISMATCH_REVEAL in out, out
    r = fair_check.check_export(export, fair_check.Report())
    assert r.unverified == {fair_check.MISMATCH_REVEAL: 3}, r.summary()


def test_a_hidden_retried_commitment_is_caught(tmp_path, capsys):
    g, export = _game(str(tmp_path), "hidden")
    code, out = _verify(capsys, tmp_path)  # the journal alone: its numbers skip one
    assert code == 1 and "%s: 1" % fair_check.HIDDEN in out and "skip to 3" in out, out
    r = fair_check.check_export(export, fair_check.Report())  # the desk alone: one never revealed
    assert r.unverified == {fair_check.UNREVEALED: 1, fair_check.AFTER_RETRY: 3}, r.summary()  # every roll after it
    r = fair_check.check_game(str(tmp_path), g, fair_check.Report(), export, "0007")  # both
    assert r.unverified.get(fair_check.HIDDEN) == 2, r.summary()


def test_format_1_a_redraw_after_the_desk_value_leaves_every_roll_after_it_unverified(tmp_path, capsys):
    """An old (format 1) journal: the bowl saw the desk's value, revealed with no rolls and
    committed again for the same customer: every roll under the second commitment is
    unverified, from the journal, from the export and from both (the old checks passed it)."""
    g, export = _game(str(tmp_path), "redraw")
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and "%s: 3" % fair_check.AFTER_RETRY in out, out
    r = fair_check.check_export(export, fair_check.Report())
    assert r.unverified == {fair_check.AFTER_RETRY: 3} and r.verified == 3, r.summary()
    r = fair_check.check_game(str(tmp_path), g, fair_check.Report(), export, "0007")
    assert r.unverified == {fair_check.AFTER_RETRY: 3} and r.verified == 3, r.summary()


def test_a_reveal_that_does_not_match_is_caught(tmp_path, capsys):
    g, export = _game(str(tmp_path), "mismatch")
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and (OWN % (3, 3)) + " (%s: 3)" % fair_check.MISMATCH_REVEAL in out, out
    assert "hashes to" in out


# ------------------------------------------------------------ cheating bowls, fair format 2
def _game2(root, cheat=None, customers=3):
    """A fair-format-2 kiosk game with its fair log, as an honest bowl writes it, or a
    cheating one, and the desk's export of what it saw -> (game id, export)."""
    os.makedirs(root, exist_ok=True)
    j = journal.start(root, "kiosk", None, 1, COUNTS, "0007", SECRET)
    g = j.game_id
    rng = random.Random(5)
    chain = bytes(rng.randrange(256) for _ in range(32))
    anchor = dice.chain_at(chain, 0)
    fair.append(root, g, "A 1 %d %s" % (dice.CHAIN_N, anchor.hex()))
    seen = "2026-12-01T10:00:%02d+00:00"
    export = {"v": 1, "commitments": [], "awards": [], "turns": [],
              "chains": [{"bowl": "0007", "g": g, "a": 1, "n": dice.CHAIN_N, "c": anchor.hex(), "seen": seen % 0,
                          "pf": fair.rules_text(j.config.profile, j.config.overrides)}]}
    for k in range(1, customers + 1):
        j.play(game.EV_CUSTOMER, None)
        left = [j.table.pool[c] for c in j.table.classes]  # (what his commit says he starts with)
        if cheat == "hidden" and k == 2:
            left[0] = 0  # "no 状元 left": a bowl hiding stock so that a 状元 pays nothing
        s = dice.chain_at(chain, k)
        d = bytes(rng.randrange(256) for _ in range(16))
        outage = cheat == "outage" and k == 2
        fair.append(root, g, ("W %d" if outage else "V %d " + d.hex()) % k)
        if cheat == "chain" and k == 1:  # a secret of its choosing: the first whose roll 1 pays
            while rules.rank_of(rules.Rules().evaluate(list(dice.Derived(s, d, g, k, bytes(16)).roll(
                    0, bytearray(6))))) < 3:
                s = os.urandom(32)
        der = dice.Derived(s, d, g, k, bytes(16))
        shakes = []
        for i in range(3):
            f = tuple(der.roll(i, bytearray(6)))
            if outage:
                f = (4, 4, 4, 4, 1, 2)  # "the desk was down": its own dice
            if cheat == "changed" and k == 2 and i == 1:
                f = (4, 4, 4, 4, 4, 4)
            if cheat == "spill" and k == 1 and i == 2:  # a good last roll voided as a spill
                j.play(game.EV_SPILL, None)
                shakes.append("-")
                continue
            j.play(game.EV_ROLL, f)
            shakes.append("".join(map(str, f)))
        fair.append(root, g, "S %d %s" % (k, s.hex()))
        export["turns"].append({"bowl": "0007", "g": g, "k": k, "seen": seen % k, "d": d.hex(), "s": s.hex(),
                                "r": shakes[:1] if cheat == "short" and k == 1 else shakes,
                                "revealed": seen % (k + 1), "verdict": "", "unseeded": 1 if outage else 0,
                                "l": left})
    j.close()
    from bobing import outbox
    _s, _t, won = outbox.replay(journal.path_of(root, g), g)
    for n, cls, k in won:
        if cheat == "unpaid" and n == 1:
            cls = "yixiu" if cls != "yixiu" else "erju"  # the desk was told another class than the journal pays
        export["awards"].append({"bowl": "0007", "g": g, "n": n, "k": k, "c": cls, "seen": seen % (k + 1)})
    if cheat == "nocommit":
        export["awards"].append({"bowl": "0007", "g": g, "n": len(won) + 1, "k": customers + 1, "c": "zhuangyuan",
                                 "seen": seen % 50})
    return g, export


def _both_checks(root, g, export):
    """-> (the journal held against the desk's export, the export alone): two Reports."""
    return (fair_check.check_game(root, g, fair_check.Report(), export, "0007"),
            fair_check.check_export(export, fair_check.Report()))


def test_format_2_an_honest_game_verifies_everywhere(tmp_path):
    g, export = _game2(str(tmp_path))
    both, desk = _both_checks(str(tmp_path), g, export)
    assert both.ok and both.verified == 9, (both.summary(), both.lines)
    assert desk.ok and desk.verified == 9, (desk.summary(), desk.lines)


def test_format_2_cheating_bowls_are_caught_with_the_reason_named(tmp_path):
    for cheat, want_both, want_desk in (
            ("changed", {fair_check.MISMATCH_DICE: 1}, {fair_check.MISMATCH_DICE: 1}),
            ("chain", {fair_check.CHAIN: 3}, {fair_check.CHAIN: 3}),
            ("outage", {fair_check.OUTAGE: 3}, {fair_check.OUTAGE: 3}),
            # (the desk alone cannot know the shakes, but the awards of the hidden ones show)
            ("short", {fair_check.NOT_PLAYED: 3}, {fair_check.AWARD_RULES: 1}),
            ("spill", {fair_check.SPILL_OFF: 1}, {fair_check.SPILL_OFF: 1}),  # (the commit's rules say "off")
            # a class the journal does not pay: named both ways; alone, the rules do not pay it
            ("unpaid", {fair_check.UNPAID: 2}, {fair_check.AWARD_RULES: 3}),
            ("hidden", {fair_check.NOT_COMMITTED: 3}, {fair_check.STOCK_HIDDEN: 3}),
            ("nocommit", {fair_check.AWARDS: 1}, {fair_check.NO_COMMIT_AWARD: 1})):
        root = str(tmp_path / cheat)
        g, export = _game2(root, cheat)
        both, desk = _both_checks(root, g, export)
        assert both.unverified == want_both, (cheat, both.summary(), both.lines)
        assert desk.unverified == want_desk, (cheat, desk.summary(), desk.lines)
        if cheat == "outage":  # the dice the turn should have rolled with the desk's value are listed
            assert [x for x in both.lines if "would have rolled" in x], both.lines


def test_verify_fair_refuses_what_it_cannot_read(tmp_path, capsys):
    assert cli.main(["verify-fair"]) == 2
    assert cli.main(["verify-fair", str(tmp_path)]) == 2  # no fair game there
    (tmp_path / "x.json").write_text("[1]")
    assert cli.main(["verify-fair", "--desk", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "no fair game" in err and "not the desk's export" in err and "Traceback" not in err


def test_a_commitment_that_cannot_be_written_keeps_the_customer_waiting_and_is_said_once(tmp_path):
    sim = _fair_kiosk(tmp_path)
    c = sim.console
    os.mkdir(fair.log_path(str(tmp_path), c.j.game_id))  # the fair log cannot be opened for appending
    _customer(sim)
    n = c.table.events
    sim.shake()
    sim.step(3000)
    assert c.view == C.V_SEED and c.table.events == n and not c.fair.pending
    said = [line for line in sim.board.lines if "no commitment made" in line]
    assert len(said) == 1, said
    os.rmdir(fair.log_path(str(tmp_path), c.j.game_id))
    sim.step(7000)  # tried again after a while: now it is written and sent
    assert [m[0] for m in c.fair.pending] == ["commit"]


def test_an_award_the_desk_holds_that_the_journal_does_not_pay_is_caught(tmp_path):
    g, export = _game(str(tmp_path))
    from bobing import outbox
    _s, _t, won = outbox.replay(journal.path_of(str(tmp_path), g), g)
    export["awards"] = [{"bowl": "0007", "g": g, "n": n, "k": k, "c": cls, "seen": "2026-12-01T10:01:00+00:00"}
                        for n, cls, k in won]
    r = fair_check.check_game(str(tmp_path), g, fair_check.Report(), export, "0007")
    assert r.ok, (r.summary(), r.lines)
    export["awards"].append({"bowl": "0007", "g": g, "n": len(won) + 1, "k": 2, "c": "zhuangyuan",
                             "seen": "2026-12-01T10:01:00+00:00"})
    r = fair_check.check_game(str(tmp_path), g, fair_check.Report(), export, "0007")
    assert r.unverified == {fair_check.AWARDS: 1}, r.summary()


def test_a_spilled_shake_uses_up_its_position_and_shows_what_it_would_have_rolled(tmp_path, capsys):
    # a bowl voiding good rolls as spills cannot hide it: each spill's would-be dice are public,
    # and on a game that detects no spills (no preset turns detection on) the spill itself is named
    g, export = _game(str(tmp_path), "spill")
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and out.strip().endswith((OWN % (5, 1)) + " (%s: 1)" % fair_check.SPILL_OFF), out
    row = [c for c in export["commitments"] if c["k"] == 1][0]
    would = "".join(map(str, dice.Derived(bytes.fromhex(row["s"]), bytes.fromhex(row["d"]), g, 1).roll(
        1, bytearray(6))))
    assert "customer 1's shake 2 spilled: it would have rolled %s" % would in out, out
    r = fair_check.check_export(export, fair_check.Report())
    assert r.ok and r.verified == 5 and r.spills[0][1] == would, r.summary()


def test_fair_logs_are_pruned_with_their_games_and_flash_stays_bounded(tmp_path):
    """A fair kiosk's log per game (three lines a customer) goes with its game's journal
    when games are pruned, and counts in the same budget: game after game, the files
    on flash stay within it; a fair log left without its journal goes too."""
    root = str(tmp_path)
    budget = 2048
    (tmp_path / "g00000001.bbf").write_bytes(b"C 1 1 0 " + b"ab" * 32 + b" 0000\n")  # no journal: an orphan
    (tmp_path / "g00000001.bbk").write_bytes(b"K 1 " + b"ab" * 32 + b" 0000\n")  # (its chain's root too)
    for n in range(12):
        j = journal.start(root, seats=4, keep_bytes=budget)
        g = j.game_id
        j.close()
        fair.append(root, g, "K 1 %s" % ("12" * 32), fair.key_path(root, g))  # format 2: the chain's root
        fair.append(root, g, "A 1 %d %s" % (dice.CHAIN_N, "34" * 32))
        for k in range(1, 6):  # five customers a game, as a fair bowl logs them
            fair.append(root, g, "V %d %s" % (k, "cd" * 16))
            fair.append(root, g, "S %d %s" % (k, "ef" * 32))
        names = os.listdir(root)
        finished = sum(os.path.getsize(os.path.join(root, x)) for x in names
                       if journal.id_of(x) != g and x[-4:] in (".bbj", ".bbf", ".bbk"))
        assert finished <= budget, (n, sorted(names))
    names = sorted(os.listdir(root))
    assert "g00000001.bbf" not in names and "g00000001.bbk" not in names, names
    assert len([x for x in names if x.endswith(".bbf")]) <= 3, names
    for ext in (".bbf", ".bbk"):
        assert all(x.replace(ext, ".bbj") in names for x in names if x.endswith(ext)), names


def test_the_claim_screen_of_a_fair_kiosk_shows_the_link_to_its_customers_verdict(tmp_path):
    """The bowl's own claim screen (net.txt: the desk's address defaults to the broker's host,
    port 8000): its QR page reads back, off the simulated panel, as the link a phone opens
    (bobing/claim.py), with the code only after the "#"; the counter reads it as the BB1 text.
    A desk provisioned as https://HOST:PORT gets an HTTPS link."""
    _claim_link(tmp_path / "http", NET, "HTTP://127.0.0.1:8000")
    _claim_link(tmp_path / "https", NET + "desk=https://desk.mall.cn:443\n", "HTTPS://DESK.MALL.CN:443")


def _claim_link(tmp_path, net, desk_url):
    import zxingcpp  # pinned in requirements/test.txt
    from bobing import claim
    from host_sim.cli import screens as cmd_screens
    tmp_path.mkdir()
    sim = _fair_kiosk(tmp_path, net)
    c = sim.console
    desk = Desk()
    link = None
    for _ in range(10):  # customers until one wins a prize
        _customer(sim)
        desk.answer(c)
        sim.step(100)
        for _ in range(3):
            sim.shake()
            assert sim.run_until(lambda s: s.console.view == C.V_RESULT, 15000)
            while c.view in (C.V_RESULT, C.V_CLAIM):
                if c.view == C.V_CLAIM and c.page % 2:
                    found = zxingcpp.read_barcodes(cmd_screens.to_image(bytes(sim.frame), 2).convert("L"))
                    link = found[0].text if found else "nothing read"
                    shown = c.arg  # (class, code, game, award, "game-award", bowl)
                    break
                if c.view == C.V_CLAIM:
                    sim.step(5100)  # the claim's text page, then its QR page
                    continue
                press(sim, "ok")
            if link:
                break
        if link:
            break
        c.fair.pending[:] = []
        sim.step(100)
    cls, code, _g, _n, ref = shown[:5]
    assert link == "%s/F/%s/%s/%s#%s" % (desk_url, c.settings.bowl_id, ref, cls.upper(), code), link
    assert claim.bb1_of(link) == "BB1:%s:%s:%s:%s" % (c.settings.bowl_id, ref, cls.upper(), code)


def test_messages_for_an_absent_desk_stay_bounded_in_ram_and_every_line_stays_on_flash(tmp_path, capsys):
    """The broker is away for many customers (each plays unverified after fair_wait): the
    commits and reveals waiting in RAM stay at most fair.MAX_PENDING, the oldest going
    (said once each time); the fair log on flash keeps every one, so verify-fair still
    counts every roll (unverified, never dropped)."""
    sim = _fair_kiosk(tmp_path, NET + "fair_wait=10\n")
    c = sim.console
    customers = fair.MAX_PENDING // 2 + 2
    for _ in range(customers):
        _customer(sim)
        sim.step(10500)
        for _ in range(3):
            roll(sim)
        sim.step(100)
        assert len(c.fair.pending) <= fair.MAX_PENDING
        assert len(c.fair._g[1]) <= 3  # of the fair log, RAM holds only the last customer's lines
    assert any("dropped" in line for line in sim.board.lines)
    rows, problem = fair.read_log(fair.log_path(str(tmp_path), c.j.game_id))
    assert problem is None and [r[0] for r in rows].count("W") == customers
    code, out = _verify(capsys, tmp_path)
    assert code == 1 and out.strip().endswith((OWN % (0, 3 * customers)) + " (%s: %d)" % (
        fair_check.UNSEEDED, 3 * customers)), out


def test_an_honest_chajinhua_sweep_is_not_flagged_on_the_desks_export():
    """A 插金花 on prizes=standard takes the 状元 and every 对堂 left: four awards from one
    roll. The desk's export alone cannot replay the game's stock, so it no longer counts
    awards against prize rolls (it called this honest turn "awards not explained"); the
    journal's replay checks them award by award (check_game)."""
    rng = random.Random(11)
    while True:  # a secret and desk value whose first roll is 插金花
        s, d = bytes(rng.randrange(256) for _ in range(32)), bytes(rng.randrange(256) for _ in range(16))
        first = fair_check.derive(s, d, 3, 1, 0)
        if sorted(first) == sorted("444411"):
            break
    rolls = [first] + [fair_check.derive(s, d, 3, 1, i) for i in (1, 2)]
    t = "2026-12-01T10:00:0%d+00:00"
    export = {"v": 1, "awards": [{"bowl": "0007", "g": 3, "n": n, "k": 1, "c": c, "seen": t % 5}
                                 for n, c in enumerate(["zhuangyuan", "duitang", "duitang", "duitang"], 1)],
              "commitments": [{"bowl": "0007", "g": 3, "k": 1, "q": 1, "c": dice.commitment(s).hex(), "seen": t % 1,
                               "d": d.hex(), "s": s.hex(), "r": rolls}]}
    r = fair_check.check_export(export, fair_check.Report())
    assert r.ok and r.verified == 3, (r.summary(), r.lines)


def test_every_customer_gets_a_receipt_qr_at_the_end_of_his_turn(tmp_path):
    """After a fair customer's last shake the kiosk waits for the attendant; every other
    page of that screen is his receipt, a QR that reads back, off the simulated panel, as
    the link where his phone checks his own turn (/V/<bowl>/<game>-<customer>), winner
    or not."""
    import zxingcpp  # pinned in requirements/test.txt
    from host_sim.cli import screens as cmd_screens
    sim = _fair_kiosk(tmp_path)
    c = sim.console
    _customer(sim)
    Desk().answer(c)
    sim.step(100)
    for _ in range(3):
        roll(sim)
    while c.view in (C.V_RESULT, C.V_CLAIM):
        press(sim, "ok")
    assert c.view == C.V_GATE and c.fair.receipt == (c.j.game_id, 1)
    want = "HTTP://127.0.0.1:8000/V/%s/%d-1" % (c.settings.bowl_id.upper(), c.j.game_id)
    seen = []
    for _ in range(4):
        sim.step(C.CLAIM_PAGE_MS + 100)
        found = zxingcpp.read_barcodes(cmd_screens.to_image(bytes(sim.frame), 2).convert("L"))
        seen.append(found[0].text if found else None)
    assert sorted(seen, key=str) == sorted([want, None, want, None], key=str), seen  # the gate, the receipt, in turn
    assert "验证" in _screen(sim) or "Check" in _screen(sim) or "等待服务员" in _screen(sim)


def test_before_his_first_shake_the_turn_screen_offers_the_customer_his_own_seed(tmp_path):
    """A fair kiosk's turn screen, before the first shake, shows every other page the QR of
    the phone page where the customer adds his own seed (/J/<bowl>/<game>-<customer>);
    once his seed came through the desk the bowl shows its first characters; after his
    first shake the screen is the turn's alone."""
    import zxingcpp  # pinned in requirements/test.txt
    from host_sim.cli import screens as cmd_screens
    sim = _fair_kiosk(tmp_path)
    c = sim.console
    desk = Desk()
    _customer(sim)
    desk.answer(c)
    sim.step(100)
    want = "HTTP://127.0.0.1:8000/J/%s/%d-1" % (c.settings.bowl_id.upper(), c.j.game_id)

    def pages():
        seen = []
        for _ in range(2):
            sim.step(C.CLAIM_PAGE_MS + 100)
            found = zxingcpp.read_barcodes(cmd_screens.to_image(bytes(sim.frame), 2).convert("L"))
            seen.append((found[0].text if found else None, _screen(sim)))
        return seen

    seen = pages()
    assert sorted(x[0] or "" for x in seen) == ["", want], seen
    g, k, _a, _anchor, d = desk.rows[0]
    u = os.urandom(16)
    assert customer_seed(c, g, k, d, u, EVENT)
    assert [x for x in pages() if x[0] == want and u.hex()[:8] in x[1]], "the seed's first characters not shown"
    roll(sim)
    assert not [x for x in pages() if x[0]], "a QR after the first shake"


def test_every_reason_a_page_can_name_has_its_chinese():
    """The pages say each reason Chinese first, English beside: every reason verify-fair
    counts (each constant of fair_check that a Report can hold) has its Chinese."""
    names = [n for n in dir(fair_check) if n.isupper() and isinstance(getattr(fair_check, n), str)
             and n not in ("TRUSTED", "LOG_TAG")]
    assert names and not [n for n in names if getattr(fair_check, n) not in fair_check.REASON_ZH], names
    text = fair_check.reasons_text({fair_check.AWARD_RULES: 3})
    assert text.index("奖品") < text.index("awards") and text.endswith(": 3")
