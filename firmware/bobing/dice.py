# Fair dice: six faces from hardware randomness mixed with the player's own
# shake. Pure logic (no machine import): the entropy source and the shake
# samples are HANDED in, so the same code runs on the bowl, on the unix port
# and under CPython (`python -m host_sim dice` prints its output for audit).
#
# Design
#   source      a callable like os.urandom: source(n) -> n random bytes. On
#               the ESP32, os.urandom reads the hardware RNG (esp_fill_random).
#               Espressif documents its output as truly random only while the
#               Wi-Fi or Bluetooth radio is on; with the radio off (as on this
#               bowl) it is a pseudo-random stream, which is why the shake is
#               mixed in as well.
#   shake       every accelerometer sample of the shake (t, ax, ay, az), with
#               the microsecond tick at which the app read it, goes through
#               absorb() into a running SHA-256 (shake.Detector does this).
#               Human motion and the read-time jitter are unpredictable to
#               the last digits even to the person shaking.
#   roll(out)   SHA-256(tag | roll counter | previous digest | 32 fresh source
#               bytes | every shake sample since the last roll) -> 32 bytes.
#               Faces come from those bytes by rejection sampling: a byte b
#               below 252 = 6 * 42 gives face b % 6 + 1 (each face exactly 42
#               of the 252 values); 252..255 are skipped. Never a bare `% 6`
#               of a raw byte (that would favour faces 1-4 by 43:42).
#   health      the 32 source bytes of each roll first pass NIST SP 800-90B
#               continuous health tests (below); a failing source is latched
#               and every later roll raises EntropyError: the bowl refuses to
#               roll and says why, it never falls back to weaker randomness.
#
# Threat model
#   player      controls his shake completely and may even know every sample
#               it produces. He still cannot steer a roll: the digest also
#               covers 32 source bytes he cannot see or predict, and SHA-256
#               leaves him no bias to aim at. Spill or not is decided by the
#               detector from the motion BEFORE any die is drawn, so nobody can
#               void a roll after seeing it.
#   operator    (a dishonest host or kiosk owner) can switch the radio off,
#               unplug the accelerometer or feed it a fake motion: with the
#               radio off the source degrades to Espressif's pseudo-random
#               stream, but the roll still depends on shake timings and motion
#               nobody controls to the microsecond and milli-g; a dead or
#               faked sensor leaves the source bytes, which alone already make
#               every face equally likely. Nothing in this module can be asked
#               for a particular face or rank: it never sees the rules, and no
#               roll is ever drawn again because of its result. What he CAN do
#               is flash other firmware; no code defends against that. The
#               defence is openness: this file, `host_sim dice` and
#               `host_sim dice-stats` let anyone check the dice path.
#   claim secret  (the kiosk's HMAC key, 16 bytes, drawn once and kept for
#               months) has no shake to lean on, so it must not come from the
#               radio-off pseudo-random stream: secret_bytes() hashes 32 bytes
#               of the board's strong source (bowl.hw.Hardware.strong_random)
#               with measured noise. On the bowl (firmware/board.py) that
#               source switches the Wi-Fi radio on while it draws, so that
#               esp_random() is a true RNG fed by RF noise as ESP-IDF documents,
#               and the noise is 64 readings of the battery ADC's low bits and
#               the microsecond tick between them. The secret's entropy rests
#               on the RF-noise RNG; the ADC noise only adds to it (it is not
#               counted). Off the bowl the strong source is the host's
#               os.urandom; host_sim's ESP32 gives the radio-off stream
#               (the same after every reset) unless the radio is on, so a
#               secret drawn without it shows up in tests (two bowls, one key).
#   stuck part  a stuck or repeating source is caught by the health tests and
#               the bowl refuses to roll (EntropyError). A stuck accelerometer
#               never produces a shake (shake.Detector reports it as stuck),
#               so no roll comes from it; a button roll still uses the source.
#
# Verifiable dice (kiosk bowls at an event, by default; net.txt fair=off turns
# them off; bobing/fair.py; firmware/PROTOCOL.md "Verifiable fairness"), fair
# format 2: before a game's first customer the bowl draws a 32-byte root from the
# strong source (the radio is on at an event), grows a chain of CHAIN_N links
# (chain_step) and commits to its anchor chain_at(root, 0); customer k's secret S
# is chain_at(root, p) (chain_place(k)), so it is fixed before any desk value
# exists. For customer k the desk sends its 16 random bytes D (one value, the
# same whenever asked). Roll i of customer k in game g (i = 0, 1, ... counts his
# rolls; a spill uses up none) is
#     HMAC-SHA256(key=S, msg="bobing-fair-v2" | D | U | g | k | i | j)
# (U: the customer's own 16 bytes, zeros without; g, k as 4 bytes, i as 2, the
# block counter j as 1, big-endian; j = 0, 1, ... only while a block leaves fewer
# than six accepted bytes), faces by the same rejection sampling as above. S is
# revealed (journaled and published) right after the customer's last shake and
# leads to the anchor in p links (chain_holds). Format 1 (older firmware: a fresh S
# per commitment, C = SHA-256("bobing-commit-v1" | S), msg "bobing-fair-v1" | D | g
# | k | i | j) is still derived for old journals. `Derived` is the one
# implementation: the bowl rolls with it, `python -m host_sim verify-fair` and
# the desk check with it.
#
# Threat model of the verifiable dice (who, can, what stops it, the test; the
# table in firmware/PROTOCOL.md "Verifiable fairness" is the full one)
#   bowl owner  flashes firmware that picks good or bad rolls. Stopped: a roll
#     (or a    is fixed by S (fixed by the anchor before D exists) and D (unknown
#     cheating when anchoring); every roll is recomputed from the reveal.
#     bowl)    - a roll changed after the reveal: it no longer equals the
#                derivation (verify-fair: "dice do not match the reveal")
#              - a secret chosen after seeing D: it does not lead to the anchor
#              - a retry (fake a power cut, ask again): the same S and the same D
#                come back, so do the same dice
#              - a good roll voided as a spill: the next shake rolls it anyway
#              What no check stops: a bowl that never reveals. Its rolls stay
#              unverified for everyone to see, never counted as fair.
#   desk        sees the anchor before sending D, but it tells nothing of S
#     (operator) (SHA-256 preimage), so D cannot be aimed; D alone predicts
#              nothing without S. The desk could withhold D: the customer waits
#              at most net.txt's fair_wait (60 s), then his turn rolls the dice
#              above, marked "W" on flash before its first roll and revealed with
#              "u":1, unverified for all to see ("played without the desk's
#              value"). A bowl that pretends the desk was down is shown up when
#              the desk had sent D: the reveal gives S, and verify-fair lists the
#              dice the turn should have rolled. An operator who runs both bowl
#              and desk knows S and D: only the customer's own value U (a seed
#              from his phone, after the anchor and D are fixed) stops him (to
#              come: today U is zeros, and such turns trust bowl and desk).
#   case open   the flash holds the chain's root (so that a power cut changes no
#     + flash  dice): with it the secrets, but a customer's D comes only when
#              his turn starts, so it tells no roll before then, and what it
#              tells after is what the bowl rolls anyway.
#   customer    controls his shake: the derived dice do not depend on it, so
#              it cannot steer them either (the spill decision is the
#              detector's, before any die is drawn).
#   anyone     recomputes every roll afterwards from the desk's public page or
#     afterwards export (`python -m host_sim verify-fair`).
#   Offline and family bowls (family games on a provisioned bowl too, and a
#   stock=bowl kiosk, whose prizes are its own) keep the dice above (os.urandom
#   + the shake, no commitment): with no desk there is no second party whose value the bowl
#   cannot know, so a per-game commitment shown on the screen would still let a
#   cheating bowl choose its secret by trial (its own dice before the first
#   shake) and checks nobody at a family table would make; the defence there is
#   the open code of this file (`host_sim dice`, `host_sim dice-stats`).
#
# Health tests (NIST SP 800-90B §4.4), on the raw source bytes, alpha = 2^-20
#   Sample type: one byte of os.urandom. Claimed min-entropy H = 4 bits per
#   byte: deliberately half of what a working hardware RNG gives, so that a
#   working source practically never trips them (false alarm per byte: about
#   2^-40 for the RCT), while a stuck or short-cycle source trips at once.
#   Repetition count test: C = 1 + ceil(-log2(alpha) / H) = 1 + ceil(20 / 4)
#       = 6: six equal bytes in a row fail.
#   Adaptive proportion test: window W = 512 (non-binary samples),
#       C = 1 + CRITBINOM(W, 2^-H, 1 - alpha) = 1 + CRITBINOM(512, 1/16,
#       1 - 2^-20) = 1 + 61 = 62: 62 bytes equal to the window's first fail.
#   (For six-valued samples, H = log2 6, the same formulas give 9 in a row
#   and 129 of 512, as the issue says; tests/test_dice.py recomputes all four.)
#   Start-up test: 1024 source bytes through both tests before the first roll.
#   Block repeat test (FIPS 140-2 §4.9.2 style, not in SP 800-90B): a 32-byte
#   block equal to the one before fails: it catches a source that replays a
#   buffer, which the per-byte tests can miss.
#
# Memory: buffers are allocated once. absorb(), the health tests and the
# face extraction allocate nothing (tests/mp/test_dice_heap.py, under
# micropython.heap_lock()). Exactly three objects are allocated per roll, all
# in roll(): the bytes returned by source(32), the digest bytes, and the new
# hashlib.sha256 object for the next roll (MicroPython's digest() finalizes a
# hash object, so it cannot be reused); the test measures each of them and
# checks that a whole roll allocates exactly their sum.
import hashlib

from micropython import const

RAW_BYTES = const(32)  # source bytes per roll
_SAMPLE_BYTES = const(10)  # t (4 bytes) + ax, ay, az (2 bytes each)
_SAMPLES = const(32)  # samples buffered between hash updates
_ACCEPT = const(252)  # 6 * 42: bytes from here up are rejected
RCT_CUTOFF = const(6)
APT_CUTOFF = const(62)
APT_WINDOW = const(512)
STARTUP_BYTES = const(1024)

_TAG = b"bobing-dice-v1"

# health test ids, with the text a screen shows
HEALTH_ZH = {
    "rct": "随机源卡住",  # stuck
    "apt": "随机源偏差",  # biased
    "repeat": "随机源重复",  # repeating
    "source": "随机源故障",  # failed
    "memory": "RAM已用完",  # out of memory reading it: no health test failed
}


class EntropyError(Exception):
    """The random source failed a health test: the bowl must not roll.

    `test` is "rct", "apt", "repeat", "source" or "memory" (HEALTH_ZH has the Chinese);
    str(e) says what was seen, for the screen and the log."""

    def __init__(self, test, message):
        super().__init__(message)
        self.test = test


# made at import: with the heap exhausted there may be no room to make it then
_NO_MEMORY = EntropyError("memory", "out of memory reading the random source")


def accept(block, out, n):
    """Rejection sampling: faces from `block` into out[n:6]; returns the new n."""
    for i in range(len(block)):
        if n >= 6:
            break
        b = block[i]
        if b < _ACCEPT:
            out[n] = b % 6 + 1
            n += 1
    return n


def _put32(buf, i, v):
    buf[i] = (v >> 24) & 0xFF
    buf[i + 1] = (v >> 16) & 0xFF
    buf[i + 2] = (v >> 8) & 0xFF
    buf[i + 3] = v & 0xFF


def secret_bytes(n, source, noise=b""):
    """n (1..32) bytes for a long-lived secret: SHA-256 of a tag, 32 bytes of
    `source` (a strong one: see the threat model) and the measured `noise`.
    A source failing the health tests raises EntropyError."""
    if not 1 <= n <= 32:
        raise ValueError("secret of %r bytes: 1 to 32 allowed" % (n,))
    raw = source(RAW_BYTES)
    if len(raw) != RAW_BYTES:
        raise EntropyError("source", "the random source gave %d bytes, not %d" % (len(raw), RAW_BYTES))
    run = 1
    for k in range(1, RAW_BYTES):  # the repetition count test, as for a roll
        run = run + 1 if raw[k] == raw[k - 1] else 1
        if run >= RCT_CUTOFF:
            raise EntropyError("rct", "random source stuck: %d equal bytes in a row; no secret made" % run)
    h = hashlib.sha256(b"bobing-secret-v1")
    h.update(raw)
    h.update(noise)
    return h.digest()[:n]


class Dice:
    """Six fair faces per roll from `source` (os.urandom) and the shake."""

    def __init__(self, source):
        self._source = source
        self._samples = bytearray(_SAMPLES * _SAMPLE_BYTES)
        self._nsamples = 0  # in the buffer
        self._absorbed = 0  # since the last roll
        self._head = bytearray(8)  # roll counter, samples absorbed
        self._carry = bytearray(32)  # the previous roll's digest
        self._prev = bytearray(RAW_BYTES)  # the previous source block
        self._rct_a = -1
        self._rct_b = 0
        self._apt_a = 0
        self._apt_b = 0
        self._apt_i = 0
        self.rolls = 0
        self.failed = None  # the latched EntropyError, if any
        # the start-up test's 1,024 bytes a roll's 32 at a time (the tests run byte by byte):
        # no 1 KB block to find in a fragmented heap
        for _ in range(STARTUP_BYTES // RAW_BYTES):
            self._health(self._read(RAW_BYTES))
        self._apt_i = 0  # the first roll starts a fresh window
        self._h = hashlib.sha256(_TAG)

    def _fail(self, test, message):
        self.failed = EntropyError(test, message)
        raise self.failed

    def _read(self, n):
        try:
            raw = self._source(n)
        except MemoryError:
            self.failed = _NO_MEMORY
            raise _NO_MEMORY
        except Exception as e:
            self._fail("source", "random source error: %r" % (e,))
        if raw is None or len(raw) != n:
            self._fail("source", "random source gave %r bytes, %d asked" % (
                None if raw is None else len(raw), n))
        return raw

    def _health(self, raw):
        """SP 800-90B repetition count and adaptive proportion tests, byte by byte."""
        a = self._rct_a
        b = self._rct_b
        pa = self._apt_a
        pb = self._apt_b
        pi = self._apt_i
        for k in range(len(raw)):
            s = raw[k]
            if s == a:
                b += 1
                if b >= RCT_CUTOFF:
                    self._fail("rct", "random source stuck: %d equal bytes (0x%02x) in a row "
                               "(repetition count test); the bowl will not roll" % (b, s))
            else:
                a = s
                b = 1
            if pi == 0:
                pa = s
                pb = 1
            elif s == pa:
                pb += 1
                if pb >= APT_CUTOFF:
                    self._fail("apt", "random source biased: byte 0x%02x %d times in %d "
                               "(adaptive proportion test); the bowl will not roll" % (s, pb, pi + 1))
            pi += 1
            if pi == APT_WINDOW:
                pi = 0
        self._rct_a = a
        self._rct_b = b
        self._apt_a = pa
        self._apt_b = pb
        self._apt_i = pi

    def _repeat(self, raw):
        """Block repeat test; keeps this block for the next one."""
        p = self._prev
        same = True
        for k in range(RAW_BYTES):
            if raw[k] != p[k]:
                same = False
            p[k] = raw[k]
        if same:
            self._fail("repeat", "random source repeating: a %d-byte block equal to the "
                       "previous one; the bowl will not roll" % RAW_BYTES)

    def absorb(self, t, ax, ay, az):
        """One shake sample into the pool: t (the µs tick it was read at), milli-g."""
        buf = self._samples
        i = self._nsamples * _SAMPLE_BYTES
        _put32(buf, i, t)
        buf[i + 4] = (ax >> 8) & 0xFF
        buf[i + 5] = ax & 0xFF
        buf[i + 6] = (ay >> 8) & 0xFF
        buf[i + 7] = ay & 0xFF
        buf[i + 8] = (az >> 8) & 0xFF
        buf[i + 9] = az & 0xFF
        self._nsamples += 1
        self._absorbed += 1
        if self._nsamples == _SAMPLES:
            self._h.update(buf)
            self._nsamples = 0

    def check(self, raw):
        """Health-test one source block (all three tests); raises EntropyError."""
        if self.failed is not None:
            raise self.failed
        self._health(raw)
        self._repeat(raw)

    def _digest(self, raw):
        """Close this roll's hash over the source block and the shake; new hash for the next."""
        h = self._h
        buf = self._samples
        for k in range(self._nsamples * _SAMPLE_BYTES, len(buf)):
            buf[k] = 0  # the count below says where the samples end
        if self._nsamples:
            h.update(buf)
        _put32(self._head, 0, self.rolls & 0x3FFFFFFF)
        _put32(self._head, 4, self._absorbed & 0x3FFFFFFF)
        h.update(self._head)
        h.update(self._carry)
        h.update(raw)
        d = h.digest()
        self._h = hashlib.sha256(_TAG)
        self._nsamples = 0
        self._absorbed = 0
        c = self._carry
        for k in range(32):
            c[k] = d[k]
        return d

    def draw(self, digest, out):
        """Faces from a digest into out[0:6]; in the (p < 2^-140) case that 32 bytes
        hold fewer than six accepted values, more come from hashing the digest."""
        n = accept(digest, out, 0)
        while n < 6:
            h = hashlib.sha256(_TAG)
            h.update(digest)
            h.update(b"more")
            digest = h.digest()
            n = accept(digest, out, n)
        return out

    def roll(self, out):
        """Six faces 1..6 into out[0:6] (a caller-owned bytearray); returns out.

        Raises EntropyError (and keeps refusing) once the source fails a test."""
        if self.failed is not None:
            raise self.failed
        raw = self._read(RAW_BYTES)
        self.check(raw)
        d = self._digest(raw)
        self.rolls += 1
        return self.draw(d, out)


COMMIT_TAG = b"bobing-commit-v1"
FAIR_TAG = b"bobing-fair-v1"
FAIR2_TAG = b"bobing-fair-v2"  # fair format 2: the customer's own value in the message too
CHAIN_TAG = b"bobing-chain-v2"
SECRET_BYTES = const(32)
DESK_BYTES = const(16)
USER_BYTES = const(16)  # fair format 2: the customer's value (zeros: no customer seed)
CHAIN_N = const(1024)  # customers one chain anchor covers (a game's customers 1..1024, 1025..2048, ...)
_HBLOCK = const(64)  # SHA-256's block
_MSG = const(14 + 16 + 4 + 4 + 2 + 1)  # FAIR_TAG, D, g, k, i, j
_MSG2 = const(14 + 16 + 16 + 4 + 4 + 2 + 1)  # FAIR2_TAG, D, U, g, k, i, j


def commitment(secret):
    """C = SHA-256(COMMIT_TAG | secret): what the bowl publishes before the shakes."""
    h = hashlib.sha256(COMMIT_TAG)
    h.update(secret)
    return h.digest()


def chain_step(x):
    """One link of a game's chain of customer secrets (fair format 2): SHA-256(CHAIN_TAG | x)."""
    h = hashlib.sha256(CHAIN_TAG)
    h.update(x)
    return h.digest()


def chain_at(root, p, n=CHAIN_N):
    """The secret at position p (0..n) of the chain grown from root: n - p links
    from it, so position 0 is the anchor the bowl commits to before the chain's
    first customer, and revealing position p shows only the positions before it."""
    if not 0 <= p <= n:
        raise ValueError("chain position %r: 0..%d" % (p, n))
    x = root
    for _ in range(n - p):
        x = chain_step(x)
    return x


def chain_holds(secret, p, anchor):
    """Does the secret revealed at chain position p lead to the anchor in p links?"""
    x = secret
    for _ in range(p):
        x = chain_step(x)
    return x == anchor


def chain_place(k, n=CHAIN_N):
    """Customer k (1, 2, ...) -> (chain a = 1, 2, ..., position p = 1..n in it)."""
    if k < 1:
        raise ValueError("customer %r: 1 or more" % (k,))
    return (k - 1) // n + 1, (k - 1) % n + 1


class Derived:
    """Rolls of one commitment: HMAC-SHA256(key=secret, FAIR_TAG | desk | g | k | i | j)
    through accept(); with user (fair format 2: the customer's 16 bytes, zeros without a
    customer seed) HMAC-SHA256(key=secret, FAIR2_TAG | desk | user | g | k | i | j).
    Buffers made once; a roll allocates only hashlib's objects and digests
    (MicroPython's sha256 cannot be copied)."""

    def __init__(self, secret, desk, game, customer, user=None):
        if len(secret) != SECRET_BYTES or len(desk) != DESK_BYTES:
            raise ValueError("a secret of %d bytes and a desk value of %d bytes, not %d and %d"
                             % (SECRET_BYTES, DESK_BYTES, len(secret), len(desk)))
        if user is not None and len(user) != USER_BYTES:
            raise ValueError("a customer value of %d bytes, not %d" % (USER_BYTES, len(user)))
        if not (0 <= game <= 0xFFFFFFFF and 0 <= customer <= 0xFFFFFFFF):
            raise ValueError("game %r and customer %r: 0..4294967295" % (game, customer))
        self._ipad = bytearray(_HBLOCK)
        self._opad = bytearray(_HBLOCK)
        for k in range(_HBLOCK):
            b = secret[k] if k < SECRET_BYTES else 0
            self._ipad[k] = b ^ 0x36
            self._opad[k] = b ^ 0x5C
        if user is None:
            m = bytearray(_MSG)
            m[0:14] = FAIR_TAG
            m[14:30] = desk
            at = 30
        else:
            m = bytearray(_MSG2)
            m[0:14] = FAIR2_TAG
            m[14:30] = desk
            m[30:46] = user
            at = 46
        _put32(m, at, game)
        _put32(m, at + 4, customer)
        self._at = at + 8  # where i and j go
        self._msg = m

    def block(self, i, j):
        """The j-th 32-byte block of roll i."""
        m = self._msg
        at = self._at
        m[at] = (i >> 8) & 0xFF
        m[at + 1] = i & 0xFF
        m[at + 2] = j & 0xFF
        h = hashlib.sha256(self._ipad)
        h.update(m)
        o = hashlib.sha256(self._opad)
        o.update(h.digest())
        return o.digest()

    def roll(self, i, out):
        """Six faces of roll i (0..65535) into out[0:6]; returns out."""
        if not 0 <= i <= 0xFFFF:
            raise ValueError("roll %r of a commitment: 0..65535" % (i,))
        n = 0
        j = 0
        while n < 6:  # a second block with p < 2^-140
            if j > 255:
                raise ValueError("no six faces in 256 blocks")
            n = accept(self.block(i, j), out, n)
            j += 1
        return out
