# The journal's format on flash, the one place it is said: what a game's files are called,
# the header's and the records' layouts, the CRC-16 that binds a record to its game and its
# place, the seal records' kinds, the format versions. bobing/journal.py (which describes
# the files at length), journal_fix.py, seal.py and outbox.py import it; it imports nothing
# of theirs, so none of them needs another to read a journal's bytes.
from micropython import const

from bobing import store

FORMAT = const(4)  # the newest format this firmware reads and writes; newer ones are set aside, never guessed at
SEALED = const(3)  # a game with a claim secret: sealed for the desk (bobing/seal.py)
KEYED = const(4)  # sealed, and each customer's record says who let him in, and when (the header)
SEAL = const(0x10)  # a seal's record slots have kinds SEAL, SEAL + 1, SEAL + 2 (events are 1..8)
SEAL_SLOTS = const(3)
# A sealed journal leaves at most this many records after its last seal (a seal's
# resume after a reboot reads them back).
SEAL_EVERY = 32
RECORD = const(6)  # bytes per event on flash
HEAD = const(11)  # fixed part of the header, before the config text
MAX_TEXT = const(1024)  # config text bytes at most (a damaged length field never makes a big read)
MAX_GAME_ID = const(99999999)  # eight digits in the file name

MAGIC = b"BBJ"
SUFFIX = ".bbj"
BAD = ".bad"
TMP = store.TMP
CKPT = ".bbc"  # the game's checkpoint
TAIL = ".bbt"  # the game's tail: its latest records, not yet in the journal file (bobing/journal.py)
FAIR = ".bbf"  # the game's fair log (bobing/fair.py): pruned with its journal
FAIR_KEY = ".bbk"  # the game's chain roots (bobing/fair.py, fair format 2): likewise

# CRC-16/CCITT by table: per byte value its remainder, big-endian u16 (poly 0x1021).
# A constant, not computed at import: the frozen build keeps it in flash, not
# the heap (512 B; tests/test_journal.py computes it).
_T = (b"\x00\x00\x10\x21\x20\x42\x30\x63\x40\x84\x50\xa5\x60\xc6\x70\xe7\x81\x08\x91\x29\xa1\x4a\xb1\x6b"
      b"\xc1\x8c\xd1\xad\xe1\xce\xf1\xef\x12\x31\x02\x10\x32\x73\x22\x52\x52\xb5\x42\x94\x72\xf7\x62\xd6"
      b"\x93\x39\x83\x18\xb3\x7b\xa3\x5a\xd3\xbd\xc3\x9c\xf3\xff\xe3\xde\x24\x62\x34\x43\x04\x20\x14\x01"
      b"\x64\xe6\x74\xc7\x44\xa4\x54\x85\xa5\x6a\xb5\x4b\x85\x28\x95\x09\xe5\xee\xf5\xcf\xc5\xac\xd5\x8d"
      b"\x36\x53\x26\x72\x16\x11\x06\x30\x76\xd7\x66\xf6\x56\x95\x46\xb4\xb7\x5b\xa7\x7a\x97\x19\x87\x38"
      b"\xf7\xdf\xe7\xfe\xd7\x9d\xc7\xbc\x48\xc4\x58\xe5\x68\x86\x78\xa7\x08\x40\x18\x61\x28\x02\x38\x23"
      b"\xc9\xcc\xd9\xed\xe9\x8e\xf9\xaf\x89\x48\x99\x69\xa9\x0a\xb9\x2b\x5a\xf5\x4a\xd4\x7a\xb7\x6a\x96"
      b"\x1a\x71\x0a\x50\x3a\x33\x2a\x12\xdb\xfd\xcb\xdc\xfb\xbf\xeb\x9e\x9b\x79\x8b\x58\xbb\x3b\xab\x1a"
      b"\x6c\xa6\x7c\x87\x4c\xe4\x5c\xc5\x2c\x22\x3c\x03\x0c\x60\x1c\x41\xed\xae\xfd\x8f\xcd\xec\xdd\xcd"
      b"\xad\x2a\xbd\x0b\x8d\x68\x9d\x49\x7e\x97\x6e\xb6\x5e\xd5\x4e\xf4\x3e\x13\x2e\x32\x1e\x51\x0e\x70"
      b"\xff\x9f\xef\xbe\xdf\xdd\xcf\xfc\xbf\x1b\xaf\x3a\x9f\x59\x8f\x78\x91\x88\x81\xa9\xb1\xca\xa1\xeb"
      b"\xd1\x0c\xc1\x2d\xf1\x4e\xe1\x6f\x10\x80\x00\xa1\x30\xc2\x20\xe3\x50\x04\x40\x25\x70\x46\x60\x67"
      b"\x83\xb9\x93\x98\xa3\xfb\xb3\xda\xc3\x3d\xd3\x1c\xe3\x7f\xf3\x5e\x02\xb1\x12\x90\x22\xf3\x32\xd2"
      b"\x42\x35\x52\x14\x62\x77\x72\x56\xb5\xea\xa5\xcb\x95\xa8\x85\x89\xf5\x6e\xe5\x4f\xd5\x2c\xc5\x0d"
      b"\x34\xe2\x24\xc3\x14\xa0\x04\x81\x74\x66\x64\x47\x54\x24\x44\x05\xa7\xdb\xb7\xfa\x87\x99\x97\xb8"
      b"\xe7\x5f\xf7\x7e\xc7\x1d\xd7\x3c\x26\xd3\x36\xf2\x06\x91\x16\xb0\x66\x57\x76\x76\x46\x15\x56\x34"
      b"\xd9\x4c\xc9\x6d\xf9\x0e\xe9\x2f\x99\xc8\x89\xe9\xb9\x8a\xa9\xab\x58\x44\x48\x65\x78\x06\x68\x27"
      b"\x18\xc0\x08\xe1\x38\x82\x28\xa3\xcb\x7d\xdb\x5c\xeb\x3f\xfb\x1e\x8b\xf9\x9b\xd8\xab\xbb\xbb\x9a"
      b"\x4a\x75\x5a\x54\x6a\x37\x7a\x16\x0a\xf1\x1a\xd0\x2a\xb3\x3a\x92\xfd\x2e\xed\x0f\xdd\x6c\xcd\x4d"
      b"\xbd\xaa\xad\x8b\x9d\xe8\x8d\xc9\x7c\x26\x6c\x07\x5c\x64\x4c\x45\x3c\xa2\x2c\x83\x1c\xe0\x0c\xc1"
      b"\xef\x1f\xff\x3e\xcf\x5d\xdf\x7c\xaf\x9b\xbf\xba\x8f\xd9\x9f\xf8\x6e\x17\x7e\x36\x4e\x55\x5e\x74"
      b"\x2e\x93\x3e\xb2\x0e\xd1\x1e\xf0")


def crc16(buf, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT of buf[start:end], continuing from `crc`. Allocation-free."""
    if end < 0:
        end = len(buf)
    t = _T
    for i in range(start, end):
        j = ((crc >> 8) ^ buf[i]) << 1
        crc = ((crc << 8) & 0xFF00) ^ (t[j] << 8) ^ t[j + 1]
    return crc


def put32(buf, at, v):
    """v as u32 LE into buf[at:at + 4] (the record codec's fields)."""
    buf[at] = v & 255
    buf[at + 1] = (v >> 8) & 255
    buf[at + 2] = (v >> 16) & 255
    buf[at + 3] = (v >> 24) & 255


def get32(buf, at):
    """The u32 LE at buf[at:at + 4]."""
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def frame(magic, version, head, body):
    """A header or checkpoint to fill in: magic (3 bytes), version, the caller's fields,
    the body's length (u16 LE, the head's last 2 bytes), the body, room for the CRC."""
    m = len(body)
    b = bytearray(head + m + 2)
    b[0:3] = magic
    b[3] = version
    b[head - 2] = m & 255
    b[head - 1] = m >> 8
    b[head:head + m] = body
    return b


def put_crc(b):
    """The CRC-16 of all but the last 2 bytes, into them (u16 LE)."""
    end = len(b) - 2
    c = crc16(b, 0, end)
    b[end] = c & 255
    b[end + 1] = c >> 8


def record_crc(w, c0, index):
    # What a record's CRC covers, the one place it is said: w[0:4] the game id
    # (already folded into c0 = crc16(w, 0, 4)), w[4:8] the record's index (set
    # here), w[8:12] its body. A record from another game or another place fails.
    w[4] = index & 255  # (put32 written out: a call less for every record replayed)
    w[5] = (index >> 8) & 255
    w[6] = (index >> 16) & 255
    w[7] = (index >> 24) & 255
    crc = c0
    t = _T
    for i in range(4, 12):  # crc16(w, 4, 12, c0) written out: a call less for every record read
        j = ((crc >> 8) ^ w[i]) << 1
        crc = ((crc << 8) & 0xFF00) ^ (t[j] << 8) ^ t[j + 1]
    return crc


def file_name(game_id, suffix):
    """A game's file name: gNNNNNNNN + suffix (SUFFIX, CKPT, BAD, TMP)."""
    return "g%08d%s" % (game_id, suffix)


def path_of(root, game_id, suffix=SUFFIX):
    """A game's file in folder root (its journal by default)."""
    return store.join(root, file_name(game_id, suffix))


def id_of(name):
    """gNNNNNNNN.xxx (and gNNNNNNNN-K.bad) -> NNNNNNNN, else 0."""
    if len(name) < 13 or name[0] != "g" or not name[1:9].isdigit() or name[9] not in ".-":
        return 0
    return int(name[1:9])
