# Runs only on the MicroPython unix port: the journal on the real littlefs
# (vfs.VfsLfs2) over a RAM flash whose power goes at its k-th write or erase.
# For each cut point k: play from a fixed flash image until the cut, remount a
# copy of the flash bytes as they were at that instant, recover, and check:
# every event whose play() returned is back, at most the one in flight is
# lost, the recovered table equals a fresh replay of the recovered events,
# recovery never raises and finds no damage (littlefs commits are atomic), and
# the game then plays on to the same end as if nothing had happened.
# Every k over the first 100 events, and every k across two whole games (the
# second start prunes finished games), with the journal's tail folded into the
# journal file between events as the bowl does at rest, and filled up where it
# does not. Checkpoints every CK events
# here, so that cuts land in several checkpoint writes: a boot must still
# replay at most CK + 1 events, and only a cut inside a checkpoint's write may
# leave its .tmp (removed at recovery). Every cut point is checked in one uncut
# run (tests/powercut.py's sweep): the flash as a cut at operation k would leave
# it, mounted beside the run, instead of a replay from the start per cut.
import os
import sys

from bobing import game, journal

sys.path.append("tests")  # the runner's working folder is the repo
from game_check import Lcg
from journal_probes import log_lines
from powercut import Flash

NBLOCKS = 24
MNT = "/pcut"
ROOT = MNT + "/games"
SEATS = 10
CK = 16
journal.CHECKPOINT_EVERY = CK
FLASH = Flash(MNT, NBLOCKS)


def _script(seed, limit=100000):
    """A valid whole game: (kind, arg) events, made with game.Table itself."""
    rng = Lcg(seed)
    t = game.Table(journal.Config().make_profile(), SEATS)
    evs = [(game.EV_START_TOTAL, 2 + rng(6) + rng(6))]
    t.apply(*evs[0])
    while not t.ended and len(evs) < limit:
        if rng(40) == 0:
            ev = (game.EV_SPILL, None)
        else:
            ev = (game.EV_ROLL, tuple([1 + rng(6) for _ in range(6)]))
        t.apply(*ev)
        evs.append(ev)
    return evs


GAME1 = _script(7)
GAME2 = _script(8, 4)
OLD = GAME1[:40]  # each of the two old games
# Budget for finished games: game 3 fits, the old games 1 and 2 do not.
KEEP = len(journal.Config(seats=SEATS, game_id=3).encode()) + journal.RECORD * len(GAME1) + 8


def _state(t):
    """Everything a screen shows, as one comparable value."""
    aw = []
    for s in range(1, t.seats + 1):
        aw.append(sorted(t.awards[s].items()))
    return (t.events, t.turn, t.round, t.started, t.ended, t.reason, t.holder,
            None if t.holder_dice is None else tuple(t.holder_dice),
            sorted(t.pool.items()), sorted(t.grabbed.items()), aw)


def _replay(evs):
    t = game.Table(journal.Config().make_profile(), SEATS)
    for ev in evs:
        t.apply(*ev)
    return t


def _fresh_states(script):
    """_state of a fresh replay of script[:n], for every n: one replay, not one per cut."""
    t = game.Table(journal.Config().make_profile(), SEATS)
    out = [_state(t)]
    for ev in script:
        t.apply(*ev)
        out.append(_state(t))
    return out


def _steps():
    """The run as steps: ('start', game id) or (game id, event index)."""
    out = [("start", 3)]
    out += [(3, i) for i in range(len(GAME1))]
    out += [("start", 4)]
    out += [(4, i) for i in range(len(GAME2))]
    return out


STEPS = _steps()
SCRIPTS = {3: GAME1, 4: GAME2}
FRESH = {}  # script -> _fresh_states(script), made at its first check
SCANNED = {}  # game id -> (its file's bytes, its count) as last scanned and found right


def _two_old_games():
    """Two finished-looking old games (ids 1, 2)."""
    for _ in range(2):
        j = journal.start(ROOT, seats=SEATS, keep_bytes=100000)
        for ev in OLD:
            j.play(*ev)
        j.close()


BASE = FLASH.image(_two_old_games)
DONE = [0]  # steps the run has acknowledged so far
_TMP_SEEN = [0]  # recoveries that removed a half-written .tmp (a cut inside a file's creation)
_CK_USED = [0]  # recoveries that started from a checkpoint


def _rest(j, i):
    """The bowl at rest after event i (bowl/app.py folds the journal's tail then): after
    two events in three, so that a tail also holds several records, and fills up
    (its fold then inside an append) in the longer stretches without one."""
    if i % 3 != 2 and (i // 40) % 2 == 0:
        assert j.fold() is None


def _run(dev):
    """Play STEPS on a mounted dev until done or the power goes. -> steps acknowledged."""
    done = 0
    DONE[0] = 0
    j = None
    try:
        for st in STEPS:
            if st[0] == "start":
                if j is not None:
                    j.close()
                j = journal.start(ROOT, seats=SEATS, keep_bytes=KEEP)
            else:
                j.play(*SCRIPTS[st[0]][st[1]])
                _rest(j, st[1])
            done += 1
            DONE[0] = done
        j.close()
    except OSError:
        if dev.image is None:
            raise
        if j is not None:
            j.close()  # now, not in a finaliser later (the device still works after the cut)
    return done


def _expected(done):
    """(game id, events) the flash may hold after `done` acknowledged steps: the
    state after them, or after the one in flight."""
    out = []
    for n in (done, done + 1):
        if n == 0:
            out.append((2, 40))
            continue
        if n > len(STEPS):
            continue
        st = STEPS[n - 1]
        out.append((st[1], 0) if st[0] == "start" else (st[0], st[1] + 1))
    return out


def _recovered(root, k, done, resume):
    """The checks on the flash as the cut left it (games in `root`), after `done`
    acknowledged steps."""
    r0 = journal.replayed()
    try:
        r = journal.recover(root)
    except Exception as e:
        raise AssertionError("cut %d: recover raised %r" % (k, e))
    assert not r.problems and not r.notes, "cut %d: %s" % (k, log_lines(r))
    replayed = journal.replayed() - r0
    _TMP_SEEN[0] += len(r.removed)
    assert replayed <= CK + 1, (
        "cut %d: the boot replayed %d events, more than %d" % (k, replayed, CK + 1))
    if r.journal.ck:
        _CK_USED[0] += 1
    j = r.journal
    assert j is not None, "cut %d: no game recovered" % k
    got = (j.game_id, j.count)
    assert got in _expected(done), "cut %d: recovered %r after %d steps, expected one of %r" % (
        k, got, done, _expected(done))
    script = SCRIPTS.get(j.game_id, OLD)
    # the events on flash against the ones played: scanned again only when the game's file or count
    # differs from the last one checked (a scan reads that file alone, and neighbouring cuts mostly
    # recover the same bytes: a full scan per cut was a third of the sweep's time)
    f = open(j.path, "rb")
    seen = (f.read(), j.count)
    f.close()
    if SCANNED.get(j.game_id) != seen:
        evs = []
        journal.scan(j.path, j.game_id, keep=evs)
        assert evs == script[:j.count], "cut %d: recovered events differ from the ones played" % k
        SCANNED[j.game_id] = seen
    fresh = FRESH.get(id(script))
    if fresh is None:
        fresh = FRESH[id(script)] = _fresh_states(script)
    # evs is script[:j.count] (above), so its fresh replay is the script's after j.count events
    assert _state(j.table) == fresh[j.count], "cut %d: recovered table != fresh replay" % k
    if resume and j.game_id in SCRIPTS:
        # play on from where the bowl woke up: same end as an uncut game
        for ev in script[j.count:]:
            j.play(*ev)
        j.close()
        r2 = journal.recover(root)
        assert not r2.problems and r2.journal.count == len(script), "cut %d: resume" % k
        assert _state(r2.journal.table) == fresh[-1], "cut %d: resumed game differs" % k
        r2.journal.close()
    else:
        j.close()


def _ops_until(steps):
    """Flash operations used by the first `steps` steps of an uncut run."""
    def run(dev):
        j = None
        for st in STEPS[:steps]:
            if st[0] == "start":
                if j is not None:
                    j.close()  # (as _run does)
                j = journal.start(ROOT, seats=SEATS, keep_bytes=KEEP)
            else:
                j.play(*SCRIPTS[st[0]][st[1]])
                _rest(j, st[1])
        j.close()  # (its fold: cut points too)
        return dev.ops
    return FLASH.cut(BASE, -1, run)[1]


def _sweep(plan):
    """Cuts at the operations `plan` names ({k: (torn, resume)}), in one run -> (ops, cuts
    checked, the steps acknowledged at each cut)."""
    dones = {}
    _CK_USED[0] = _TMP_SEEN[0] = 0

    def check(root, k, torn):
        _recovered(root + "/games", k, DONE[0], plan[k][1])
        dones[k] = DONE[0]

    ops, tried = FLASH.sweep(BASE, _run, check, torn=lambda k: plan[k][0], want=lambda k: k in plan)
    return ops, tried, dones


def test_cut_at_every_write_of_the_first_100_events():
    n = _ops_until(101)  # the start and 100 events
    ops, tried, _ = _sweep({k: (k % 3 == 2, k % 5 == 0) for k in range(n)})
    print("power cuts tried over the first 100 events: %d (every write and erase; every 3rd torn); "
          "%d recoveries from a checkpoint, %d inside a file's creation" % (tried, _CK_USED[0], _TMP_SEEN[0]))
    assert tried == n and tried > 100 and _CK_USED[0] > 0 and _TMP_SEEN[0] > 0 and ops > n


def test_cut_at_every_point_of_two_whole_games():
    total = _ops_until(len(STEPS))
    # torn where the first test's cut was whole (and the reverse), play on after every 4th
    ops, tried, dones = _sweep({k: (k % 3 != 2, k % 4 == 1) for k in range(total)})
    print("power cuts tried over %d events of 2 games: %d (every flash operation; 2 in 3 torn)"
          % (len(GAME1) + len(GAME2), tried))
    assert tried == total == ops and max(dones.values()) >= len(GAME1) + 1, (tried, total, ops, max(dones.values()))


def test_uncut_run_prunes_and_ends():
    def run(dev):
        assert _run(dev) == len(STEPS)
        names = os.listdir(ROOT)
        ids = journal.inventory(ROOT)[0]
        r = journal.recover(ROOT)
        assert r.journal.game_id == 4 and r.journal.count == len(GAME2)
        r.journal.close()
        return ids, names

    ids, names = FLASH.cut(BASE, -1, run)[1]
    # starting game 4 pruned the old games 1 and 2 (oldest first) to fit KEEP
    assert ids == [3, 4], (ids, names)
    assert _replay(GAME1).ended
