# micropython: yes
# The outbox's incremental reader (bobing/outbox.py): it follows the game being
# played and reads only the records appended since it last looked, yet must hand
# out exactly the awards a full replay of the journal gives, in order, each once
# (again only after a cut between the broker's PUBACK and the cursor's rename),
# through power cuts, damaged tails repaired by journal.recover(), checkpoints
# (a boot starts from one), games that end and new ones. On CPython the games
# live in a temporary folder; on the MicroPython unix port in a real littlefs.
import os
import sys

from bobing import game, journal, outbox
from game_check import Lcg
from journal_probes import log_lines
from ramflash import RamFlash

MP = sys.implementation.name == "micropython"
SECRET = b"outbox test key!"
EVENT = "midautumn"
BOWL = "5F"
_n = [0]
_mounted = []


def _root():
    """A fresh, empty folder for games (the previous one goes)."""
    _n[0] += 1
    _REPLAYS.clear()
    if MP:
        import vfs
        while _mounted:
            vfs.umount(_mounted.pop())
        mnt = "/ob%d" % _n[0]
        _mounted.append(mnt)
        dev = RamFlash(24)
        vfs.VfsLfs2.mkfs(dev)
        vfs.mount(vfs.VfsLfs2(dev), mnt)
        return mnt + "/games"
    import tempfile
    return os.path.join(tempfile.mkdtemp(), "games")


def _kiosk(root, rnd):
    counts = {"yixiu": 2 + rnd(30), "erju": rnd(6), "sijin": rnd(4), "sanhong": rnd(3), "duitang": rnd(3),
              "zhuangyuan": rnd(2)}
    return journal.start(root, "kiosk", None, 1, counts, BOWL, SECRET)


def _play(j, rnd, shown):
    """One event of a kiosk customer, and the bowl at rest after it (its journal's tail
    folded into the file the outbox reads, as bowl/app.py does); the claims the console
    would show go to shown."""
    t = j.table
    if not t.shakes_left:
        j.play(game.EV_CUSTOMER, None)
        j.fold()
        return
    if rnd(12) == 0:
        out = j.play(game.EV_SPILL, None)
    else:
        out = j.play(game.EV_ROLL, [1 + rnd(6) for _ in range(6)])
    j.fold()
    first = t.award_no - len(out.won) + 1
    for i in range(len(out.won)):
        shown[(j.game_id, first + i)] = (out.won[i][0], out.claims[i])


_REPLAYS = {}  # path -> (its bytes, what _awards_of found in them): the oracle's memo of one root


def _awards_of(path, gid):
    """outbox.replay's awards of a game file, or () for a game with nothing to claim; replayed
    again only when the file's bytes changed (a replay reads that file alone), so a session's
    oracle costs one replay per change, not one per game per check (quadratic in its length)."""
    try:
        f = open(path, "rb")
        data = f.read()
        f.close()
    except OSError:
        data = None
    memo = _REPLAYS.get(path)
    if memo is not None and memo[0] == data:
        return memo[1]
    s, t, awards = outbox.replay(path, gid)
    if t is None or not t.kiosk or not s.config.bowl_id:
        awards = ()
    _REPLAYS[path] = (data, awards)
    return awards


def _full(root, cursor):
    """The first award after cursor by a full replay of every game -> (g, n, cls, customer) or None."""
    for gid in journal.inventory(root)[0]:
        if gid < cursor[0]:
            continue
        for n, cls, k in _awards_of(journal.path_of(root, gid), gid):
            if gid > cursor[0] or n > cursor[1]:
                return gid, n, cls, k
    return None


def _item(root, a):
    g, n, cls, k = a
    return outbox.topic(EVENT, BOWL, "award"), outbox.award_payload(g, n, cls, k), g, n, (n, 0, 0)  # (its place)


def _next(box):
    """box.next(), called again while it stops at a step with more to read."""
    while True:
        item = box.next()
        if item is not None or not box.busy:
            return item


def _damage(j, rnd):
    """A write that failed half way: bytes after the last good record (a torn or garbled record)."""
    path = j.path
    j.close()
    f = open(path, "ab")
    f.write(bytes([rnd(256) for _ in range(1 + rnd(9))]))
    f.close()


def _session(seed, steps):
    rnd = Lcg(seed)
    root = _root()
    shown = {}
    got = []  # identities the broker acknowledged, in order
    redo = set()  # identities acknowledged again after a cut before the cursor moved
    j = _kiosk(root, rnd)
    box = outbox.Outbox(root, EVENT)
    cuts = repairs = ended = 0
    for _ in range(steps):
        r = rnd(100)
        if j is None or j.table.ended:
            if j is not None:
                ended += 1
                j.close()
            if rnd(8) == 0:
                journal.start(root, "xiamen", None, 4).close()  # a table game: nothing to send
            j = _kiosk(root, rnd)
        elif r < 55:
            _play(j, rnd, shown)
        elif r < 85:
            item = _next(box)
            want = _full(root, box.cursor)
            assert item == (None if want is None else _item(root, want)), (seed, box.cursor, item)
            if item is None:
                continue
            key = (item[2], item[3])
            if rnd(10) == 0:  # the power fails after the PUBACK, before the cursor's rename
                redo.add(key)
                got.append(key)
                j.close()
                j = journal.recover(root, SECRET).journal
                box = outbox.Outbox(root, EVENT)
                cuts += 1
                continue
            got.append(key)
            box.sent(item[2], item[3])
        elif r < 92:  # a power cut: the outbox's RAM is gone, the journal resumes (from its checkpoint)
            j.close()
            j = journal.recover(root, SECRET).journal
            box = outbox.Outbox(root, EVENT)
            cuts += 1
        else:  # a failed write repaired at run time: the live outbox sees the file rewritten under it
            _damage(j, rnd)
            if rnd(2):
                _next(box)  # it reads the damaged tail first
            rec = journal.recover(root, SECRET)
            assert rec.problems and rec.journal is not None, log_lines(rec)
            j = rec.journal
            repairs += 1
    if j is not None:
        j.close()
    while True:
        item = _next(box)
        if item is None:
            break
        got.append((item[2], item[3]))
        box.sent(item[2], item[3])
    assert _full(root, box.cursor) is None
    once = []
    for k in got:
        if once and once[-1] == k:
            assert k in redo, (seed, k)  # sent again only after the cut
            continue
        assert not once or k > once[-1], (seed, k, once[-1])
        once.append(k)
    assert once == sorted(shown), (seed, once, sorted(shown))
    return len(once), cuts, repairs, ended


def test_incremental_reader_hands_out_what_a_full_replay_does():
    every = journal.CHECKPOINT_EVERY
    journal.CHECKPOINT_EVERY = 8  # checkpoints in short games: a boot starts from one
    try:
        totals = [0, 0, 0, 0]
        for seed in range(1, 9 if MP else 25):
            for i, v in enumerate(_session(seed, 160)):
                totals[i] += v
    finally:
        journal.CHECKPOINT_EVERY = every
    awards, cuts, repairs, ended = totals
    assert awards > 100 and cuts > 10 and repairs > 5 and ended > 2, totals


def _kiosk_game(root, seed, awards=0, events=0):
    """A kiosk game with a large stock, played until it paid `awards` awards and holds
    `events` events -> (its open journal, the Lcg, the claims shown)."""
    rnd = Lcg(seed)
    j = journal.start(root, "kiosk", None, 1, {"yixiu": 900}, BOWL, SECRET)
    shown = {}
    while len(shown) < awards or j.count < events:
        _play(j, rnd, shown)
    return j, rnd, shown


def _caught_up(root, box):
    while True:
        item = _next(box)
        if item is None:
            return
        box.sent(item[2], item[3])


def test_the_outbox_reads_only_what_was_appended():
    root = _root()
    j, rnd, shown = _kiosk_game(root, 5, events=120)
    box = outbox.Outbox(root, EVENT)
    _caught_up(root, box)
    for _ in range(40):
        n0 = journal.replayed()
        _play(j, rnd, shown)
        before = box.cursor
        _caught_up(root, box)
        assert journal.replayed() - n0 == 1  # the one record appended, not the game
        assert box.cursor[1] == max([n for g, n in shown] + [before[1]])
    j.close()


def test_a_finished_game_with_nothing_left_is_not_read_again():
    root = _root()
    j, _, shown = _kiosk_game(root, 6, awards=5)
    j.close()
    journal.start(root, "xiamen", None, 4).close()  # the newest game pays nothing to send
    box = outbox.Outbox(root, EVENT)
    _caught_up(root, box)
    n0 = journal.replayed()
    for _ in range(5):
        assert _next(box) is None
    assert journal.replayed() == n0  # neither game is replayed while idle


def test_a_boot_starts_from_the_checkpoint_when_no_award_to_send_is_before_it():
    root = _root()
    j, _, shown = _kiosk_game(root, 7, events=5 * journal.CHECKPOINT_EVERY)
    j.close()
    last = max(shown)
    outbox.write_cursor(root, 1, last[1] - 1)  # one award left, after the checkpoint
    n0 = journal.replayed()
    item = _next(outbox.Outbox(root, EVENT))
    assert journal.replayed() - n0 <= journal.CHECKPOINT_EVERY + 1
    assert item == _item(root, _full(root, (1, last[1] - 1))) and item[3] == last[1]
    outbox.write_cursor(root, 1, 1)  # awards before the checkpoint still to send: the whole game
    n0 = journal.replayed()
    item = _next(outbox.Outbox(root, EVENT))
    # from the start (the checkpoint is past award 1), only as far as the award: one step
    assert journal.replayed() - n0 <= outbox.STEP
    assert item == _item(root, _full(root, (1, 1)))


def test_a_game_file_replaced_under_the_outbox_is_read_again_whole():
    # the outbox read game 1; then another game 1, longer, stands in its place (its files were
    # removed and a new game started): the record it read last is not there as it was
    root = _root()
    for seed in (8, 9):
        j, _, shown = _kiosk_game(root, seed, awards=6 * seed)
        j.close()
        if seed == 8:
            box = outbox.Outbox(root, EVENT)
            item = _next(box)
            box.sent(item[2], item[3])
            for name in os.listdir(root):
                if journal.id_of(name) == 1:
                    os.remove(root + "/" + name)
    item = _next(box)
    assert item == _item(root, _full(root, box.cursor))


def test_a_repaired_game_grown_back_to_the_size_the_outbox_saw_is_read():
    # a failed write left 12 bytes of garbage; the outbox read the file so (a damaged tail);
    # recover() cut them away, and two more events brought the file back to that very size
    root = _root()
    j, _, shown = _kiosk_game(root, 10, awards=3)
    box = outbox.Outbox(root, EVENT)
    _caught_up(root, box)
    path = j.path
    j.close()
    with open(path, "ab") as f:
        f.write(b"\x03\xff\xff\xff\x00\x00" * 2)
    size = os.stat(path)[6]
    assert _next(box) is None
    scans = [0]
    real = journal.scan

    def counted(*a, **k):
        scans[0] += 1
        return real(*a, **k)
    journal.scan = counted
    try:
        for _ in range(3):
            assert _next(box) is None
    finally:
        journal.scan = real
    assert scans[0] == 0  # idle: the damaged tail is not read again while it stays as it is
    j = journal.recover(root, SECRET).journal
    while os.stat(path)[6] < size:  # two events, at least one a roll of 一秀
        if j.table.shakes_left:
            j.play(game.EV_ROLL, (4, 1, 1, 2, 2, 3))
        else:
            j.play(game.EV_CUSTOMER, None)
        j.fold()  # (at rest after each: into the file)
    j.close()
    assert os.stat(path)[6] == size
    want = _full(root, box.cursor)
    assert want is not None
    assert _next(box) == _item(root, want)


def test_a_game_whose_header_is_unreadable_is_passed_over():
    root = _root()
    j, _, shown = _kiosk_game(root, 11, awards=3)
    j.close()
    with open(journal.path_of(root, 2), "wb") as f:
        f.write(b"BB")  # a game whose header was cut short
    box = outbox.Outbox(root, EVENT)
    got = []
    for _ in range(len(shown) + 2):
        item = _next(box)
        if item is not None:
            got.append((item[2], item[3]))
            box.sent(item[2], item[3])
    assert got == sorted(shown) and _next(box) is None


def test_customers_let_in_by_the_key_go_out_in_the_journals_order_and_again_after_a_cut():
    root = _root()
    j = journal.start(root, "kiosk", None, 1, {"yixiu": 400, "erju": 100}, BOWL, SECRET)
    rnd = Lcg(7)
    order = []  # what the journal says, in its order: ("key", customer) or ("award", n)
    minute = 0
    while j.table.customer < 12:
        t = j.table
        if not t.shakes_left:
            who = journal.BY_KEY if t.customer % 3 != 1 else journal.BY_PIN
            minute += 2
            j.play(game.EV_CUSTOMER, None, journal.customer_meta(who, minute))
            if who == journal.BY_KEY:
                order.append(("key", t.customer, minute))
        else:
            out = j.play(game.EV_ROLL, [1 + rnd(6) for _ in range(6)])
            for i in range(len(out.won)):
                order.append(("award", t.award_no - len(out.won) + 1 + i))
    j.close()
    assert len([x for x in order if x[0] == "key"]) == 8 and len(order) > 12

    def drain(box, stop=None):
        got = []
        while True:
            item = _next(box)
            if item is None:
                return got
            tp, body = item[0].decode() if isinstance(item[0], bytes) else item[0], item[1]
            if tp.endswith("/key"):
                _b, g, k, m = outbox.decode_key(EVENT, tp, body)
                got.append(("key", k, m))
            else:
                got.append(("award", item[3]))
            box.sent(item[2], item[3], False, item[4])
            if stop is not None and got[-1] == stop:
                return got
    box = outbox.Outbox(root, EVENT)
    assert drain(box) == order  # every key customer once, in place among the awards
    # a cut after an award whose next item is a key customer: that customer (not acknowledged) again
    i = [k for k in range(1, len(order)) if order[k - 1][0] == "award" and order[k][0] == "key"][0]
    outbox.write_cursor(root, 1, order[i - 1][1])
    again = drain(outbox.Outbox(root, EVENT))
    assert again == order[i:], (again[:3], order[i:i + 3])
