# Runs only on the MicroPython unix port: once a clip is open, the voice's every step
# (a chunk read from flash into its one buffer, written to the I2S) allocates nothing,
# at either volume; only opening the next clip does (host_sim/tools/make_voice.py pads
# every clip to whole chunks, so no step writes a slice).
import os

import micropython

from bobing import voice

ROOT = "build/voice-heap"


class Amp:
    """machine.I2S's write and shift, as the voice calls them, allocating nothing."""

    def __init__(self):
        self.n = 0

    def write(self, buf):
        self.n += len(buf)
        return len(buf)

    def shift(self, buf=None, bits=16, shift=0):
        pass


def clips(names):
    for d in ("build", ROOT, ROOT + "/" + voice.FOLDER):
        try:
            os.mkdir(d)
        except OSError:
            pass
    for i, name in enumerate(names):
        with open(ROOT + "/" + voice.FOLDER + "/" + name + voice.SUFFIX, "wb") as f:
            f.write(bytes(voice.CHUNK * (3 + 4 * i)))  # a clip of whole chunks, as make_voice.py pads them


def speak(shift):
    names = [voice.FANFARE, voice.ZHUANGYUAN, "chajinhua", voice.TURN, "nainai"]
    clips(names)
    amp = Amp()
    v = voice.Voice(ROOT, amp)
    v.shift = shift
    v.say(names, 0)
    t = 0
    locked = 0
    while v.speaking:
        if v._f is None:
            v.step(t)  # opens the next clip: allocates
        else:
            micropython.heap_lock()
            try:
                v.step(t)
            finally:
                micropython.heap_unlock()
            locked += 1
        t += 10
    assert amp.n == voice.CHUNK * sum(3 + 4 * i for i in range(len(names)))
    assert locked > 20


def test_a_clip_plays_allocating_nothing():
    speak(0)


def test_a_quiet_clip_plays_allocating_nothing():
    speak(voice.QUIET_SHIFT)
