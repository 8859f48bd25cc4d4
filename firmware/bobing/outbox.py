# The bowl's side of the event protocol (firmware/PROTOCOL.md): the journal is
# the outbox. Every award a kiosk game committed to flash is read back from the
# journal (journal.scan, numbered by game.Table exactly as the console numbers
# the claims it shows) and handed out in order after a cursor -- the identity
# (game, award number) of the last award the broker acknowledged (MQTT PUBACK).
# The cursor lives in its own small file, ROOT/outbox/cursor, written to
# cursor.tmp and renamed over it (as the journal writes a new game), so a
# power cut leaves the old cursor or the new one, never half of one. A cut
# between the PUBACK and the rename sends that award again; the desk counts an
# award once by its identity (bowl, game, award number), so a re-send is
# harmless, while a lost award is impossible: the cursor only moves after the
# broker has it.
#
# Pure logic over a folder (as journal.py): no network, no machine; the device
# glue is bowl/net.py. The message formats are here, one place for both sides:
# the desk decodes with decode_award() what the bowl encodes with award_payload().
# Every message is sealed end to end (bobing/wire.py) by the one sending it, and
# opened by the one receiving it before any decoder here reads its body.
from micropython import const

from bobing import claim, game, journal, store
from bobing.jformat import RECORD

VERSION = const(2)  # payload format ("v"): 2 is sealed (wire.py); any other is refused by name, never guessed at
MAX_PAYLOAD = const(256)  # bytes; an award is ~80, anything larger is refused unread
MAX_NAME = const(32)  # event, bowl and class names: characters (check_name)
_BAD_CHARS = "/+#\"\\"
# In a folder of its own: littlefs rewrites (compacts) a folder's metadata as it
# fills, and the games' folder holds many files (bench/outbox_bench.py: ~30,000
# reads for one commit there with 43 games); the cursor is written at every award.
_DIR = "outbox"
CURSOR = "outbox/cursor"
_TMP = "outbox/cursor.tmp"
PREFIX = "bobing"


def check_name(what, s):
    """An event, bowl or class name as one topic level (and a JSON string): 1..32
    characters, none of / + # (MQTT's level separator and wildcards), no space or
    control character, no " or \\, not starting with $ (the broker's own topics).
    Chinese is fine: topics are UTF-8 (a bowl id may be 万达-3)."""
    if not isinstance(s, str) or not 1 <= len(s) <= MAX_NAME or s[0] == "$":
        raise ValueError("%s %r: 1..%d characters, not starting with $" % (what, s, MAX_NAME))
    for ch in s:
        if ch in _BAD_CHARS or ord(ch) < 0x21 or ord(ch) == 0x7F:
            raise ValueError("%s %r: %r is not allowed (none of / + # \" \\ or spaces or control characters)"
                             % (what, s, ch))
    return s


def topic(event, bowl_id, leaf):
    """bobing/<event>/<bowl>/<leaf>: leaf is award, status (retained), allot
    (retained, desk -> bowl) or ask."""
    return "%s/%s/%s/%s" % (PREFIX, check_name("event", event), check_name("bowl id", bowl_id), leaf)


def every_bowl(event, leaf):
    """The subscription to one leaf of every bowl of an event (the desk's)."""
    return "%s/%s/+/%s" % (PREFIX, check_name("event", event), leaf)


_CLASSES = []  # class names checked already (check_name): a drain sends thousands of a few classes


def award_payload(game_no, award_no, cls, customer):
    """One award's body as compact JSON (bytes). No claim code: the desk computes the
    code the bowl showed from the bowl's secret (claim.code), and the seal says the
    award came from the bowl that holds that secret; a sniffer learns no code."""
    if cls not in _CLASSES:
        check_name("prize class", cls)
        if len(_CLASSES) >= 16:
            _CLASSES.pop(0)
        _CLASSES.append(cls)
    return ('{"v":%d,"g":%d,"n":%d,"c":"%s","k":%d}' % (VERSION, game_no, award_no, cls, customer)).encode()


def key_payload(game_no, customer, minute):
    """A customer the attendant's key let in (journal format 4) as compact JSON (bytes): his
    game, his number in it, the game's minute (PROTOCOL.md "Customers let in by the key").
    Idempotent by (bowl, game, customer)."""
    return ('{"v":%d,"g":%d,"k":%d,"m":%d}' % (VERSION, game_no, customer, minute)).encode()


def decode_key(event, topic_b, payload):
    """A key customer's opened body -> (bowl id, game, customer, minute); ValueError saying
    what was wrong."""
    bowl_id, d = message(event, topic_b, payload, "key")
    return (bowl_id, int_field(d, "g", 1, journal.MAX_GAME_ID), int_field(d, "k", 1, 0xFFFFFF),
            int_field(d, "m", 0, journal.MAX_MINUTE))


def pos(x):
    """An outbox item's place in its game: an award (n, 0, 0); a key customer after award n
    (n, 1, customer). Items are sent, and acknowledged, in this order."""
    return (x[0], 0, 0) if x[1] is not None else (x[0], 1, x[2])


class Award:
    """A decoded award message: bowl_id, game_no, award_no, cls, customer, code."""

    def __init__(self, bowl_id, game_no, award_no, cls, customer, code):
        self.bowl_id = bowl_id
        self.game_no = game_no
        self.award_no = award_no
        self.cls = cls
        self.customer = customer
        self.code = code

    def key(self):
        return (self.bowl_id, self.game_no, self.award_no)

    def __repr__(self):
        return "Award(%s %d-%d %s customer %d)" % (self.bowl_id, self.game_no, self.award_no, self.cls,
                                                   self.customer)


def int_field(d, k, lo, hi):
    """A received message's field k, which must be a whole number lo..hi (ValueError)."""
    v = d.get(k)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError("field %r=%r: a whole number %d..%d" % (k, v, lo, hi))
    return v


def message(event, topic_b, payload, leaf):
    """Common checks of a received message -> (bowl id, the JSON object)."""
    import json
    try:
        t = topic_b.decode() if isinstance(topic_b, (bytes, bytearray)) else topic_b
    except UnicodeError:
        raise ValueError("topic is not UTF-8")
    parts = t.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[1] != event or parts[3] != leaf:
        raise ValueError("topic %r: not %s/%s/<bowl>/%s" % (t[:80], PREFIX, event, leaf))
    bowl_id = check_name("bowl id", parts[2])
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes: at most %d" % (len(payload), MAX_PAYLOAD))
    try:
        d = json.loads(payload)
    except (ValueError, UnicodeError):
        raise ValueError("payload is not JSON: %r" % (bytes(payload[:40]),))
    if not isinstance(d, dict):
        raise ValueError("payload is not a JSON object")
    v = d.get("v")
    if v == 1:
        raise ValueError("payload format 1 (unsealed, older firmware): this side reads format %d, sealed "
                         "(PROTOCOL.md \"Sealed messages\"): update the firmware" % VERSION)
    if v != VERSION:
        raise ValueError("payload format %r: this side reads format %d" % (v, VERSION))
    return bowl_id, d




# A status's place in the bowl's order (replays are refused by it): "b" the bowl's boot
# (ROOT/outbox/boot, grows at every boot), "c" its connection since that boot, "i" the
# status's number on that connection. The will, written at connect and published by the
# broker later, has no "i": it is the connection's last word.
MAX_BOOT = const(0x7FFFFF)  # status_order() then fits a signed 64-bit number (the desk's column)
MAX_CONN = const(0xFFFF)
MAX_I = const(0xFFFFFE)
WILL_I = const(0xFFFFFF)


def status_order(at):
    """(boot, connection, i) -> one number that grows with every status the bowl sends
    (the desk keeps the highest it took)."""
    return (at[0] << 40) | (at[1] << 24) | at[2]


def decode_status(event, topic_b, payload):
    """A status message -> (bowl id, {"on": 0 or 1, "at": (boot, connection, i: WILL_I for
    the will), and when on: "fw", "g", "left": [[class, n], ...], "faults": [part, ...],
    "bat": mV or 0}). ValueError saying what was wrong otherwise."""
    bowl_id, d = message(event, topic_b, payload, "status")
    on = d.get("on")
    if on != 0 and on != 1 or isinstance(on, bool):
        raise ValueError("field 'on'=%r: 0 or 1" % (on,))
    at = (int_field(d, "b", 1, MAX_BOOT), int_field(d, "c", 1, MAX_CONN),
          int_field(d, "i", 1, MAX_I) if on else WILL_I)
    if not on and "i" in d:
        raise ValueError("field 'i': a will (\"on\":0) has none")
    out = {"on": on, "at": at}
    if on:
        out["g"] = int_field(d, "g", 0, journal.MAX_GAME_ID)
        fw = d.get("fw")
        if not isinstance(fw, str) or len(fw) > MAX_NAME:
            raise ValueError("field 'fw'=%r: a version text of at most %d characters" % (fw, MAX_NAME))
        out["fw"] = fw
        left = d.get("left")
        if not isinstance(left, list):
            raise ValueError("field 'left': a list of [class, n]")
        out["left"] = []
        for x in left:
            if not isinstance(x, list) or len(x) != 2:
                raise ValueError("field 'left': %r is not [class, n]" % (x,))
            out["left"].append([check_name("prize class", x[0]), int_field({"n": x[1]}, "n", 0, 0xFFFFFF)])
        faults = d.get("faults")
        if not isinstance(faults, list):
            raise ValueError("field 'faults': a list of part names")
        out["faults"] = [check_name("part", x) for x in faults]
        out["bat"] = int_field(d, "bat", 0, 0xFFFF) if "bat" in d else 0  # mV; 0 = unknown (or older firmware)
        out["tls"] = int_field(d, "tls", 0, 1) if "tls" in d else None  # 0: net.txt's tls=off; None: not said
    return bowl_id, out


def decode_award(event, topic_b, payload, secret_of):
    """An award's opened body (wire.open_sealed) -> Award, its code the one the bowl
    showed, computed from the bowl's secret (secret_of(bowl_id) -> bytes, or None for a
    bowl the desk does not know). ValueError saying what was wrong for anything else: a
    topic outside bobing/<event>/<bowl>/award, an oversized or malformed payload,
    another format version, a field out of range, a code field (format 2 carries none)."""
    bowl_id, d = message(event, topic_b, payload, "award")
    if "code" in d:
        raise ValueError("field 'code': an award carries no claim code (the desk computes it)")
    g, n = int_field(d, "g", 1, journal.MAX_GAME_ID), int_field(d, "n", 1, 0xFFFFFF)
    cls = check_name("prize class", d.get("c"))
    k = int_field(d, "k", 0, 0xFFFFFF)
    secret = secret_of(bowl_id)
    if secret is None:
        raise ValueError("bowl %r is not known here" % bowl_id)
    return Award(bowl_id, g, n, cls, k, claim.code(secret, bowl_id, g, n, cls))


# ---- the shared stock: allot (desk -> bowl) and ask (bowl -> desk) ----------------
# PROTOCOL.md "Shared stock": an allot carries the bowl's CUMULATIVE grant per class
# and a sequence number that only grows, so a repeated, late or lost allot can never
# raise a bowl's stock twice; an ask says what the bowl has left now.

MAX_SEQ = const(0xFFFFFF)  # grant sequence numbers 1..MAX_SEQ
MAX_COUNT = const(0xFFFFFF)  # prizes of one class in a grant or left


def _classes(what, pairs):
    """[[class, n], ...] as compact JSON text, every class once, checked."""
    seen = []
    out = []
    for cls, n in pairs:
        check_name("prize class", cls)
        if cls in seen:
            raise ValueError("%s: class %r twice" % (what, cls))
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_COUNT:
            raise ValueError("%s: %s=%r: a whole number 0..%d" % (what, cls, n, MAX_COUNT))
        seen.append(cls)
        out.append('["%s",%d]' % (cls, n))
    return ",".join(out)


def _sized(b):
    if len(b) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes: at most %d (too many classes)" % (len(b), MAX_PAYLOAD))
    return b


def allot_payload(s, grant):
    """The desk's allot for one bowl: s (1..MAX_SEQ, grows with every raise) and the
    cumulative grant [(class, n), ...], highest class first; a class left out is 0."""
    if not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= MAX_SEQ:
        raise ValueError("grant sequence %r: a whole number 1..%d" % (s, MAX_SEQ))
    return _sized(('{"v":%d,"s":%d,"grant":[%s]}' % (VERSION, s, _classes("grant", grant))).encode())


def ask_payload(s, left):
    """The bowl's ask: the highest grant it applied (0: none yet) and its stock left
    per class [(class, n), ...]."""
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= MAX_SEQ:
        raise ValueError("grant sequence %r: a whole number 0..%d" % (s, MAX_SEQ))
    return _sized(('{"v":%d,"s":%d,"left":[%s]}' % (VERSION, s, _classes("left", left))).encode())


def _class_list(d, k):
    x = d.get(k)
    if not isinstance(x, list):
        raise ValueError("field %r: a list of [class, n]" % k)
    out = []
    for p in x:
        if not isinstance(p, list) or len(p) != 2:
            raise ValueError("field %r: %r is not [class, n]" % (k, p))
        cls = check_name("prize class", p[0])
        for q in out:
            if q[0] == cls:
                raise ValueError("field %r: class %r twice" % (k, cls))
        out.append((cls, int_field({"n": p[1]}, "n", 0, MAX_COUNT)))
    return tuple(out)


def decode_allot(event, topic_b, payload, bowl_id=None):
    """An allot as the bowl receives it -> (s, ((class, cumulative n), ...)).
    ValueError saying what was wrong for anything else: a topic outside
    bobing/<event>/<bowl>/allot (or another bowl's, when bowl_id is given), an
    oversized or malformed payload, another format version, s outside 1..MAX_SEQ, a
    class twice or a count outside 0..MAX_COUNT."""
    b, d = message(event, topic_b, payload, "allot")
    if bowl_id is not None and b != bowl_id:
        raise ValueError("allot for bowl %r: this is bowl %r" % (b, bowl_id))
    return int_field(d, "s", 1, MAX_SEQ), _class_list(d, "grant")


def decode_ask(event, topic_b, payload):
    """An ask as the desk receives it -> (bowl id, s, ((class, left), ...)); s is 0
    from a bowl that has applied no grant yet. ValueError as decode_allot."""
    b, d = message(event, topic_b, payload, "ask")
    return b, int_field(d, "s", 0, MAX_SEQ), _class_list(d, "left")


# ---- the cursor --------------------------------------------------------------
# ROOT/outbox/cursor: "v2 G N CRC\n", CRC the CRC-16 (journal.crc16) of "v2 G N" in
# hex: every award of the games before G and awards 1..N of game G reached the
# broker. A file that fails its checksum, or names a game past the newest on
# flash, is damage and counts as none: everything the journal still holds is
# sent again (the desk counts each award once), never skipped. A cursor of older
# firmware ("v1 G N", no checksum) counts as none likewise.

def _cursor_text(g, n):
    return ("v2 %d %d" % (g, n)).encode()


def read_cursor(root):
    """-> (game_no, award_no) last acknowledged, (0, 0) for none or damage."""
    try:
        with open(store.join(root, CURSOR), "rb") as f:
            b = f.read(48)
    except OSError:
        return 0, 0
    p = b.split()
    try:
        if len(p) == 4 and p[0] == b"v2":
            g, n = int(p[1]), int(p[2])
            t = _cursor_text(g, n)
            if (b == t + (" %04x\n" % journal.crc16(t)).encode() and 0 <= n and 0 <= g <= journal.MAX_GAME_ID
                    and (g or not n) and g <= journal.inventory(root)[1]):
                return g, n  # exactly as written (one spelling), and not past the newest game
    except ValueError:
        pass
    return 0, 0


def write_cursor(root, game_no, award_no):
    t = _cursor_text(game_no, award_no)
    parts = (t, (" %04x\n" % journal.crc16(t)).encode())
    try:
        store.write_whole(store.join(root, CURSOR), store.join(root, _TMP), parts)
    except OSError:
        import os
        os.mkdir(store.join(root, _DIR))  # the first cursor (else this raises: the flash's error)
        store.write_whole(store.join(root, CURSOR), store.join(root, _TMP), parts)


# ROOT/outbox/boot: "v1 B CRC\n", the bowl's boot number on the network (a status's "b"):
# one more at every start of the publisher, so that a status recorded and replayed is
# older than every status the bowl sends later. Lost or damaged it starts again at 1 and
# the desk refuses the bowl's statuses until it passes the last one taken (it says so).
BOOT = "outbox/boot"
_BOOT_TMP = "outbox/boot.tmp"


def next_boot(root):
    """The boot number after the one on flash, written before it is used -> int."""
    b = 0
    try:
        with open(store.join(root, BOOT), "rb") as f:
            raw = f.read(32)
        p = raw.split()
        if len(p) == 3 and p[0] == b"v1":
            t = ("v1 %d" % int(p[1])).encode()
            if raw == t + (" %04x\n" % journal.crc16(t)).encode():
                b = int(p[1])
    except (OSError, ValueError):
        pass
    b = b % MAX_BOOT + 1
    t = ("v1 %d" % b).encode()
    parts = (t, (" %04x\n" % journal.crc16(t)).encode())
    try:
        store.write_whole(store.join(root, BOOT), store.join(root, _BOOT_TMP), parts)
    except OSError:
        import os
        os.mkdir(store.join(root, _DIR))
        store.write_whole(store.join(root, BOOT), store.join(root, _BOOT_TMP), parts)
    return b


def unsent_from(root):
    """The oldest game that may hold awards the broker has not acknowledged, for
    journal.prune to keep (with their games after it): 0 when this bowl is not
    provisioned for an event (no ROOT/net.txt: nothing is ever sent, so nothing
    waits), else the cursor's game (1 with no cursor: every game)."""
    if not journal.provisioned(root):
        return 0
    return read_cursor(root)[0] or 1


# ---- the outbox ----------------------------------------------------------------

STEP = const(32)  # journal records one next() replays at most: a bounded step beside the game loop
_LAST = const(12)  # bytes before where a game was read that must stand as read to go on from there
_PASS = const(16)  # finished games without claims passed in one step (their headers read)


class _Awards:
    """journal.scan's `keep` for the outbox: called after each event the scan
    applied (scan.last is its Outcome); collects the kiosk awards numbered above
    `after` as (award_no, cls, customer), numbered as the console numbers the
    claims it shows (award_no counts kiosk awards only). keys: also the customers
    the attendant's key let in (format 4), as (awards before him, None, customer,
    minute), in the journal's order among the awards, from `after` on (flush()
    after each scan: who let a customer in is known once the scan counted him)."""

    def __init__(self, s, after, keys=False):
        self.s = s
        self.after = after
        self.out = []
        self.keys = keys
        self._k = 0  # s.keyed as last seen
        self._pending = None  # (award_no, customer) of the last customer, until his who is known

    def flush(self):
        p = self._pending
        if p is None:
            return
        self._pending = None
        s = self.s
        if s.keyed > self._k and p[0] >= self.after:
            self.out.append((p[0], None, p[1], s.minute))
        self._k = s.keyed

    def append(self, ev):
        if self.keys:
            if self._pending is not None:  # (a call per record saved: the drain's replay)
                if self.s.keyed > self._k:
                    self.flush()
                else:
                    self._pending = None  # flush() with no key customer: nothing to keep
            if ev[0] == game.EV_CUSTOMER:
                self._k = self.s.keyed
                self._pending = (self.s.table.award_no, self.s.table.customer)
        t = self.s.table
        won = self.s.last.won
        if not won or not t.kiosk:
            return
        first = t.award_no - len(won) + 1
        for i in range(len(won)):
            if first + i > self.after:
                self.out.append((first + i, won[i][0], self.s.last.customer))


def replay(path, game_no=0, after=0):
    """A journal file read back -> (journal.Scan, the replayed game.Table or None,
    [(award_no, cls, customer), ...] numbered above `after`): the one place awards
    are numbered off a journal, exactly as the console numbers the claims it shows
    (the bowl's outbox and the desk's journal import both use it). A damaged tail
    keeps the good prefix (scan.problem says what was wrong). The whole file at
    once: for host tools (the bowl's Outbox reads in bounded steps)."""
    s = journal.Scan()
    a = _Awards(s, after)
    journal.scan(path, game_no, keep=a, into=s)
    return s, s.table, a.out


def _record_at(path, at, n=RECORD):
    """The n bytes of the file from `at` (fewer at its end, b"" if none)."""
    if at < 0:
        return b""
    try:
        f = open(path, "rb")
        try:
            f.seek(at)
            return f.read(n)
        finally:
            f.close()
    except OSError:
        return b""


class Outbox:
    """Awards still to be sent, from the journal, after the cursor.
    next() -> (topic, payload, game_no, award_no) or None; sent(game_no, award_no)
    after the broker acknowledged it. None with .busy set: more of the journal
    is still to be read, call again soon (the net task does so after a short
    pause, the game's tasks running in between).

    It runs beside the game loop, after the watchdog has started, so each
    next() is one bounded step: at most STEP records replayed (or one game's
    header and checkpoint), whatever is on flash -- a kiosk game's backlog of
    thousands of events, or a table bowl's finished games. A game that is not a
    kiosk game with a bowl id has nothing to claim: only its header is read.
    Finished games (all but the newest on flash: the journal only appends to
    the newest) whose awards have all been acknowledged are passed for good: the
    cursor moves to the next game's start (a table bowl's cursor moves too), so
    a boot reads none of them again.

    It follows the game being played without reading it again: the game being
    read stays in RAM (its journal.Scan: the table and the good prefix of the
    file) with its awards not yet sent, and when the file grows only the
    records appended since are read (bench/net_heap.py: what one roll costs,
    whatever the game's length). The file is read again from its start when it
    shrank, when the record read last is no longer there as it was (repaired,
    replaced) or when a damaged tail it stopped at changed. The first read of
    the cursor's game starts from its checkpoint when that leaves out no award
    still to send."""

    def __init__(self, root, event):
        self.root = root
        self.event = check_name("event", event)
        self.cursor = read_cursor(root)
        self.dirty = False  # the cursor moved (sent(..., later=True)) and is not on flash yet: commit()
        self._topic = None  # (bowl, its award topic)
        self.busy = False  # the last next() stopped at its step with more to read
        self._game = 0  # the game whose awards are in _awards
        self._scan = None  # its journal.Scan, _awards its _Awards
        self._awards = None
        self._size = -1  # its file's size when read
        self._last = b""  # the two records before _scan.end when read (one may say nothing of its game:
        # a customer's start, or a seal's slot, is the same at the same place in any game)
        self._bad = b""  # and after it when the scan stopped at a problem
        self._whole = 0  # a game to read from its start: the table refused what followed its checkpoint
        self.notes = []  # log lines: damage passed (awards that cannot be read back), for the net task
        self._told = None  # (game, record) of the damaged tail last told of

    def _load(self, gid):
        """One bounded step of reading game gid."""
        path = journal.path_of(self.root, gid)
        size = store.size(path)
        s = self._scan
        if gid == self._game and s is not None:
            if not s.more and size == self._size and (s.problem is None or _record_at(path, s.end) == self._bad):
                return  # as read (a damaged tail is not read again until it changes)
            if s.config is not None and size >= s.end and _record_at(path, s.end - _LAST, _LAST) == self._last:
                if self._bowl():  # from where it stopped: what was appended, or the next step
                    journal.scan(path, gid, keep=self._awards, into=s, limit=STEP, mend=True)
                    self._awards.flush()
                    if s.base and s.problem is not None and s.problem.code == journal.BAD_EVENT:
                        self._whole = gid  # refused by the table its checkpoint gave: the events decide
                        self._scan = self._awards = None
                        return
                self._mark(path, size)
                return
        cg, cn = self.cursor
        after = cn if gid == cg else 0
        self._scan = self._awards = None  # the old game's table goes before the next is read
        s = journal.Scan()
        a = _Awards(s, after, True)
        journal.scan(path, gid, keep=a, into=s, checkpoint=after > 0 and gid != self._whole, limit=0, mend=True)
        if s.base and s.table.award_no > after:  # the checkpoint is past awards still to send
            s = a = None
            s = journal.Scan()
            a = _Awards(s, after, True)
            journal.scan(path, gid, keep=a, into=s, limit=0, mend=True)
        a.flush()
        self._scan, self._awards, self._game = s, a, gid
        self._mark(path, size)

    def _same(self, gid):
        """Is game gid's file still the one read (the record read last there as it was)?"""
        s = self._scan
        path = journal.path_of(self.root, gid)
        return (s is not None and s.config is not None and store.size(path) >= s.end
                and _record_at(path, s.end - _LAST, _LAST) == self._last)

    def _mark(self, path, size):
        s = self._scan
        self._size = size
        self._last = _record_at(path, s.end - _LAST, _LAST)
        self._bad = _record_at(path, s.end) if s.problem is not None else b""

    def _bowl(self):
        s = self._scan
        return s.config.bowl_id if s.config is not None and s.table.kiosk else ""

    def next(self, after=None):
        """after: (game, award) of the last award handed out and still in flight: the next
        one after it in the same game (one bounded step), or None (the window waits for its
        PUBACKs before another game is read or the cursor moves past a game)."""
        self.busy = False
        if after is not None:
            g, at = after[0], after[2]
            if g != self._game or self._scan is None:
                return None
            if self._awards is not None:
                item = self._first(g, self._bowl(), at)  # read already: no flash touched
                if item is not None:
                    return item
            self._load(g)
            if self._scan is None or not self._bowl():
                return None
            item = self._first(g, self._bowl(), at)
            self.busy = item is None and self._scan.more
            return item
        cg, cn = self.cursor
        if cg == self._game and self._awards is not None and self._awards.out and self._same(cg):
            # the cursor's game read already, awards of it not yet sent: served before the journal is
            # read further (a step serves many awards; what waits in RAM stays a step's worth)
            bowl = self._bowl()
            item = self._first(cg, bowl, (cn, 0, 0)) if bowl else None
            if item is not None:
                return item
        ids, _top = journal.inventory(self.root)
        i = 0
        while i < len(ids) and ids[i] < cg:
            i += 1
        passed = 0
        item = None
        while i < len(ids):
            gid = ids[i]
            bowl = ""
            if gid == self._game or journal.bowl_of(journal.path_of(self.root, gid)):
                self._load(gid)  # a game with claims: its table, STEP records at most
                if self._scan is None:  # to be read again from its start (next step)
                    self.busy = True
                    break
                bowl = self._bowl()
                if bowl:
                    item = self._first(gid, bowl, (cn, 0, 0) if gid == cg else (0, 0, 0))
                    if item is not None:
                        break
                    if self._scan.more:
                        self.busy = True
                        break
                    if self._scan.problem is not None and self._pass_damage(gid):
                        self.busy = True  # on from the checkpoint past the damage, next step
                        break
            if i + 1 == len(ids):
                break  # the newest game: followed as it grows
            i += 1  # finished (the journal only appends to the newest), all sent: passed for good
            passed += 1
            cg, cn = ids[i], 0
            if bowl or passed == _PASS:
                self.busy = True  # one game read with its table, or _PASS headers, a step
                break
        if passed:
            write_cursor(self.root, cg, 0)  # once a step: a write on flash is a littlefs commit
            self.cursor = (cg, 0)
            self.dirty = False
        return item

    def _pass_damage(self, gid):
        """The game being read stopped at damage (every award before it handed
        out): go on from its checkpoint when that lies past the damage (the records
        it covers are not read at boot, journal.Journal.check_step), naming the
        awards between that cannot be read back, so that the rest are still sent,
        never held back for ever. -> True when it went on; False (told once in
        .notes) when nothing lies past the damage but the tail it stopped at."""
        s = self._scan
        path = journal.path_of(self.root, gid)
        at = s.problem.record
        if self._told == (gid, at):
            return False  # as it was: not read again until it changes
        c = journal.Scan()
        a = _Awards(c, s.table.award_no, True)
        journal.scan(path, gid, keep=a, into=c, checkpoint=True, limit=0, mend=True)
        a.flush()
        if c.base <= at or c.problem is not None and c.config is None:
            self._told = (gid, at)
            self.notes.append("outbox: game %d: reading stopped at record %d (%s); no checkpoint lies past it"
                              % (gid, at, s.problem.text))
            return False
        lost = c.table.award_no - s.table.award_no
        self.notes.append("outbox: game %d record %d is damaged (%s): %s; going on from its checkpoint at record "
                          "%d" % (gid, at, s.problem.text, "awards %d..%d cannot be read back, settle them at the "
                                  "desk by the codes the customers hold" % (s.table.award_no + 1, c.table.award_no)
                                  if lost > 0 else "no award lies between", c.base))
        self._scan = self._awards = None
        self._scan, self._awards, self._game = c, a, gid
        self._mark(path, store.size(path))
        return True

    def _first(self, gid, bowl, after):
        """The first item of the game read placed after `after` (its position, pos())."""
        for x in self._awards.out:
            if x[0] < after[0]:
                continue  # (before it whatever its kind: pos() orders by the award number first)
            p = (x[0], 0, 0) if x[1] is not None else (x[0], 1, x[2])  # pos(x), a call less per award
            if p <= after:
                continue
            if x[1] is None:  # a customer the key let in
                return topic(self.event, bowl, "key"), key_payload(gid, x[2], x[3]), gid, x[0], p
            t = self._topic
            if t is None or t[0] != bowl:
                t = self._topic = (bowl, topic(self.event, bowl, "award"))
            return t[1], award_payload(gid, x[0], x[1], x[2]), gid, x[0], p
        return None

    def sent(self, game_no, award_no, later=False, at=None):
        """The broker acknowledged award (game_no, award_no), or the item at position `at`
        (next()'s last field: a key customer after that award): the cursor moves to the award,
        on flash now, or with later=True at the next commit() (a cut before it sends those again;
        a key customer after the cursor's award is sent again too: the desk counts him once)."""
        if later:
            self.dirty = True
        else:
            write_cursor(self.root, game_no, award_no)
            self.dirty = False
        self.cursor = (game_no, award_no)
        if at is None:
            at = (award_no, 0, 0)
        if game_no == self._game and self._awards is not None:
            out = self._awards.out
            while out:
                x = out[0]
                if x[0] > at[0] or x[0] == at[0] and pos(x) > at:  # (pos() orders by the award number first)
                    break
                out.pop(0)

    def commit(self):
        """The cursor on flash, when sent(..., later=True) moved it."""
        if self.dirty:
            write_cursor(self.root, self.cursor[0], self.cursor[1])
            self.dirty = False
