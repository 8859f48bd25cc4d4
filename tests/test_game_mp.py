# micropython: yes
# A seeded sample of the random-game checks of tests/test_game.py, runnable on
# the MicroPython unix port (no hypothesis there): the engine, compiled to
# .mpy, against the independent reference (tests/game_ref.py) and the
# invariants (tests/game_check.py) after every event.
from bobing import profiles

import game_check as gc


Lcg = gc.Lcg


def test_sample_of_random_games_every_option():
    ended = 0
    events = 0
    for seed in range(1, 121):
        rnd = Lcg(seed)
        o = gc.random_options(rnd)
        seats = rnd(12) + 1
        spec = profiles.prizes()[o["prizes"]]
        counts = gc.random_counts([c[0] for c in spec["classes"]], rnd) if rnd(2) else None
        secret = b"sample secret 16" if rnd(2) else None
        t, ref = gc.new_pair(o, seats, counts, secret)
        events += gc.play(t, ref, rnd, p_spill=rnd(150), p_special=rnd(400), p_timeup=rnd(15), secret=secret)
        ended += t.ended
    assert ended >= 110  # nearly every game reaches its end within the event budget
    assert events > 2000


def test_full_default_games():
    # whole 10-seat games of the default profile, fair dice with a few specials
    for seed in (11, 12, 13):
        rnd = Lcg(seed)
        t, ref = gc.new_pair({}, 10)
        n = gc.play(t, ref, rnd, p_spill=20, p_special=10, p_timeup=0, max_events=3000)
        assert t.ended and t.reason in ("prizes_out", "liubohong", "heiliubo_grab"), (seed, t.reason)
        assert n > 10
