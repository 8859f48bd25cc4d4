# Runs only on the MicroPython unix port: an EVENT kiosk's stock (grants from the
# prize desk, firmware/PROTOCOL.md "Shared stock") on the real littlefs over a RAM
# flash whose power goes at its k-th write or erase (tests/ramflash.py), as
# tests/mp/test_journal_powercut.py does for plain games. The run: an event game
# that waits for stock, takes grants (each one EV_GRANT per raised class, then
# EV_STOCK), pays customers, runs out, takes more; then a new event game that
# carries the stock on. For each cut point k: recover and check that every event
# whose play() returned is back (at most the one in flight lost), the table equals
# a fresh replay, the stock adds up across games (awards + stock left == the
# grant applied, never above the desk's), and that the bowl, handed the desk's
# retained allot again, holds exactly the desk's grant: none lost, none twice.
# Every cut point is checked in one uncut run (tests/powercut.py's sweep): the
# flash as a cut at operation k would leave it, mounted beside the run.
import sys

from bobing import game, journal, outbox

sys.path.append("tests")  # the runner's working folder is the repo
from game_check import Lcg
from journal_probes import log_lines
from powercut import Flash

NBLOCKS = 24
MNT = "/gcut"
ROOT = MNT + "/games"
EVENT = "midautumn"
BOWL = "7"
CK = 8
journal.CHECKPOINT_EVERY = CK
FLASH = Flash(MNT, NBLOCKS)
DONE = [0]  # steps of the run acknowledged so far
# the run's last acknowledged state: [game id (0: none yet), events acknowledged in it, what is
# in flight ("start" or "play")]: a cut may lose only the one in flight
ACK = [0, 0, None]


# The desk's allots over the run (s, cumulative grant); the script delivers them,
# some twice, some late (older than one applied).
ALLOTS = [(1, (("duitang", 1), ("yixiu", 2))), (2, (("duitang", 1), ("yixiu", 4), ("erju", 1))),
          (3, (("zhuangyuan", 1), ("duitang", 2), ("yixiu", 6), ("erju", 2)))]


def _script():
    """The run as steps: ("start",), ("allot", i) or ("play", kind, arg)."""
    rng = Lcg(11)
    out = [("start",)]
    t = game.Table("kiosk", 1, bowl_id=BOWL, event=True)
    for i in (0, 0, 1, 2, 1):  # the first twice, the second again after the third
        out.append(("allot", i))
        for ev in t.stock_events(*ALLOTS[i]):
            t.apply(*ev)
        while t.stocked() or t.shakes_left:
            ev = (game.EV_CUSTOMER, None) if not t.shakes_left else (
                game.EV_ROLL, tuple([1 + rng(6) for _ in range(6)]))
            t.apply(*ev)
            out.append(("play",) + ev)
            if len(out) == 25:
                out.append(("start",))  # a new game in the middle of the stock
                t = game.Table("kiosk", 1, counts=dict(t.pool), bowl_id=BOWL, event=True,
                               grant_s=t.grant_s, granted=dict(t.granted))
    return out


STEPS = _script()


def _play(j, ev, ack):
    ack[2] = "play"
    j.play(*ev)
    ack[1] += 1


def _step(j, st, root=ROOT, ack=None):
    """One step; -> the journal (a new one after "start"). ack: kept as ACK says."""
    ack = ack if ack is not None else [0, 0, None]
    if st[0] == "start":
        if j is not None:
            j.close()
        ack[2] = "start"
        j = journal.start(root, "kiosk", seats=1, bowl_id=BOWL, stock=journal.carried(j, EVENT, BOWL),
                          plays=True)
        ack[:] = [j.game_id, 0, None]
        return j
    if st[0] == "allot":
        for ev in j.table.stock_events(*ALLOTS[st[1]]):
            _play(j, ev, ack)
    else:
        _play(j, (st[1], st[2]), ack)
    return j


def _run(dev, steps=STEPS):
    done = 0
    DONE[0] = 0
    ACK[:] = [0, 0, None]
    j = None
    try:
        for st in steps:
            j = _step(j, st, ROOT, ACK)
            done += 1
            DONE[0] = done
        j.close()
    except OSError:
        if dev.image is None:
            raise
        if j is not None:
            j.close()
    return done


REPLAYED = {}  # a game file's path -> (its bytes, outbox.replay's awards of them)


def _awards(path, gid):
    """outbox.replay's awards of a game file, replayed again only when its bytes changed (a
    replay reads that file alone): every game on flash replayed twice per cut was half the sweep."""
    f = open(path, "rb")
    data = f.read()
    f.close()
    memo = REPLAYED.get(path)
    if memo is None or memo[0] != data:
        memo = REPLAYED[path] = (data, outbox.replay(path, gid)[2])
    return memo[1]


def _ledger(j, root=ROOT):
    """Awards per class over every game on flash, checked against the stock."""
    aw = {}
    for gid in journal.inventory(root)[0]:
        for _n, cls, _k in _awards(journal.path_of(root, gid), gid):
            aw[cls] = aw.get(cls, 0) + 1
    t = j.table
    top = dict(ALLOTS[-1][1])
    for c in t.classes:
        assert aw.get(c, 0) + t.pool[c] + t.grabbed[c] == t.granted[c], (c, aw, t.pool, t.granted)
        assert t.granted[c] <= top.get(c, 0)
    return aw


BLANK = FLASH.image()


def _ops():
    """Flash operations of the uncut run (whose stock must add up too)."""
    def run(dev):
        assert _run(dev) == len(STEPS)
        ops = dev.ops
        r = journal.recover(ROOT)
        assert sum(_ledger(r.journal).values()) > 5 and r.journal.game_id == 2
        r.journal.close()
        return ops
    return FLASH.cut(BLANK, -1, run)[1]


OPS = _ops()


def _recovered(root, k, done, ack=None):
    r = journal.recover(root)
    assert not r.problems, "cut %d: %s" % (k, log_lines(r))
    j = r.journal
    evs = []
    if j is not None:
        journal.scan(j.path, j.game_id, keep=evs)
    if ack is not None:  # every acknowledged event is back; only the one in flight may be lost
        g, n, flight = ack
        got = (j.game_id, len(evs)) if j is not None else (0, 0)
        ok = [(g, n)] + ([(g, n + 1)] if flight == "play" else [(g + 1, 0)] if flight == "start" else [])
        assert got in ok, "cut %d: recovered game %d with %d events, the run had %r" % (k, got[0], got[1], ack)
    if j is None:  # the cut came before the first game's header was on flash
        assert done == 0, "cut %d: no game after %d steps" % (k, done)
        j = _step(None, STEPS[0], root)
        done = 1
    t = game.Table("kiosk", 1, counts=j.config.stock[4], bowl_id=BOWL, event=True,
                   grant_s=j.config.stock[2], granted=j.config.stock[3])
    for ev in evs:
        t.apply(*ev)
    assert (t.grant_s, t.granted, t.pool, t.awards, t.customer, t.shakes_left) == (
        j.table.grant_s, j.table.granted, j.table.pool, j.table.awards, j.table.customer,
        j.table.shakes_left), "cut %d: recovered table != fresh replay" % k
    _ledger(j, root)
    # The bowl wakes up and the desk's retained allot (its latest) arrives: a
    # grant half applied before the cut is completed, one applied is not
    # applied again: the bowl then holds exactly the desk's grant.
    for ev in j.table.stock_events(*ALLOTS[-1]):
        j.play(*ev)
    led = _ledger(j, root)
    for c in j.table.classes:
        assert j.table.granted[c] == dict(ALLOTS[-1][1]).get(c, 0), "cut %d: grant %s" % (k, c)
    assert j.table.stock_events(*ALLOTS[-1]) == []
    j.close()
    return done, led


def test_cut_at_every_flash_write_of_an_event_run():
    def check(root, k, torn):
        _recovered(root + "/games", k, DONE[0], tuple(ACK))

    ops, tried = FLASH.sweep(BLANK, _run, check, torn=lambda k: k % 3 == 2)
    print("event run: %d steps (%d grants delivered, a new game mid-stock), %d flash operations, "
          "a power cut at %d of them (every 3rd torn): stock conserved across games every time" % (
              len(STEPS), sum([1 for st in STEPS if st[0] == "allot"]), ops, tried))
    assert ops == OPS and tried == OPS and OPS > 50
