# Verifiable fairness on an event kiosk (firmware/PROTOCOL.md "Verifiable
# fairness"; the derivation and the threat model: bobing/dice.py). Pure logic
# over a folder, loaded only on a bowl whose net.txt says fair=on. The bowl plays
# fair format 2; format 1's lines and messages are still read (old journals verify
# as what they are, an old bowl's messages reach the desk).
#
# Format 2: one sequence of dice per (bowl, game, customer), whatever happens.
#   chain    before a game's first customer (and its 1025th, ...) the bowl draws a
#            32-byte root from the strong source, keeps it in the key file
#            ROOT/gNNNNNNNN.bbk (so a power cut does not lose it: the same dice go
#            on), and commits to the chain's anchor dice.chain_at(root, 0): customer
#            k's secret is dice.chain_at(root, p) (a, p = dice.chain_place(k)), fixed
#            by the anchor before any desk value exists, one per customer for ever
#   commit   before customer k's first shake: {"f":2,"g","k","a","c": the anchor,
#            "pf": the game's rules (preset and overrides), "l": the stock at his
#            start, per prize class} to the desk (so his awards can be replayed from
#            the export alone: game.turn_awards), which records the chain's first anchor (another one is
#            refused) and answers with its value for customer k: one value, the
#            same however often it is asked
#   seed     the desk's 16 bytes D for customer k: "V k D" logged, the shakes let in
#   roll     dice.Derived(secret_k, D, game, k, U).roll(i) for the i-th roll of the
#            turn (U: the customer's 16 bytes, zeros without a customer seed); a
#            spill uses up no position (his next shake rolls the same i), so
#            voiding good rolls as spills gains nothing
#   reveal   after the customer's last shake: "S k secret" logged, published with
#            the turn's shakes ("-" a spill)
# No desk value within SEED_WAIT_MS (net.txt fair_wait): "W k" goes on the log and
# his shakes roll the bowl's own dice (bobing/dice.py's Dice), revealed with "u":1,
# unverified everywhere; a desk value that comes later is not used for that turn.
# A power cut (or a failed journal write) mid-turn loses nothing: the turn is
# rebuilt from the key file, the log's "V k" and the journal's rolls of customer k,
# and his next shake rolls the next position of the same sequence.
#
# The fair log ROOT/gNNNNNNNN.bbf beside the game's journal, one line per step,
# each ending in the CRC-16 (hex) of the text before it (journal.crc16), appended
# and flushed before the step is used: format 2 "A a n anchor", "V k D", "W k",
# "S k secret"; format 1 (older firmware) "C q k ev C", "D q D", "U q", "R q S".
# A torn last line (power cut) fails its CRC and is ignored. The key file's lines
# "K a root" likewise; it is pruned with the game (journal.prune).
# Messages wait in RAM (Fair.pending, at most MAX_PENDING: the oldest go) until the
# broker acknowledged them; a turn rebuilt after a reboot asks again (the desk
# answers the same value), and its reveal is sent at its end.
from micropython import const
import time

from bobing import dice, game, journal, store

VERSION = const(2)  # every fair message's "v": outbox.VERSION (sealed); "f" tells fair format 1 (none) from 2
FORMAT = const(2)  # the fair format this bowl plays
LOG = journal.FAIR  # pruned with the game's journal (journal.prune)
KEY = journal.FAIR_KEY  # the game's chain roots, likewise
MAX_Q = const(16777215)
MAX_PENDING = const(16)  # messages held in RAM for the broker; older ones go (their lines stay on flash)
SEED_WAIT_MS = const(60000)  # by default; then the customer plays unverified (the bowl's own dice)


def log_path(root, game_id):
    return journal.path_of(root, game_id, LOG)


def key_path(root, game_id):
    return journal.path_of(root, game_id, KEY)


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


def append(root, game_id, text, path=None):
    """One line onto the game's fair log (or path), on flash before it returns."""
    f = open(path or log_path(root, game_id), "ab")
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
            if p[0] == "A" and len(p) == 4:
                out.append(("A", int(p[1]), int(p[2]), _unhex(p[3], 32, "anchor")))
            elif p[0] == "V" and len(p) in (3, 4):
                out.append(("V", int(p[1]), _unhex(p[2], dice.DESK_BYTES, "value"),
                            _unhex(p[3], dice.USER_BYTES, "customer value") if len(p) == 4 else None))
            elif p[0] == "P" and len(p) == 3:
                out.append(("P", int(p[1]), _unhex(p[2], dice.USER_BYTES, "customer value")))
            elif p[0] == "W" and len(p) == 2:
                out.append(("W", int(p[1])))
            elif p[0] in ("S", "K") and len(p) == 3:
                out.append((p[0], int(p[1]), _unhex(p[2], 32, "secret")))
            elif p[0] == "C" and len(p) == 5:
                out.append(("C", int(p[1]), int(p[2]), int(p[3]), _unhex(p[4], 32, "commitment")))
            elif p[0] == "U" and len(p) == 2:
                out.append(("U", int(p[1])))
            elif p[0] in ("D", "R") and len(p) == 3:
                n = dice.DESK_BYTES if p[0] == "D" else dice.SECRET_BYTES
                out.append((p[0], int(p[1]), _unhex(p[2], n, "value")))
            else:
                raise ValueError("not an A, V, P, W, S or K line (format 2) nor a C, D, U or R line (format 1)")
        except (ValueError, UnicodeError) as e:
            last = no == len(lines) - 1 or (no == len(lines) - 2 and not lines[-1])
            return out, "%s line %d %s" % (path, no + 1, "torn (power cut)" if last else "damaged: %s" % e)
    return out, None


# ---------------------------------------------------------------- the messages
# Format 2 (the bowl's now): plain JSON bodies with "v": outbox.VERSION and "f": 2.
# Their identity is (bowl, g, k): a copy changes nothing at the desk (the first
# anchor of a chain, the first value and the first reveal of a customer stand).
def commit2_payload(g, k, a, anchor, pf, left):
    """Customer k of game g is about to shake: chain a's anchor (64 hex), the desk's value
    asked for; pf: the game's rules (rules_text), left: the stock at his start, one count
    per prize class in the profile's order."""
    from bobing import outbox
    return ('{"v":%d,"f":2,"g":%d,"k":%d,"a":%d,"c":"%s","pf":"%s","l":[%s]}' % (
        outbox.VERSION, g, k, a, _hex(anchor), pf, ",".join([str(n) for n in left]))).encode()


def rules_text(name, overrides):
    """A game's rules as a commit names them: the preset, then its overrides (sorted)."""
    return name + "".join([" %s=%s" % (o, overrides[o]) for o in sorted(overrides)])


def seed2_payload(g, k, d, u=None):
    """The desk's value for customer k of game g (the same whenever it is asked); u: the
    customer's own 16 bytes from his phone, when he sent some (the same D with it)."""
    from bobing import outbox
    return ('{"v":%d,"f":2,"g":%d,"k":%d,"d":"%s"%s}' % (outbox.VERSION, g, k, _hex(d),
                                                        ',"u":"%s"' % _hex(u) if u else "")).encode()


def reveal2_payload(g, k, s, rolls, unseeded=False, p=None):
    """rolls: the turn's shakes in order, each six digits or "-" (a spill, no position used);
    p: the customer's own 16 bytes the dice used (None: no customer seed)."""
    from bobing import outbox
    return ('{"v":%d,"f":2,"g":%d,"k":%d,"s":"%s","r":[%s]%s%s}' % (
        outbox.VERSION, g, k, _hex(s), ",".join(['"%s"' % r for r in rolls]), ',"u":1' if unseeded else "",
        ',"p":"%s"' % _hex(p) if p else "")).encode()


def form(event, topic_b, payload, leaf):
    """-> (fair format 1 or 2, bowl, the JSON object) of a received fair message."""
    from bobing import outbox
    b, d = outbox.message(event, topic_b, payload, leaf)
    f = d.get("f", 1)
    if f not in (1, 2):
        raise ValueError("fair format f=%r: this side reads 1 (no \"f\") and 2" % (f,))
    return f, b, d


def _k(d):
    from bobing import outbox
    return outbox.int_field(d, "g", 1, 99999999), outbox.int_field(d, "k", 1, 16777215)


def decode_commit2(d):
    """A format-2 commit's object -> (g, k, a, anchor bytes); ValueError saying what was wrong."""
    from bobing import outbox
    g, k = _k(d)
    a = outbox.int_field(d, "a", 1, 16777215)
    if a != dice.chain_place(k)[0]:
        raise ValueError("commit a=%d: customer %d is in chain %d (%d customers a chain)"
                         % (a, k, dice.chain_place(k)[0], dice.CHAIN_N))
    pf = d.get("pf")
    if not isinstance(pf, str) or not 1 <= len(pf) <= 120 or '"' in pf or "\\" in pf:
        raise ValueError("commit pf: the game's rules, a preset and its overrides (1..120 characters), got %r"
                         % (pf,))
    left = d.get("l")
    if not isinstance(left, list) or len(left) > 16 or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 16777215 for n in left):
        raise ValueError("commit l: the stock at the customer's start, at most 16 counts 0..16777215, got %r"
                         % (left,))
    return g, k, a, _unhex(d.get("c"), 32, "anchor c"), pf, left


def decode_reveal2(d):
    """A format-2 reveal's object -> (g, k, secret bytes, [shakes], unseeded, the customer's
    value the dice used or None)."""
    g, k = _k(d)
    r = _rolls(d.get("r"))
    u = d.get("u", 0)
    if u not in (0, 1):
        raise ValueError("reveal u: 1 (no desk value: the bowl's own dice) or absent, got %r" % (u,))
    p = d.get("p")
    return (g, k, _unhex(d.get("s"), dice.SECRET_BYTES, "secret s"), r, u == 1,
            None if p is None else _unhex(p, dice.USER_BYTES, "customer value p"))


def _rolls(r):
    if not isinstance(r, list) or len(r) > 64:
        raise ValueError("reveal r: a list of at most 64 rolls")
    for x in r:
        if x != "-" and (not isinstance(x, str) or len(x) != 6 or any(ch not in "123456" for ch in x)):
            raise ValueError("reveal r: each shake six digits 1..6 or \"-\" (a spill), got %r" % (x,))
    return r


# Format 1 (older firmware): kept so that its messages reach the desk as what they are.
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
    """-> (g, q, C's first 16 hex digits, D bytes); format 2: (g, k, the customer's 16 bytes
    or None, D bytes)."""
    f, b, d = form(event, topic_b, payload, "seed")
    if b != bowl_id:
        raise ValueError("seed for bowl %r: this is bowl %r" % (b, bowl_id))
    if f == 2:
        g, k = _k(d)
        u = d.get("u")
        return (g, k, None if u is None else _unhex(u, dice.USER_BYTES, "customer value u"),
                _unhex(d.get("d"), dice.DESK_BYTES, "desk value d"))
    b, d, g, q = _decode(event, topic_b, payload, "seed")
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
    r = _rolls(d.get("r"))
    u = d.get("u", 0)
    if u not in (0, 1):
        raise ValueError("reveal u: 1 (no desk value: the bowl's own dice) or absent, got %r" % (u,))
    return b, g, k, q, _unhex(d.get("s"), dice.SECRET_BYTES, "secret s"), r, u == 1


def join_link(desk, bowl, g, k):
    """The turn screen's QR before the first shake: the desk's page where customer k's
    phone adds his own seed (upper case, QR alphanumeric)."""
    return "%s/J/%s/%d-%d" % (desk, bowl.upper(), g, k)


def receipt_link(desk, bowl, g, k):
    """The receipt QR's link: the desk's page where customer k of game g checks his turn in
    his own phone (desk: "HTTP://HOST:PORT"; upper case, QR alphanumeric)."""
    return "%s/V/%s/%d-%d" % (desk, bowl.upper(), g, k)


# ---------------------------------------------------------------- the bowl's side
_NO_USER = bytes(dice.USER_BYTES)  # no customer seed


class _Shakes:
    """journal.scan's keep: the shakes of customer k as the reveal lists them."""

    def __init__(self, k):
        self.k = k
        self.n = 0  # customers so far
        self.r = []

    def append(self, ev):
        kind = ev[0]
        if kind == game.EV_CUSTOMER:
            self.n += 1
        elif self.n == self.k and kind == game.EV_ROLL:
            self.r.append("%d%d%d%d%d%d" % tuple(ev[1]))
        elif self.n == self.k and kind == game.EV_SPILL:
            self.r.append("-")


class Fair:
    """The console's part (console.fair), fair format 2. source: the strong random
    source; own: the bowl's own dice (a Dice.roll) for a turn the desk did not answer
    in time; desk: "HTTP://HOST:PORT" of the desk's public pages (the claim QR's link)
    or None; wait_ms: how long a customer waits for the desk's value (net.txt fair_wait)."""

    def __init__(self, root, source, own=None, desk=None, wait_ms=SEED_WAIT_MS):
        self.root = root
        self.source = source
        self.own = own
        self.desk = desk
        self.wait_ms = wait_ms
        self.since = 0  # when the turn asked for the desk's value (the console's ms)
        # [g, k, secret, Derived (None: no desk value yet; False: none in time), shakes (strings),
        #  rolls so far (the next position), chain a, anchor, the customer's value U, D]
        self.turn = None
        self.pending = []  # messages to publish: (leaf, payload); the first is sent first
        # (game, the fair log's lines of its last customer, chain roots, chain anchors): one game's
        # at a time, and of its log only what a turn can need (RAM stays bounded however long it runs)
        self._g = None
        self._checked = None  # (game, chain) whose root was found to give its anchor
        self.receipt = None  # (game, customer) of the last turn revealed: the gate screen's receipt QR
        self.log = []

    def _game(self, g):
        if self._g is None or self._g[0] != g:
            self._g = None
            rows, _p = read_log(log_path(self.root, g))
            anchors = {}
            last = []
            for r in rows:
                if r[0] == "A":
                    if r[1] not in anchors:
                        anchors[r[1]] = r[3]
                elif r[0] in ("V", "W", "P", "S"):
                    if last and last[0][1] != r[1]:
                        last = []
                    last.append(r)
            del rows
            keys, _p = read_log(key_path(self.root, g))
            self._g = (g, last, {r[1]: r[2] for r in keys if r[0] == "K"}, anchors)
        return self._g

    def _note(self, g, text, row):
        append(self.root, g, text)
        gm = self._game(g)
        if row[0] == "A":
            gm[3][row[1]] = row[3]
            return
        last = gm[1]
        if last and last[0][1] != row[1]:
            del last[:]  # another customer's turn: the last one's lines are on flash only
        last.append(row)

    def ready(self):
        return self.turn is not None and self.turn[3] is not None

    def joinable(self):
        """The turn screen offers the customer's own seed: the desk's value came, no shake yet,
        the desk's pages known. -> the turn's (game, customer), else None."""
        tu = self.turn
        if tu is None or not tu[3] or tu[4] or not self.desk:
            return None
        return tu[0], tu[1]

    def user_hex(self):
        """The first 8 hex digits of the customer's own seed in this turn, or None."""
        tu = self.turn
        if tu is None or tu[8] == _NO_USER:
            return None
        return _hex(tu[8][:4])

    def unseeded(self):
        """The turn rolls the bowl's own dice: no desk value came in time (unverified)."""
        return self.turn is not None and self.turn[3] is False

    def _chain(self, g, a):
        """-> chain a's (root, anchor) of game g: drawn, kept on flash and logged the first time."""
        _g, _last, roots, anchors = self._game(g)
        anchor = anchors.get(a)
        root = roots.get(a)
        if anchor is None:
            root = dice.secret_bytes(dice.SECRET_BYTES, self.source)
            append(self.root, g, "K %d %s" % (a, _hex(root)), key_path(self.root, g))  # first: never an anchor
            roots[a] = root  # whose root is lost
            anchor = dice.chain_at(root, 0)
            self._note(g, "A %d %d %s" % (a, dice.CHAIN_N, _hex(anchor)), ("A", a, dice.CHAIN_N, anchor))
        elif self._checked != (g, a):  # (once a game: 1024 hashes)
            if root is None or dice.chain_at(root, 0) != anchor:
                raise ValueError("key file of game %d: chain %d's root is missing or damaged" % (g, a))
            self._checked = (g, a)
        return root, anchor

    def need(self, j, t_ms=None):
        """Called between rolls: a customer with shakes left and no turn in RAM gets one
        (his chain's anchor committed, the desk's value asked for; after a power cut the
        same turn rebuilt from flash); after his last shake the turn is revealed; a turn
        the desk has not answered for wait_ms (t_ms: the console's time) lets the customer
        play unverified. j: the game's Journal."""
        t = j.table
        tu = self.turn
        if tu is not None and (tu[0] != j.game_id or tu[1] != t.customer or not t.shakes_left):
            self._reveal()
            tu = None
        if tu is None and t.event and t.kiosk and t.shakes_left and not t.ended:
            g, k = j.game_id, t.customer
            a, p = dice.chain_place(k)
            rows = self._game(g)[1]
            der = None
            user = _NO_USER
            for r in rows:
                if r[0] == "W" and r[1] == k:
                    der = False
                elif r[0] == "V" and r[1] == k and der is None:
                    der = r
                    user = r[3] or _NO_USER
                elif r[0] == "P" and r[1] == k:
                    user = r[2]
            try:
                root, anchor = self._chain(g, a)
                secret = dice.chain_at(root, p)
            except ValueError as e:  # (a flash write that fails: OSError, the customer waits, tried again)
                self.log.append("fair: customer %d: %s: his shakes roll the bowl's own dice, unverified" % (k, e))
                root = anchor = secret = None
                if der is not False:
                    self._note(g, "W %d" % k, ("W", k))
                der = False
            shakes = []
            if der is not None:  # a turn begun before a reboot: the same sequence goes on
                sh = _Shakes(k)
                journal.scan(journal.path_of(self.root, g), g, keep=sh)
                shakes = sh.r
            n = 0
            for x in shakes:
                if x != "-":
                    n += 1
            d = None
            if der:
                d = der[2]
                der = dice.Derived(secret, d, g, k, user)
            self.turn = [g, k, secret, der, shakes, n, a, anchor, user, d]
            self.since = t_ms or 0
            if der is None:
                c = j.config
                self._queue("commit", commit2_payload(g, k, a, anchor, rules_text(c.profile, c.overrides),
                                                      [t.pool[x] for x in t.classes]))
                self.log.append("fair: customer %d of game %d: the desk's value asked for" % (k, g))
            else:
                self.log.append("fair: customer %d of game %d: his turn goes on at roll %d" % (k, g, n + 1))
        elif tu is not None and tu[3] is None and t_ms is not None and self.own is not None and \
                time.ticks_diff(t_ms, self.since) >= self.wait_ms:
            self._note(tu[0], "W %d" % tu[1], ("W", tu[1]))  # on flash first: never taken for verified
            tu[3] = False
            self.log.append("fair: customer %d: no desk value in %d s: his shakes roll the bowl's own dice, "
                            "unverified" % (tu[1], self.wait_ms // 1000))

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

    def seed(self, g, k, u, d):
        """The desk's value (u: the customer's own 16 bytes from his phone, or None) -> True
        when it was this turn's: logged, shakes let in. A customer value that comes with
        the same D before his first shake is taken too ("P k U"): from then on his dice
        use it. A format-1 seed (u: a str) is never this bowl's."""
        tu = self.turn
        if isinstance(u, str) or tu is None or tu[0] != g or tu[1] != k or tu[3] is False:
            return False
        if tu[3] is None:
            self._note(g, "V %d %s%s" % (k, _hex(d), " " + _hex(u) if u else ""), ("V", k, d, u))
            tu[8], tu[9] = u or _NO_USER, d
            tu[3] = dice.Derived(tu[2], d, g, k, tu[8])
            self.log.append("fair: customer %d: desk value came%s; shakes let in" % (
                k, ", with his own seed %s" % _hex(u)[:8] if u else ""))
            return True
        if u is None or tu[4] or tu[8] != _NO_USER or d != tu[9]:
            if u is not None and tu[8] != u:
                self.log.append("fair: customer %d: his own seed came %s: not used" % (
                    k, "after his first shake" if tu[4] else "with another desk value" if d != tu[9] else "twice"))
            return False
        self._note(g, "P %d %s" % (k, _hex(u)), ("P", k, u))
        tu[8] = u
        tu[3] = dice.Derived(tu[2], d, g, k, u)
        self.log.append("fair: customer %d: his own seed %s came before his first shake: his dice use it"
                        % (k, _hex(u)[:8]))
        return True

    def roll(self, out):
        tu = self.turn
        if tu[3] is False:
            return self.own(out)
        return tu[3].roll(tu[5], out)

    def rolled(self, d):
        """The roll is on flash: it counts in the turn, the next roll takes the next position."""
        tu = self.turn
        tu[4].append("%d%d%d%d%d%d" % (d[0], d[1], d[2], d[3], d[4], d[5]))
        tu[5] += 1

    def spilled(self):
        """A spill is on flash: listed in the reveal ("-"), using up no position."""
        self.turn[4].append("-")

    def lost(self):
        """The game resumed from flash (a failed write): the turn is rebuilt from flash
        at the next need(), the same sequence."""
        self.turn = None
        self._g = None

    def _reveal(self):
        tu = self.turn
        self.turn = None
        if tu[2] is None:  # no secret: the chain's root was lost (said when the turn began)
            return
        self._note(tu[0], "S %d %s" % (tu[1], _hex(tu[2])), ("S", tu[1], tu[2]))
        self.receipt = (tu[0], tu[1])
        self._queue("reveal", reveal2_payload(tu[0], tu[1], tu[2], tu[4], tu[3] is False,
                                              None if tu[8] == _NO_USER else tu[8]))
        self.log.append("fair: customer %d: his secret revealed after %d shakes" % (tu[1], len(tu[4])))
