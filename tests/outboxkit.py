# What the outbox's tests share on both interpreters (CPython and the unix
# ports: tests/test_outbox_bounded.py, test_hidden_damage.py, bench/outbox_bench.py):
# finished games written as the journal writes them, the events of a whole
# family game or of a long kiosk game, every award by a full replay, and the
# outbox drained as the publisher drains it.
import os

from bobing import game, journal, outbox
from game_check import Lcg
from journal_probes import record

SECRET = b"outbox test key!"
EVENT = "midautumn"
BOWL = "5F"


def write_game(root, cfg, events, ck_at=0):
    """A finished game's files written as the journal writes them (header, records,
    and a checkpoint after ck_at events when given), without playing on flash."""
    try:
        os.mkdir(root)
    except OSError:
        pass
    gid = cfg.game_id
    path = root + "/" + journal._name(gid, journal.SUFFIX)
    t = journal.new_table(cfg, SECRET)
    f = open(path, "wb")
    f.write(cfg.encode())
    for i, (kind, arg) in enumerate(events):
        if i == ck_at and ck_at:
            state = t.snapshot()
        t.apply(kind, arg)
        rec = record(i, kind, journal.arg_code(kind, arg), gid)
        if i == ck_at and ck_at:
            ck = journal.checkpoint_bytes(gid, i, rec, state)
            with open(path[:-4] + journal.CKPT, "wb") as c:
                c.write(ck)
        f.write(rec)
    f.close()
    return t


def table_events(seed):
    """The events of a whole family game (xiamen, 10 seats) until it ended."""
    rnd = Lcg(seed)
    t = journal.new_table(journal.Config("xiamen", None, 10, game_id=1))
    ev = [(game.EV_START_SEAT, 1)]
    t.apply(*ev[0])
    while not t.ended:
        e = (game.EV_ROLL, tuple([1 + rnd(6) for _ in range(6)]))
        t.apply(*e)
        ev.append(e)
    return ev


def kiosk_events(seed, n, gid=1):
    """n events of a kiosk customer after another (a generator: a long game's
    events are never all in RAM)."""
    rnd = Lcg(seed)
    t = journal.new_table(journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, gid), SECRET)
    for _ in range(n):
        e = (game.EV_CUSTOMER, None) if not t.shakes_left else (game.EV_ROLL, tuple([1 + rnd(6) for _ in range(6)]))
        t.apply(*e)
        yield e


def all_awards(root):
    """Every award on flash by a full replay, in order: [(game, award no), ...]."""
    out = []
    for gid in journal.inventory(root)[0]:
        s, t, won = outbox.replay(root + "/" + journal._name(gid, journal.SUFFIX), gid)
        if t is not None and t.kiosk and s.config.bowl_id:
            out += [(gid, n) for n, _c, _k in won]
    return out


def drain(root, box, sent=None):
    """Call next() until it has nothing more, acknowledging each award -> (awards
    sent, the most records one call replayed, calls)."""
    sent = [] if sent is None else sent
    worst = calls = 0
    while True:
        n0 = journal.replayed()
        item = box.next()
        calls += 1
        worst = max(worst, journal.replayed() - n0)
        if item is None:
            if getattr(box, "busy", False):
                continue
            return sent, worst, calls
        sent.append((item[2], item[3]))
        box.sent(item[2], item[3])
