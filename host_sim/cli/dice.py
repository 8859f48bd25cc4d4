"""dice: print N faces from the bowl's own dice path (bobing.dice.Dice, the
same rejection sampling, mixing and health tests) fed with host entropy
(os.urandom): one digit 1-6 per face, newline-terminated lines of at most 1000
digits, for anyone to audit with their own statistics. --seed replaces
os.urandom by a SHA-256 counter stream so that a run can be repeated exactly.
If the source fails a health test the output stops and the exit status is 1."""
import os
import sys

from bobing import dice
from host_sim.cli import options
from dice_stats import SeededSource

LINE = 1000
MAX_FACES = 10 ** 9  # about an hour of output


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--count", type=options.whole(0, MAX_FACES), required=True, metavar="N",
                   help="how many faces to print, 0..%d" % MAX_FACES)
    p.add_argument("--seed", metavar="TEXT", type=options.text(),
                   help="deterministic source instead of os.urandom (same seed, same faces)")


def source_from(args):
    """-> (source callable, its description) for --seed / os.urandom."""
    if args.seed is not None:
        return SeededSource(args.seed), "seed:%s" % args.seed
    return os.urandom, "os.urandom"


def run(args):
    src, _ = source_from(args)
    out = sys.stdout
    try:
        d = dice.Dice(src)
        roll = bytearray(6)
        line = bytearray()
        left = args.count
        while left > 0:
            d.roll(roll)
            take = min(6, left)  # the faces of a roll are independent: a prefix is fair
            for f in roll[:take]:
                line.append(48 + f)
                if len(line) == LINE:
                    out.write(line.decode() + "\n")
                    line = bytearray()
            left -= take
        if line:
            out.write(line.decode() + "\n")
    except dice.EntropyError as e:
        out.flush()  # the faces printed before the failure stand
        raise options.SourceFailed(str(e))
    out.flush()
    return 0
