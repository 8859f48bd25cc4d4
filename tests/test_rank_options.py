"""The ranking options as players meet them: profiles.RANK_OPTIONS is exactly
the set of options that change a roll's rank, bonus or order, and `rank --help`
explains every value of each in Chinese and English."""
import subprocess
import sys

from bobing import profiles, rules
from conftest import ROOT
from host_sim.cli import rank as cmd_rank

# a spread of rolls that every ranking option changes something in (checked below)
SAMPLE = [[4, 4, 4, 4, 5, 5], [4, 4, 4, 4, 6, 3], [6, 6, 6, 6, 6, 5], [2, 2, 2, 2, 2, 6],
          [5, 5, 5, 5, 5, 4], [2, 2, 2, 2, 2, 2], [6, 6, 6, 6, 6, 6], [1, 1, 1, 1, 1, 1], [4, 4, 4, 4, 1, 1],
          [4, 4, 4, 4, 4, 4], [1, 2, 3, 4, 5, 6], [3, 3, 4, 4, 5, 5], [2, 2, 2, 5, 5, 5], [4, 4, 4, 4, 4, 6],
          [4, 4, 4, 4, 4, 1], [4, 4, 4, 4, 1, 2], [1, 1, 1, 1, 1, 6]]


def values(name):
    allowed = profiles.options()[name][1]
    if allowed[0] == "int":
        return [allowed[1], allowed[2]]
    return list(allowed[1] if allowed[0] == "+" else allowed)


def results(prof):
    r = rules.Rules(prof)
    out = [r.evaluate(d) for d in SAMPLE]
    # the order between rolls, not the key's numbers, is what a player sees
    return out, [[(a >> 8 > b >> 8) - (a >> 8 < b >> 8) for b in out] for a in out]


def test_rank_options_are_exactly_those_that_rank():
    base_v, base_cmp = results(profiles.Profile())
    for name in profiles.options():
        for v in values(name):
            if v == profiles.options()[name][0]:
                continue
            got_v, got_cmp = results(profiles.Profile("xiamen", {name: v}))
            changed = [x & 0xFF for x in got_v] != [x & 0xFF for x in base_v] or got_cmp != base_cmp
            assert changed == (name in profiles.RANK_OPTIONS), (name, v)


def test_every_ranking_value_is_explained():
    ex = cmd_rank.explain_lines()
    want = set()
    for name in profiles.RANK_OPTIONS:
        for v in values(name):
            want.add(name + "=" + v)
    assert set(ex) == want
    for key, (zh, en) in ex.items():
        assert zh.strip() and en.strip() and zh != en, key
        assert any(ord(ch) > 0x2E80 for ch in zh), key  # the Chinese line is Chinese
        assert all(ord(ch) < 0x2E80 for ch in en), key  # and the English one English


def test_rank_help_lists_them():
    p = subprocess.run([sys.executable, "-m", "host_sim", "rank", "--help"], capture_output=True, text=True,
                       cwd=ROOT)
    assert p.returncode == 0, p.stderr
    for key, (zh, en) in cmd_rank.explain_lines().items():
        assert key in p.stdout and zh in p.stdout and en in p.stdout, key
    # the new value is listed, and the default is still the first
    assert "sijin_only" in p.stdout and "(default on)" in p.stdout
