"""replay: play a written record of a game through the game engine and print
the result as one JSON object:

  {"ended": bool, "reason": str, "events_used": int,
   "zhuangyuan": {"seat": int, "dice": [...], "rank": ID} or null,
   "awards": {"SEAT": {CLASS: count}}, "pool": {CLASS: count}, "grabbed": {CLASS: count}}

FILE holds one event per line: six dice (444411, '4 4 4 4 1 1' or 4,4,4,4,1,1)
rolled by the seat whose turn it is, `spill`, `timeup`, or (kiosk profiles)
`customer`; blank lines and # comments are ignored. Seats advance per the
rules; a seat that sits out a turn consumes no line. Events after the end are
not applied. `reason` is "in_play" while the game has not ended. A bad line is
reported with its number on stderr, with no JSON, and exit status 2."""
import json
import sys

from bobing import game, journal, rules
from host_sim import options, replay_journal
from host_sim.options import add_profile_arguments, profile_from

IN_PLAY = "in_play"
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


def replay(table, events):
    """Apply (line, kind, arg) events until the game ends -> events used.
    An event the engine refuses raises EventFileError naming its line."""
    used = 0
    for n, kind, arg in events:
        if table.ended:
            break
        try:
            table.apply(kind, arg)
        except ValueError as e:
            raise EventFileError(n, str(e))
        used += 1
    return used


def result(table, events_used):
    """The JSON-ready result of a table."""
    zy = None
    if table.holder:
        zy = {"seat": table.holder, "dice": list(table.holder_dice),
              "rank": rules.RANK_IDS[table.holder_rank]}
    awards = {}
    for s in range(1, table.seats + 1):
        awards[str(s)] = dict((c, table.awards[s][c]) for c in table.classes)
    return {
        "ended": table.ended,
        "reason": table.reason if table.ended else IN_PLAY,
        "events_used": events_used,
        "zhuangyuan": zy,
        "awards": awards,
        "pool": dict((c, table.pool[c]) for c in table.classes),
        "grabbed": dict((c, table.grabbed[c]) for c in table.classes),
    }


def add_arguments(p):
    p.description = __doc__
    add_profile_arguments(p)
    p.add_argument("--seats", type=options.seats, help="seats at the table (1..12); required with FILE")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--first", type=options.seats, metavar="SEAT", help="the seat that rolls first")
    g.add_argument("--start-roll", type=options.whole(2, 12), metavar="TOTAL",
                   help="seat 1's two-dice total (2..12): count that many seats, seat 1 first")
    p.add_argument("--prizes", metavar="CLASS=N,...", type=options.prize_counts,
                   help="override prize counts (e.g. a kiosk's stock; 0..%d each)" % options.MAX_PRIZES)
    p.add_argument("--journal", metavar="BBJ", type=options.in_file,
                   help="replay a journal copied off a bowl instead "
                   "(mpremote cp :/data/gNNNNNNNN.bbj .): it holds the settings and the events")
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
        return replay_journal.run(args, result)
    if args.file is None or args.seats is None:
        print("error: give --seats N and an event FILE (or --journal BBJ)", file=sys.stderr)
        return 2
    try:
        table = build_table(args)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if args.file != "-":
        with open(args.file, "rb") as f:
            if f.read(len(journal.MAGIC)) == journal.MAGIC:
                raise options.InputError("%s is a bowl's journal, not an event file: replay it with "
                                         "--journal %s" % (args.file, args.file))
    try:
        used = replay(table, read_events(options.read_lines(args.file, sys.stdin)))
    except EventFileError as e:
        print("error: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    print(json.dumps(result(table, used), ensure_ascii=False))
    return 0
