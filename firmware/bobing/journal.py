# The game on flash: its config and an append-only journal of its events, so
# that a power cut, a brown-out or a reset at any moment loses nothing and the
# bowl resumes exactly where it was. Hardware-free: it works over whatever
# `open`, `os.rename`, `os.remove`, `os.listdir`, `os.stat` reach (littlefs
# on the bowl, a folder on the host, vfs.VfsLfs2 on a RAM block device in the
# tests); the caller hands in the folder (`root`).
#
# One file per game, ROOT/gNNNNNNNN.bbj (NNNNNNNN = the game id, decimal):
#   header  "BBJ", format version (1 byte), game id (u32 LE), seats (1 byte),
#           text length n (u16 LE, at most 1024), n bytes of UTF-8 text,
#           CRC-16 of all that (u16 LE). The text is the config, one item a
#           line: the profile name, the bowl id (kiosk; may be empty), the
#           prize counts that differ from the profile's (a kiosk's stock:
#           CLASS=N,CLASS=N; may be empty), then one OPTION=VALUE line per
#           option override. The kiosk's claim-code secret is never written:
#           it is handed to `start`/`recover` by the app. Format 2 (a game
#           that carries an event's shared stock, firmware/PROTOCOL.md) adds one
#           line "@play" (an event game, playing on it) or "@keep" (another
#           game, passing it on untouched to the next) followed by " EVENT BOWL
#           S CLASS=G:L,...": the desk's grant number S applied so far, per
#           class the cumulative grant G and the stock L the game starts with.
#           Format 3 (a game given the kiosk's claim secret) is format 2's
#           header and records with seals among the records: slots of kinds
#           SEAL.. holding an HMAC with the claim secret over everything before
#           them, for the prize desk to check (bobing/seal.py). A seal takes
#           record places (indices), not events: the game never sees it.
#           Format 4 (every kiosk game with a claim secret now) is format 3
#           where an EV_CUSTOMER record also says who let the customer in and
#           when: its argument's bits 8-9 are BY_PIN (0: the PIN's menu),
#           BY_KEY (1: the attendant's key) or BY_DESK (2: shakes the desk
#           granted against a receipt), bits 10-23 the game's minute (the
#           bowl's awake minutes since the game began: no clock runs while it is
#           off or asleep, so a boot goes on from the last customer's minute).
#   records RECORD (6) bytes per event: kind (1 byte), argument (24 bits LE:
#           a seat or a total as is; a roll as six 3-bit faces, die i at bit
#           3*i; a grant number s (EV_STOCK) as is; a grant (EV_GRANT) as class
#           index << 20 | cumulative; 0 for no argument), CRC-16 (u16 LE) over (game id u32 LE,
#           record index u32 LE, those 4 bytes). Binding the CRC to the game
#           and the index means a record from another game, or one that moved,
#           fails its check like a flipped bit does.
#   CRC-16 is CCITT (poly 0x1021, init 0xFFFF): small ints only, so no long
#   ints on the bowl, and CPython's binascii.crc_hqx checks it in the tests.
#
# The table (pool, awards, turn, the 状元 standing) is derived by replaying the
# events through game.Table. A boot must not replay a whole game, though: the
# replay costs about 0.1 ms an event on a PC's unix port and some 40x that on
# an ESP32, and a kiosk game with a large stock runs to thousands of events.
# So every CHECKPOINT_EVERY events the table is also written to a checkpoint
# file beside the journal (gNNNNNNNN.bbc, format below at "checkpoints"), and
# the boot starts from it: at most CHECKPOINT_EVERY + 1 events are replayed,
# whatever the game's length (bench/boot_bench.py). The checkpoint is only a
# shortcut: the journal keeps every event (tools replay them all), a checkpoint
# that is missing or does not fit its journal is ignored (the whole game is
# replayed, the log says why), and a game from firmware before checkpoints
# (the same .bbj format, no .bbc) is replayed whole once and checkpointed at
# its next events. Nothing is stored twice otherwise: the file name says where
# a game is looked up, the header says which game the bytes belong to (a
# mismatch is refused as "another game"), the events say what happened.
#
# Durability (commit before reveal). On littlefs a write only reaches the
# file's RAM cache (MicroPython's VfsLfs2 gives each open file cache_size =
# 4 * max(readsize, progsize) bytes: 128 with the defaults the ESP32 port
# mounts with); a power cut then leaves the file as it was. `f.flush()` is
# lfs2_file_sync: it programs the cached data and commits the file's new size
# in one atomic, CRC-checked metadata commit, then calls the block device's
# ioctl(3) (sync); `close()` does the same. So Journal.append writes one
# record and flushes; it returns only after the commit, and a roll is shown
# only after that. On the host, os.fsync follows the flush where it exists.
# littlefs commits are all-or-nothing, so a power cut loses at most the one
# record in flight (tests/mp/test_journal_powercut.py cuts at every block
# write). The cost: a file longer than littlefs's inline limit (cache_size) is
# copied on write: each sync copies its last block to a freshly erased one, a
# 4 KB sector erase and (bytes in that block)/cache_size programs a commit
# (bench/journal_bench.py: ~11 programs and ~1 erase in a 10-seat game): 45 ms
# typical, 400 ms at the flash's maximum, too slow between a settled shake and
# its result. So a record is first committed to the game's tail,
# ROOT/gNNNNNNNN.bbt, a file that never outgrows the inline limit: it lives in
# its directory's metadata log, which littlefs appends to in space erased
# beforehand, and a commit programs ~2 pages (no erase but the log's occasional
# compaction). Layout: "BBT", tail format (1 byte), game id and the index of its
# first record (u32 LE), its records n (u16 LE), CRC-16 of those 14 bytes (u16 LE),
# then n records as in the journal (their CRCs bound to their indices), written
# in place (an inline file is rewritten whole at each commit anyway). The
# journal gets them when no shake is followed (Journal.fold: one copy-on-write
# commit for all the tail holds, then the tail's n set to 0), at the latest
# when the tail is full, and at close. A cut between the two commits leaves the
# records in both: a boot (recover) adds to the journal only the tail's records
# past its end, then removes the tail.
#
# Recovery (`recover`) never raises on bad data: a truncated record, a bad
# checksum, a newer format, a header naming another game, a config this
# firmware rejects, or an event the engine refuses each give a Problem (a
# code for the screen, a sentence for the log). The good prefix is kept, the
# bytes after it go to ROOT/gNNNNNNNN.bad (never deleted by this module), and
# a new game can start. Half-written gNNNNNNNN.tmp files (a cut while a game
# was being created or repaired) hold nothing that was committed and are
# removed.
#
# Wear: each game gets a new file; when a game starts, finished games are
# removed oldest first until their total size is within a budget (with each
# its fair log, bobing/fair.py; a fair log left without its journal goes too).
from micropython import const
import os

from bobing import game, profiles, rules, store
from bobing.jformat import (BAD, CKPT, FAIR, FAIR_KEY, FORMAT, HEAD, KEYED, MAGIC, MAX_GAME_ID, MAX_TEXT,  # noqa: F401
                            RECORD, SEAL, SEAL_EVERY, SEAL_SLOTS, SEALED, SUFFIX, TAIL, TMP, crc16, file_name,
                            frame, get32, id_of, path_of, put32, put_crc, record_crc)

MAX_MINUTE = const(16383)  # the game's minute in 14 bits (11 days awake)
KEEP_BYTES = const(49152)  # default budget for finished games (about 16 ten-seat games)
_PLAIN = const(1)  # the format of a game without an event's stock (older firmware reads it)
_STOCKED = const(2)  # a game with an event's stock, without seals
BY_PIN = const(0)  # EV_CUSTOMER started from the PIN's menu (format 4)
BY_KEY = const(1)  # ... by the attendant's key
BY_DESK = const(2)  # ... by shakes the desk granted against a receipt
_CHUNK = const(32)  # records per read while replaying
_CK_MAGIC = b"BBC"
_CK_FORMAT = const(1)
_CK_HEAD = const(20)  # "BBC", format, game id, n, record n
_CK_MAX = const(4096)  # checkpoint bytes at most (a damaged file never makes a big read)
_T_MAGIC = b"BBT"
_T_FORMAT = const(1)
_T_HEAD = const(16)  # "BBT", tail format, game id and first record's index (u32 LE), records n (u16 LE), CRC-16
TAIL_SLOTS = const(16)  # records a tail holds: 16 + 96 bytes, within littlefs's inline 128
# Events between checkpoints: a boot replays at most CHECKPOINT_EVERY + 1 events
# (the tests set it lower to exercise checkpoints in short games).
CHECKPOINT_EVERY = 64

_replayed = [0]  # events replayed through game.Table since power-up


def replayed():
    """Events replayed by scan() since power-up (the simulator charges boot time by it)."""
    return _replayed[0]

# Problem codes (Problem.code: what kind of damage; Problem.text says it for the log).
TRUNCATED = "truncated"
BAD_CHECKSUM = "bad_checksum"
NEWER_VERSION = "newer_version"
OTHER_GAME = "other_game"
BAD_CONFIG = "bad_config"
BAD_EVENT = "bad_event"
UNREADABLE = "unreadable"
FLASH_FULL = "flash_full"  # a damaged game that could not be repaired for lack of room
NOT_RECOVERED = "recovery_failed"  # recovery itself failed: the game stays on flash as it is, a new one starts

# How each event kind's argument is stored (format 1).
_DICE_KINDS = (game.EV_ROLL,)
_INT_KINDS = (game.EV_START_SEAT, game.EV_START_TOTAL)
_NONE_KINDS = (game.EV_SPILL, game.EV_TIMEUP)


def arg_code(kind, arg):
    """An event's argument as the 24-bit field of its record; ValueError for a bad pair."""
    if kind in _DICE_KINDS:
        rules.check_dice(arg)
        return game.dice_code(arg)
    if kind in _INT_KINDS:
        if not isinstance(arg, int) or isinstance(arg, bool) or not 1 <= arg <= 255:
            raise ValueError("event kind %d takes a number 1..255, got %r" % (kind, arg))
        return arg
    if kind in _NONE_KINDS:
        if arg is not None:
            raise ValueError("event kind %d takes no argument (None), got %r" % (kind, arg))
        return 0
    if kind == game.EV_CUSTOMER:  # None: the profile's shakes (0 on flash); n: shakes the desk granted
        if arg is None:
            return 0
        if not isinstance(arg, int) or isinstance(arg, bool) or not 1 <= arg <= 255:
            raise ValueError("a customer's shakes are None or 1..255, got %r" % (arg,))
        return arg
    if kind == game.EV_STOCK:
        if not isinstance(arg, int) or isinstance(arg, bool) or not 1 <= arg <= game.MAX_SEQ:
            raise ValueError("a grant number is 1..%d, got %r" % (game.MAX_SEQ, arg))
        return arg
    if kind == game.EV_GRANT:
        if (not isinstance(arg, tuple) or len(arg) != 2 or not isinstance(arg[0], int) or not 0 <= arg[0] <= 15
                or not isinstance(arg[1], int) or not 0 <= arg[1] <= game.MAX_GRANT):
            raise ValueError("a grant is (class index 0..15, 0..%d), got %r" % (game.MAX_GRANT, arg))
        return arg[0] << 20 | arg[1]
    raise ValueError("unknown event kind %r; kinds are 1..8 (game.EV_*)" % (kind,))


def customer_meta(who, minute):
    """A format-4 EV_CUSTOMER's who (BY_*) and minute, for Journal.play."""
    if not BY_PIN <= who <= BY_DESK:
        raise ValueError("who let the customer in: BY_PIN, BY_KEY or BY_DESK, got %r" % (who,))
    return who | (minute if 0 <= minute <= MAX_MINUTE else MAX_MINUTE) << 2


def arg_value(kind, v, keyed=False):
    """The 24-bit field of a record back to the event's argument; ValueError if impossible.
    keyed: a format-4 journal's (an EV_CUSTOMER's bits above 8 are who and when)."""
    if kind in _DICE_KINDS:
        return game.dice_of(v)
    if kind in _INT_KINDS:
        if not 1 <= v <= 255:
            raise ValueError("argument %d out of range 1..255" % v)
        return v
    if kind in _NONE_KINDS:
        if v:
            raise ValueError("argument %d where none belongs" % v)
        return None
    if kind == game.EV_CUSTOMER:
        if keyed and (v >> 8) & 3 <= BY_DESK:
            v &= 255
        if v > 255:
            raise ValueError("a customer of %d shakes" % v)
        return v or None
    if kind == game.EV_STOCK:
        if not v:
            raise ValueError("grant number 0")
        return v
    if kind == game.EV_GRANT:
        if v & 0xFFFFF > game.MAX_GRANT:
            raise ValueError("a grant of %d" % (v & 0xFFFFF))
        return v >> 20, v & 0xFFFFF
    raise ValueError("unknown event kind %d" % kind)


class Config:
    """What a game was started with: profile name, option overrides, seats, prize
    counts overriding the profile's (kiosk stock), bowl id, game id; `stock`: an
    event's shared stock carried in, (event, bowl id, s, {class: cumulative grant},
    {class: stock left}) or None, and `plays` whether this game plays on it (an
    event game) or only passes it on."""

    def __init__(self, profile=profiles.DEFAULT_PRESET, overrides=None, seats=10, counts=None,
                 bowl_id="", game_id=0, version=None, stock=None, plays=False):
        self.profile = profile
        self.overrides = dict(overrides or {})
        self.seats = seats
        self.counts = dict(counts or {})
        self.bowl_id = bowl_id
        self.game_id = game_id
        self.stock = stock
        self.plays = plays
        self.version = version or (_STOCKED if stock else _PLAIN)

    def check(self):
        """Canonicalise the overrides; ValueError saying what is wrong."""
        if not isinstance(self.seats, int) or not 1 <= self.seats <= 255:
            raise ValueError("seats must be a whole number 1..255, got %r" % (self.seats,))
        if not isinstance(self.bowl_id, str) or "\n" in self.bowl_id or len(self.bowl_id) > 32:
            raise ValueError("bowl id must be one line of at most 32 characters, got %r" % (self.bowl_id,))
        if not isinstance(self.game_id, int) or not 1 <= self.game_id <= MAX_GAME_ID:
            raise ValueError("game id must be 1..%d, got %r" % (MAX_GAME_ID, self.game_id))
        o = {}
        for k, v in self.overrides.items():
            o[k] = profiles.check_option(k, v)
        self.overrides = o
        for k, v in self.counts.items():
            _check_count(k, v, 99999)
        if self.plays and (self.stock is None or self.counts):
            raise ValueError("an event game takes its stock from the event's grants, not from prize counts")
        if self.stock is not None:
            ev, bowl, s, granted, left = self.stock
            for x in (ev, bowl):
                if not isinstance(x, str) or not 1 <= len(x) <= 32 or " " in x or "\n" in x or "," in x:
                    raise ValueError("event and bowl: one word of 1..32 characters, got %r" % (x,))
            if not isinstance(s, int) or not 0 <= s <= game.MAX_SEQ:
                raise ValueError("grant number %r: 0..%d" % (s, game.MAX_SEQ))
            for d in (granted, left):
                for k, v in d.items():
                    _check_count(k, v, game.MAX_GRANT)
        self.make_profile()  # an unknown preset raises here; new_table checks the rest

    def make_profile(self):
        return profiles.Profile(self.profile, self.overrides)

    def text(self):
        lines = [self.profile, self.bowl_id,
                 ",".join(["%s=%d" % (k, self.counts[k]) for k in sorted(self.counts)])]
        if self.stock is not None:
            ev, bowl, s, granted, left = self.stock
            cls = sorted(set(list(granted) + list(left)))
            lines.append("%s %s %s %d %s" % ("@play" if self.plays else "@keep", ev, bowl, s, ",".join(
                ["%s=%d:%d" % (c, granted.get(c, 0), left.get(c, 0)) for c in cls])))
        for k in sorted(self.overrides):
            lines.append("%s=%s" % (k, self.overrides[k]))
        return "\n".join(lines)

    def encode(self):
        """The header bytes."""
        text = self.text().encode()
        n = len(text)
        if n > MAX_TEXT:
            raise ValueError("the game's settings take %d bytes; at most %d fit" % (n, MAX_TEXT))
        h = frame(MAGIC, self.version, HEAD, text)
        put32(h, 4, self.game_id)
        h[8] = self.seats
        put_crc(h)
        return h

    def __repr__(self):
        return "Config(%r, %r, seats=%d, counts=%r, bowl_id=%r, game_id=%d, stock=%r, plays=%r)" % (
            self.profile, self.overrides, self.seats, self.counts, self.bowl_id, self.game_id, self.stock,
            self.plays)


def _check_count(k, v, top):
    if not isinstance(k, str) or not k.isalpha() or not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
        raise ValueError("prize count %r=%r: a class id and a whole number 0..%d" % (k, v, top))


def _parse_stock(line):
    """A format-2 "@play/@keep EVENT BOWL S CLASS=G:L,..." line -> (stock, plays)."""
    p = line.split(" ")
    if len(p) != 5 or p[0] not in ("@play", "@keep") or not p[3].isdigit():
        raise ValueError("event stock line %r: @play or @keep EVENT BOWL S CLASS=G:L,..." % line[:80])
    granted = {}
    left = {}
    for part in p[4].split(",") if p[4] else ():
        k, _, gl = part.partition("=")
        g, _, n = gl.partition(":")
        if not g.isdigit() or not n.isdigit() or k in granted:
            raise ValueError("event stock %r is not CLASS=GRANTED:LEFT (each class once)" % part)
        granted[k] = int(g)
        left[k] = int(n)
    return (p[1], p[2], int(p[3]), granted, left), p[0] == "@play"


def _parse_config(text, seats, game_id, version):
    """The config text of a header -> Config; ValueError if this firmware cannot use it."""
    lines = text.split("\n")
    if len(lines) < 3:
        raise ValueError("the settings text has %d lines, at least 3 expected" % len(lines))
    if not lines[0]:
        raise ValueError("the profile name is empty")
    counts = {}
    if lines[2]:
        for part in lines[2].split(","):
            k, _, v = part.partition("=")
            if not v.isdigit():
                raise ValueError("prize count %r is not CLASS=N" % part)
            counts[k] = int(v)
    ov = {}
    stock = None
    plays = False
    for line in lines[3:]:
        if line.startswith("@") and version >= 2 and stock is None:
            stock, plays = _parse_stock(line)
            continue
        if line.startswith("="):
            raise ValueError("setting %r has no option name" % line)
        k, v = profiles.parse_setting(line)
        ov[k] = v
    cfg = Config(lines[0], ov, seats, counts, lines[1], game_id, version, stock, plays)
    cfg.check()
    return cfg


def new_table(config, secret=None):
    """The one place where a config becomes a game engine. `secret`: the kiosk's
    claim-code key (kept off the journal)."""
    if config.plays:
        _ev, _bowl, s, granted, left = config.stock
        return game.Table(config.make_profile(), config.seats, counts=left, bowl_id=config.bowl_id,
                          secret=secret, game_no=config.game_id, event=True, grant_s=s, granted=granted)
    return game.Table(config.make_profile(), config.seats, counts=config.counts or None,
                      bowl_id=config.bowl_id, secret=secret, game_no=config.game_id)


def carried(j, event="", bowl_id=""):
    """The event stock a new game takes over from the current game j (a Journal or
    None): what an event game left (its grant number, cumulative grants and pool), or
    what another game passed on. With `event`: the stock to play on, fresh (nothing
    granted) unless the carried one is this event's and this bowl's. Never lost
    across games (a family game in between passes it on), never counted twice."""
    st = None
    if j is not None:
        cfg = j.config
        if cfg.plays:
            t = j.table
            st = (cfg.stock[0], cfg.stock[1], t.grant_s, dict(t.granted), dict(t.pool))
        else:
            st = cfg.stock
    if event and (st is None or st[0] != event or st[1] != bowl_id):
        st = (event, bowl_id, 0, {}, {})
    return st


class Problem:
    """Something wrong found on flash: `code` (TRUNCATED ...), `text` for the log."""

    def __init__(self, code, text, game_id=0, record=-1):
        self.code = code
        self.text = text
        self.game_id = game_id
        self.record = record  # index of the first bad record; -1 = the header
        self.moved_to = None  # file that now holds the bytes not kept

    def __repr__(self):
        return "Problem(%r, %r)" % (self.code, self.text)


class _Bad(Exception):
    pass


class Scan:
    """A journal file read and replayed up to its first problem."""

    def __init__(self):
        self.config = None
        self.table = None
        self.count = 0  # good records (read, or covered by the checkpoint)
        self.base = 0  # records covered by the checkpoint used (not replayed)
        self.ck_note = None  # why a checkpoint on flash was not used, or None
        self.last = None  # game.Outcome of the last one (the roll to show again at boot)
        self.end = 0  # bytes of the good prefix (0: not even the header is good)
        self.size = 0
        self.problem = None
        self.more = False  # stopped at its limit: records after .end not read yet
        self.mended = None  # scan(mend=True): indexes of records read through one flipped bit
        # format 4: the last customer's minute; customers the key let in (of those replayed:
        # all, unless a checkpoint was used), and with scan(keep=...) their minutes
        self.minute = 0
        self.keyed = 0
        self.key_minutes = []


def scan(path, game_id=0, secret=None, keep=None, checkpoint=False, into=None, limit=-1, mend=False):
    """Read and replay one journal file. Never raises on bad data: the first problem
    found is in .problem, and .count/.end/.table describe the good prefix before it.
    game_id: the id the file name promises (0 = don't check). keep: a list that gets
    each good event replayed as (kind, arg), for tools and tests (when its append is
    called, .last is that event's game.Outcome). checkpoint: start from the game's
    checkpoint when it is sound (boot: replays at most CHECKPOINT_EVERY + 1 events;
    the records before it are not read, nor kept). into: a Scan of this file to fill
    in; one that has read the header goes on from its .end: only the records
    appended since are read (the outbox follows the game being played so; the
    caller knows it is still the same file, see outbox.Outbox). limit: replay at
    most this many records (0: the header and checkpoint only), then stop with
    .more set; the next call with `into` goes on from there (bounded steps).
    mend: a record that fails its checksum by exactly one bit is read as mended
    (mend_record) and its index added to .mended, instead of stopping there."""
    s = Scan() if into is None else into
    done = s.count
    s.problem = None
    s.more = False
    who = "game %d" % game_id if game_id else path
    try:
        f = open(path, "rb")
    except OSError as e:
        s.problem = Problem(UNREADABLE, "%s: cannot open %s (%s)" % (who, path, e), game_id)
        return s
    try:
        if s.config is None:
            _scan(f, s, game_id, who, secret, keep, path if checkpoint else None, limit, mend)
        else:
            f.seek(s.end)
            _replay(f, s, who, keep, limit, mend)
    except _Bad as e:
        s.problem = e.args[0]
    except OSError as e:
        s.problem = Problem(UNREADABLE, "%s: reading %s failed after %d records (%s)"
                            % (who, path, s.count, e), game_id, s.count)
    finally:
        f.close()
        _replayed[0] += s.count - max(done, s.base)
    try:
        s.size = os.stat(path)[6]
    except OSError:
        s.size = s.end
    return s


def _header_problem(code, text, game_id):
    return _Bad(Problem(code, text, game_id, -1))


def _scan(f, s, game_id, who, secret, keep, path, limit, mend):
    h = f.read(HEAD)
    if not MAGIC.startswith(h[:3]):
        raise _header_problem(BAD_CONFIG, "%s: not a Bo Bing journal (it does not start with %s)"
                              % (who, MAGIC.decode()), game_id)
    if len(h) >= 4 and h[3] > FORMAT:
        raise _header_problem(NEWER_VERSION, "%s was written by newer firmware (journal format %d; "
                              "this firmware reads format %d or older)" % (who, h[3], FORMAT), game_id)
    if len(h) < HEAD:
        raise _header_problem(TRUNCATED, "%s: the header is cut short (%d bytes)" % (who, len(h)), game_id)
    if h[3] < 1:
        raise _header_problem(BAD_CONFIG, "%s: journal format %d does not exist" % (who, h[3]), game_id)
    n = h[9] | (h[10] << 8)
    if n > MAX_TEXT:
        raise _header_problem(BAD_CHECKSUM, "%s: the header is damaged (its length field says %d bytes, "
                              "at most %d are written)" % (who, n, MAX_TEXT), game_id)
    rest = f.read(n + 2)
    if len(rest) < n + 2:
        raise _header_problem(TRUNCATED, "%s: the header is cut short (%d of %d bytes)"
                              % (who, HEAD + len(rest), HEAD + n + 2), game_id)
    c = crc16(rest, 0, n, crc16(h))
    if c != rest[n] | (rest[n + 1] << 8):
        raise _header_problem(BAD_CHECKSUM, "%s: the header (game settings) fails its checksum" % who, game_id)
    gid = get32(h, 4)
    if game_id and gid != game_id:
        raise _header_problem(OTHER_GAME, "%s: the file holds game %d, not game %d (copied or renamed "
                              "from another game?)" % (who, gid, game_id), game_id)
    game_id = gid
    who = "game %d" % gid
    try:
        cfg = _parse_config(rest[:n].decode(), h[8], gid, h[3])
        s.table = new_table(cfg, secret)  # (no local name: the checkpoint may need it gone)
    except MemoryError:
        raise  # not the file's fault: never set a game aside for it
    except Exception as e:  # crafted settings may trip any check: all of it is this file's damage
        raise _header_problem(BAD_CONFIG, "%s: this firmware cannot play its settings: %s" % (who, e), gid)
    s.config = cfg
    s.end = HEAD + n + 2
    if path is not None:
        _from_checkpoint(f, s, path[:-4] + CKPT, secret)
    _replay(f, s, who, keep, limit, mend)


def mend_record(w, c0, i, rec, at=0):
    """A record rec[at:at+RECORD] that fails its checksum: the one single-bit flip
    of its 6 bytes that makes the checksum hold and the event readable, written
    into rec -> True; False (rec untouched) when there is none. The CRC-16 keeps
    codewords of this length at least 4 bits apart (polynomial 0x1021: Hamming
    distance 4 up to 32,751 bits), so one flipped bit has exactly one mend and
    two flipped bits have none; only 3 or more bits can be mended wrongly.
    w, c0: as _replay's (the game id folded into c0)."""
    for k in range(RECORD * 8):
        rec[at + (k >> 3)] ^= 1 << (k & 7)
        for j in range(4):
            w[8 + j] = rec[at + j]
        if record_crc(w, c0, i) == rec[at + 4] | (rec[at + 5] << 8):
            try:
                arg_value(rec[at], rec[at + 1] | (rec[at + 2] << 8) | (rec[at + 3] << 16), True)
                return True
            except ValueError:
                pass
        rec[at + (k >> 3)] ^= 1 << (k & 7)
    for j in range(4):
        w[8 + j] = rec[at + j]
    return False


def check_records(path, game_id, start, stop):
    """Check the checksums of records start..stop-1 of a journal file, without
    replaying them -> the index of the first that fails (-1: none). Bounded by
    the caller's range: Journal.check_step reads a few a step."""
    f = open(path, "rb")
    try:
        h = f.read(HEAD)
        if len(h) < HEAD:
            return start
        f.seek(HEAD + (h[9] | (h[10] << 8)) + 2 + start * RECORD)
        buf = bytearray(RECORD * (stop - start))
        got = store.fill(f, memoryview(buf))
    finally:
        f.close()
    w = bytearray(12)
    put32(w, 0, game_id)
    c0 = crc16(w, 0, 4)
    at = 0
    for i in range(start, stop):
        if at + RECORD > got:
            return i
        for j in range(4):
            w[8 + j] = buf[at + j]
        if record_crc(w, c0, i) != buf[at + 4] | (buf[at + 5] << 8):
            return i
        at += RECORD
    return -1


def _replay(f, s, who, keep, limit=-1, mend=False):
    gid = s.config.game_id
    stop = s.count + limit if limit >= 0 else -1
    buf = bytearray(RECORD * _CHUNK)
    mv = memoryview(buf)
    w = bytearray(12)  # game id, index, record body: what a record's CRC covers
    put32(w, 0, gid)
    c0 = crc16(w, 0, 4)
    table = s.table
    keyed = s.config.version >= KEYED
    while True:
        got = store.fill(f, mv)
        at = 0
        while at + RECORD <= got:
            i = s.count
            if i == stop:
                s.more = True
                return
            w[8] = buf[at]
            w[9] = buf[at + 1]
            w[10] = buf[at + 2]
            w[11] = buf[at + 3]
            if record_crc(w, c0, i) != buf[at + 4] | (buf[at + 5] << 8):
                if mend and mend_record(w, c0, i, buf, at):
                    if s.mended is None:
                        s.mended = []
                    s.mended.append(i)
                else:
                    raise _Bad(Problem(BAD_CHECKSUM, "%s: record %d fails its checksum" % (who, i), gid, i))
            kind = buf[at]
            if SEAL <= kind < SEAL + SEAL_SLOTS and s.config.version >= SEALED:
                _replayed[0] -= 1  # a seal's place: the desk checks it (bobing/seal.py), the game does not
                s.count = i + 1
                s.end += RECORD
                at += RECORD
                continue
            try:
                v = buf[at + 1] | (buf[at + 2] << 8) | (buf[at + 3] << 16)
                # (arg_value's first case in place: a call less for every roll replayed)
                arg = game.dice_of(v) if kind in _DICE_KINDS else arg_value(kind, v, keyed)
            except ValueError as e:
                raise _Bad(Problem(BAD_EVENT, "%s: record %d cannot be read (%s)" % (who, i, e), gid, i))
            try:
                s.last = table.apply(kind, arg)
            except MemoryError:
                raise
            except Exception as e:  # ValueError: refused; anything else: the event is still the file's
                raise _Bad(Problem(BAD_EVENT, "%s: record %d (%s) was refused by the game: %s"
                                   % (who, i, _describe(kind, arg), e), gid, i))
            if keep is not None:
                keep.append((kind, arg))
            if keyed and kind == game.EV_CUSTOMER:
                s.minute = v >> 10
                if (v >> 8) & 3 == BY_KEY:
                    s.keyed += 1
                    if keep is not None:
                        s.key_minutes.append(s.minute)
            s.count = i + 1
            s.end += RECORD
            at += RECORD
        if got < len(buf):
            if got > at:
                raise _Bad(Problem(TRUNCATED, "%s: record %d is cut short (%d of %d bytes)"
                                   % (who, s.count, got - at, RECORD), gid, s.count))
            return


# --- checkpoints ----------------------------------------------------------------
# ROOT/gNNNNNNNN.bbc holds the table as it stood after the game's first n events,
# so that a boot replays only the events from n on (at most CHECKPOINT_EVERY + 1),
# whatever the game's length. Layout: "BBC", checkpoint format (1 byte), game id
# (u32 LE), n (u32 LE), a copy of record n as on flash (6 bytes: the event played
# right after the state; its CRC binds game id and index), state length m (u16 LE),
# m bytes of state, CRC-16 of all that (u16 LE). The state is game.Table's
# snapshot() (its layout is said there), read back by Table.restore.
# The state is taken before event n is applied and written when event n + 1 is
# played, before that one is applied (so a boot always replays at least the
# event that stands, to show it again, and a failed write leaves no trace of
# the new event), as a new file renamed over the old one (a power cut leaves
# the old checkpoint or the new, never a torn one). It is only a shortcut: the
# journal stays the whole record (tools replay it all). A checkpoint that is
# missing (a game from older firmware), torn, of a newer format, of another
# game, ahead of the journal, whose record n differs from the journal's, whose
# state is impossible (prizes not conserved, a seat out of range), or from which
# the table refuses the events after it, is not used: the boot replays the whole
# game and says why in the log (Scan.ck_note); nothing is lost. Repairing a
# journal removes its checkpoint.

def state_events(b, at, end, n, version):
    """The events a checkpoint's state at record n must be after: n, or in a sealed
    journal (seals take record places, not events) its own count when the records
    between can be seals: a header seal, and at most one after each event."""
    if version >= SEALED:
        try:
            e = game.snapshot_events(b, at, end, n)
        except ValueError:
            return n
        d = n - e
        if d % SEAL_SLOTS == 0 and SEAL_SLOTS <= d <= SEAL_SLOTS * (e + 1):
            return e
    return n


def checkpoint_bytes(game_id, n, rec, state):
    """A checkpoint file: the state after n events, record n as on flash (6 bytes)."""
    b = frame(_CK_MAGIC, _CK_FORMAT, _CK_HEAD, state)
    put32(b, 4, game_id)
    put32(b, 8, n)
    b[12:18] = rec
    put_crc(b)
    return b


def _from_checkpoint(f, s, path, secret):
    """Start s from the checkpoint at path if it is sound; else say why in s.ck_note."""
    try:
        size = os.stat(path)[6]
    except OSError:
        return  # none yet (or a game from older firmware): the whole game is replayed
    b = b""
    if size <= _CK_MAX:  # a damaged size never makes a big read
        try:
            c = open(path, "rb")
            try:
                b = c.read(size)
            finally:
                c.close()
        except OSError as e:  # the journal is the record: replay it, and let a new checkpoint be written
            _unblock(path)
            s.ck_note = "game %d: checkpoint not used (it cannot be read: %s); the whole game was replayed" % (
                s.config.game_id, e)
            return
    try:
        if len(b) < _CK_HEAD + 2 or size > _CK_MAX or b[0:3] != _CK_MAGIC:
            raise ValueError("not a checkpoint (%d bytes)" % size)
        if b[3] != _CK_FORMAT:
            raise ValueError("checkpoint format %d; this firmware reads %d" % (b[3], _CK_FORMAT))
        m = b[18] | (b[19] << 8)
        if len(b) != _CK_HEAD + m + 2:
            raise ValueError("it has %d bytes, its length field says %d" % (len(b), _CK_HEAD + m + 2))
        if crc16(b, 0, _CK_HEAD + m) != b[_CK_HEAD + m] | (b[_CK_HEAD + m + 1] << 8):
            raise ValueError("it fails its checksum")
        gid = s.config.game_id
        if get32(b, 4) != gid:
            raise ValueError("it is game %d's" % get32(b, 4))
        n = get32(b, 8)
        at = s.end + n * RECORD
        f.seek(at)
        rec = f.read(RECORD)
        if n < 1 or len(rec) != RECORD or rec != b[12:18]:
            raise ValueError("the journal has no record %d as it names" % n)
        # Into the fresh table _scan made: a second Table beside it was the boot's
        # largest need of heap (bench/app_heap.py).
        t = s.table
        s.table = None
        t.restore(b, _CK_HEAD, _CK_HEAD + m, state_events(b, _CK_HEAD, _CK_HEAD + m, n, s.config.version))
        s.table = t
    except ValueError as e:
        s.ck_note = "game %d: checkpoint not used (%s); the whole game was replayed" % (s.config.game_id, e)
        t = b = None
    if t is None:  # (not in the except: its traceback may hold the half-set table)
        if s.table is None:  # restore left it half set: a fresh one for the whole replay
            s.table = new_table(s.config, secret)
        f.seek(s.end)
        return
    f.seek(at)
    s.count = s.base = n
    s.end = at


def _unblock(path):
    """Remove what stands at a checkpoint's path and cannot be read as one (a
    folder, a damaged entry), so that the next checkpoint can be written there."""
    try:
        os.remove(path)
    except OSError:
        try:
            os.rmdir(path)
        except OSError:
            pass


def _describe(kind, arg):
    if kind in _DICE_KINDS:
        return "roll %s" % "".join([str(d) for d in arg])
    return "event %d %r" % (kind, arg)


# --- the folder of games -------------------------------------------------------

def inventory(root):
    """-> (ids of games with a journal, oldest first; highest id of any game file)."""
    ids = []
    top = 0
    for name in store.listdir(root):
        gid = id_of(name)
        if not gid:
            continue
        if gid > top:
            top = gid
        if name.endswith(SUFFIX) and len(name) == 13:
            ids.append(gid)
    ids.sort()
    return ids, top


def bowl_of(path):
    """The bowl id in a journal's header ("" for a game without one, or a header
    that cannot be read: such a game has no claims to send)."""
    try:
        f = open(path, "rb")
        try:
            h = f.read(HEAD)
            n = h[9] | (h[10] << 8) if len(h) == HEAD else 0
            rest = f.read(n + 2) if n <= MAX_TEXT else b""
        finally:
            f.close()
    except OSError:
        return ""
    if len(rest) < n + 2 or crc16(rest, 0, n, crc16(h)) != rest[n] | (rest[n + 1] << 8):
        return ""
    lines = bytes(rest[:n]).split(b"\n")
    return lines[1].decode() if len(lines) > 1 else ""


def provisioned(root):
    """A bowl provisioned for an event (ROOT/net.txt, make provision): the only kind
    whose awards go to a broker."""
    try:
        os.stat(store.join(root, "net.txt"))
        return True
    except OSError:
        return False


def prune(root, keep_bytes=KEEP_BYTES, current=0, unsent=0):
    """Before a new game: remove finished games (all on flash but `current`), oldest
    first, until they (journals and fair logs) use at most keep_bytes. Set-aside .bad files are never
    removed, nor a game with claims (a bowl id) from game `unsent` on, which the caller
    names (the console: outbox.unsent_from on a bowl provisioned for an event; 0:
    none): its awards have not all reached the broker. Such games stay past the budget
    for as long as the broker is away; when even a new game finds no room, the console
    says the flash is full and the bowl plays on in the game it has. -> ids removed."""
    names = store.listdir(root)
    ids = [g for g in inventory(root)[0] if g != current and not (
        unsent and g >= unsent and bowl_of(path_of(root, g)))]
    sizes = []
    total = 0
    for gid in ids:  # a game's fair log counts with its journal and goes with it
        n = store.size(path_of(root, gid)) + store.size(path_of(root, gid, FAIR)) + \
            store.size(path_of(root, gid, FAIR_KEY))
        sizes.append(n)
        total += n
    removed = []
    for i in range(len(ids)):
        if total <= keep_bytes:
            break
        remove_beside(root, ids[i], CKPT, names)  # first: a checkpoint never outlives its journal
        remove_beside(root, ids[i], TAIL, names)
        remove_beside(root, ids[i], FAIR, names)  # (its rolls cannot be checked without the journal)
        remove_beside(root, ids[i], FAIR_KEY, names)
        os.remove(path_of(root, ids[i]))
        total -= sizes[i]
        removed.append(ids[i])
    have = inventory(root)[0]
    for name in names:  # a fair log whose journal is gone (pruned by older firmware): nothing reads it
        gid = id_of(name)
        if (name.endswith(FAIR) or name.endswith(FAIR_KEY)) and len(name) == 13 and gid not in have and \
                gid not in removed and gid != current:
            os.remove(store.join(root, name))
    return removed


def remove_beside(root, game_id, suffix, names=None):
    """Remove the file a game keeps beside its journal, its checkpoint (CKPT) or
    its fair log (FAIR), if it has one (names: the folder's listing)."""
    name = file_name(game_id, suffix)
    if name in (names if names is not None else store.listdir(root)):
        os.remove(store.join(root, name))


def _put(slot, src, at):
    """RECORD bytes of src from `at` into a tail slot (no slice object: allocation-free)."""
    for j in range(RECORD):
        slot[j] = src[at + j]


def _join_tail(root, name, r):
    """Boot: the records of a tail (ROOT/gNNNNNNNN.bbt) past its journal's end go into the
    journal, and the tail is removed; a damaged one is set aside (.bad) with a Problem,
    its good records kept."""
    gid = id_of(name)
    tp = store.join(root, name)
    bp = path_of(root, gid)
    why = None
    code = BAD_CHECKSUM
    try:
        f = open(tp, "rb")
        try:
            b = f.read(_T_HEAD + TAIL_SLOTS * RECORD + 1)
        finally:
            f.close()
        f = open(bp, "rb")
        try:
            h = f.read(HEAD)
        finally:
            f.close()
    except OSError as e:
        b = h = b""
        why = "cannot be read (%s)" % e
        code = UNREADABLE
    t0 = n = 0
    if why is None and not b:
        pass  # made, and cut before its first commit: it holds nothing
    elif why is None:
        if (len(b) < _T_HEAD or b[0:3] != _T_MAGIC or b[3] != _T_FORMAT or get32(b, 4) != gid
                or crc16(b, 0, _T_HEAD - 2) != b[_T_HEAD - 2] | (b[_T_HEAD - 1] << 8)):
            why = "has a damaged header"
        else:
            t0, n = get32(b, 8), b[12] | (b[13] << 8)
            if n > TAIL_SLOTS or len(b) < _T_HEAD + n * RECORD:
                why = "is cut short (%d bytes for %d records)" % (len(b), n)
                code = TRUNCATED
    if why is None and not b:
        pass
    elif why is None and len(h) == HEAD:
        at = HEAD + (h[9] | (h[10] << 8)) + 2
        have, part = divmod(store.size(bp) - at, RECORD)
        if part or have < t0:
            why = "does not follow its journal's %d records" % have
            code = TRUNCATED
        else:
            w = bytearray(12)
            put32(w, 0, gid)
            c0 = crc16(w, 0, 4)
            good = t0
            while good < t0 + n:
                o = _T_HEAD + (good - t0) * RECORD
                w[8:12] = b[o:o + 4]
                if record_crc(w, c0, good) != b[o + 4] | (b[o + 5] << 8):
                    why = "fails its checksum at record %d" % good
                    break
                good += 1
            if good > have:
                f = open(bp, "ab")
                try:
                    f.write(b[_T_HEAD + (have - t0) * RECORD:_T_HEAD + (good - t0) * RECORD])
                    store.fsync(f)
                finally:
                    f.close()
    elif why is None:
        why = "has no journal header to follow"
    if why is None:
        os.remove(tp)
        return
    from bobing import journal_fix  # only damage needs it
    bad = journal_fix.free_bad_name(root, gid)
    os.rename(tp, store.join(root, bad))
    p = Problem(code, "game %d: its tail (the latest records) %s; the records before are kept, the tail "
                "moved to %s" % (gid, why, bad), gid, t0)
    p.moved_to = bad
    r.problems.append(p)


class Journal:
    """The current game, open for appending. `table` is its game.Table; `last` the
    game.Outcome of the latest event (after a reboot: the roll that stands and is
    shown again), or None."""

    def __init__(self, root, config, table, count, last=None, ck=0, sealer=None, sealed=0, failed=None):
        self.root = root
        self.config = config
        self.table = table
        self.count = count  # records on flash
        self.last = last
        self.path = path_of(root, config.game_id)
        self.failed = failed  # why it takes no more events (recover() knows how to go on), or None
        self.ck = ck  # events the checkpoint on flash covers (0: none)
        self._state = None  # the table before the last event, to checkpoint at the next
        # Preallocated record buffer: game id, index, then the 6 bytes written.
        self._buf = bytearray(14)
        put32(self._buf, 0, config.game_id)
        self._crc0 = crc16(self._buf, 0, 4)
        self._rec = memoryview(self._buf)[8:14]
        self._head = store.size(self.path) - count * RECORD  # bytes before the first record
        self._undo = False  # an append failed: its record may still reach the flash at close
        self._ev = count - 1  # index of the latest event's record (seals come after it)
        self._sealer = sealer  # a sealed journal's running MAC (bobing/seal.py), else None
        self._sealed = sealed  # records before the end of the last seal
        self._f = open(self.path, "ab")
        # The tail (the header's "durability"): its bytes as on flash, and a view of each slot
        tb = self._tail = bytearray(_T_HEAD + TAIL_SLOTS * RECORD)
        tb[0:3] = _T_MAGIC
        tb[3] = _T_FORMAT
        put32(tb, 4, config.game_id)
        self._thead = memoryview(tb)[:_T_HEAD]
        self._slots = [memoryview(tb)[_T_HEAD + i * RECORD:_T_HEAD + (i + 1) * RECORD] for i in range(TAIL_SLOTS)]
        self._tpath = path_of(root, config.game_id, TAIL)
        self._tf = None
        if failed is None:
            try:  # (opened here, so that no append allocates a file)
                self._tf = open(self._tpath, "wb")
            except OSError:
                pass  # the first append tries again, and says why it cannot
        self._t0 = count  # the index of the tail's first record
        self._tn = 0  # records in the tail
        self._body = count  # records in the journal file
        # The records the boot's checkpoint covered were not read: check_step reads
        # them a few at a time after the boot (in RAM only; every boot starts over).
        self._chk = 0
        self._chk_end = ck

    @property
    def game_id(self):
        return self.config.game_id

    minute = 0  # format 4: the last customer's minute on flash (a boot's clock goes on from it)

    def append(self, kind, arg, seal=False, meta=0):
        """Write one event durably: returns only after the flash commit. Does not
        touch the table (see play). ValueError for an event that cannot be stored;
        OSError from the filesystem (the journal is then marked failed). seal: a
        sealed journal's seal follows it, in the same commit. meta: a format-4
        EV_CUSTOMER's who | minute << 2 (customer_meta)."""
        if self.failed is not None:
            raise OSError("journal write failed earlier (%s); recover() to resume" % (self.failed,))
        v = arg_code(kind, arg)
        if kind == game.EV_CUSTOMER and self.config.version >= KEYED:
            v |= meta << 8
        b = self._buf
        b[8] = kind
        b[9] = v & 255
        b[10] = (v >> 8) & 255
        b[11] = v >> 16
        c = record_crc(b, self._crc0, self.count)
        b[12] = c & 255
        b[13] = c >> 8
        sl = self._sealer
        if sl is not None:
            sl.update(self._rec)
        k = 1 + SEAL_SLOTS if seal and sl is not None else 1
        try:
            if self._tn + k > TAIL_SLOTS:
                self._fold()  # full: nobody let the bowl rest between shakes
            f = self._tf
            if f is None:
                f = self._tf = open(self._tpath, "wb")
            at = self._tn
            _put(self._slots[at], b, 8)
            if k > 1:
                o = sl.seal(self.count + 1)
                for j in range(SEAL_SLOTS):
                    _put(self._slots[at + 1 + j], o, j * RECORD)
            f.seek(_T_HEAD + at * RECORD)
            for j in range(at, at + k):
                f.write(self._slots[j])
            self._tail_head(self._t0, at + k)
            f.seek(0)
            f.write(self._thead)
            store.fsync(f)  # one commit: the records and the count that takes them in
        except OSError as e:
            self.failed = e
            self._undo = True
            raise
        self._tn += k
        self._ev = self.count
        self.count += k
        if k > 1:
            self._sealed = self.count

    def _tail_head(self, t0, n):
        tb = self._tail
        put32(tb, 8, t0)
        tb[12] = n
        tb[13] = 0
        c = crc16(tb, 0, _T_HEAD - 2)
        tb[_T_HEAD - 2] = c & 255
        tb[_T_HEAD - 1] = c >> 8

    def fold(self):
        """For when no shake is followed: the tail's records into the journal file (its
        copy-on-write commit, a sector erase, off the roll's path) -> None, or the OSError
        that stopped it (the journal is then marked failed, as after a failed append;
        the records are safe in the tail, and recover() puts them in the journal)."""
        if not self._tn or self.failed is not None:
            return None
        try:
            self._fold()
        except OSError as e:
            self.failed = e
            self._undo = True
            return e
        return None

    def _fold(self):
        f = self._f
        for j in range(self._body - self._t0, self._tn):
            f.write(self._slots[j])
        store.fsync(f)
        self._body = self._t0 = self.count
        self._tn = 0
        self._tail_head(self._t0, 0)
        t = self._tf
        t.seek(0)
        t.write(self._thead)
        store.fsync(t)

    def check_step(self, n=16):
        """One bounded step of checking the records the boot's checkpoint covered
        (the boot replays only those after it): the next n records' checksums.
        -> None, or a Problem for a damaged one (record = its index): one flipped
        bit is mended on flash (mend_record); other damage is reported and the
        game goes on from the checkpoint, which holds the game as it stood (the
        outbox passes the record, saying which awards it cannot read back)."""
        a = self._chk
        if a >= self._chk_end or self._f is None:
            return None
        b = min(a + n, self._chk_end)
        gid = self.config.game_id
        try:
            i = check_records(self.path, gid, a, b)
            if i < 0:
                self._chk = b
                return None
            self._chk = i + 1
            return self._mend(i)
        except OSError as e:
            self._chk_end = 0
            return Problem(UNREADABLE, "game %d: checking its records after the boot failed (%s)" % (gid, e), gid, a)

    def _mend(self, i):
        gid = self.config.game_id
        at = self._head + i * RECORD
        f = open(self.path, "rb")
        try:
            f.seek(at)
            rec = bytearray(f.read(RECORD))
        finally:
            f.close()
        w = bytearray(12)
        put32(w, 0, gid)
        if len(rec) == RECORD and mend_record(w, crc16(w, 0, 4), i, rec):
            self._f.close()  # every append is flushed: nothing pending
            self._f = None
            try:
                f = open(self.path, "r+b")  # littlefs: the old bytes or the new, committed at the sync
                try:
                    f.seek(at)
                    f.write(rec)
                    store.fsync(f)
                finally:
                    f.close()
            finally:
                try:
                    self._f = open(self.path, "ab")
                except OSError as e:
                    self.failed = e  # no more events until recover() (append says so)
                    raise
            return Problem(BAD_CHECKSUM, "game %d: record %d (before the checkpoint at record %d, not read at "
                           "boot) failed its checksum by one bit: mended on flash" % (gid, i, self._chk_end), gid, i)
        return Problem(BAD_CHECKSUM, "game %d: record %d (before the checkpoint at record %d, not read at boot) "
                       "fails its checksum: the game goes on from the checkpoint, which holds it as it stood; "
                       "that record's event cannot be read back" % (gid, i, self._chk_end), gid, i)

    def play(self, kind, arg, meta=0):
        """Apply an event to the table, then journal it; -> the game.Outcome, safe to
        show. A refused event (ValueError) writes nothing. If the write fails, the
        table is ahead of the flash: don't show the outcome; recover() instead.
        meta: an EV_CUSTOMER's who and when (customer_meta; format 4 keeps it)."""
        t = self.table
        if self._state is not None:
            self._checkpoint()  # before anything of this event: an OSError leaves no trace of it
        if self.count + 1 - self.ck >= CHECKPOINT_EVERY:
            self._state = t.snapshot()  # as it stands before this event
        try:
            out = t.apply(kind, arg)
        except ValueError:
            self._state = None
            raise
        seal = self._sealer is not None and (
            t.ended or kind == game.EV_STOCK or (t.kiosk and not t.shakes_left)
            or self.count + 1 - self._sealed >= SEAL_EVERY)
        self.append(kind, arg, seal, meta)
        if kind == game.EV_CUSTOMER:
            self.minute = meta >> 2
        self.last = out
        return out

    def _checkpoint(self):
        # The state taken before the last event, bound to that event's record (still
        # in the record buffer): a boot then replays at least that event, so the
        # roll that stands is there to show again.
        n = self._ev
        b = checkpoint_bytes(self.config.game_id, n, self._rec, self._state)
        self._state = None
        try:
            store.write_new(self.path[:-4] + CKPT, (b,))
        except OSError:
            store.discard(self.path[:-4] + TMP)
            raise
        self.ck = n

    def close(self):
        """Close the file. After a failed write the close's own sync may fail too:
        that is not raised (nothing more can be made durable; recover() knows).
        A record whose write failed is never left on flash: littlefs's close can
        still commit it (a one-off error: the ESP32's partition driver raises and
        the flash works again), so the file is cut back to the records before it
        (the prefix copied and renamed over it, as a repair does). If even that
        fails, recover() finds the record and the game resumes with it."""
        if self.failed is None and self._tn and self._f is not None:
            try:
                self._fold()  # a closed game has no tail
            except OSError as e:  # the tail holds them: recover() puts them in the journal
                self.failed = e
                self._undo = True
        for f in (self._tf, self._f):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    if self.failed is None:
                        raise
        self._f = self._tf = None
        if self._undo:
            self._undo = False
            keep = self._head + self._body * RECORD
            if store.size(self.path) > keep:
                from bobing import journal_fix  # only a failed write needs it
                journal_fix.cut_back(self.path, keep)
            try:  # the tail as acknowledged (a failed commit may still have landed at its close)
                self._tail_head(self._t0, self._tn)
                store.write_whole(self._tpath, self._tpath[:-4] + TMP, [self._thead] + self._slots[:self._tn])
            except OSError:
                pass  # recover() finds the record in flight, and the game resumes with it
        elif not self._tn:
            store.discard(self._tpath)


def start(root, profile=profiles.DEFAULT_PRESET, overrides=None, seats=10, counts=None, bowl_id="",
          secret=None, keep_bytes=KEEP_BYTES, game_id=0, stock=None, plays=False, unsent=0):
    """Start a new game: prune finished games, write the header durably -> Journal.
    Close the previous game's Journal first. ValueError for bad settings.
    stock, plays: an event's shared stock (carried()) and whether this game plays
    on it (an event kiosk: counts must then be None). unsent: prune's."""
    ids, top = inventory(root)
    if not game_id:
        game_id = top + 1
    elif game_id <= top:
        raise ValueError("game id %d is taken: ids here go up to %d" % (game_id, top))
    cfg = Config(profile, overrides, seats, counts, bowl_id, game_id, stock=stock, plays=plays,
                 version=KEYED if secret is not None else None)
    cfg.check()
    table = new_table(cfg, secret)
    prune(root, keep_bytes, 0, unsent)
    path = path_of(root, game_id)
    head = cfg.encode()
    if secret is None:
        store.write_new(path, (head,))
        return Journal(root, cfg, table, 0)
    from bobing import seal  # a kiosk's claim secret: the desk can check its journal
    sl, first = seal.first(secret, head)
    store.write_new(path, (head, first))
    return Journal(root, cfg, table, SEAL_SLOTS, sealer=sl, sealed=SEAL_SLOTS)


class Recovery:
    """What recover() found: `journal` (the current game, or None: start a new one),
    `problems` (list of Problem), `removed` (half-written .tmp files removed)."""

    def __init__(self):
        self.journal = None
        self.problems = []
        self.removed = []
        self.notes = []  # log lines about things that lost nothing (an unused checkpoint)


def recover(root, secret=None, unsent=0):
    """Boot: find the current game, verify and replay it -> Recovery. Never raises
    on what is on flash: whatever goes wrong there becomes a Problem, and a new
    game can always start. MemoryError is not the flash's fault: the heap is
    collected and it is tried once more, then the MemoryError is raised with the
    game left on flash as it is (never given up for a new, restocked one; on the
    bowl the failed boot resets it, bowl.app.main, and it tries again)."""
    try:
        return _recover(root, secret, unsent)
    except MemoryError:
        import gc
        gc.collect()
        return _recover(root, secret, unsent)


def _recover(root, secret, unsent):
    r = Recovery()
    try:
        for name in store.listdir(root):
            if name.endswith(TMP):
                os.remove(store.join(root, name))
                r.removed.append(name)
        for name in store.listdir(root):
            if name.endswith(TAIL) and len(name) == 13:
                _join_tail(root, name, r)
        ids, top = inventory(root)
        if not ids or ids[-1] != top:
            return r  # no game, or the newest one was set aside whole: start a new one
        gid = ids[-1]
        path = path_of(root, gid)
        s = scan(path, gid, secret, checkpoint=True)
        if s.base and s.problem is not None and s.problem.code == BAD_EVENT:
            # refused by the table the checkpoint gave: trust the events, not the checkpoint
            s = None  # (its table goes before the new scan's)
            s = scan(path, gid, secret)
            if s.problem is None or s.problem.code != BAD_EVENT:
                s.ck_note = "game %d: checkpoint not used (the events after it were refused from it); " \
                            "the whole game was replayed" % gid
        if s.ck_note is not None:
            r.notes.append(s.ck_note)
        stuck = None
        if s.problem is not None:
            r.problems.append(s.problem)
            from bobing import journal_fix  # only a damaged journal needs it
            if not journal_fix.set_aside(root, s, lambda: prune(root, 0, gid, unsent)):
                stuck = OSError("no room on the flash to repair game %d" % gid)
                r.problems.append(Problem(FLASH_FULL, "game %d: flash full: resumed as it stands, no new "
                                          "events until room is made" % gid, gid, s.count))
        if s.config is not None:
            sl, sealed = None, 0
            if s.config.version >= SEALED and secret is not None and s.count:
                from bobing import seal
                sl, sealed = seal.resume(path, s.end - s.count * RECORD, s.count, secret, gid)
                if sl is None:
                    r.notes.append("game %d: no seal found: its next records go unsealed" % gid)
            r.journal = Journal(root, s.config, s.table, s.count, s.last, s.base, sl, sealed, stuck)
            r.journal.minute = s.minute  # (stuck: read-only until the repair can be done)
    except MemoryError:
        if r.journal is not None:
            r.journal.close()
        raise
    except Exception as e:  # the boot path must go on: report, never crash
        r.journal = None
        r.problems.append(Problem(NOT_RECOVERED, "recovery failed: %s %s" % (type(e).__name__, e)))
    return r
