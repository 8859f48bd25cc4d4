"""plan: how long will the game take? The exact distribution of one game's length
in rolls, rounds and minutes, by dynamic programming over the prize pool (not
by simulation; see host_sim/analysis/plan.py for the model). For an organiser sizing
prize counts (--count CLASS=N) against a time slot.

  python -m host_sim plan --seats 10
  python -m host_sim plan --seats 8 --count duitang=1 --count yixiu=20 --within 30
  python -m host_sim plan --seats 10 --json   # mean_rolls, p50_rolls, p90_rolls, p99_rolls, mean_rounds, ...
"""
import json
import sys
import time

from bobing import game
from host_sim.cli import options
from host_sim.analysis import plan
from host_sim.cli.options import add_profile_arguments, profile_from

MAX_MINUTES = 24 * 60  # a game within a day


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--seats", type=options.table_seats, default=10,
                   help="players at the table, %d..%d as on the bowl (default %%(default)s; a kiosk: one "
                   "customer at a time)" % (options.MIN_SEATS, game.MAX_SEATS))
    p.add_argument("--seconds-per-roll", type=options.seconds_per_roll, default=plan.SECONDS_PER_ROLL,
                   metavar="X", help="seconds one turn takes: shake, look, prize, pass the bowl, "
                   "1..3600 (default %(default)g)")
    p.add_argument("--count", action="append", default=[], metavar="CLASS=N", type=options.prize_count,
                   help="how many prizes of a class, 0..%d (default: the profile's); may be repeated"
                   % options.MAX_PRIZES)
    p.add_argument("--within", action="append", type=options.number(0, MAX_MINUTES, open_lo=True),
                   default=[], metavar="MINUTES",
                   help="also print P(game over within MINUTES), 0 < MINUTES <= %d; may be repeated"
                   % MAX_MINUTES)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    add_profile_arguments(p)


class Progress:
    """A line on stderr that counts up while the planner works (a kiosk's pool
    has millions of states: seconds), rewritten in place on a terminal, a line
    every few seconds elsewhere; wiped when done."""

    def __init__(self, stream, every=0.25):
        self.stream = stream
        self.tty = stream.isatty()
        self.every = every if self.tty else 5.0
        self.t0 = self.last = time.monotonic()
        self.shown = False

    def __call__(self, states, n, left):
        now = time.monotonic()
        if (n or not self.tty) and now - self.last < self.every:  # elsewhere: only a run that takes a while
            return
        self.last = now
        line = ("计算中 planning: %d 种奖池状态 pool states, %d 次 rolls, %.1f%% 未结束 not over yet, %.0f s"
                % (states, n, 100 * left, now - self.t0))
        self.stream.write(("\r\x1b[K" + line) if self.tty else line + "\n")
        self.stream.flush()
        self.shown = True

    def done(self):
        if self.shown and self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def run(args):
    bar = Progress(sys.stderr)
    try:
        prof = profile_from(args)
        counts = dict(args.count)
        minutes = sorted(set(plan.MINUTES) | set(args.within))
        t0 = time.perf_counter()
        r = plan.plan(prof, args.seats, args.seconds_per_roll, counts=counts or None, minutes=minutes,
                      progress=bar)
        dt = time.perf_counter() - t0
    except ValueError as e:
        bar.done()
        raise options.InputError(str(e))
    bar.done()
    r.pop("cdf")
    r["seconds_to_plan"] = dt
    if args.json:
        print(json.dumps(r, ensure_ascii=False))
        return 0
    print(text(r, args.within))
    return 0


def _pad(s, n):
    # to n terminal columns (a Chinese character takes two)
    return s + " " * (n - sum(2 if ord(c) > 0x2e7f else 1 for c in s))


def text(r, within=()):
    unit = "顾客 customers" if r["mode"] == "kiosk" else "轮 rounds"
    who = ("商场 kiosk, %d shakes a customer" % r["rolls_per_round"] if r["mode"] == "kiosk"
           else "%d 人 seats" % r["seats"])
    pool = ", ".join("%s %d" % kv for kv in r["classes"].items())
    if r["provisional"]:
        pool += "; %s %d held to the end (its count does not change the length)" % (
            r["provisional"], r["provisional_count"])
    lines = [
        "规划 Plan for profile %s (%s): 奖品 prizes %s" % (r["profile"], who, pool),
        "每次 One roll takes %g s%s." % (r["seconds_per_roll"],
                                       ", 限时 time limit %d min" % r["time_limit"] if r["time_limit"] else ""),
        "",
        "%s %8s %8s %8s %8s" % (_pad("", 14), "mean", "p50", "p90", "p99"),
        "%s %8.1f %8d %8d %8d" % (_pad("次 rolls", 14), r["mean_rolls"], r["p50_rolls"], r["p90_rolls"],
                                     r["p99_rolls"]),
        "%s %8.1f %8d %8d %8d" % (_pad(unit, 14), r["mean_rounds"], r["p50_rounds"], r["p90_rounds"],
                                     r["p99_rounds"]),
        "%s %8.1f %8.1f %8.1f %8.1f" % (_pad("分钟 minutes", 14), r["mean_minutes"], r["p50_minutes"],
                                            r["p90_minutes"], r["p99_minutes"]),
        "",
    ]
    marks = set("%g" % m for m in within)
    for m, p in r["p_over_within"].items():
        lines.append("%4s 分钟内结束 P(over within %4s min) = %6.2f%%%s" % (m, m, 100 * p,
                                                                     "  <-" if m in marks else ""))
    if r["p_ends_at_once"]:
        lines.append("一次结束 Ends at once (六勃红 take_all / 黑六勃 grab): %.2f%% of games"
                     % (100 * r["p_ends_at_once"]))
    lines.append("")
    lines.append("精确计算 Exact: dynamic programming over %d pool states, %d rolls pushed, %.2f s "
                 "(mass dropped %.1e; nobody spills)."
                 % (r["states"], r["trigger_rolls_computed"], r["seconds_to_plan"], r["mass_dropped"]))
    return "\n".join(lines)
