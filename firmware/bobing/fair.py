# Verifiable fairness on an event kiosk (firmware/PROTOCOL.md "Verifiable
# fairness"; the derivation and the threat model: bobing/dice.py). Pure logic
# over a folder, loaded only on a bowl whose net.txt says fair=on:
#
#   commit   before a customer's first shake: a fresh 32-byte secret S (RAM
#            only), C = dice.commitment(S) written to the game's fair log and
#            published; the customer waits (V_SEED) until the desk's value comes
#   seed     the desk's 16 bytes D for exactly that commitment (game, number,
#            C's first 16 hex digits): logged, then the shakes are let in
#   roll     dice.Derived(S, D, game, customer).roll(i) for the i-th shake under
#            the commitment (a spill uses up its i too: the dice it would have
#            given are public after the reveal, so a bowl that voids good rolls
#            as spills shows it)
#   reveal   after the customer's last shake: S written to the log, published
#            with the turn's rolls
# No desk value within SEED_WAIT_MS (net.txt fair_wait; the desk or the broker is down): the
# customer does not wait for ever; "U q" goes on the log and his shakes roll the
# bowl's own dice (bobing/dice.py's Dice), revealed with "u":1, so they count as
# unverified ("no desk value") in verify-fair, on the desk's public page and on the
# bowl's own screen (console.unverified); a desk value that comes later is not used for that turn.
# A power cut (or a failed journal write) between commit and reveal loses S:
# the customer's remaining shakes get a new commitment, and the old one stays
# in the log and at the desk unrevealed, its rolls shown as unverified.
#
# The fair log ROOT/gNNNNNNNN.bbf beside the game's journal: one line per step,
# "C q k ev C-hex", "D q D-hex", "U q" (no desk value in time), "R q S-hex", each ending in the CRC-16 (hex) of
# the text before it (journal.crc16), appended and flushed before the step is
# used. ev is the game's event count at the commitment (game.Table.events: the
# journal's records less a sealed journal's seals): the shakes under commitment
# q are the EV_ROLL and EV_SPILL events from there up to the next commitment.
# A torn last line (power cut) fails its CRC and is ignored.
# Messages wait in RAM (Fair.pending, at most MAX_PENDING: the oldest go) until the broker acknowledged them; a
# power cut after a reveal is logged but before it was acknowledged leaves that
# turn unrevealed at the desk (the journal's log still verifies it).
from micropython import const
import time

from bobing import dice, journal, store

VERSION = const(2)  # the fair messages' "v": outbox.VERSION (event messages, sealed; test_wire checks it)
LOG = journal.FAIR  # pruned with the game's journal (journal.prune)
MAX_Q = const(16777215)
MAX_PENDING = const(16)  # messages held in RAM for the broker; older ones go (their lines stay on flash)
SEED_WAIT_MS = const(60000)  # by default; then the customer plays unverified (the bowl's own dice)


def log_path(root, game_id):
    return journal.path_of(root, game_id, LOG)


def _hex(b):
    import binascii
    return binascii.hexlify(b).decode()


def _unhex(s, n, what):
    import binascii
    if not isinstance(s, str) or len(s) != 2 * n:
        raise ValueError("%s: %d hex digits expected" % (what, 2 * n))
    try:
        return binascii.unhexlify(s)
    except ValueError:
        raise ValueError("%s: not hex" % what)


def _line(text):
    b = text.encode()
    return b + (" %04x\n" % journal.crc16(b, 0, len(b))).encode()


def append(root, game_id, text):
    """One line onto the game's fair log, on flash before it returns."""
    f = open(log_path(root, game_id), "ab")
    try:
        f.write(_line(text))
        store.fsync(f)
    finally:
        f.close()


def read_log(path):
    """-> ([(kind, q, fields...)], problem or None). Reading stops at the first line
    that fails its CRC or its form (a torn last line after a power cut)."""
    out = []
    try:
        f = open(path, "rb")
    except OSError:
        return out, None
    try:
        data = f.read()
    finally:
        f.close()
    lines = data.split(b"\n")
    for no, raw in enumerate(lines):
        if not raw:
            continue
        body, _sp, crc = raw.rpartition(b" ")
        try:
            ok = int(crc, 16) == journal.crc16(body, 0, len(body))
            p = body.decode().split(" ")
            if not ok:
                raise ValueError("fails its CRC")
            if p[0] == "C" and len(p) == 5:
                out.append(("C", int(p[1]), int(p[2]), int(p[3]), _unhex(p[4], 32, "commitment")))
            elif p[0] == "U" and len(p) == 2:
                out.append(("U", int(p[1])))
            elif p[0] in ("D", "R") and len(p) == 3:
                n = dice.DESK_BYTES if p[0] == "D" else dice.SECRET_BYTES
                out.append((p[0], int(p[1]), _unhex(p[2], n, "value")))
            else:
                raise ValueError("not a C, D, U or R line")
        except (ValueError, UnicodeError) as e:
            last = no == len(lines) - 1 or (no == len(lines) - 2 and not lines[-1])
            return out, "%s line %d %s" % (path, no + 1, "torn (power cut)" if last else "damaged: %s" % e)
    return out, None


# ---------------------------------------------------------------- the messages
def commit_payload(g, k, q, c):
    return ('{"v":%d,"g":%d,"k":%d,"q":%d,"c":"%s"}' % (VERSION, g, k, q, _hex(c))).encode()


def seed_payload(g, q, c_hex, d):
    """The desk's value for commitment q of game g (c_hex: its first 16 hex digits)."""
    return ('{"v":%d,"g":%d,"q":%d,"c":"%s","d":"%s"}' % (VERSION, g, q, c_hex[:16], _hex(d))).encode()


def reveal_payload(g, k, q, s, rolls, unseeded=False):
    """rolls: the turn's shakes in order, each the dice as six digits or "-" for a spill.
    unseeded: no desk value came in time, the rolls are the bowl's own dice ("u":1)."""
    return ('{"v":%d,"g":%d,"k":%d,"q":%d,"s":"%s","r":[%s]%s}' % (
        VERSION, g, k, q, _hex(s), ",".join(['"%s"' % r for r in rolls]), ',"u":1' if unseeded else "")).encode()


def _decode(event, topic_b, payload, leaf):
    from bobing import outbox
    b, d = outbox.message(event, topic_b, payload, leaf)
    return b, d, outbox.int_field(d, "g", 1, 99999999), outbox.int_field(d, "q", 1, MAX_Q)


def decode_commit(event, topic_b, payload):
    """-> (bowl, g, k, q, C bytes); ValueError saying what was wrong."""
    from bobing import outbox
    b, d, g, q = _decode(event, topic_b, payload, "commit")
    return b, g, outbox.int_field(d, "k", 1, 16777215), q, _unhex(d.get("c"), 32, "commitment c")


def decode_seed(event, topic_b, payload, bowl_id):
    """-> (g, q, C's first 16 hex digits, D bytes)."""
    b, d, g, q = _decode(event, topic_b, payload, "seed")
    if b != bowl_id:
        raise ValueError("seed for bowl %r: this is bowl %r" % (b, bowl_id))
    c = d.get("c")
    if not isinstance(c, str) or len(c) != 16:
        raise ValueError("seed c: 16 hex digits of the commitment expected")
    return g, q, c, _unhex(d.get("d"), dice.DESK_BYTES, "desk value d")


def decode_reveal(event, topic_b, payload):
    """-> (bowl, g, k, q, S bytes, [six-digit roll strings], unseeded: True when the
    bowl rolled its own dice, no desk value having come in time)."""
    from bobing import outbox
    b, d, g, q = _decode(event, topic_b, payload, "reveal")
    k = outbox.int_field(d, "k", 1, 16777215)
    r = d.get("r")
    if not isinstance(r, list) or len(r) > 64:
        raise ValueError("reveal r: a list of at most 64 rolls")
    for x in r:
        if x != "-" and (not isinstance(x, str) or len(x) != 6 or any(ch not in "123456" for ch in x)):
            raise ValueError("reveal r: each shake six digits 1..6 or \"-\" (a spill), got %r" % (x,))
    u = d.get("u", 0)
    if u not in (0, 1):
        raise ValueError("reveal u: 1 (no desk value: the bowl's own dice) or absent, got %r" % (u,))
    return b, g, k, q, _unhex(d.get("s"), dice.SECRET_BYTES, "secret s"), r, u == 1


# ---------------------------------------------------------------- the bowl's side
class Fair:
    """The console's part (console.fair). source: the strong random source; own: the
    bowl's own dice (a Dice.roll) for a turn the desk did not answer in time; desk:
    "HTTP://HOST:PORT" of the desk's public pages (the claim QR's link) or None;
    wait_ms: how long a customer waits for the desk's value (net.txt fair_wait)."""

    def __init__(self, root, source, own=None, desk=None, wait_ms=SEED_WAIT_MS):
        self.root = root
        self.source = source
        self.own = own
        self.desk = desk
        self.wait_ms = wait_ms
        self.since = 0  # when the turn's commitment was made (the console's ms)
        # [g, k, q, secret, C, Derived (None: no desk value yet; False: none in time), rolls (strings)]
        self.turn = None
        self.pending = []  # messages to publish: (leaf, payload); the first is sent first
        self._q = {}  # game -> the last commitment number in its log
        self.log = []

    def _last_q(self, g):
        q = self._q.get(g)
        if q is None:
            rows, _p = read_log(log_path(self.root, g))
            q = 0
            for r in rows:
                if r[1] > q:
                    q = r[1]
            self._q = {g: q}  # one game's at a time: a bowl that plays for months keeps no list of games
        return q

    def ready(self):
        return self.turn is not None and self.turn[5] is not None

    def unseeded(self):
        """The turn rolls the bowl's own dice: no desk value came in time (unverified)."""
        return self.turn is not None and self.turn[5] is False

    def need(self, j, t_ms=None):
        """Called between rolls: a customer with shakes left and no commitment in RAM
        gets one (committed on flash, queued for the desk); after his last shake the
        turn is revealed; a commitment the desk has not answered for wait_ms
        (t_ms: the console's time) lets the customer play unverified. j: the game's Journal."""
        t = j.table
        tu = self.turn
        if tu is not None and (tu[0] != j.game_id or tu[1] != t.customer or not t.shakes_left):
            self._reveal()
            tu = None
        if tu is None and t.event and t.kiosk and t.shakes_left and not t.ended:
            g = j.game_id
            q = self._last_q(g) + 1
            s = dice.secret_bytes(dice.SECRET_BYTES, self.source)
            c = dice.commitment(s)
            append(self.root, g, "C %d %d %d %s" % (q, t.customer, t.events, _hex(c)))
            self._q[g] = q
            self.turn = [g, t.customer, q, s, c, None, []]
            self.since = t_ms or 0
            self._queue("commit", commit_payload(g, t.customer, q, c))
            self.log.append("fair: customer %d: commitment %d of game %d sent" % (t.customer, q, g))
        elif tu is not None and tu[5] is None and t_ms is not None and self.own is not None and \
                time.ticks_diff(t_ms, self.since) >= self.wait_ms:
            append(self.root, tu[0], "U %d" % tu[2])  # on flash first: these rolls are never taken for verified
            tu[5] = False
            self.log.append("fair: customer %d: no desk value for commitment %d in %d s: his shakes roll the "
                            "bowl's own dice, unverified" % (tu[1], tu[2], self.wait_ms // 1000))

    def _queue(self, leaf, payload):
        """A message for the desk; while the broker is away for long (customers playing
        unverified after fair_wait) the oldest beyond MAX_PENDING go: RAM stays bounded,
        the fair log on flash keeps every line (verify-fair FOLDER reads it)."""
        p = self.pending
        p.append((leaf, payload))
        if len(p) > MAX_PENDING:
            del p[1:len(p) - MAX_PENDING + 1]  # (the first may be in flight: bowl/net.py sends it)
            self.log.append("fair: messages for the desk dropped while the broker was away: at most %d kept"
                            % MAX_PENDING)

    def seed(self, g, q, c_hex, d):
        """The desk's value -> True when it was this turn's (logged, shakes let in)."""
        tu = self.turn
        if tu is None or tu[0] != g or tu[2] != q or _hex(tu[4])[:16] != c_hex or tu[5] is not None:
            return False
        append(self.root, g, "D %d %s" % (q, _hex(d)))
        tu[5] = dice.Derived(tu[3], d, g, tu[1])
        self.log.append("fair: customer %d: desk value for commitment %d; shakes let in" % (tu[1], q))
        return True

    def roll(self, out):
        tu = self.turn
        if tu[5] is False:
            return self.own(out)
        return tu[5].roll(len(tu[6]), out)

    def rolled(self, d):
        """The roll is on flash: it counts in the turn."""
        self.turn[6].append("%d%d%d%d%d%d" % (d[0], d[1], d[2], d[3], d[4], d[5]))

    def spilled(self):
        """A spill is on flash: it uses up its shake's position ("-" in the reveal)."""
        self.turn[6].append("-")

    def lost(self):
        """The game resumed from flash (a failed write): the secret is dropped as by a
        power cut, the commitment stays unrevealed."""
        self.turn = None

    def _reveal(self):
        tu = self.turn
        self.turn = None
        append(self.root, tu[0], "R %d %s" % (tu[2], _hex(tu[3])))
        self._queue("reveal", reveal_payload(tu[0], tu[1], tu[2], tu[3], tu[6], tu[5] is False))
        self.log.append("fair: customer %d: commitment %d revealed after %d rolls" % (tu[1], tu[2], len(tu[6])))
