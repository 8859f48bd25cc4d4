"""verify-fair: check every roll of a fair event kiosk (公开核验 public check).

From a bowl's journal folder (its flash copied off: the game journals
gNNNNNNNN.bbj and their fair logs gNNNNNNNN.bbf), or from the prize desk's
public export (its /fair/export.json, no login), or both (--desk: the journal
is then also held against what the desk recorded). Each roll is recomputed from
the revealed secret, the desk's value and the roll's position with the bowl's
own derivation (firmware/PROTOCOL.md "Verifiable fairness"). Prints what it
found, then `fair: N rolls verified, M unverified (reasons)`; exit status 0
only when every roll is verified, 1 otherwise, 2 for input it cannot read.
A FOLDER without --desk only shows that the bowl agrees with its own log (a
cheating bowl writes whatever journal it likes): `fair: consistency only ...`,
exit status 3 when it does, 1 when it does not; never 0."""
import json
import os

from host_sim.analysis import fair_check
from host_sim.cli.options import InputError, read_json

# an event's export: ~300 B a commitment and its log entries; 256 MB is ~800,000 customers
MAX_EXPORT = 256 * 1024 * 1024
MAX_RECEIPT = 4096


def add_arguments(p):
    p.description = __doc__
    p.add_argument("journal", nargs="?", metavar="FOLDER",
                   help="a bowl's folder: its game journals and fair logs")
    p.add_argument("--desk", metavar="EXPORT.json", help="the desk's public export (/fair/export.json)")
    p.add_argument("--bowl", metavar="ID", help="with --desk: this bowl only (and the bowl the FOLDER is)")
    p.add_argument("--game", metavar="N", type=int, help="this game only")
    p.add_argument("--receipt", metavar="RECEIPT.json", action="append", default=[],
                   help="with --desk: a receipt a customer saved ({\"n\": the desk log's entry, \"head\": its "
                        "64 hex digits}): the export's log must still hold it")


def _load(path):
    d = read_json(path, "the desk's export", MAX_EXPORT)
    if not isinstance(d, dict) or d.get("v") != 1 or not isinstance(d.get("commitments"), list):
        raise InputError("%s is not the desk's export: a JSON object with \"v\":1 and \"commitments\" expected"
                         % path)
    for name in ("awards", "chains", "turns", "log"):
        if not isinstance(d.get(name, []), list):
            raise InputError("%s: \"%s\" must be a list" % (path, name))
    for what, rows, fields in (("commitment", d["commitments"], _COMMITMENT), ("award", d.get("awards", []), _AWARD),
                               ("chain", d.get("chains", []), _CHAIN), ("turn", d.get("turns", []), _TURN),
                               ("log entry", d.get("log", []), _LOG)):
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise InputError("%s: %s %d is not a JSON object" % (path, what, i + 1))
            for name, ok, allowed in fields:
                if not ok(row.get(name)):
                    raise InputError("%s: %s %d: %s=%s: %s" % (path, what, i + 1, name, json.dumps(row.get(name))[:40],
                                                                allowed))
    return d


def _receipt(path):
    d = read_json(path, "a receipt", MAX_RECEIPT)
    if not isinstance(d, dict) or not _int(d.get("n")) or not _hex(64)(d.get("head")):
        raise InputError("%s is not a receipt: {\"n\": the desk log's entry (a whole number), \"head\": 64 hex "
                         "digits} expected" % path)
    return d


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _hex(n, empty=False):
    def ok(v):
        if empty and v in (None, ""):
            return True
        return isinstance(v, str) and len(v) == n and all(ch in "0123456789abcdefABCDEF" for ch in v)
    return ok


def _time(v):
    try:
        return fair_check.when(v).tzinfo is not None  # (the desk's times are all aware: comparable)
    except (TypeError, ValueError):
        return False


def _rolls(v):
    return v is None or isinstance(v, list) and all(
        isinstance(x, str) and (x == "-" or len(x) == 6 and all(ch in "123456" for ch in x)) for x in v)


_NUMBER = "a whole number, 0 or more"
_SEEN = "the time the desk recorded it (ISO 8601, with its UTC offset)"
# the fields the checks read, each with what is allowed (what a desk's /fair/export.json holds)
_COMMITMENT = (
    ("bowl", lambda v: isinstance(v, str) and v != "", "the bowl's id"), ("g", _int, _NUMBER), ("k", _int, _NUMBER),
    ("q", _int, _NUMBER), ("c", _hex(64), "the commitment, 64 hex digits"), ("seen", _time, _SEEN),
    ("d", _hex(32, True), "the desk's value, 32 hex digits, or null"),
    ("s", _hex(64, True), "the revealed secret, 64 hex digits, or null"),
    ("r", _rolls, "the rolls: a list of six digits 1-6 each, or \"-\" for a spill"),
    ("u", lambda v: v in (None, 0, 1), "0 or 1 (1: no desk value came in time)"))
_CHAIN = (  # fair format 2
    ("bowl", lambda v: isinstance(v, str) and v != "", "the bowl's id"), ("g", _int, _NUMBER),
    ("a", lambda v: _int(v) and v >= 1, "the chain's number, 1 or more"), ("c", _hex(64), "the anchor, 64 hex digits"),
    ("seen", _time, _SEEN))
_TURN = (
    ("bowl", lambda v: isinstance(v, str) and v != "", "the bowl's id"), ("g", _int, _NUMBER),
    ("k", lambda v: _int(v) and v >= 1, "the customer, 1 or more"), ("seen", _time, _SEEN),
    ("d", _hex(32, True), "the desk's value, 32 hex digits, or null"),
    ("s", _hex(64, True), "the revealed secret, 64 hex digits, or null"),
    ("r", _rolls, "the rolls: a list of six digits 1-6 each, or \"-\" for a spill"),
    ("unseeded", lambda v: v in (None, 0, 1), "0 or 1 (1: no desk value came in time)"))
_LOG = (
    ("n", lambda v: _int(v) and v >= 1, "the entry's number, 1 or more"),
    ("kind", lambda v: v in ("chain", "value", "seed", "reveal"), "chain, value, seed or reveal"),
    ("body", lambda v: isinstance(v, str), "the entry's JSON text"), ("head", _hex(64), "64 hex digits"))
_AWARD = (
    ("bowl", lambda v: isinstance(v, str) and v != "", "the bowl's id"), ("g", _int, _NUMBER), ("n", _int, _NUMBER),
    ("k", _int, _NUMBER), ("c", lambda v: isinstance(v, str) and v != "", "the prize class's id"),
    ("seen", _time, _SEEN))


def run(args):
    if not args.journal and not args.desk:
        raise InputError("give a bowl's journal FOLDER, --desk EXPORT.json, or both")
    receipts = [_receipt(p) for p in args.receipt]
    desk = _load(args.desk) if args.desk else None
    if receipts and desk is None:
        raise InputError("--receipt is checked against the desk's export: give --desk EXPORT.json too")
    r = fair_check.Report()
    if args.journal:
        if not os.path.isdir(args.journal):
            raise InputError("%s is not a folder: give the folder holding the bowl's gNNNNNNNN.bbj files"
                             % args.journal)
        if desk is not None and not args.bowl:
            raise InputError("with --desk and a FOLDER, --bowl names the bowl the folder is")
        games = fair_check.fair_games(args.journal)
        if args.game is not None:
            games = [g for g in games if g == args.game]
        if not games:
            raise InputError("%s holds no fair game (no gNNNNNNNN.bbf fair log%s)" % (
                args.journal, " for game %d" % args.game if args.game is not None else ""))
        for g in games:
            fair_check.check_game(args.journal, g, r, desk, args.bowl)
    else:
        fair_check.check_export(desk, r, args.bowl, args.game)
    if desk is not None:
        fair_check.check_log(desk, r, receipts)
    for line in r.lines + r.spill_lines() + ([r.trust_line()] if r.trust_line() else []):
        print(line)
    print(r.summary(own=desk is None))
    if desk is None:  # (the bowl agrees with itself: not a verdict)
        return 3 if r.ok else 1
    return 0 if r.ok else 1
