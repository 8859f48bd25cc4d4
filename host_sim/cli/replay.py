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


def kiosk_awards(table, out, log):
    """A kiosk's awards of one Outcome, each with its customer, award number
    (as the claim screen's No.game-award) and class, appended to log."""
    if not table.kiosk or not out.won:
        return
    first = table.award_no - len(out.won) + 1
    for k in range(len(out.won)):
        c = out.won[k][0]
        a = {"customer": out.customer, "award": first + k, "class": c, "class_zh": table.class_zh[c],
             "rank": rules.RANK_IDS[out.rank], "dice": list(out.dice) if out.dice else None}
        if out.claims:
            a["code"] = out.claims[k]
        log.append(a)


def result(table, events_used, log=None):
    """The JSON-ready result of a table (a kiosk's: with its awards in log)."""
    head = {
        "ended": table.ended,
        "reason": table.reason if table.ended else IN_PLAY,
        "events_used": events_used,
    }
    if table.kiosk:  # customers, not seats; no 状元 held to the end
        head["customers"] = table.customer
        head["awards"] = log or []
        head["won"] = dict((c, table.awards[1][c]) for c in table.classes)
    else:
        zy = None
        if table.holder:
            zy = {"seat": table.holder, "dice": list(table.holder_dice),
                  "rank": rules.RANK_IDS[table.holder_rank]}
        head["zhuangyuan"] = zy
        head["awards"] = dict((str(s), dict((c, table.awards[s][c]) for c in table.classes))
                              for s in range(1, table.seats + 1))
    head["pool"] = dict((c, table.pool[c]) for c in table.classes)
    head["grabbed"] = dict((c, table.grabbed[c]) for c in table.classes)
    return head


def award_lines(games):
    """The awards of replayed games as lines to read: games is [(bowl id, game
    number, table, kiosk award log)]. A kiosk: one line an award (the end of
    the day's list for the counter); a table: each seat's prizes."""
    rows = []
    total = {}
    names = {}
    order = []
    for bowl, game_no, table, log in games:
        names.update(table.class_zh)
        order += [c for c in table.classes if c not in order]
        if table.kiosk:
            for a in log:
                ref = "%d-%d" % (game_no, a["award"]) if game_no else str(a["award"])
                rows.append((bowl or "-", ref, str(a["customer"]), "%s %s" % (a["class_zh"], a["class"]),
                             a.get("code", "-")))
                total[a["class"]] = total.get(a["class"], 0) + 1
        else:
            for seat in range(1, table.seats + 1):
                won = ", ".join("%s %s ×%d" % (table.class_zh[c], c, table.awards[seat][c])
                                for c in table.classes if table.awards[seat][c])
                rows.append((bowl or "-", str(game_no or "-"), "%d号 seat %d" % (seat, seat), won or "-", ""))
                for c in table.classes:
                    total[c] = total.get(c, 0) + table.awards[seat][c]
    kiosk = all(g[2].kiosk for g in games)
    head = ("碗号 bowl", "编号 No." if kiosk else "局 game", "顾客 customer" if kiosk else "座位 seat",
            "奖项 class" if kiosk else "奖品 prizes", "领奖码 code" if kiosk else "")
    w = [max(_width(r[i]) for r in rows + [head]) for i in range(4)]
    out = []
    for r in [head] + rows:
        out.append("  ".join(_pad(r[i], w[i]) for i in range(4)) + ("  " + r[4] if r[4] else ""))
    n = sum(total.values())
    out.append("共 %d 个奖 %d award%s%s" % (n, n, "" if n == 1 else "s", (": " if n else "") + ", ".join(
        "%s %s %d" % (names[c], c, total[c]) for c in order if total.get(c))))
    return out


def _width(s):
    # terminal columns: a Chinese character takes two
    return sum(2 if ord(ch) > 0x2e7f else 1 for ch in s)


def _pad(s, w):
    return s + " " * (w - _width(s))


def add_arguments(p):
    p.description = __doc__
    add_profile_arguments(p)
    p.add_argument("--seats", type=options.seats, help="seats at the table, 2..12 as on the bowl (a kiosk's record: 1); required with FILE")
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
        return replay_journal.run(args, result)
    if args.secret_hex is not None or args.secret is not None:
        print("error: --secret/--secret-hex go with --journal (an event file holds no bowl id or game number)",
              file=sys.stderr)
        return 2
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
    log = []
    try:
        used = replay(table, read_events(options.read_lines(args.file, sys.stdin)), log)
    except EventFileError as e:
        print("error: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    if args.awards:
        print("\n".join(award_lines([("", 0, table, log)])))
    else:
        print(json.dumps(result(table, used, log), ensure_ascii=False))
    return 0
