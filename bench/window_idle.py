"""The simulator's pygame window while the bowl waits for a shake: CPU per
second of wall time (a bounded run at the window's real frame rate, drawn
off screen). python bench/window_idle.py [SECONDS]"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ["SDL_VIDEODRIVER"] = "offscreen"  # a real frame rate (the dummy driver runs flat out)
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from host_sim.sim import player  # noqa: E402
from host_sim.sim import window  # noqa: E402


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    with tempfile.TemporaryDirectory() as d:
        p = player.Player(os.path.join(d, "flash"))
        try:
            p.step(2000)  # booted, idle on the turn screen
            frames = int(seconds * window.FPS)
            w0, c0 = time.monotonic(), time.process_time()
            window.run(p, frames=frames)
            wall, cpu = time.monotonic() - w0, time.process_time() - c0
        finally:
            p.close()
    # per frame: on a busy machine the loop falls behind its frame rate, the CPU a frame does not
    print("window idle: %d frames in %.1f s wall, %.2f s CPU: %.1f ms a frame, %.0f%% of a core at %d "
          "frames a second" % (frames, wall, cpu, 1000 * cpu / frames, 100 * cpu / frames * window.FPS,
                               window.FPS))


if __name__ == "__main__":
    main()
