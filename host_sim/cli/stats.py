"""stats: Monte Carlo of whole games over the real game engine (game.Table):
rank frequencies against the exact odds, rolls and rounds per game, prizes
per seat, how each game ended. A progress bar goes to stderr; --out DIR
writes stats.png (plots), summary.txt and stats.json.

  python -m host_sim stats --games 2000 --seats 10 --out build/stats
  python -m host_sim stats --games 500 --profile zhangzhou --json
"""
import json
import time
import unicodedata

from bobing import game
from host_sim.cli import options
from host_sim.analysis import plan
from host_sim.analysis import stats
from host_sim.cli.options import add_profile_arguments, profile_from

MAX_GAMES = 10 ** 6  # hours at ~100 games a second; more adds nothing a million cannot show


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--games", type=options.whole(1, MAX_GAMES), default=1000,
                   help="games to play, 1..%d (default %%(default)s)" % MAX_GAMES)
    p.add_argument("--seats", type=options.table_seats, default=10,
                   help="players at the table, %d..%d as on the bowl (default %%(default)s)"
                   % (options.MIN_SEATS, game.MAX_SEATS))
    p.add_argument("--seed", type=options.whole(0, 2 ** 64 - 1), default=None,
                   help="seed of the dice, 0..2^64-1 (default: a fresh one, printed)")
    p.add_argument("--count", action="append", default=[], metavar="CLASS=N", type=options.prize_count,
                   help="how many prizes of a class, 0..%d (default: the profile's); may be repeated"
                   % options.MAX_PRIZES)
    p.add_argument("--seconds-per-roll", type=options.seconds_per_roll, default=plan.SECONDS_PER_ROLL,
                   metavar="X", help="seconds a roll takes, for time_limit, 1..3600 (default %(default)g)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the summary")
    p.add_argument("--out", metavar="DIR", type=options.out_dir,
                   help="write stats.png, summary.txt and stats.json here (made if missing)")
    add_profile_arguments(p)


def run(args):
    try:
        prof = profile_from(args)
        counts = dict(args.count) or None
        t0 = time.perf_counter()
        r = stats.run(prof, args.seats, args.games, seed=args.seed, counts=counts,
                      seconds_per_roll=args.seconds_per_roll, progress=True)
        dt = time.perf_counter() - t0
    except ValueError as e:
        raise options.InputError(str(e))
    r["seconds"] = dt
    r["games_per_second"] = args.games / dt if dt > 0 else None
    r["rolls_per_game"] = stats.describe(r["rolls"])
    r["rounds_per_game"] = stats.describe(r["rounds"])
    try:  # the exact expectation beside the sample, when the planner can do it
        p = plan.plan(prof, args.seats, args.seconds_per_roll, counts=counts)
        r["plan"] = {k: p[k] for k in ("mean_rolls", "sd_rolls", "p50_rolls", "p90_rolls", "p99_rolls",
                                       "mean_rounds")}
        cdf = p["cdf"]
    except plan.PlanError as e:
        r["plan"] = {"error": str(e)}
        cdf = None
    summary = text(r)
    if args.out:
        options.write_files(args.out, {
            "stats.png": lambda path: stats_plot(r, cdf, path),
            "summary.txt": (summary + "\n").encode("utf-8"),
            "stats.json": json.dumps(jsonable(r), ensure_ascii=False, indent=1).encode("utf-8"),
        })
    if args.json:
        print(json.dumps(jsonable(r), ensure_ascii=False))
    else:
        print(summary)
        if args.out:
            print("\nwrote %s/stats.png, summary.txt, stats.json" % args.out)
    return 0


def pad(s, width):
    """Left-justify for a terminal, where a Chinese character takes two columns."""
    w = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)
    return s + " " * max(0, width - w)


def jsonable(r):
    out = dict(r)
    out.pop("rolls")
    out.pop("rounds")
    return out


def text(r):
    unit = "customers" if r["mode"] == "kiosk" else "rounds"
    lines = ["%d games, profile %s, %s, seed %d: %.1f games/s"
             % (r["games"], r["profile"], "kiosk" if r["mode"] == "kiosk" else "%d seats" % r["seats"],
                r["seed"], r["games_per_second"] or 0)]
    lines.append("")
    lines.append("%-14s %8s %7s %6s %6s %6s %6s %6s" % ("per game", "mean", "sd", "min", "p50", "p90", "p99", "max"))
    for name, d in (("rolls", r["rolls_per_game"]), (unit, r["rounds_per_game"])):
        lines.append("%-14s %8.2f %7.2f %6d %6d %6d %6d %6d"
                     % (name, d["mean"], d["sd"], d["min"], d["p50"], d["p90"], d["p99"], d["max"]))
    pl = r.get("plan") or {}
    if "mean_rolls" in pl:
        se = pl["sd_rolls"] / r["games"] ** 0.5
        lines.append("%-14s %8.2f %7.2f %6s %6d %6d %6d   (exact, host_sim plan; sample mean off by %.1f se)"
                     % ("planned rolls", pl["mean_rolls"], pl["sd_rolls"], "", pl["p50_rolls"], pl["p90_rolls"],
                        pl["p99_rolls"], (r["rolls_per_game"]["mean"] - pl["mean_rolls"]) / se if se else 0))
    elif pl:
        lines.append("(planner: %s)" % pl["error"])
    lines.append("")
    lines.append("how games ended: " + ", ".join("%s %d (%.1f%%)" % (k, v, 100.0 * v / r["games"])
                                                 for k, v in sorted(r["end_reasons"].items(), key=lambda kv: -kv[1])))
    lines.append("")
    lines.append("rank frequencies over %d rolls (observed vs exact odds):" % r["total_rolls"])
    lines.append("  %-10s %-10s %10s %12s %9s" % ("rank", "", "observed", "expected", "obs/exp"))
    for f in r["rank_frequencies"]:
        ratio = f["observed"] / f["expected"] if f["expected"] else float("nan")
        lines.append("  %-10s %s %10d %12.1f %9.3f" % (f["rank"], pad(f["zh"], 10), f["observed"], f["expected"],
                                                      ratio))
    c = r["rank_chi2"]
    if c:
        lines.append("  chi-square %.2f, df %d, p = %.3g (rare ranks pooled)" % (c["chi2"], c["df"], c["p"]))
    lines.append("")
    lines.append("prizes per seat per game (" + ", ".join(r["classes"]) + "):")
    for s, a in r["prizes_per_seat"].items():
        lines.append("  seat %2s: %s   (状元 handed over in %.1f%% of games)"
                     % (s, " ".join("%6.3f" % a[c] for c in r["classes"]), 100 * r["zhuangyuan_to_seat"][s]))
    if any(r["grabbed_per_game"].values()):
        lines.append("  grabbed (黑六勃): " + " ".join("%6.3f" % r["grabbed_per_game"][c] for c in r["classes"]))
    lines.append("  left in pool:     " + " ".join("%6.3f" % r["left_in_pool_per_game"][c] for c in r["classes"]))
    return "\n".join(lines)


def stats_plot(r, cdf, path):
    """Four panels into one PNG (matplotlib, Agg: no display needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, ax = plt.subplots(2, 2, figsize=(13, 9))
    fig.suptitle("Bo Bing: %d games, profile %s, %s (seed %d)"
                 % (r["games"], r["profile"], "kiosk" if r["mode"] == "kiosk" else "%d seats" % r["seats"],
                    r["seed"]))

    # ranks: observed vs exact, log scale (状元 sub-ranks are rare)
    a = ax[0][0]
    fr = [f for f in r["rank_frequencies"] if f["expected"] > 0]
    x = np.arange(len(fr))
    a.bar(x - 0.2, [f["observed"] for f in fr], 0.4, label="observed")
    a.bar(x + 0.2, [f["expected"] for f in fr], 0.4, label="exact odds")
    a.set_yscale("log")
    a.set_xticks(x)
    a.set_xticklabels([f["rank"] for f in fr], rotation=45, ha="right")
    a.set_title("rank frequencies over %d rolls" % r["total_rolls"])
    a.legend()

    # rolls per game: histogram, the planner's exact distribution on top
    a = ax[0][1]
    rolls = np.array(r["rolls"])
    hi = int(rolls.max()) + 1
    width = max(1, r["seats"] if r["mode"] == "table" else 1)
    edges = np.arange(0, hi + width, width)  # bin k holds rolls edges[k]..edges[k+1]-1
    bins = edges - 0.5
    a.hist(rolls, bins=bins, density=True, alpha=0.6, label="simulated")
    if cdf is not None:
        cum = np.concatenate(([0.0], cdf))  # cum[j] = P(rolls < j)
        dens = np.diff(cum[np.clip(edges, 0, len(cum) - 1)]) / width
        a.step(bins[:-1], dens, where="post", color="k", lw=1.2, label="exact (plan)")
    a.set_xlabel("rolls per game")
    a.set_title("game length: mean %.1f rolls, %.1f %s" % (
        rolls.mean(), np.mean(r["rounds"]), "customers" if r["mode"] == "kiosk" else "rounds"))
    a.legend()

    # prizes per seat, stacked by class
    a = ax[1][0]
    seats = list(r["prizes_per_seat"])
    bottom = np.zeros(len(seats))
    for c in r["classes"]:
        v = np.array([r["prizes_per_seat"][s][c] for s in seats])
        a.bar(seats, v, bottom=bottom, label=c)
        bottom += v
    a.set_xlabel("seat")
    a.set_ylabel("prizes per game")
    a.set_title("prizes per seat")
    a.legend(fontsize=8, ncol=2)

    # how games ended
    a = ax[1][1]
    reasons = sorted(r["end_reasons"].items(), key=lambda kv: -kv[1])
    a.bar([k for k, _ in reasons], [100.0 * v / r["games"] for _, v in reasons])
    for i, (_, v) in enumerate(reasons):
        a.text(i, 100.0 * v / r["games"], "%d" % v, ha="center", va="bottom")
    a.set_ylabel("% of games")
    a.set_title("how games ended")

    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
