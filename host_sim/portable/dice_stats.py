# Is the dice path fair? Chi-square tests of faces and of rank frequencies
# against the exact odds (all 6^6 rolls ranked by rules.Rules), with the
# chi-square survival function computed here (no scipy needed).
#
# Portable: CPython (python -m host_sim dice-stats, the tests) and the
# MicroPython unix port (tests/test_fairness.py runs there too, with
# host_sim/portable on sys.path, as on CPython).
import hashlib
import math

ALPHA = 0.001  # the stated significance of the fairness tests
MIN_EXPECTED = 5  # rarer cells are pooled (the chi-square approximation needs ~5)


class SeededSource:
    """A deterministic stand-in for os.urandom: SHA-256(seed | counter) blocks.
    For reproducible audits and tests only; the bowl hands dice.Dice os.urandom."""

    def __init__(self, seed):
        self._seed = seed.encode() if isinstance(seed, str) else bytes(seed)
        self._n = 0
        self._left = b""

    def _block(self):
        c = self._n
        self._n += 1
        h = hashlib.sha256(self._seed)
        h.update(bytes([(c >> 24) & 255, (c >> 16) & 255, (c >> 8) & 255, c & 255]))
        return h.digest()

    def __call__(self, n):
        if n == 32 and not self._left:
            return self._block()  # a roll's worth: the common case, kept fast
        out = bytearray()
        while len(out) < n:
            if not self._left:
                self._left = self._block()
            k = min(n - len(out), len(self._left))
            out.extend(self._left[:k])
            self._left = self._left[k:]
        return bytes(out)


def chi2_sf(x, df):
    """P(X >= x) for X ~ chi-square(df): the regularized upper incomplete gamma Q(df/2, x/2)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive, got %r" % (df,))
    a = df / 2.0
    x = x / 2.0
    if x <= 0:
        return 1.0
    lead = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:  # series for P(a, x)
        ap = a
        d = s = 1.0 / a
        for _ in range(10000):
            ap += 1
            d *= x / ap
            s += d
            if abs(d) < abs(s) * 1e-16:
                break
        return max(0.0, 1.0 - s * lead)
    # continued fraction for Q(a, x) (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return lead * h


def chisquare(observed, probs, labels, min_expected=MIN_EXPECTED):
    """Chi-square goodness of fit; cells expecting fewer than min_expected are
    pooled (smallest first). -> dict chi2, df, p, cells [(label, observed, expected)]."""
    n = sum(observed)
    cells = [[labels[i], observed[i], n * probs[i]] for i in range(len(observed)) if probs[i] > 0]
    for i in range(len(observed)):
        if probs[i] == 0 and observed[i]:
            raise ValueError("%s: observed %d times but its probability is 0" % (labels[i], observed[i]))
    while len(cells) > 2:
        cells.sort(key=lambda c: c[2])
        if cells[0][2] >= min_expected:
            break
        a = cells.pop(0)
        b = cells[0]
        cells[0] = [a[0] + "+" + b[0], a[1] + b[1], a[2] + b[2]]
    stat = 0.0
    for _label, o, e in cells:
        stat += (o - e) * (o - e) / e
    df = len(cells) - 1
    return {"chi2": stat, "df": df, "p": chi2_sf(stat, df),
            "cells": [(c[0], c[1], c[2]) for c in cells]}


def exact_rank_counts(rules):
    """How many of the 46,656 equally likely rolls get each rank code (RULES.md §8)."""
    counts = [0] * 13
    roll = bytearray(6)
    for i in range(46656):
        k = i
        for j in range(6):
            roll[j] = k % 6 + 1
            k //= 6
        counts[rules.evaluate(roll) & 15] += 1
    return counts


def sample(dice, rules, rolls):
    """Roll `rolls` times through dice.Dice -> (face counts [6], rank code counts [13])."""
    out = bytearray(6)
    faces = [0] * 7
    ranks = [0] * 13
    for _ in range(rolls):
        dice.roll(out)
        for f in out:
            faces[f] += 1
        ranks[rules.evaluate(out) & 15] += 1
    return faces[1:], ranks


def assess(faces, ranks, exact, rank_ids, alpha=ALPHA):
    """Both chi-square tests -> a JSON-ready dict (pass = p >= alpha for each)."""
    f = chisquare(faces, [1.0 / 6] * 6, [str(i) for i in range(1, 7)])
    total = sum(exact)
    r = chisquare(ranks, [e / total for e in exact], list(rank_ids))
    rolls = sum(ranks)
    return {
        "rolls": rolls,
        "alpha": alpha,
        "faces": {"observed": dict(zip([str(i) for i in range(1, 7)], faces)),
                  "expected_each": sum(faces) / 6.0,
                  "chi2": f["chi2"], "df": f["df"], "p": f["p"], "pass": f["p"] >= alpha},
        "ranks": {"observed": dict(zip(rank_ids, ranks)),
                  "exact_of_46656": dict(zip(rank_ids, exact)),
                  "expected": dict(zip(rank_ids, [rolls * e / total for e in exact])),
                  "cells": [c[0] for c in r["cells"]],
                  "chi2": r["chi2"], "df": r["df"], "p": r["p"], "pass": r["p"] >= alpha},
        "pass": f["p"] >= alpha and r["p"] >= alpha,
    }
