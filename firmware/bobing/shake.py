# The shake detector: accelerometer samples (t_ms, ax, ay, az in milli-g) in,
# shake events out. Pure logic: time comes in with each sample, tick
# arithmetic is wrap-safe (time.ticks_diff), nothing is allocated per sample.
#
#   idle --hit--> shaking --no hit for gap_ms--> settling --still for settle_ms--> rolled
#                    |  (shorter than min_shake_ms: a jolt, back to idle)  |
#                    +<--------------- a hit while settling --------------+
#   rolled / spilled stay until the app calls rearm() (after it has shown the
#   result), so no shake counts while the bowl is busy.
#
# A "hit" is a sample whose largest axis deviation from the resting reading
# (a slow baseline, i.e. a high-pass filter: tilting the bowl is not shaking)
# reaches hit_mg. "Still" is every axis changing by less than still_mg from
# one sample to the next: a bowl put down is still whatever its tilt. A shake
# whose peak deviation reaches the spill threshold (RULES.md §5, profile
# option spill_detect) ends as a spill instead of a roll: decided from the
# motion alone, before any die is drawn. Identical samples for stuck_ms mean
# a stuck sensor (a live MEMS part always shows noise in its last digits).
#
# Every sample from the first hit to the roll goes to `pool.absorb(t, ax, ay,
# az)` (dice.Dice), with the microsecond tick the app read it at when given,
# so that the roll depends on this very shake.
#
# The settings assume about 100 samples a second (bowl.mpu6050 default).
import time

from micropython import const

from bobing import profiles

IDLE = const(0)
SHAKING = const(1)
SETTLING = const(2)
ROLLED = const(3)
SPILLED = const(4)

# what feed() returns
EV_NONE = const(0)
EV_SHAKE = const(1)  # a shake began (light up the ring)
EV_JOLT = const(2)  # it was too short: ignored, back to idle
EV_ROLLED = const(3)  # a real shake has settled: draw the dice now
EV_SPILL = const(4)  # far too violent: the dice are out of the bowl, the roll is void
EV_STUCK = const(5)  # the sensor repeats one reading: it is stuck
EVENT_IDS = ("none", "shake", "jolt", "rolled", "spill", "stuck")

# name: (default, lo, hi). Milli-g and milliseconds.
SETTINGS = {
    "hit_mg": (350, 50, 8000),  # deviation from rest that counts as shaking
    "still_mg": (60, 5, 1000),  # sample-to-sample change below which the bowl is still
    "gap_ms": (300, 50, 2000),  # no hit for this long ends the shaking
    "min_shake_ms": (350, 0, 5000),  # first to last hit; shorter is a jolt (a tap, a knock)
    "settle_ms": (250, 0, 3000),  # still for this long after shaking: the dice lie
    "settle_max_ms": (2500, 100, 10000),  # never still (carried about): roll anyway after this
    # identical samples this long: sensor stuck. 0 = never: for a sensor whose
    # rest reading is exact (bowl/sw420.py), where identical samples are normal
    "stuck_ms": (3000, 0, 60000),
}


_BASE_SHIFT = const(5)  # baseline moves 1/32 of the way per sample (~0.3 s at 100 Hz)


def check_settings(settings):
    """Defaults overridden by `settings` {name: int}; ValueError names what is allowed."""
    out = {}
    for k in SETTINGS:
        out[k] = SETTINGS[k][0]
    if settings:
        for k in settings:
            if k not in SETTINGS:
                raise ValueError("unknown shake setting %r; settings are: %s"
                                 % (k, ", ".join(sorted(SETTINGS))))
            v = settings[k]
            lo, hi = SETTINGS[k][1], SETTINGS[k][2]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise ValueError("shake setting %s=%r: must be a whole number from %d to %d"
                                 % (k, v, lo, hi))
            out[k] = v
    if out["still_mg"] >= out["hit_mg"]:
        raise ValueError("shake settings: still_mg (%d) must be below hit_mg (%d)"
                         % (out["still_mg"], out["hit_mg"]))
    return out


def spill_mg(option):
    """Profile option spill_detect ('off', '6g', ...) -> threshold in milli-g (0 = off)."""
    option = profiles.check_option("spill_detect", option)
    return 0 if option == "off" else int(option[:-1]) * 1000


class Detector:
    """Feed it samples; it says when a shake has become a roll (or a spill)."""

    def __init__(self, pool=None, spill="off", settings=None):
        s = check_settings(settings)
        self._hit = s["hit_mg"]
        self._still = s["still_mg"]
        self._gap = s["gap_ms"]
        self._min_shake = s["min_shake_ms"]
        self._settle = s["settle_ms"]
        self._settle_max = s["settle_max_ms"]
        self._stuck_ms = s["stuck_ms"]
        self.settings = s
        self.spill_mg = spill_mg(spill)
        if self.spill_mg and self.spill_mg <= self._hit:
            raise ValueError("spill threshold %d mg must be above hit_mg %d" % (self.spill_mg, self._hit))
        self.pool = pool
        self.state = IDLE
        self.stuck = False
        self.peak = 0  # largest deviation of the current/last shake, milli-g
        self.duration = 0  # ms from first to last hit of the last shake
        self.samples = 0  # samples handed to the pool for the current/last shake
        self._n = 0
        self._bx = self._by = self._bz = 0  # baseline, milli-g << 4
        self._px = self._py = self._pz = 0  # previous sample
        self._same_t = 0  # since when the samples are identical
        self._t0 = self._thit = self._tstill = self._tend = 0

    def rearm(self):
        """Count the next shake (after a roll or spill has been dealt with)."""
        self.state = IDLE

    def feed(self, t_ms, ax, ay, az, t_us=None):
        """One sample; returns an EV_* code (EV_NONE almost always)."""
        if self._n == 0:
            self._bx = ax << 4
            self._by = ay << 4
            self._bz = az << 4
            self._px, self._py, self._pz = ax, ay, az
            self._same_t = t_ms
            self._n = 1
            return EV_NONE
        # deviation from rest (largest axis), and change since the last sample
        d = abs(ax - (self._bx >> 4))
        e = abs(ay - (self._by >> 4))
        if e > d:
            d = e
        e = abs(az - (self._bz >> 4))
        if e > d:
            d = e
        c = abs(ax - self._px)
        e = abs(ay - self._py)
        if e > c:
            c = e
        e = abs(az - self._pz)
        if e > c:
            c = e
        self._bx += ((ax << 4) - self._bx) >> _BASE_SHIFT
        self._by += ((ay << 4) - self._by) >> _BASE_SHIFT
        self._bz += ((az << 4) - self._bz) >> _BASE_SHIFT
        self._px, self._py, self._pz = ax, ay, az

        if c:
            self._same_t = t_ms
            self.stuck = False
        elif not self.stuck and self._stuck_ms and time.ticks_diff(t_ms, self._same_t) >= self._stuck_ms:
            self.stuck = True
            if self.state == SHAKING or self.state == SETTLING:
                self.state = IDLE
            return EV_STUCK

        st = self.state
        if st == ROLLED or st == SPILLED:
            return EV_NONE
        hit = d >= self._hit
        if st == IDLE:
            if not hit or self.stuck:
                return EV_NONE
            self.state = SHAKING
            self._t0 = self._thit = t_ms
            self.peak = d
            self.samples = 0
            self._absorb(t_ms, ax, ay, az, t_us)
            return EV_SHAKE
        self._absorb(t_ms, ax, ay, az, t_us)
        if d > self.peak:
            self.peak = d
        if hit:
            self._thit = t_ms
            if st == SETTLING:
                self.state = SHAKING
            return EV_NONE
        if st == SHAKING:
            if time.ticks_diff(t_ms, self._thit) < self._gap:
                return EV_NONE
            self.duration = time.ticks_diff(self._thit, self._t0)
            if self.duration < self._min_shake:
                self.state = IDLE
                return EV_JOLT
            self.state = SETTLING
            self._tend = t_ms
            self._tstill = t_ms
        # settling: the bowl must be still for settle_ms
        if c >= self._still:
            self._tstill = t_ms
        if (time.ticks_diff(t_ms, self._tstill) >= self._settle
                or time.ticks_diff(t_ms, self._tend) >= self._settle_max):
            self.duration = time.ticks_diff(self._thit, self._t0)
            if self.spill_mg and self.peak >= self.spill_mg:
                self.state = SPILLED
                return EV_SPILL
            self.state = ROLLED
            return EV_ROLLED
        return EV_NONE

    def _absorb(self, t_ms, ax, ay, az, t_us):
        if self.pool is not None:
            self.pool.absorb(t_ms if t_us is None else t_us, ax, ay, az)
        self.samples += 1
