# Boot against the watchdog: the simulated bowl charges
# every journal event replayed at boot to its clock (host_sim/portable/fakes/chiptime.py:
# REPLAY_US per event, an ESP32's estimate), and machine.WDT, once started,
# cannot be stopped, so a boot that replays a long game while the watchdog
# runs is reset before it ends: a reboot loop. The bowl must come up in the
# same game whatever its length.
from bobing import game, journal
from bobing import console as C
from host_sim.portable.fakes import bowl as hal
from host_sim.portable.fakes import chiptime
from bowlrun import Stream

NONE_ROLL = (2, 2, 3, 3, 5, 6)  # ranks nothing: the game never ends


def long_game(root, n, **kw):
    """A 10-seat game of n events on flash (a start and n-1 rolls that win nothing)."""
    j = journal.start(root, seats=10, **kw)
    j.play(game.EV_START_TOTAL, 7)
    for _ in range(n - 1):
        j.play(game.EV_ROLL, NONE_ROLL)
    j.close()
    return j.game_id


def test_a_long_game_boots_without_a_reboot_loop(tmp_path):
    n = 2 * hal.WDT_MS * 1000 // chiptime.REPLAY_US  # a full replay would take twice the watchdog's time
    gid = long_game(str(tmp_path), n)
    sim = hal.Sim(str(tmp_path), urandom=Stream(1))
    sim.step(30000)
    assert "watchdog" not in sim.resets, "reboot loop: %d resets (%s)" % (len(sim.resets), sim.resets[:3])
    c = sim.console
    assert c.j.game_id == gid and c.j.count == n and c.table.events == n
    sim.shake()
    assert sim.run_until(lambda s: s.console.view == C.V_RESULT, 15000)
    assert c.j.count == n + 1 and not sim.resets


def test_boot_time_does_not_grow_with_the_game(tmp_path):
    # checkpoints: a boot replays at most CHECKPOINT_EVERY + 1 events, so it takes
    # no longer after 3,000 events than after 100
    boot_ms = []
    for n in (100, 3000):
        root = str(tmp_path / str(n))
        long_game(root, n)
        r0 = journal.replayed()
        sim = hal.Sim(root, urandom=Stream(1))
        replayed = journal.replayed() - r0
        assert sim.console.j.count == n and 1 <= replayed <= journal.CHECKPOINT_EVERY + 1, (n, replayed)
        boot_ms.append(sim.now)
    bound = (journal.CHECKPOINT_EVERY + 1) * chiptime.REPLAY_US // 1000 + 1
    assert max(boot_ms) <= bound, (boot_ms, bound)
