# Out of memory never stops the bowl, on the real interpreter (with its network task too): the frozen 32-bit unix build
# plays tests/oom_game.py (a fresh bowl, one game by shakes) at every -X heapsize from the
# smallest in which the bowl boots and comes back from its restarts in the same process (a
# real reset starts with a fresh heap; this process keeps what it held: at the very smallest
# heap that boots once, a restart may find no room) to 3K above it; each plays on to ROLLS recorded rolls (or the
# game's end) in the same game, whatever ran short of memory on the way (said in the log, a
# restart into the game), and nothing escapes as a traceback.
import os
import subprocess

import pytest

import portable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROLLS = 60


def _play(tmp_path, kib, mode=()):
    root = tmp_path / ("heap%d%s" % (kib, "".join(mode)))
    root.mkdir()
    p = subprocess.run([portable.MP32_FROZEN, "-X", "heapsize=%dK" % kib, "tests/oom_game.py", str(root), str(ROLLS)]
                       + list(mode), cwd=ROOT, capture_output=True, text=True, timeout=300)
    return p.stdout + p.stderr


@pytest.mark.parametrize("mode", [(), ("net",)], ids=["family", "with-network"])
def test_a_game_plays_on_at_every_heap_from_the_smallest_that_boots(mp_built, tmp_path, mode):
    smallest = None
    for kib in range(48, 97):
        out = _play(tmp_path, kib, mode)
        if out.startswith("booted 1") and "no console after" not in out:
            smallest = kib
            break
        if out.startswith("booted 1"):
            print("%dK: boots once, no restart came back in this process" % kib)
            continue
        assert out.startswith("booted 0"), "at %dK:\n%s" % (kib, out[-2000:])
    assert smallest is not None, "the bowl boots in no heap up to 96K"
    played = 0
    for kib in range(smallest, smallest + 4):
        out = out if kib == smallest else _play(tmp_path, kib, mode)
        assert "Traceback" not in out, "at %dK:\n%s" % (kib, out[-3000:])
        if mode and ("no console after" in out or out.startswith("booted 0")):
            # the network's modules stay loaded in this process (a reset frees them), and where its
            # heap fragments moves what fits by a K or two: not every larger heap boots here
            print("%dK: %s" % (kib, "did not boot" if out.startswith("booted 0") else "a restart did not come back"))
            continue
        played += 1
        last = out.strip().splitlines()[-1].split()
        assert last[0] == "events" and last[3] == "same", "at %dK:\n%s" % (kib, out[-3000:])
        assert int(last[1]) >= ROLLS or "ended True" in out, "at %dK:\n%s" % (kib, out[-3000:])
        print("%dK: %s" % (kib, " ".join(last)))
        if mode:  # the network's task ran (and came back from what ran short in it), or it said why not
            assert "said: net: connected" in out or "said: net: out of memory starting the network" in out, \
                "at %dK:\n%s" % (kib, out[-3000:])
    assert played >= 2, "only %d of 4 heaps from %dK played on" % (played, smallest)
