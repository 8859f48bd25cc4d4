# micropython: yes
# The dice path is fair: chi-square over 10^6 faces (166,667 rolls through
# bobing.dice.Dice) and over the rank frequencies of those rolls against the
# exact odds, both passing at alpha = 0.001 (host_sim/portable/dice_stats.py ALPHA). The
# source is a fixed SHA-256 stream so the result is reproducible (a fair
# source would fail each test with probability 0.001 if it were os.urandom);
# the same test over bytes taken `% 6` without rejection fails, so the test
# has the power to see a 43:42 bias. Runs on CPython and on the unix port.

from bobing import dice, rules

from hostmods import dice_stats

ROLLS = 166667  # 1,000,002 faces: ~5 s on either interpreter
# RULES.md §8: of 46,656 rolls under the default profile
SECTION_8 = {"none": 14300, "yixiu": 17400, "erju": 9300, "sijin": 1875, "sanhong": 2500,
             "duitang": 720, "sihong": 360, "wuzi": 150, "wuhong": 30, "heiliubo": 4,
             "biandijin": 1, "liubohong": 1, "chajinhua": 15}


def test_exact_odds_match_rules_section_8():
    counts = dice_stats.exact_rank_counts(rules.Rules())
    assert sum(counts) == 46656
    for i in range(13):
        assert counts[i] == SECTION_8[rules.RANK_IDS[i]], rules.RANK_IDS[i]


def test_chi2_sf_matches_table_values():
    # upper 0.1% points of chi-square (any statistics table)
    for x, df in ((10.828, 1), (20.515, 5), (31.264, 11), (32.909, 12)):
        p = dice_stats.chi2_sf(x, df)
        assert abs(p - 0.001) < 2e-6, (x, df, p)
    assert abs(dice_stats.chi2_sf(2.0, 2) - 0.36787944117144233) < 1e-12  # exp(-1)
    assert abs(dice_stats.chi2_sf(0.0, 5) - 1.0) < 1e-15
    assert dice_stats.chi2_sf(200.0, 5) < 1e-30


def test_chisquare_pools_cells_expecting_fewer_than_five():
    r = dice_stats.chisquare([3, 1, 96], [0.02, 0.01, 0.97], ["a", "b", "c"])
    assert [c[0] for c in r["cells"]] == ["b+a", "c"]
    assert r["df"] == 1


def test_a_million_faces_and_their_ranks_pass_at_alpha():
    r = rules.Rules()
    d = dice.Dice(dice_stats.SeededSource("fairness-1"))
    faces, ranks = dice_stats.sample(d, r, ROLLS)
    assert sum(faces) == 6 * ROLLS >= 1000000
    res = dice_stats.assess(faces, ranks, dice_stats.exact_rank_counts(r), rules.RANK_IDS)
    print("faces chi2 %.2f df %d p %.4f; ranks chi2 %.2f df %d p %.4f"
          % (res["faces"]["chi2"], res["faces"]["df"], res["faces"]["p"],
             res["ranks"]["chi2"], res["ranks"]["df"], res["ranks"]["p"]))
    assert res["faces"]["df"] == 5
    assert res["ranks"]["df"] >= 10  # only the rarest 状元 cells pooled
    assert res["faces"]["pass"] and res["ranks"]["pass"], res


def test_the_same_test_catches_a_bare_mod_6():
    # the bias rejection sampling avoids: faces 1-4 get 43 byte values, 5-6 get 42
    src = dice_stats.SeededSource("biased")
    faces = [0] * 6
    for _ in range(1000000 // 32):
        for b in src(32):
            faces[b % 6] += 1
    res = dice_stats.chisquare(faces, [1.0 / 6] * 6, ["1", "2", "3", "4", "5", "6"])
    assert res["p"] < dice_stats.ALPHA / 1000, res
