# "A roll whose journal write failed must never be shown": the
# journal's write of a roll fails (the flash is full, a bus error), and the
# bowl must show nothing of that roll -- no result screen, no rank on the
# ring, no roll tone, no kiosk claim code -- but the flash notice, and go on
# from the game as it is on flash. Watched from outside the console: what the
# screen is asked to draw, the tones, the ring's pattern, and what is shown
# after a power cut.
from bobing import game, journal, leds
from bobing import console as C
from bowlkit import new_sim, press, roll


class _FailingFile:
    """The journal's file for one write: it fails as littlefs does when full."""

    def __init__(self, real, seen):
        self.real = real
        self.seen = seen

    def write(self, b):
        self.seen.append(journal.arg_value(b[0], b[1] | (b[2] << 8) | (b[3] << 16)))
        raise OSError(28)  # ENOSPC

    def seek(self, at):
        return self.real.seek(at)

    def flush(self):
        self.real.flush()

    def close(self):
        self.real.close()


def _watch(sim):
    """Record every Outcome the screen draws and every tone (Hz) the buzzer plays."""
    drawn = []
    tones = []
    scr = sim.app.screen
    real_result = scr.result
    real_freq = sim.board.pwm.freq

    def result(t, out, page, *more):
        drawn.append(out)
        return real_result(t, out, page, *more)

    def freq(hz=None):
        if hz is not None:
            tones.append(hz)
        return real_freq(hz)

    scr.result = result
    sim.board.pwm.freq = freq
    return drawn, tones


def _shake_with_a_failing_write(sim):
    c = sim.console
    j = c.j
    failed = []
    assert j._tf is not None  # the tail, where a roll is committed (bobing/journal.py), open since the first
    j._tf = _FailingFile(j._tf, failed)
    drawn, tones = _watch(sim)
    before = c.table.events
    shown = c.out
    sim.shake()
    patterns = set()
    for _ in range(600):  # 6 s: the shake, the dice, what follows
        sim.step(10)
        patterns.add(c.led)
        assert c.out is shown or c.out is None or (failed and c.out.dice != tuple(failed[0])), \
            "the console took the failed roll %r as its result" % (failed,)
    assert failed, "the write never happened"
    dice = tuple(failed[0])
    assert dice not in [o.dice for o in drawn], "the screen drew the roll whose write failed"
    assert 880 not in tones and 660 not in tones, "a roll tone was played for a roll not on flash: %r" % tones
    assert 440 in tones  # the notice's tone
    # a rank's pattern is its rank code (leds.pattern_for), below the P_* patterns
    assert min(patterns) >= leds.P_IDLE, "the ring showed a rank: %r" % sorted(patterns)
    assert c.table.events == before and c.j.count == before
    return dice


def test_a_roll_whose_write_failed_is_never_shown(tmp_path):
    sim = new_sim(tmp_path)
    for _ in range(3):
        last = roll(sim)
    _shake_with_a_failing_write(sim)
    c = sim.console
    assert c.view == C.V_NOTICE and c.arg[0] == C.N_FLASH
    # after a power cut the roll that stands is the last one on flash, not the failed one
    sim.power_cut()
    sim.step(50)
    assert sim.console.view == C.V_RESULT and sim.console.out.dice == last.dice
    while sim.console.view == C.V_RESULT:
        press(sim, "ok")
    events = sim.console.table.events
    out = roll(sim)  # and the game goes on
    assert out.kind == game.EV_ROLL and sim.console.table.events == sim.console.j.count == events + 1
