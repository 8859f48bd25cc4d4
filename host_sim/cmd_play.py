"""play: a small terminal bowl. Enter rolls six dice; q quits."""
import random

from bobing import rules
from host_sim.options import add_profile_arguments, profile_from


def add_arguments(p):
    add_profile_arguments(p)


def run(args):
    r = rules.Rules(profile_from(args))
    rng = random.SystemRandom()
    print("博饼 Bo Bing - press Enter to shake the bowl, q then Enter to quit.")
    while True:
        try:
            if input("> ").strip().lower().startswith("q"):
                return 0
        except EOFError:
            return 0
        dice = [rng.randint(1, 6) for _ in range(6)]
        v = r.score(dice)
        code, b = rules.rank_of(v), rules.bonus_of(v)
        extra = " + %s (%s)" % (rules.RANK_ZH[b], rules.RANK_PINYIN[b]) if b else ""
        print("  %s   %s (%s)%s" % (" ".join(map(str, dice)), rules.RANK_ZH[code], rules.RANK_PINYIN[code], extra))
