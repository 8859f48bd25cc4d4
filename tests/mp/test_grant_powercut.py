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
import os
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
# MP_SHARD=i/n: only the cut points k with k % n == i (tests/test_micropython.py runs the n parts
# as n processes, so the two workers share the ~1,800 cuts); unset: every cut point
SHARD, SHARDS = [int(x) for x in (os.getenv("MP_SHARD") or "0/1").split("/")]


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


def _step(j, st):
    """One step; -> the journal (a new one after "start")."""
    if st[0] == "start":
        if j is not None:
            j.close()
        return journal.start(ROOT, "kiosk", seats=1, bowl_id=BOWL, stock=journal.carried(j, EVENT, BOWL),
                             plays=True)
    if st[0] == "allot":
        for ev in j.table.stock_events(*ALLOTS[st[1]]):
            j.play(*ev)
    else:
        j.play(st[1], st[2])
    return j


def _run(dev, steps=STEPS):
    done = 0
    j = None
    try:
        for st in steps:
            j = _step(j, st)
            done += 1
        j.close()
    except OSError:
        if dev.image is None:
            raise
        if j is not None:
            j.close()
    return done


def _ledger(j):
    """Awards per class over every game on flash, checked against the stock."""
    aw = {}
    for gid in journal.inventory(ROOT)[0]:
        for _n, cls, _k in outbox.replay(journal.path_of(ROOT, gid), gid)[2]:
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


def _check(k, torn):
    dev, done = FLASH.cut(BLANK, k, _run, torn)
    if dev.image is None:
        return None
    # the flash as it was at the cut, in the same buffer (_run closed its journal): a third
    # 96 KB buffer per cut fragmented the 32-bit port's 1 MB heap until one of ~1,800 cuts found no room
    return FLASH.at_cut(dev, _recovered, k, done, same_buffer=True)


def _recovered(k, done):
    r = journal.recover(ROOT)
    assert not r.problems, "cut %d: %s" % (k, log_lines(r))
    j = r.journal
    if j is None:  # the cut came before the first game's header was on flash
        assert done == 0, "cut %d: no game after %d steps" % (k, done)
        j = _step(None, STEPS[0])
        done = 1
    evs = []
    journal.scan(j.path, j.game_id, keep=evs)
    t = game.Table("kiosk", 1, counts=j.config.stock[4], bowl_id=BOWL, event=True,
                   grant_s=j.config.stock[2], granted=j.config.stock[3])
    for ev in evs:
        t.apply(*ev)
    assert (t.grant_s, t.granted, t.pool, t.awards, t.customer, t.shakes_left) == (
        j.table.grant_s, j.table.granted, j.table.pool, j.table.awards, j.table.customer,
        j.table.shakes_left), "cut %d: recovered table != fresh replay" % k
    _ledger(j)
    # The bowl wakes up and the desk's retained allot (its latest) arrives: a
    # grant half applied before the cut is completed, one applied is not
    # applied again: the bowl then holds exactly the desk's grant.
    for ev in j.table.stock_events(*ALLOTS[-1]):
        j.play(*ev)
    led = _ledger(j)
    for c in j.table.classes:
        assert j.table.granted[c] == dict(ALLOTS[-1][1]).get(c, 0), "cut %d: grant %s" % (k, c)
    assert j.table.stock_events(*ALLOTS[-1]) == []
    j.close()
    return done, led


def test_cut_at_every_flash_write_of_an_event_run():
    tried = 0
    for k in range(SHARD, OPS, SHARDS):
        got = _check(k, k % 3 == 2)
        assert got is not None
        tried += 1
    print("event run: %d steps (%d grants delivered, a new game mid-stock), %d flash operations, "
          "a power cut at %d of them (part %d of %d; every 3rd torn): stock conserved across games every time" % (
              len(STEPS), sum([1 for st in STEPS if st[0] == "allot"]), OPS, tried, SHARD, SHARDS))
    assert tried == len(range(SHARD, OPS, SHARDS)) and OPS > 50
