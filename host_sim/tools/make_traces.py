"""Make the accelerometer traces of tests/data/traces/ (t_ms,ax,ay,az in milli-g).

    python host_sim/tools/make_traces.py [OUT_DIR]

Two families, both synthetic (no bowl has been recorded yet):
  clean_*   an ideal shake: a sinusoid at a steady rate, exact 10 ms ticks,
            light noise (a perfectly constant reading is a stuck sensor).
  model_*   modelled on what an MPU6050 in a hand-shaken bowl reports: a
            tilted gravity vector, per-axis bias, 4 mg noise, quantisation to
            the +-16 g range's LSB and clipping at 16 g, an irregular human
            rate and amplitude, dice knocking against the bowl (short spikes),
            the thump of setting it down and the dice rattling to rest, and a
            main loop whose sample times jitter and sometimes run late.
Times start at 0 and never wrap: a test that wants the tick wrap replays a
trace from time.ticks_add(0, -N) (the wrap is 2**30 ms on the ESP32, but
2**62 on the 64-bit unix port). Deterministic: the same seeds, the same files.
"""
import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "traces")
RATE_MS = 10


class Trace:
    def __init__(self, rng, model=True):
        self.rng = rng
        self.model = model
        self.t = 0
        self.rows = []
        if model:
            tilt = math.radians(rng.uniform(2, 8))
            az = rng.uniform(0, 2 * math.pi)
            self.g = [1000 * math.sin(tilt) * math.cos(az), 1000 * math.sin(tilt) * math.sin(az),
                      1000 * math.cos(tilt)]
            self.bias = [rng.uniform(-30, 30) for _ in range(3)]
        else:
            self.g = [0.0, 0.0, 1000.0]
            self.bias = [0.0, 0.0, 0.0]
        self.noise = 4.0 if model else 1.5

    def dt(self):
        if not self.model:
            return RATE_MS
        d = RATE_MS + self.rng.uniform(-1.5, 1.5)
        if self.rng.random() < 0.02:
            d += self.rng.uniform(3, 9)  # the loop was busy drawing the screen
        return max(1, int(round(d)))

    def emit(self, a):
        out = []
        for i in range(3):
            v = self.g[i] + self.bias[i] + a[i] + self.rng.gauss(0, self.noise)
            if self.model:
                raw = max(-32768, min(32767, int(round(v * 2048 / 1000))))
                v = (raw * 1000 + 1024) // 2048  # what bowl.mpu6050 reports at +-16 g
            out.append(int(round(v)))
        self.rows.append((self.t, out[0], out[1], out[2]))
        self.t += self.dt()

    def rest(self, ms, tilt_deg=0.0):
        """Lie still for `ms`; with tilt_deg, tip over and back by that angle."""
        end = self.t + ms
        start = self.t
        g0 = list(self.g)
        while self.t < end:
            if tilt_deg:
                f = math.sin(math.pi * (self.t - start) / ms)  # 0 -> 1 -> 0
                ang = math.radians(tilt_deg) * f
                self.g = [g0[0] + 1000 * math.sin(ang), g0[1], g0[2] * math.cos(ang)]
            self.emit((0, 0, 0))
        self.g = g0

    def knock(self, g, ring_ms=60):
        """A tap on the table or the bowl: a spike and a short ring-down."""
        r = self.rng
        d = [r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(0.5, 1)]
        n = math.sqrt(sum(x * x for x in d))
        self.emit([1000 * g * x / n for x in d])
        self.emit([-600 * g * x / n for x in d])
        end = self.t + ring_ms
        k = 0
        while self.t < end:
            k += 1
            a = 300 * g * math.exp(-k / 2.0) * math.cos(k * 2.2)
            self.emit([a * x / n for x in d])

    def shake(self, ms, amp_g, impacts_g=1.2, impact_rate=15.0, pause_at=None, spikes_g=None):
        """Shake for `ms` at about amp_g, dice knocking at impact_rate per second."""
        r = self.rng
        start = self.t
        end = self.t + ms
        heading = r.uniform(0, 2 * math.pi)
        f = r.uniform(2.8, 4.2) if self.model else 3.5
        phase = 0.0
        last = self.t
        spikes = list(spikes_g or ())
        spike_times = sorted(start + r.uniform(0.3, 0.8) * ms for _ in spikes)
        while self.t < end:
            el = self.t - start
            env = min(1.0, el / 150.0, (end - self.t) / 150.0)
            if pause_at is not None and pause_at <= el < pause_at + 150:
                env = 0.05
            if self.model:
                f += r.gauss(0, 0.02)
                f = min(5.0, max(2.2, f))
                heading += r.gauss(0, 0.01)
                amp = amp_g * (1 + 0.15 * math.sin(el / 400.0)) * env
            else:
                amp = amp_g * env
            phase += 2 * math.pi * f * (self.t - last) / 1000.0
            last = self.t
            s = math.sin(phase)
            a = [1000 * amp * s * math.cos(heading), 1000 * amp * s * math.sin(heading),
                 300 * amp * math.sin(2 * phase)]
            if self.model and env > 0.5 and r.random() < impact_rate * RATE_MS / 1000.0:
                k = r.uniform(0.3, 1.0) * impacts_g * 1000
                d = [r.uniform(-1, 1) for _ in range(3)]
                a = [a[i] + k * d[i] for i in range(3)]
            if spike_times and self.t >= spike_times[0]:
                spike_times.pop(0)
                k = spikes.pop(0) * 1000
                a = [a[0] + 0.3 * k, a[1] - 0.2 * k, a[2] + k]
            self.emit(a)
        # set down: a thump, then the dice rattle to rest
        self.emit((0, 0, 700 if self.model else 500))
        self.emit((0, 0, -300))
        end = self.t + (400 if self.model else 200)
        k = 0
        while self.t < end:
            k += 1
            if self.model and r.random() < 0.5:
                m = 180 * math.exp(-k / 12.0)
                self.emit([r.uniform(-m, m) for _ in range(3)])
            else:
                self.emit((0, 0, 0))


def write(name, trace, kind, out_dir):
    path = os.path.join(out_dir, name + ".csv")
    with open(path, "w") as f:
        f.write("# %s: %s\n" % (name, kind))
        f.write("# synthetic (%s), made by host_sim/tools/make_traces.py; milli-g, about 100 Hz\n"
                % ("modelled MPU6050 at +-16 g" if trace.model else "clean"))
        f.write("t_ms,ax,ay,az\n")
        for row in trace.rows:
            f.write("%d,%d,%d,%d\n" % row)
    return path


def build(out_dir):
    made = []
    for model in (False, True):
        prefix = "model_" if model else "clean_"
        seed = 1000 if model else 0

        def T(n):
            return Trace(random.Random(seed + n), model=model)

        t = T(1)
        t.rest(1000)
        t.shake(1600, 1.6)
        t.rest(1500)
        made.append(write(prefix + "normal_shake", t, "a normal shake of 1.6 s, set down", out_dir))

        t = T(2)
        t.rest(1000)
        t.knock(1.2)
        t.rest(1500)
        made.append(write(prefix + "tap", t, "one knock on the bowl: a jolt, not a shake", out_dir))

        t = T(3)
        t.rest(500)
        t.shake(7000, 1.4, pause_at=3000)
        t.rest(1500)
        made.append(write(prefix + "long_shake", t, "a 7 s shake with a short pause",
                          out_dir))

        t = T(4)
        t.rest(500)
        t.shake(1500, 5.0, impacts_g=4.0, spikes_g=(9.0, 12.0))
        t.rest(1500)
        made.append(write(prefix + "violent_shake", t, "a shake far more violent than normal (spill?)",
                          out_dir))

        t = T(5)
        t.rest(4000)
        t.rest(3000, tilt_deg=25)
        t.rest(5000)
        made.append(write(prefix + "rest_noise", t, "12 s at rest, tipped 25 degrees and back midway",
                          out_dir))
    rng = random.Random(2001)
    t = Trace(rng)
    t.rest(800)
    t.shake(1200, 0.9, impacts_g=0.6)
    t.rest(1500)
    made.append(write("model_gentle_shake", t, "a gentle, short shake that still counts", out_dir))
    t = Trace(random.Random(2002))
    t.rest(800)
    t.knock(1.5)
    t.rest(200)
    t.knock(1.5)
    t.rest(1500)
    made.append(write("model_double_tap", t, "two knocks 0.3 s apart: still a jolt", out_dir))
    return made


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else OUT
    os.makedirs(out, exist_ok=True)
    for p in build(out):
        print(p)
