# micropython: -X heapsize=128K
# Runs only on the MicroPython unix port, in a 128 KB heap: whole 10-seat games
# of the default profile, with these figures printed:
#   peak heap (gc.mem_alloc high-water after every event, GC running as it
#   would on the bowl), peak live heap (collected after every event), the
#   table's own size, and the bytes allocated per event on the award path.
import gc

from bobing import game


class Lcg:  # as tests/game_check.Lcg (tests/ is not on this module's path)
    def __init__(self, seed):
        self.x = seed

    def __call__(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def fill(buf, rnd):
    for i in range(6):
        buf[i] = rnd(6) + 1


def play(seed, collect):
    """One whole default game at 10 seats -> (events, peak mem_alloc, reason)."""
    rnd = Lcg(seed)
    buf = bytearray(6)
    t = game.Table(None, 10)
    t.start_total(rnd(11) + 2)
    peak = gc.mem_alloc()
    n = 0
    while not t.ended:
        if rnd(100) < 2:
            t.spill()
        else:
            fill(buf, rnd)
            t.roll(buf)
        n += 1
        if collect:
            gc.collect()
        a = gc.mem_alloc()
        if a > peak:
            peak = a
    return n, peak, t.reason


def test_whole_default_games_in_128k_heap():
    gc.collect()
    base = gc.mem_alloc()
    total = base + gc.mem_free()
    peak_raw = 0
    peak_live = 0
    events = 0
    for seed in (1, 2, 3, 4, 5):
        n, p, reason = play(seed, False)
        events += n
        peak_raw = max(peak_raw, p)
        gc.collect()
        n, p, reason = play(seed, True)
        peak_live = max(peak_live, p)
        assert reason in ("prizes_out", "liubohong", "heiliubo_grab"), reason
    gc.collect()
    before = gc.mem_alloc()
    t = game.Table(None, 10)
    gc.collect()
    table_bytes = gc.mem_alloc() - before
    print("game heap: heap %d B; baseline (modules and tests loaded) %d B" % (total, base))
    print("game heap: peak mem_alloc %d B (+%d over baseline), GC as needed, 5 games, %d events"
          % (peak_raw, peak_raw - base, events))
    print("game heap: peak live heap %d B (+%d over baseline, collected after every event)"
          % (peak_live, peak_live - base))
    print("game heap: one 10-seat Table = %d B" % table_bytes)
    assert t.seats == 10
    # a whole game needs well under 16 KB of live heap: nothing grows with the game
    assert peak_live - base < 16384, (peak_live - base, table_bytes)


def allocated(fn, arg):
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        r = fn(arg)
        return gc.mem_alloc() - a, r
    finally:
        gc.enable()


def test_award_path_allocations():
    # What an event allocates: the Outcome, its lists, the dice tuple, the
    # (class, from_seat) tuples of what it won. Nothing grows with the game.
    t = game.Table(None, 10, counts={"duitang": 1})
    t.start_seat(1)
    roll = bytearray([1, 2, 3, 5, 6, 6])
    nothing, _ = allocated(t.roll, roll)
    roll[:] = bytearray([1, 2, 3, 5, 6, 4])
    one_prize, out = allocated(t.roll, roll)
    roll[:] = bytearray([2, 2, 2, 2, 4, 4])
    two_prizes, out = allocated(t.roll, roll)
    won2 = out.won
    roll[:] = bytearray([4, 4, 4, 4, 5, 6])
    zhuangyuan, out = allocated(t.roll, roll)
    spill, _ = allocated(lambda _: t.spill(), None)
    bare, _ = allocated(lambda _: game.Outcome(3, 1), None)
    print("game heap: bytes allocated per event: no prize %d, one prize %d, two prizes %d, "
          "a 状元 standing %d, a spill %d; of which an empty Outcome %d"
          % (nothing, one_prize, two_prizes, zhuangyuan, spill, bare))
    assert len(won2) == 2
    assert one_prize < 1024 and two_prizes < 1024 and zhuangyuan < 1024
    # a prize costs its (class, from_seat) tuple and the list's room, no more
    assert one_prize - nothing <= 64, (one_prize, nothing)
    # beyond the bare Outcome a roll costs its dice tuple and the attributes it sets
    assert nothing - bare <= 256, (nothing, bare)
