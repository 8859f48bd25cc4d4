# The health-test cutoffs of bobing.dice, recomputed from NIST SP 800-90B
# §4.4.1-4.4.2 at alpha = 2^-20 (exact binomial arithmetic, CPython only).
from fractions import Fraction
from math import ceil, comb, log2

from bobing import dice

ALPHA = Fraction(1, 2 ** 20)


def rct_cutoff(h):
    return 1 + ceil(-log2(ALPHA) / h)


def critbinom(n, p, q):
    """Smallest k with P(Binomial(n, p) <= k) >= q (Excel's CRITBINOM)."""
    c = Fraction(0)
    for k in range(n + 1):
        c += comb(n, k) * p ** k * (1 - p) ** (n - k)
        if c >= q:
            return k
    return n


def apt_cutoff(p, w=512):
    return 1 + critbinom(w, p, 1 - ALPHA)


def test_six_valued_samples_give_the_issues_figures():
    assert rct_cutoff(log2(6)) == 9
    assert apt_cutoff(Fraction(1, 6)) == 129


def test_byte_samples_at_four_bits_give_the_firmware_cutoffs():
    assert rct_cutoff(4) == dice.RCT_CUTOFF == 6
    assert apt_cutoff(Fraction(1, 16), dice.APT_WINDOW) == dice.APT_CUTOFF == 62


def test_a_working_source_practically_never_trips_them():
    # uniform bytes: P(six equal in a row at a given place) = 256^-5 = 2^-40;
    # P(62 of a 512-byte window equal its first) is below 2^-200
    assert Fraction(1, 256) ** (dice.RCT_CUTOFF - 1) == Fraction(1, 2 ** 40)
    tail = 1 - sum(comb(511, k) * Fraction(1, 256) ** k * Fraction(255, 256) ** (511 - k)
                   for k in range(dice.APT_CUTOFF - 1))
    assert tail < Fraction(1, 2 ** 200)
