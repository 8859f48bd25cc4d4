# micropython: yes
# The LED ring's patterns: what each rank and moment looks like, the settings,
# and the two kinds of target (a neopixel byte buffer, a list of colours).
from bobing import game, leds, profiles, rules


def _show(ring, p, f):
    return ring.render(p, f, [None] * ring.count)


def _lit(cols):
    return [c for c in cols if c != (0, 0, 0)]


def _raises(f):
    try:
        f()
    except ValueError as e:
        return len(str(e)) > 10
    return False


def test_settings_are_checked():
    assert _raises(lambda: leds.Ring(0))
    assert _raises(lambda: leds.Ring(65))
    assert _raises(lambda: leds.Ring(12, 256))
    assert _raises(lambda: leds.Ring(12, -1))
    assert _raises(lambda: leds.Ring(12, 64, "BGR"))
    r = leds.Ring(12, 255)
    assert _raises(lambda: r.render(99, 0, [None] * 12))
    assert _raises(lambda: r.render(1, -1, [None] * 12))
    assert _raises(lambda: r.render(1, 0, [None] * 11))
    assert _raises(lambda: r.render(1, 0, bytearray(35)))


def test_every_pattern_is_defined_for_every_frame_and_count():
    for n in (1, 8, 12, 16, 24):
        r = leds.Ring(n, 255)
        for p in list(range(len(rules.RANK_IDS))) + list(leds.MOMENTS):
            for f in (0, 1, 7, r.frames(p) - 1, r.frames(p), 12345):
                cols = _show(r, p, f)
                assert len(cols) == n
                for c in cols:
                    assert len(c) == 3 and 0 <= min(c) and max(c) <= 255


def test_patterns_of_different_ranks_differ():
    r = leds.Ring(12, 255)
    seen = {}
    for p in list(range(len(rules.RANK_IDS))) + list(leds.MOMENTS):
        if p == leds.P_OFF:
            continue
        # a signature over a few seconds of the show
        sig = []
        for f in range(0, r.frames(p) + 60, 5):
            sig.append(tuple(_show(r, p, f)))
        sig = tuple(sig)
        assert sig not in seen, "pattern %d looks like pattern %d" % (p, seen.get(sig))
        seen[sig] = p


def test_zhuangyuan_is_a_red_sweep():
    r = leds.Ring(12, 255)
    for p in range(rules.SIHONG, rules.CHAJINHUA + 1):
        prev = 0
        for f in range(0, 24, 2):  # two frames per LED
            cols = _show(r, p, f)
            lit = _lit(cols)
            assert len(lit) == f // 2 + 1 and len(lit) >= prev
            prev = len(lit)
            for c in lit[:-1]:
                assert c == (255, 0, 0)  # red behind the bright head
        assert len(_lit(_show(r, p, 23))) == 12


def test_chajinhua_turns_gold():
    r = leds.Ring(12, 255)
    for f in range(24, 24 + 90, 7):
        cols = _show(r, rules.CHAJINHUA, f)
        gold = [c for c in cols if c[0] == 255 and c[1] >= 150 and c[2] < c[1]]
        assert len(gold) == 12


def test_grab_is_a_dark_moment_then_flashes():
    r = leds.Ring(12, 255)
    for f in range(45):  # 1.5 s of lights off
        assert not _lit(_show(r, leds.P_GRAB, f))
    flashes = 0
    for f in range(45, 105):
        flashes += len(_lit(_show(r, leds.P_GRAB, f)))
    assert flashes > 60
    t = game.Table(profiles.Profile("xiamen", {"heiliubo_effect": "grab"}))
    t.start_seat(1)
    assert leds.pattern_for(t.roll([3] * 6)) == leds.P_GRAB


def test_liubohong_is_all_red_and_none_fades_out():
    r = leds.Ring(16, 255)
    for f in range(32, 80):
        cols = _show(r, rules.LIUBOHONG, f)
        assert len(set(cols)) == 1 and cols[0][0] >= 90 and cols[0][1:] == (0, 0)
    levels = [_show(r, rules.NONE, f)[0][0] for f in range(0, 16)]
    assert levels == sorted(levels, reverse=True) and levels[0] > 0 and levels[-1] == 0


def test_brightness_scales_and_order_swaps_channels():
    full = leds.Ring(12, 255, "RGB")
    half = leds.Ring(12, 127, "RGB")
    off = leds.Ring(12, 0, "RGB")
    grb = leds.Ring(12, 255, "GRB")
    for p in (rules.DUITANG, rules.CHAJINHUA, leds.P_GAME_OVER):
        for f in (0, 40, 77):
            a = full.render(p, f, bytearray(36))
            b = half.render(p, f, bytearray(36))
            assert bytes(off.render(p, f, bytearray(36))) == bytes(36)
            for i in range(36):
                assert b[i] == a[i] // 2
            g = grb.render(p, f, bytearray(36))
            for i in range(12):
                assert (g[3 * i], g[3 * i + 1], g[3 * i + 2]) == (a[3 * i + 1], a[3 * i], a[3 * i + 2])
            cols = full.render(p, f, [None] * 12)
            for i in range(12):
                assert cols[i] == (a[3 * i], a[3 * i + 1], a[3 * i + 2])


def test_pattern_for_an_outcome():
    t = game.Table(profiles.Profile("xiamen", {"time_limit": 30}))
    assert leds.pattern_for(t.start_seat(1)) == leds.P_IDLE
    assert leds.pattern_for(t.roll([1, 2, 3, 4, 5, 6])) == rules.DUITANG
    assert leds.pattern_for(t.roll([4, 1, 4, 4, 1, 4])) == rules.CHAJINHUA
    assert leds.pattern_for(t.spill()) == leds.P_SPILL
    assert leds.pattern_for(t.time_up()) == leds.P_IDLE
    assert leds.pattern_for(t.roll([4, 4, 4, 4, 4, 4])) == rules.LIUBOHONG


def test_the_ring_is_powered_only_once_its_data_line_is_driven():
    # GPIO13 floats out of reset (machine_pin.c: an input, no pull): a ring powered before board.py
    # drives it latches noise as colours, seen until the first frame
    from bowlrun import Stream, hal, new_root
    sim = hal.Sim(new_root("ringpower"), urandom=Stream(3))
    sim.step(200)
    sim.power_cut()
    sim.step(200)
    assert sim.board.ring.garbled == 0 and sim.board.ring.writes > 0
