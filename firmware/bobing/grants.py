# Shakes granted at the prize desk (PROTOCOL.md "Shakes from the counter"): the
# attendant checks a receipt and grants "3 shakes to bowl 3F-1"; the desk sends
#   bobing/<event>/<bowl>/shakes  {"v":2,"id":7,"n":3,"ref":"R-88"} + the seal
# (QoS 1, retained: the grant waits in the broker until the bowl reads it). The seal
# (bobing/wire.py, from the desk, under the bowl's key, with the event, bowl and leaf
# in its text) is the grant's one signature: a forged grant, or one moved to another
# bowl or event, fails it before decode() reads the body; ids only grow per bowl, so a
# replayed one grants nothing. A grant of the desk before the seal was its only
# signature carries an inner mac "m": refused by name (update the desk).
# The bowl answers on bobing/<event>/<bowl>/shaken {"v":2,"id":7,"st":"got"} when
# the grant is on its flash, "used" once the customer's shakes started, "no" with
# "why" when refused.
#
# Power-safe, each grant used once: ROOT/shakes.txt ("v1 ID N G C CRC") says
# grant ID of N shakes is for customer C of game G. It is written (tmp + rename:
# the old record or the new) before the bowl says "got"; the grant is used exactly
# when game G's journal holds customer C (the EV_CUSTOMER record, which also
# carries N). So a power cut after receipt leaves the grant pending on flash (the
# next customer still gets it), one after the customer started finds it used
# (customer C is in the journal): never lost, never twice. Pure logic over a
# folder, the same on MicroPython and CPython.
from micropython import const

from bobing import journal, outbox, store

FILE = "shakes.txt"
_TMP = "shakes.tmp"
MAX_SHAKES = const(99)  # shakes in one grant (a journal record carries 1..255)
MAX_REF = const(24)  # characters of the receipt/reference


class Grants:
    """What the prize desk granted this kiosk (bowl/net.py hands it in): Console.grants,
    made at the first grant. Shakes for a customer (the record above) and an event's
    stock (allot), applied through the journal between rolls. Only class attributes
    (no method): the console drops this module again, the class lives on alone."""
    allot = None  # the desk's latest stock grant (s, ((class, cumulative), ...)) not applied yet
    shakes = None  # a grant of shakes on flash not used yet: (id, n, game, customer)
    floor = -1  # the highest grant id taken (-1: not read from flash yet)
    damaged = False  # the record on flash was damaged: the next grant only sets the floor
    acks = None  # answers to the desk's grants of shakes still to send: [(id, st, why)] (bowl/net.py)
    steps = None  # {class: its last grant raise seen since boot} (the ask's low mark)



def _ref(r):
    if not isinstance(r, str) or len(r) > MAX_REF:
        raise ValueError("field 'ref'=%r: a text of at most %d characters" % (r, MAX_REF))
    for ch in r:
        if not " " <= ch <= "~" or ch in "|\"\\":
            raise ValueError("field 'ref'=%r: printable ASCII without | \" \\" % (r,))
    return r


def payload(gid, n, ref=""):
    """The desk's grant of n shakes, number gid (1.., grows per bowl): the body the desk seals."""
    gid = outbox.int_field({"id": gid}, "id", 1, outbox.MAX_SEQ)
    n = outbox.int_field({"n": n}, "n", 1, MAX_SHAKES)
    ref = _ref(ref)
    return ('{"v":%d,"id":%d,"n":%d,"ref":"%s"}' % (outbox.VERSION, gid, n, ref)).encode()


def decode(event, topic_b, msg, bowl_id):
    """A grant's opened body (wire.open_sealed checked the desk's seal) -> (id, n, ref).
    ValueError saying what was wrong: another event's or bowl's topic, oversized, not
    JSON, another format, a field out of range, an inner mac (an older desk's grant)."""
    b, d = outbox.message(event, topic_b, msg, "shakes")
    if b != bowl_id:
        raise ValueError("grant for bowl %r: this is bowl %r" % (b, bowl_id))
    if "m" in d:
        raise ValueError("field 'm': an inner mac, as an older desk wrote grants; the seal alone signs them "
                         "now (PROTOCOL.md \"Shakes from the counter\"): update the desk")
    gid = outbox.int_field(d, "id", 1, outbox.MAX_SEQ)
    n = outbox.int_field(d, "n", 1, MAX_SHAKES)
    ref = _ref(d.get("ref", ""))
    return gid, n, ref


def ack_payload(gid, st, why=""):
    """The bowl's answer: st "got" (on flash), "used" (the shakes started), "no" (refused)."""
    if why:
        return ('{"v":%d,"id":%d,"st":"%s","why":"%s"}' % (outbox.VERSION, gid, st, why[:120].replace('"', "'")
                                                            .replace("\\", "/"))).encode()
    return ('{"v":%d,"id":%d,"st":"%s"}' % (outbox.VERSION, gid, st)).encode()


def decode_ack(event, topic_b, msg):
    """The desk's side -> (bowl id, id, st, why)."""
    b, d = outbox.message(event, topic_b, msg, "shaken")
    st = d.get("st")
    if st not in ("got", "used", "no"):
        raise ValueError("field 'st'=%r: one of got, used, no" % (st,))
    why = d.get("why", "")
    if not isinstance(why, str):
        raise ValueError("field 'why' is not text")
    return b, outbox.int_field(d, "id", 0, outbox.MAX_SEQ), st, why


# ---- the record on flash ----------------------------------------------------

def _text(gid, n, g, c):
    return ("v1 %d %d %d %d" % (gid, n, g, c)).encode()


def read(root):
    """-> (id, n, game, customer) of the last grant taken, or None (none; damage
    is said by the caller: it reads as none, and a grant then waits for the desk's
    next id... never a second use: see why below)."""
    try:
        with open(store.join(root, FILE), "rb") as f:
            b = f.read(80)
    except OSError:
        return None
    p = b.split()
    try:
        if len(p) == 6 and p[0] == b"v1":
            v = (int(p[1]), int(p[2]), int(p[3]), int(p[4]))
            t = _text(*v)
            if b == t + (" %04x\n" % journal.crc16(t)).encode():
                return v
    except ValueError:
        pass
    raise ValueError("%s is damaged" % FILE)


def write(root, gid, n, g, c):
    t = _text(gid, n, g, c)
    store.write_whole(store.join(root, FILE), store.join(root, _TMP),
                        (t, (" %04x\n" % journal.crc16(t)).encode()))
