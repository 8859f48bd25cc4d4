# Damaged and crafted journals: a generator of what a power cut, a
# worn flash or a person with a hex editor can leave in /data, and one check
# that recovery deals with each: it never trips over the file (no "recovery
# failed"), sets every bad byte aside (kept prefix + .bad = the file as found),
# leaves no .tmp, and resumes a table equal to a fresh replay of what it kept.
# Portable (CPython and the MicroPython unix port); used by tests/test_journal.py.
import os

from bobing import game, jformat, journal

RECORD = journal.RECORD
# every kind of damage recovery names (Problem.code)
CODES = (journal.TRUNCATED, journal.BAD_CHECKSUM, journal.NEWER_VERSION, journal.OTHER_GAME, journal.BAD_CONFIG,
         journal.BAD_EVENT, journal.UNREADABLE, journal.FLASH_FULL, journal.NOT_RECOVERED)


def log_lines(r):
    """What a recover() found, as the log gets it (for assertion messages)."""
    return [p.text for p in r.problems] + r.notes


def header(text, version=1, game_id=1, seats=6):
    """A header with a valid checksum around any settings text (bytes)."""
    b = jformat.frame(journal.MAGIC, version, 11, text)
    journal.put32(b, 4, game_id)
    b[8] = seats
    jformat.put_crc(b)
    return bytes(b)


def record(index, kind, v, game_id=1):
    """A record with a valid checksum around any kind and 24-bit argument."""
    w = bytearray(12)
    journal.put32(w, 0, game_id)
    w[8] = kind
    w[9] = v & 255
    w[10] = (v >> 8) & 255
    w[11] = (v >> 16) & 255
    c = journal.record_crc(w, journal.crc16(w, 0, 4), index)
    return bytes(w[8:12]) + bytes([c & 255, c >> 8])


CRAFTED_TEXTS = (
    b"", b"\n\n", b"xiamen", b"xiamen\n", b"\n\n\n", b"\n\n\ncombined=off", b"xiamen\n\n\n=x", b"xiamen\n\n\n=",
    b"xiamen\n\n\n =x", b"xiamen\n\n\nx", b"xiamen\n\n\n\n", b"xiamen\n\n=5", b"xiamen\n\nyixiu=", b"xiamen\n\n,",
    b"xiamen\n\nnope=1", b"xiamen\n\nyixiu=-1", b"xiamen\n\nyixiu=100000", b"xiamen\n\nyixiu=1e9",
    b"xiamen\n\n\ncombined=maybe", b"xiamen\n\n\ntime_limit=-5", b"xiamen\n\n\nmode=kiosk\nmode=table",
    b"nope\n\n", b"xiamen\n" + b"x" * 40 + b"\n", b"xiamen\n\xff\xfe\n", b"\xe4\xb8\n\n", b"xiamen\n\n\n\x00=1",
    b"kiosk\n\n\nkiosk_shakes=0", b"kiosk\n\n\nkiosk_shakes=99", b"xiamen\n\n\nprizes=standard\nmode=kiosk",
)


def probes(good, head_len, n_records, game_id=1, stride=1):
    """(name, bytes) of damaged or crafted versions of a good journal file."""
    good = bytes(good)
    for k in range(0, len(good), stride):  # cut short anywhere
        yield "cut at %d" % k, good[:k]
    for at in range(0, len(good), stride):  # one flipped bit in every byte (a different bit each)
        b = bytearray(good)
        b[at] ^= 1 << (at % 8)
        yield "bit %d of byte %d" % (at % 8, at), bytes(b)
    body = good[head_len:]
    for text in CRAFTED_TEXTS:  # settings that pass the checksum
        yield "settings %r" % text, header(text, game_id=game_id) + body
    cfg = good[11:head_len - 2]
    for version, seats, gid in ((0, 6, game_id), (2, 6, game_id), (1, 0, game_id), (1, 200, game_id),
                                (1, 6, 0), (1, 6, game_id + 1), (255, 6, game_id)):
        yield "header v%d seats %d game %d" % (version, seats, gid), header(cfg, version, gid, seats) + body
    yield "length field past the end", good[:9] + bytes([255, 3]) + good[11:]
    hdr = good[:head_len]
    recs = [body[i * RECORD:(i + 1) * RECORD] for i in range(n_records)]
    last = n_records - 1
    for kind, v, what in ((0, 0, "kind 0"), (7, 0, "kind 7"), (255, 0xFFFFFF, "kind 255"),
                          (game.EV_ROLL, 0, "dice 000000"), (game.EV_ROLL, 0xFFFFFF, "dice 777777"),
                          (game.EV_START_TOTAL, 0, "start total 0"), (game.EV_START_SEAT, 99, "start seat 99"),
                          (game.EV_SPILL, 5, "spill with an argument"), (game.EV_CUSTOMER, 0, "a customer at a table"),
                          (game.EV_TIMEUP, 0, "time up without a limit")):
        for at in (0, 1, last):  # replace a record with a well-checksummed bad one
            b = list(recs)
            b[at] = record(at, kind, v, game_id)
            yield "record %d: %s" % (at, what), hdr + b"".join(b)
        yield "extra record: %s" % what, good + record(n_records, kind, v, game_id)
    yield "a record of another game", hdr + b"".join(recs[:2]) + record(2, recs[2][0], 0, game_id + 1)
    yield "records swapped", hdr + recs[1] + recs[0] + b"".join(recs[2:])
    yield "a record twice", hdr + b"".join(recs) + recs[-1]
    yield "garbage after", good + b"\xff" * 7
    yield "zeros after", good + bytes(12)


def read_file(path):
    f = open(path, "rb")
    try:
        return f.read()
    finally:
        f.close()


def write_file(path, data):
    f = open(path, "wb")
    try:
        f.write(data)
    finally:
        f.close()


def _clear(root):
    for name in os.listdir(root):
        os.remove(root + "/" + name)


def _vars(t):
    d = t.__dict__
    return [(k, d[k]) for k in sorted(d) if k not in ("profile", "rules", "_secret")]


def checkpoint_probes(ck):
    """(name, bytes, strict) of damaged or crafted versions of a good checkpoint file.
    strict: an accident (cut, flipped bit), which must be refused or harmless; else a
    crafted state with a valid checksum, which must not trip recovery (a CRC is no
    seal: who can write the flash can write any game, journal or checkpoint)."""
    ck = bytes(ck)
    for k in range(len(ck)):
        yield "checkpoint cut at %d" % k, ck[:k], True
    for at in range(len(ck)):
        b = bytearray(ck)
        b[at] ^= 1 << (at % 8)
        yield "checkpoint bit %d of byte %d" % (at % 8, at), bytes(b), True
    for at in range(20, len(ck) - 2):
        for v in (0, 1, 0x7F, 0x80, 0xFF):
            b = bytearray(ck)
            b[at] = v
            jformat.put_crc(b)
            yield "checkpoint state byte %d = %d" % (at, v), bytes(b), False


def check(root, name, data, secret=None, extra=(), strict=True):
    """Recover ROOT/g00000001.bbj holding `data` (and `extra` files: (name, bytes)); raise
    AssertionError saying what went wrong. Leaves the folder empty. strict=False: the
    resumed table need not equal the journal's replay (a crafted checkpoint)."""
    _clear(root)
    path = root + "/g00000001.bbj"
    write_file(path, data)
    for n, b in extra:
        write_file(root + "/" + n, b)
    r = journal.recover(root, secret)
    try:
        names = os.listdir(root)
        for p in r.problems:
            assert not p.text.startswith("recovery failed"), "%s: recovery tripped: %s" % (name, p.text)
            assert p.code in CODES, "%s: code %r" % (name, p.code)
            assert p.moved_to in names, "%s: nothing set aside: %s" % (name, p.text)
        assert not [n for n in names if n.endswith(journal.TMP)], "%s: a .tmp left: %r" % (name, names)
        bad = b""
        for n in names:
            if n.endswith(journal.BAD):
                bad += read_file(root + "/" + n)
        kept = read_file(path) if "g00000001.bbj" in names else b""
        names = [n for n in names if n.endswith(journal.BAD) or n.endswith(journal.SUFFIX)]
        assert kept + bad == data, "%s: bytes lost or changed (kept %d + set aside %d of %d)" % (
            name, len(kept), len(bad), len(data))
        assert (r.journal is None) == (not kept), name
        if r.journal is not None:
            evs = []
            s = journal.scan(path, 1, secret, keep=evs)
            assert s.problem is None and len(evs) == r.journal.count, "%s: the kept part is not clean" % name
            assert not strict or _vars(r.journal.table) == _vars(s.table), "%s: resumed table != its replay" % name
    finally:
        if r.journal is not None:
            r.journal.close()
    r2 = journal.recover(root, secret)
    assert not r2.problems, "%s: a second boot still finds %s" % (name, log_lines(r2))
    if r2.journal is not None:
        r2.journal.close()
    _clear(root)
