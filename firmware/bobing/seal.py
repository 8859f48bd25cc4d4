# A kiosk journal's seals: what lets the prize desk tell the bowl's journal from
# one written by anyone else. Journal format 3 (bobing/journal.py) is a kiosk
# game with a claim secret: its header, then its records, with a SEAL after the
# header and after every record that ends a customer's turn, ends the game,
# completes a grant, or would otherwise leave SEAL_EVERY records unsealed. A seal
# is jformat.SEAL_SLOTS record slots (kinds jformat.SEAL + 0, 1, 2; each its 3
# argument bytes and its usual CRC, bound to the game and its index), holding a
# TAG-byte tag:
#
#   seal 0:  HMAC-SHA256(secret, DOMAIN + the header's bytes)[:TAG]
#   seal k:  HMAC-SHA256(secret, tag of seal k-1 + the record slots between
#            the two seals, as on flash)[:TAG]
#
# HMAC is bobing/claim.py's, keyed with the same claim secret (claim.key) as the
# claim codes. Chaining through the previous tag binds every seal to the whole
# file before it (the header names bowl and game), so a journal cannot be made,
# extended, spliced or altered without the secret; it can only be cut short
# (an older copy: the desk counts each award once). Records after the last seal
# are not authenticated: the desk leaves them out until a later copy seals them
# (the bowl seals at the end of each customer's turn, so they are at most the
# current customer's). 9 bytes (72 bits) of tag: guessing one takes ~2^71
# uploads at the desk, each refused and logged.
#
# Cheap on the bowl: each record is fed to a running HMAC as it is written
# (hashlib's update allocates nothing); only a seal computes digests. After a
# reboot the running HMAC is rebuilt from the last seal's tag and the records
# after it (resume(): a read backwards from the end, chunk by chunk, never the
# whole file). The bowl does not check seals (the CRCs guard its own flash);
# the desk does (verify()), before it reads anything else of the file.
from micropython import const

from bobing import claim, jformat, store

DOMAIN = b"bobing-journal3|"
TAG = const(9)  # bytes of tag: SEAL_SLOTS x 3
_RECORD = const(6)
_SLOTS = const(3)


class Sealer:
    """The running HMAC of one game's journal, and its seal slots."""

    def __init__(self, secret, game_id):
        self._h = claim.Hmac(claim.check_secret(secret))
        self._w = bytearray(12)  # game id, index, slot body: what a slot's CRC covers
        jformat.put32(self._w, 0, game_id)
        self._c0 = jformat.crc16(self._w, 0, 4)
        self.out = bytearray(_RECORD * _SLOTS)

    def begin(self, first):
        self._h.begin(first)

    def update(self, b):
        """One record slot (6 bytes) as written: allocates nothing."""
        self._h.update(b)

    def tag(self):
        """The tag of what was fed since the last seal (ends that message)."""
        return self._h.digest()[:TAG]

    def seal(self, index):
        """The seal slots (self.out) for record indices index.., and the next message
        begun with their tag."""
        t = self.tag()
        o = self.out
        w = self._w
        for j in range(_SLOTS):
            at = j * _RECORD
            o[at] = jformat.SEAL + j
            o[at + 1] = t[3 * j]
            o[at + 2] = t[3 * j + 1]
            o[at + 3] = t[3 * j + 2]
            w[8:12] = o[at:at + 4]
            c = jformat.record_crc(w, self._c0, index + j)
            o[at + 4] = c & 255
            o[at + 5] = c >> 8
        self._h.begin(t)
        return o


def first(secret, header):
    """A new game's Sealer and its seal 0 (slots 0..SEAL_SLOTS-1, after the header)."""
    s = Sealer(secret, jformat.get32(header, 4))
    s.begin(DOMAIN)
    s.update(header)
    return s, bytes(s.seal(0))


def _tag_of(b, at):
    t = bytearray(TAG)
    for j in range(_SLOTS):
        t[3 * j:3 * j + 3] = b[at + j * _RECORD + 1:at + j * _RECORD + 4]
    return bytes(t)


def resume(path, head, count, secret, game_id):
    """The Sealer of a journal on flash with `count` records after `head` header
    bytes, fed up to its end, and the record count its last seal ends at -> (Sealer,
    sealed); (None, 0) if no seal is found (the journal then goes on unsealed)."""
    buf = bytearray(_RECORD * 32)
    mv = memoryview(buf)
    last = jformat.SEAL + _SLOTS - 1
    f = open(path, "rb")
    try:
        hi = count
        end = -1
        while hi > 0 and end < 0:  # backwards, a chunk at a time: the last seal's end
            lo = max(0, hi - 32)
            f.seek(head + lo * _RECORD)
            got = store.fill(f, mv[:(hi - lo) * _RECORD])
            for i in range(lo + got // _RECORD - 1, lo - 1, -1):
                if buf[(i - lo) * _RECORD] == last:
                    end = i + 1
                    break
            hi = lo
        if end < _SLOTS:
            return None, 0
        f.seek(head + (end - _SLOTS) * _RECORD)
        b = f.read(_RECORD * _SLOTS)
        if len(b) != _RECORD * _SLOTS:
            return None, 0
        s = Sealer(secret, game_id)
        s.begin(_tag_of(b, 0))
        at = end
        while at < count:  # the records after it, a chunk at a time
            n = min(32, count - at)
            got = store.fill(f, mv[:n * _RECORD])
            for i in range(0, got - _RECORD + 1, _RECORD):
                s.update(mv[i:i + _RECORD])
            if got < n * _RECORD:
                break
            at += n
    finally:
        f.close()
    return s, end


def peek(path):
    """What a journal's header says, read before anything is trusted: (format,
    game id, bowl id), to choose the secret that checks it; ValueError if the
    header is not a journal's or fails its checksum."""
    f = open(path, "rb")
    try:
        h = f.read(jformat.HEAD)
        if len(h) < jformat.HEAD or h[0:3] != jformat.MAGIC:
            raise ValueError("not a journal (it does not start with BBJ and a whole header)")
        n = h[9] | (h[10] << 8)
        rest = f.read(n + 2) if n <= jformat.MAX_TEXT else b""
    finally:
        f.close()
    if len(rest) < n + 2 or jformat.crc16(rest, 0, n, jformat.crc16(h)) != rest[n] | (rest[n + 1] << 8):
        raise ValueError("the header is cut short or damaged")
    lines = bytes(rest[:n]).split(b"\n")
    try:
        bowl = lines[1].decode() if len(lines) > 1 else ""
    except UnicodeError:
        raise ValueError("the header's bowl id is not text")
    return h[3], jformat.get32(h, 4), bowl


class Checked:
    """verify()'s answer: `end` bytes of the file are authenticated (header and
    `sealed` record slots); `tail` record slots after them are not (a partial slot
    counts as one); `bad`: why the rest is not (a seal that does not match), or None."""

    def __init__(self, end, sealed, tail, bad=None):
        self.end = end
        self.sealed = sealed
        self.tail = tail
        self.bad = bad


def verify(path, secret):
    """Check a format-3 journal's seals with the bowl's secret -> Checked. ValueError
    (saying why) if it is not format 3, or its first seal (the header's) does not
    match: not written with this secret. A later seal that does not match (damaged
    or altered after the seal before it) ends the authenticated part there
    (Checked.bad says where); a seal cut short at the end only leaves the records
    before it unauthenticated for now."""
    fmt, gid, _bowl = peek(path)
    if fmt < jformat.SEALED:
        raise ValueError("journal format %d carries no seals" % fmt)
    f = open(path, "rb")
    try:
        h = f.read(jformat.HEAD)
        rest = f.read((h[9] | (h[10] << 8)) + 2)
        head = len(h) + len(rest)
        s = Sealer(secret, gid)
        s.begin(DOMAIN)
        s.update(h)
        s.update(rest)
        buf = bytearray(_RECORD * 32)
        mv = memoryview(buf)
        got_seal = bytearray(_RECORD * _SLOTS)
        i = 0  # slot index
        part = 0  # slots of a seal read so far
        want = None
        sealed = -1
        tail = 0
        bad = None
        while bad is None:
            got = store.fill(f, mv)
            at = 0
            while at + _RECORD <= got:
                k = buf[at]
                bad = _slot(k, part, i, sealed)
                if bad is not None:
                    break
                if part == 0 and k == jformat.SEAL:
                    want = s.tag()
                if k == jformat.SEAL + part and want is not None:
                    got_seal[part * _RECORD:(part + 1) * _RECORD] = mv[at:at + _RECORD]
                    part += 1
                    if part == _SLOTS:
                        if _tag_of(got_seal, 0) != want:
                            bad = "the seal at record %d does not match" % (i - _SLOTS + 1)
                            break
                        sealed = i + 1
                        s.begin(want)
                        part = 0
                        want = None
                else:
                    s.update(mv[at:at + _RECORD])
                i += 1
                at += _RECORD
            if bad is None and got < len(buf):
                tail = i + (1 if got > at else 0)
                break
    finally:
        f.close()
    if sealed < 0:
        raise ValueError(bad if bad is not None else "the header's seal is missing")
    return Checked(head + sealed * _RECORD, sealed, max(0, tail - sealed), bad)


def _slot(k, part, i, sealed):
    """Why slot i (kind k) cannot be where it is, with `part` slots of a seal read, or None."""
    if part and k != jformat.SEAL + part:
        return "record %d: a seal cut off by another record" % i
    if not part and jformat.SEAL < k < jformat.SEAL + 16:
        return "record %d: a seal out of place" % i
    if sealed < 0 and i >= _SLOTS:
        return "the header's seal does not match"
    return None
