"""The bowl's voice (firmware/bobing/voice.py): the clips' flash (host_sim/tools/make_voice.py:
espeak-ng's Mandarin and the 状元's fanfare, raw 16-bit PCM at 8 kHz in whole 20 ms chunks), and
on the 32-bit frozen unix build of `make mp` what the player costs in heap (its import, a Voice
with its chunk buffer) and what one step allocates while a clip plays (target: nothing but
opening each clip; tests/mp/test_voice_heap.py proves it under heap_lock). The I2S's DMA
(voice.IBUF) comes from ESP-IDF's heap, not MicroPython's: printed beside.

    python bench/voice_bench.py        (make bench; needs make mp, espeak-ng and sox)
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "host_sim", "tools")]
import portable  # noqa: E402  (the builds' paths)
import make_voice  # noqa: E402

ON_MP = """
import gc, sys
from bobing import console  # noqa (a family game's modules: loaded before the voice)
gc.collect()
a0 = gc.mem_alloc()
from bobing import voice
gc.collect()
a1 = gc.mem_alloc()
class Sink:
    def write(self, b):
        return len(b)

    def shift(self, buf=None, bits=16, shift=0):
        pass
v = voice.Voice(%r, Sink())
gc.collect()
a2 = gc.mem_alloc()
v.say([voice.FANFARE, voice.ZHUANGYUAN, "chajinhua", voice.TURN, "nainai"], 0)
t = 0
worst = 0
steps = 0
allocating = 0
while v.speaking:
    gc.collect()
    b = gc.mem_alloc()
    v.step(t)
    d = gc.mem_alloc() - b
    worst = d if d > worst else worst
    allocating += d > 0
    t += 10
    steps += 1
print("import %%d B, a Voice %%d B; a 状元's call (5 clips): %%d steps of 10 ms, %%d of them allocate (a clip "
      "opened), at most %%d B; the I2S DMA %%d B of ESP-IDF's heap" %% (a1 - a0, a2 - a1, steps, allocating, worst,
                                                                  voice.IBUF))
"""


def main():
    with tempfile.TemporaryDirectory(prefix="bobing-voice-") as root:
        made = make_voice.make(os.path.join(root, "voice"))
        total = sum(n for _, n in made)
        print("voice clips: %d, %d B (%.0f KiB) of flash, %.1f s of speech; the longest %s (%d B)"
              % (len(made), total, total / 1024.0, total / 16000.0, *max(made, key=lambda x: x[1])))
        if not os.path.exists(portable.MP32_FROZEN):
            sys.exit("%s missing: run make mp" % portable.MP32_FROZEN)
        r = subprocess.run([portable.MP32_FROZEN, "-X", "heapsize=256K", "-c", ON_MP % root], capture_output=True,
                           text=True, cwd=ROOT)
        print("frozen build:", (r.stdout or r.stderr).strip())


if __name__ == "__main__":
    main()
