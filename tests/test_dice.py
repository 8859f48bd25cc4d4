# micropython: yes
# bobing.dice: rejection sampling, the shake in the mix, and the NIST SP
# 800-90B health tests catching stuck, repeating and biased sources.
import hashlib

from bobing import dice

from hostmods import dice_stats


def raises(exc, f, *args):
    try:
        f(*args)
    except exc as e:
        return e
    raise AssertionError("%s not raised" % exc.__name__)


def test_accept_maps_every_byte_value_evenly_and_rejects_the_top_four():
    per_face = [0] * 7
    out = bytearray(6)
    rejected = 0
    for b in range(256):
        if dice.accept(bytes([b]), out, 0) == 1:
            per_face[out[0]] += 1
        else:
            rejected += 1
    assert per_face[1:] == [42] * 6
    assert rejected == 4
    # 252..255 never become a face, whatever precedes them
    out = bytearray(6)
    assert dice.accept(bytes([252, 253, 254, 255, 0, 5, 11]), out, 0) == 3
    assert list(out[:3]) == [1, 6, 6]


def test_accept_fills_from_where_it_left_off_and_stops_at_six():
    out = bytearray(6)
    n = dice.accept(bytes([0, 1]), out, 0)
    assert n == 2
    n = dice.accept(bytes([2, 3, 4, 5, 6, 7, 8]), out, n)
    assert n == 6
    assert list(out) == [1, 2, 3, 4, 5, 6]


def test_roll_gives_six_faces_and_counts():
    d = dice.Dice(dice_stats.SeededSource("roll"))
    out = bytearray(6)
    seen = set()
    for _ in range(200):
        r = d.roll(out)
        assert r is out
        for f in out:
            assert 1 <= f <= 6
            seen.add(f)
    assert d.rolls == 200
    assert seen == {1, 2, 3, 4, 5, 6}


def test_the_same_source_and_shake_give_the_same_roll():
    a = dice.Dice(dice_stats.SeededSource("same"))
    b = dice.Dice(dice_stats.SeededSource("same"))
    ra, rb = bytearray(6), bytearray(6)
    for i in range(20):
        for k in range(40):
            a.absorb(1000 + 10 * k, k, -k, 1000)
            b.absorb(1000 + 10 * k, k, -k, 1000)
        assert a.roll(ra) == b.roll(rb)


def test_each_roll_depends_on_the_shake():
    # same source bytes, shakes that differ in one sample's timing by 1 us
    a = dice.Dice(dice_stats.SeededSource("shake"))
    b = dice.Dice(dice_stats.SeededSource("shake"))
    fa, fb = [], []
    ra, rb = bytearray(6), bytearray(6)
    for i in range(30):
        for k in range(50):  # more than one buffer's worth, and a partial one
            a.absorb(5000 + 10 * k, 300 * k, -200, 1000)
            b.absorb(5000 + 10 * k + (1 if k == 7 else 0), 300 * k, -200, 1000)
        fa.extend(a.roll(ra))
        fb.extend(b.roll(rb))
    assert fa != fb
    # and on the number of samples (a trailing zero sample is not "no sample")
    c = dice.Dice(dice_stats.SeededSource("n"))
    e = dice.Dice(dice_stats.SeededSource("n"))
    fc, fe = [], []
    for i in range(30):
        c.absorb(0, 0, 0, 0)
        fc.extend(c.roll(ra))
        fe.extend(e.roll(rb))
    assert fc != fe


def test_draw_hashes_again_when_a_digest_has_too_few_accepted_bytes():
    d = dice.Dice(dice_stats.SeededSource("more"))
    out = bytearray(6)
    all_rejected = bytes([255] * 32)
    d.draw(all_rejected, out)
    for f in out:
        assert 1 <= f <= 6
    # deterministic: the extension is a function of the digest alone
    out2 = bytearray(6)
    d.draw(all_rejected, out2)
    assert out == out2
    h = hashlib.sha256(b"bobing-dice-v1")
    h.update(all_rejected)
    h.update(b"more")
    expect = bytearray(6)
    assert dice.accept(h.digest(), expect, 0) == 6
    assert out == expect


def stuck(n):
    return bytes(n)


def test_a_stuck_source_is_refused_at_start_up():
    e = raises(dice.EntropyError, dice.Dice, stuck)
    assert e.test == "rct"
    assert "6 equal bytes" in str(e)
    assert e.test in dice.HEALTH_ZH


class Breaking:
    """Good bytes for `good` bytes, then whatever `bad(n)` gives."""

    def __init__(self, good, bad):
        self.src = dice_stats.SeededSource("breaking")
        self.left = good
        self.bad = bad

    def __call__(self, n):
        if self.left >= n:
            self.left -= n
            return self.src(n)
        return self.bad(n)


def test_a_source_that_gets_stuck_later_stops_the_bowl_for_good():
    src = Breaking(1024 + 32 * 5, stuck)
    d = dice.Dice(src)
    out = bytearray(6)
    for _ in range(5):
        d.roll(out)
    before = bytes(out)
    e = raises(dice.EntropyError, d.roll, out)
    assert e.test == "rct"
    assert bytes(out) == before  # no faces were written
    # latched: even a healthy source again does not roll
    src.bad = src.src
    e2 = raises(dice.EntropyError, d.roll, out)
    assert e2 is e
    assert d.failed is e


def test_a_source_replaying_one_block_is_caught():
    block = dice_stats.SeededSource("replay")(32)

    def replay(n):
        return dice_stats.SeededSource("start")(n) if n != 32 else block

    d = dice.Dice(replay)
    out = bytearray(6)
    d.roll(out)  # the first time the block is new
    e = raises(dice.EntropyError, d.roll, out)
    assert e.test == "repeat"


def test_a_short_cycle_is_caught_by_the_adaptive_proportion_test():
    # 1 2 3 4 1 2 3 4 ...: never two equal in a row, but the window's first
    # value comes back 128 times in 512
    state = [0]

    def cycle(n):
        out = bytearray(n)
        for i in range(n):
            out[i] = state[0] % 4 + 1
            state[0] += 1
        return bytes(out)

    e = raises(dice.EntropyError, dice.Dice, cycle)
    assert e.test == "apt"
    assert "62 times" in str(e)


def test_cutoff_boundaries_rct_5_passes_6_fails():
    good = dice_stats.SeededSource("boundary")
    d = dice.Dice(good)
    block = bytearray(good(32))
    for i in range(5):
        block[10 + i] = 0xAB
    block[9] = 0x01
    block[15] = 0x02
    d.check(bytes(block))  # five in a row: fine
    block2 = bytearray(good(32))
    for i in range(6):
        block2[3 + i] = 0xCD
    block2[2] = 0x01
    e = raises(dice.EntropyError, d.check, bytes(block2))
    assert e.test == "rct"


def test_cutoff_boundaries_apt_61_passes_62_fails():
    def window(matches):
        # a 512-byte window: value 7 first and `matches - 1` more times, spread out
        w = bytearray(dice_stats.SeededSource("apt%d" % matches)(512))
        for i in range(512):
            if w[i] == 7:
                w[i] = 8
        for k in range(matches):
            w[k * 8] = 7
        return bytes(w)

    for matches, ok in ((61, True), (62, False)):
        d = dice.Dice(dice_stats.SeededSource("w"))
        d._apt_i = 0  # align a window with the test data
        w = window(matches)
        err = None
        try:
            for i in range(16):
                d._health(w[32 * i:32 * i + 32])
        except dice.EntropyError as e:
            err = e
        assert (err is None) == ok, (matches, err)


def test_a_source_giving_short_reads_or_raising_is_refused():
    e = raises(dice.EntropyError, dice.Dice, lambda n: b"\x01\x02")
    assert e.test == "source"

    def broken(n):
        raise OSError(5)

    e = raises(dice.EntropyError, dice.Dice, broken)
    assert e.test == "source"


def test_running_out_of_memory_at_start_up_is_told_apart_from_a_failed_health_test():
    # near the heap limit the start-up read itself can fail: the bowl refuses to roll,
    # reporting out-of-memory, not a bad random source
    def no_memory(n):
        raise MemoryError("memory allocation failed, allocating %d bytes" % n)

    e = raises(dice.EntropyError, dice.Dice, no_memory)
    assert e.test == "memory" and "out of memory" in str(e), (e.test, str(e))
    assert dice.HEALTH_ZH[e.test] == "RAM已用完"
    import sys
    if sys.implementation.name != "micropython":
        return
    import micropython  # a real MemoryError from the real os.urandom, on a locked heap
    import os

    def locked(n):
        micropython.heap_lock()
        try:
            return os.urandom(n)
        finally:
            micropython.heap_unlock()

    assert raises(dice.EntropyError, dice.Dice, locked).test == "memory"


def test_cutoffs_are_the_documented_ones():
    assert dice.RCT_CUTOFF == 6
    assert dice.APT_CUTOFF == 62
    assert dice.APT_WINDOW == 512
