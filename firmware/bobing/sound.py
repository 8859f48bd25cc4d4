# What the bowl sounds like, as data: the piezo's tunes (steps of a tone or a
# rest), and the dice's rattle while the bowl is shaken. Pure logic:
# the console queues steps into Console.beeps, the app (bowl/app.py) plays
# them on the buzzer's PWM one after the other, the simulator's window the
# same through pygame. A tune's steps are made when it is queued; the rattle's
# clicks are the constant tuples below (nothing allocated while shaking).
#
# The rattle: six dice knocking on porcelain are short, bright clicks at
# irregular moments, closer together while the bowl is shaken hard. A click is
# one short step of a high tone; the gaps come from a small LCG (the sound's
# own: the dice's randomness is never spent on it).
import time

from micropython import const

from bobing import game

# volume: the PWM duty of a tone (of 65535); a piezo is loudest near a 50% duty
LEVELS = ("on", "quiet", "off")
DUTY = (32768, 2048, 0)

# tunes: two bytes a step, the frequency in 20 Hz and the length in 10 ms (0 Hz: a rest);
# bytes are the least heap a tune can take on a bowl that loads this file into RAM
PRIZE = b"\x42\x07\x00\x02\x4e\x07\x00\x02\x69\x0c"  # E6 G6 C7: a prize
NO_PRIZE = b"\x1a\x09\x00\x03\x14\x10"  # C5 G4: down, soft
ZHUANGYUAN = b"\x34\x09\x42\x09\x4e\x09\x69\x12\x00\x06\x4e\x09\x69\x24"  # the 状元's fanfare
GAME_END = b"\x27\x0f\x00\x04\x34\x0f\x00\x04\x42\x0f\x00\x04\x69\x32"
SPILL = b"\x0b\x28"  # 220 Hz: the dice are out of the bowl
ALERT = b"\x16\x1e"  # 440 Hz: a notice, something to read
KEY = b"\x10\x08"  # a key that does nothing here (OK at the attendant's screen)
CLICKS = ((3700, 8), (4100, 8), (3300, 12), (4500, 6))  # the rattle's clicks (the UI round is 20 ms)


def queue(beeps, tune):
    """Append a tune's (hz, ms) steps to beeps (made when the tune is queued, not
    while it plays) -> beeps."""
    for i in range(0, len(tune), 2):
        beeps.append((tune[i] * 20, tune[i + 1] * 10))
    return beeps


def steps(tune):
    return queue([], tune)


GAP_MIN_MS = const(25)
GAP_SPAN_MS = const(110)  # a click every 25-135 ms


class Rattle:
    """Clicks at irregular moments while the bowl is shaken: next(t_ms) -> a
    click (an (hz, ms) step) when one is due, else None."""

    def __init__(self, seed=12345):
        self._x = seed & 0x7FFFFFFF
        self._due = 0

    def _rand(self):
        self._x = (self._x * 1103515245 + 12345) & 0x7FFFFFFF
        return self._x >> 16

    def start(self, t_ms):
        self._due = t_ms

    def next(self, t_ms):
        if time.ticks_diff(t_ms, self._due) < 0:
            return None
        r = self._rand()
        self._due = time.ticks_add(t_ms, GAP_MIN_MS + r % GAP_SPAN_MS)
        return CLICKS[(r >> 8) & 3]


def tune_for(out, zhuangyuan):
    """The tune of an outcome: a spill, a new 状元 (zhuangyuan: the holder changed
    to this roll), a prize, or none."""
    if out.kind == game.EV_SPILL:
        return SPILL
    if zhuangyuan:
        return ZHUANGYUAN
    if out.won:
        return PRIZE
    if out.kind == game.EV_ROLL:
        return NO_PRIZE
    return b""
