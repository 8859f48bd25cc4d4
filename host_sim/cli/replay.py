"""replay: play a written record of a game through the game engine and print
the result as one JSON object:

  {"ended": bool, "reason": str, "events_used": int,
   "zhuangyuan": {"seat": int, "dice": [...], "rank": ID} or null,
   "awards": {"SEAT": {CLASS: count}}, "pool": {CLASS: count}, "grabbed": {CLASS: count}}

A kiosk (mode=kiosk) has customers, not seats, and pays every prize at once:
its "awards" is the list of every award in order, {"customer": n, "award": n,
"class": ID, "class_zh": 状元, "rank": ID, "dice": [...]} (and "code", the claim
code, when --journal is given the bowl's secret), "won" the count per class and
"customers" how many came; no "zhuangyuan". --awards prints the awards as a list
to read instead (the end of a kiosk's day: several --journal files).

FILE holds one event per line: six dice (444411, '4 4 4 4 1 1' or 4,4,4,4,1,1)
rolled by the seat whose turn it is, `spill`, `timeup`, or (kiosk profiles)
`customer`; blank lines and # comments are ignored. Seats advance per the
rules; a seat that sits out a turn consumes no line. Events after the end are
not applied. `reason` is "in_play" while the game has not ended. A bad line is
reported with its number on stderr, with no JSON, and exit status 2."""
import json
import sys

from bobing import game, journal, rules
from host_sim.cli import options
from host_sim.cli import replay_journal
from host_sim.cli.options import add_profile_arguments, profile_from
from host_sim.cli.replay_output import award_lines, kiosk_awards, result
_WORDS = {"spill": game.EV_SPILL, "timeup": game.EV_TIMEUP, "customer": game.EV_CUSTOMER}


class EventFileError(ValueError):
    """A bad event line; .line is its 1-based number (0 = not a line's fault)."""

    def __init__(self, line, msg):
        ValueError.__init__(self, "line %d: %s" % (line, msg) if line else msg)
        self.line = line


def parse_event(text):
    """One line -> (kind, arg), or None for a blank or comment line; ValueError otherwise."""
    s = text.split("#", 1)[0].strip()
    if not s:
        return None
    w = s.lower()
    if w in _WORDS:
        return _WORDS[w], None
    try:
        return game.EV_ROLL, rules.parse_roll(s)
    except ValueError as e:
        raise ValueError("%s (a line is six dice, spill, timeup or customer)" % e)


def read_events(lines):
    """Lines of an event file -> [(line number, kind, arg)]; EventFileError on a bad line.
    The one parser of event files: the replay command and its --journal
    counterpart both feed the engine through `replay` below."""
    out = []
    for n, line in enumerate(lines, 1):
        try:
            ev = parse_event(line)
        except ValueError as e:
            raise EventFileError(n, str(e))
        if ev is not None:
            out.append((n, ev[0], ev[1]))
    return out


def replay(table, events, log=None):
    """Apply (line, kind, arg) events until the game ends -> events used.
    An event the engine refuses raises EventFileError naming its line.
    log: a list that gets a kiosk's awards (kiosk_awards)."""
    used = 0
    for n, kind, arg in events:
        if table.ended:
            break
        try:
            out = table.apply(kind, arg)
        except ValueError as e:
            raise EventFileError(n, str(e))
        if log is not None:
            kiosk_awards(table, out, log)
        used += 1
    return used


def add_arguments(p):
    p.description = __doc__
    add_profile_arguments(p)
    p.add_argument("--seats", type=options.seats,
                   help="seats at the table, 2..12 as on the bowl (a kiosk's record: 1); required with FILE")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--first", type=options.seats, metavar="SEAT", help="the seat that rolls first")
    g.add_argument("--start-roll", type=options.whole(2, 12), metavar="TOTAL",
                   help="seat 1's two-dice total (2..12): count that many seats, seat 1 first")
    p.add_argument("--prizes", metavar="CLASS=N,...", type=options.prize_counts,
                   help="override prize counts (e.g. a kiosk's stock; 0..%d each)" % options.MAX_PRIZES)
    p.add_argument("--journal", metavar="BBJ", type=options.in_file, action="append",
                   help="replay a journal copied off a bowl instead "
                   "(mpremote cp :/data/gNNNNNNNN.bbj .): it holds the settings and the events; "
                   "several with --awards")
    s = p.add_mutually_exclusive_group()
    s.add_argument("--secret-hex", metavar="HEX",
                   help="with --journal of a kiosk: the bowl's claim secret (领奖密钥), to list each award's code")
    s.add_argument("--secret", metavar="TEXT", type=options.text(), help="the same secret, as text")
    p.add_argument("--awards", action="store_true",
                   help="print the awards as a list to read, not JSON: a kiosk's every award (customer, "
                   "No.game-award, class, code), a table's prizes per seat")
    p.add_argument("file", metavar="FILE", nargs="?", type=options.in_file, help="event file ('-' for stdin)")


def build_table(args):
    """The table the arguments describe, started (a kiosk needs no start)."""
    t = game.Table(profile_from(args), args.seats, counts=args.prizes)
    if t.kiosk:
        if args.first is not None or args.start_roll is not None:
            raise ValueError("a kiosk profile has no first seat: each `customer` line starts a customer")
    elif args.first is not None:
        t.start_seat(args.first)
    elif args.start_roll is not None:
        t.start_total(args.start_roll)
    else:
        raise ValueError("a table needs --first SEAT or --start-roll TOTAL")
    return t


def run(args):
    if args.journal:
        return replay_journal.run(args)
    if args.secret_hex is not None or args.secret is not None:
        raise options.InputError("--secret/--secret-hex go with --journal (an event file holds no bowl id "
                                 "or game number)")
    if args.file is None or args.seats is None:
        raise options.InputError("give --seats N and an event FILE (or --journal BBJ)")
    try:
        table = build_table(args)
    except ValueError as e:
        raise options.InputError(str(e))
    if args.file != "-":
        with open(args.file, "rb") as f:
            if f.read(len(journal.MAGIC)) == journal.MAGIC:
                raise options.InputError("%s is a bowl's journal, not an event file: replay it with "
                                         "--journal %s" % (args.file, args.file))
    log = []
    try:
        used = replay(table, read_events(options.read_lines(args.file, sys.stdin)), log)
    except EventFileError as e:
        raise options.InputError("%s: %s" % (args.file, e))
    if args.awards:
        print("\n".join(award_lines([("", 0, table, log)])))
    else:
        print(json.dumps(result(table, used, log), ensure_ascii=False))
    return 0
