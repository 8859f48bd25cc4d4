"""dice-stats: roll the bowl's dice path (bobing.dice.Dice with host entropy,
os.urandom) N times and test it: chi-square of the six faces (uniform) and of
the rank frequencies against the exact odds (all 6^6 rolls ranked by
rules.Rules under the profile; RULES.md §8 for the default). Cells expecting
fewer than 5 are pooled. Prints the verdict in one line (公平 fair: p >= alpha
for both tests; a fair source fails either one with probability about alpha),
then a line a test; --json prints every figure as one JSON object instead."""
import json
import time

from bobing import dice, rules
import dice_stats
from host_sim.cli import options
from host_sim.cli.dice import source_from
from host_sim.cli.options import add_profile_arguments, profile_from

MAX_ROLLS = 10 ** 7  # minutes; the output comes at the end, no progress


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--rolls", type=options.whole(1, MAX_ROLLS), default=166667, metavar="N",
                   help="rolls of six dice, 1..%d (default %%(default)s: 10^6 faces)" % MAX_ROLLS)
    p.add_argument("--seed", metavar="TEXT", type=options.text(),
                   help="deterministic source instead of os.urandom (same seed, same result)")
    p.add_argument("--alpha", type=options.number(0, 1, open_lo=True, open_hi=True), default=dice_stats.ALPHA,
                   help="significance level, 0 < alpha < 1 (default %(default)s)")
    p.add_argument("--json", action="store_true", help="every figure as one JSON object instead of the verdict")
    add_profile_arguments(p)


def verdict(out):
    """The one-line answer, then a line per test: Chinese, English beside."""
    a = out["alpha"]
    word = "公平 FAIR" if out["pass"] else "不公平? NOT FAIR?"
    why = ("两项检验都通过 both tests pass" if out["pass"] else
           "有检验未通过 a test failed (a fair source fails with probability about alpha: run again "
           "with more --rolls)")
    lines = ["%s: %s (%d 次 rolls, %s, alpha %g)" % (word, why, out["rolls"], out["source"], a)]
    for k, zh, en in (("faces", "点数", "faces"), ("ranks", "名次", "ranks")):
        t = out[k]
        lines.append("  %s %-5s chi2 %.2f, df %d, p %.4f: %s" % (zh, en, t["chi2"], t["df"], t["p"],
                                                             "通过 pass" if t["pass"] else "未通过 FAIL"))
    return "\n".join(lines)


def run(args):
    try:
        r = rules.Rules(profile_from(args))
    except ValueError as e:
        raise options.InputError(str(e))
    src, name = source_from(args)
    t0 = time.monotonic()
    try:
        d = dice.Dice(src)
        faces, ranks = dice_stats.sample(d, r, args.rolls)
    except dice.EntropyError as e:
        raise options.SourceFailed(str(e))
    out = dice_stats.assess(faces, ranks, dice_stats.exact_rank_counts(r), rules.RANK_IDS, args.alpha)
    out["source"] = name
    out["profile"] = r.profile.name
    out["seconds"] = round(time.monotonic() - t0, 3)
    print(json.dumps(out, ensure_ascii=False, indent=1) if args.json else verdict(out))
    return 0
