# What the bowl sounds like, as data: the piezo's tunes as (hz, ms) steps
# (hz 0 = a rest), and the dice's rattle while the bowl is shaken. Pure logic:
# the console queues steps into Console.beeps, the app (bowl/app.py) plays
# them on the buzzer's PWM one after the other, the simulator's window the
# same through pygame. Nothing here allocates while it plays: every step is
# one of the tuples below.
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

# tunes
PRIZE = ((1319, 70), (0, 20), (1568, 70), (0, 20), (2093, 120))  # E6 G6 C7: a prize
NO_PRIZE = ((523, 90), (0, 30), (392, 160))  # C5 G4: down, soft
ZHUANGYUAN = ((1047, 90), (1319, 90), (1568, 90), (2093, 180), (0, 60), (1568, 90), (2093, 360))  # fanfare
GAME_END = ((784, 150), (0, 40), (1047, 150), (0, 40), (1319, 150), (0, 40), (2093, 500))
SPILL = ((220, 400),)  # the dice are out of the bowl
ALERT = ((440, 300),)  # a notice: something to read
KEY = ((330, 80),)  # a key that does nothing here (OK at the attendant's screen)
CLICKS = ((3700, 8), (4100, 8), (3300, 12), (4500, 6))  # the rattle's clicks (the UI round is 20 ms)

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
    return ()
