# micropython: yes
# bobing.shake: the detector over the traces of tests/data/traces/ (made by
# host_sim/tools/make_traces.py), settings, wrap-safe ticks, stuck sensors and
# the hand-off of the shake's samples to the dice pool.
import time

from bobing import dice, profiles, shake

from hostmods import TRACES, dice_stats, fake_mpu6050

SHAKES = ("clean_normal_shake", "clean_long_shake", "model_normal_shake", "model_long_shake",
          "model_gentle_shake")
VIOLENT = ("clean_violent_shake", "model_violent_shake")
JOLTS = ("clean_tap", "model_tap", "model_double_tap")
REST = ("clean_rest_noise", "model_rest_noise")


def replay(name, t0=0, **kw):
    """-> (list of event ids, detector) for one trace, its times shifted to
    start at tick t0; rearms after a roll."""
    det = shake.Detector(**kw)
    events = []
    for t, ax, ay, az in fake_mpu6050.load_trace(TRACES + name + ".csv"):
        e = det.feed(time.ticks_add(t0, t), ax, ay, az)
        if e:
            events.append(shake.EVENT_IDS[e])
            if e == shake.EV_ROLLED or e == shake.EV_SPILL:
                det.rearm()
    return events, det


def test_a_normal_shake_rolls_once():
    for name in SHAKES:
        ev, det = replay(name)
        assert ev == ["shake", "rolled"], (name, ev)
        assert det.duration >= 1000, (name, det.duration)


def test_taps_and_knocks_are_ignored_as_jolts():
    for name in JOLTS:
        ev, det = replay(name)
        assert ev == ["shake", "jolt"], (name, ev)
        assert det.state == shake.IDLE


def test_noise_and_a_slow_tilt_at_rest_do_nothing():
    for name in REST:
        ev, det = replay(name)
        assert ev == [], (name, ev)
        assert not det.stuck


def test_a_violent_shake_is_a_spill_only_when_the_option_is_on():
    for name in VIOLENT:
        ev, _ = replay(name)
        assert ev == ["shake", "rolled"], (name, ev)
        ev, det = replay(name, spill="6g")
        assert ev == ["shake", "spill"], (name, ev)
        assert det.peak >= 6000
    for name in SHAKES:  # a normal shake is not a spill at the same threshold
        ev, det = replay(name, spill="6g")
        assert ev == ["shake", "rolled"], (name, ev)
        assert det.peak < 4000, (name, det.peak)


def test_shakes_across_the_tick_wrap():
    # start 3 s before ticks_ms wraps (2**30 on the ESP32 and the CPython shim)
    t0 = time.ticks_add(0, -3000)
    assert t0 > 0
    for name in SHAKES + JOLTS + REST:
        assert replay(name, t0=t0)[0] == replay(name)[0], name
    ev, det = replay("clean_long_shake", t0=t0)
    assert ev == ["shake", "rolled"]
    assert 6500 <= det.duration <= 7100
    ev, det = replay("model_violent_shake", t0=time.ticks_add(0, -1000), spill="6g")
    assert ev == ["shake", "spill"]


def test_rolled_waits_for_rearm():
    det = shake.Detector()
    rows = fake_mpu6050.load_trace(TRACES + "clean_normal_shake.csv")
    events = [det.feed(*r) for r in rows]
    assert events.count(shake.EV_ROLLED) == 1
    assert det.state == shake.ROLLED
    for r in rows:  # the same shake again: nothing until rearm()
        assert det.feed(*r) == shake.EV_NONE
    det.rearm()
    events = [det.feed(*r) for r in rows]
    assert events.count(shake.EV_ROLLED) == 1


def test_the_shake_goes_into_the_dice_pool_with_its_us_timings():
    class Pool:
        def __init__(self):
            self.got = []

        def absorb(self, t, ax, ay, az):
            self.got.append((t, ax, ay, az))

    pool = Pool()
    det = shake.Detector(pool=pool)
    rows = fake_mpu6050.load_trace(TRACES + "model_normal_shake.csv")
    for i, (t, ax, ay, az) in enumerate(rows):
        if det.feed(t, ax, ay, az, t_us=t * 1000 + i % 7) == shake.EV_ROLLED:
            break
    assert len(pool.got) == det.samples > 150
    first = pool.got[0]
    assert first[0] % 1000 != 0 or first[0] // 1000 in [r[0] for r in rows]
    shaken = [(r[0] * 1000 + i % 7, r[1], r[2], r[3]) for i, r in enumerate(rows)]
    assert pool.got == [s for s in shaken if s in pool.got]  # in order, µs times as fed
    # without t_us the ms tick goes in
    pool2 = Pool()
    det2 = shake.Detector(pool=pool2)
    for r in rows:
        det2.feed(*r)
    assert pool2.got[0] in rows


def test_the_roll_depends_on_the_shake_fed_through_the_detector():
    faces = []
    for name in ("model_normal_shake", "model_gentle_shake"):
        d = dice.Dice(dice_stats.SeededSource("same source"))
        det = shake.Detector(pool=d)
        out = bytearray(6)
        got = []
        for _ in range(5):
            for r in fake_mpu6050.load_trace(TRACES + name + ".csv"):
                if det.feed(*r) == shake.EV_ROLLED:
                    got.extend(d.roll(out))
                    det.rearm()
        assert len(got) == 30
        faces.append(got)
    assert faces[0] != faces[1]


def test_a_stuck_sensor_is_reported_and_never_shakes():
    det = shake.Detector()
    t = 0
    ev = []
    for i in range(500):  # 5 s of one identical reading, far from 1 g
        ev.append(det.feed(t, 0, 0, 0))
        t += 10
    assert ev.count(shake.EV_STUCK) == 1
    assert det.stuck
    assert det.state == shake.IDLE
    assert shake.EV_SHAKE not in ev
    # a live reading clears it
    det.feed(t, 3, 0, 1000)
    assert not det.stuck


def test_settings_are_named_and_checked():
    det = shake.Detector(settings={"hit_mg": 500, "min_shake_ms": 200})
    assert det.settings["hit_mg"] == 500
    assert det.settings["gap_ms"] == shake.SETTINGS["gap_ms"][0]
    for bad in ({"hit": 5}, {"hit_mg": 10}, {"gap_ms": "300"}, {"still_mg": 400, "hit_mg": 300}):
        try:
            shake.Detector(settings=bad)
        except ValueError as e:
            assert "hit" in str(e) or "gap_ms" in str(e) or "still_mg" in str(e)
        else:
            raise AssertionError("accepted %r" % (bad,))


def test_spill_option_values():
    assert shake.spill_mg("off") == 0
    assert shake.spill_mg("6g") == 6000
    assert shake.spill_mg(profiles.Profile().options["spill_detect"]) == 0  # off by default
    for v in profiles.options()["spill_detect"][1][1:]:
        assert shake.spill_mg(v) >= 3000
    try:
        shake.spill_mg("5000")
    except ValueError as e:
        assert "off" in str(e)
    else:
        raise AssertionError("accepted 5000")
    # a raised hit threshold must stay below the spill threshold
    try:
        shake.Detector(spill="3g", settings={"hit_mg": 3500})
    except ValueError:
        pass
    else:
        raise AssertionError("spill below hit accepted")


def test_a_min_shake_setting_turns_a_short_shake_into_a_jolt():
    ev, _ = replay("model_gentle_shake", settings={"min_shake_ms": 2000})
    assert ev == ["shake", "jolt"]
