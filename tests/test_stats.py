# `python -m host_sim stats`: Monte Carlo of whole games over the real
# game.Table, its JSON, summary and PNG.
import json
import os

from bobing import game
from host_sim import cli
from host_sim.analysis import stats


def test_stats_cli_json_summary_and_png(tmp_path, capsys):
    out = str(tmp_path / "st")
    assert cli.main(["stats", "--games", "60", "--seats", "6", "--seed", "5", "--out", out, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["games"] == 60 and r["seats"] == 6 and r["seed"] == 5
    assert sum(r["end_reasons"].values()) == 60
    assert sum(f["observed"] for f in r["rank_frequencies"]) == r["total_rolls"]
    assert abs(sum(f["exact_p"] for f in r["rank_frequencies"]) - 1) < 1e-12
    # every prize is with a seat, grabbed, or left in the pool
    for c in r["classes"]:
        held = sum(seat[c] for seat in r["prizes_per_seat"].values())
        assert abs(held + r["grabbed_per_game"][c] + r["left_in_pool_per_game"][c] - r["initial"][c]) < 1e-9
    # the provisional 状元 is handed over when the prizes run out (六勃红 takes it with the rest)
    assert abs(sum(r["zhuangyuan_to_seat"].values()) - r["end_reasons"].get("prizes_out", 0) / 60) < 1e-9
    assert r["plan"]["mean_rolls"] > 0 and r["rolls_per_game"]["p50"] <= r["rolls_per_game"]["p99"]
    assert r["rank_chi2"]["p"] > 1e-6  # the dice are fair (false failure 1e-6)
    from PIL import Image
    with Image.open(os.path.join(out, "stats.png")) as im:
        assert im.size[0] > 800 and im.size[1] > 600
        assert len(im.convert("RGB").getcolors(1 << 20)) > 20  # plots, not a blank page
    summary = open(os.path.join(out, "summary.txt"), encoding="utf-8").read()
    assert "how games ended" in summary and "状元插金花" in summary
    assert json.load(open(os.path.join(out, "stats.json")))["games"] == 60


def test_same_seed_same_games():
    a = stats.run("xiamen", 4, 20, seed=9)
    b = stats.run("xiamen", 4, 20, seed=9)
    c = stats.run("xiamen", 4, 20, seed=10)
    assert a["rolls"] == b["rolls"] and a["rolls"] != c["rolls"]


def test_one_game_is_the_engines_game():
    # play_game drives a real game.Table to its end and reports who was handed the
    # provisional 状元: the holder when the prizes ran out, nobody after 六勃红 took all.
    # Seed 0 ends with the prizes out, seed 3 with 六勃红: both branches are checked.
    import random
    reasons = set()
    for seed in (0, 3):
        t, n, ranks, _bonuses, zto = stats.play_game("zhangzhou", 5, random.Random(seed))
        assert t.ended and n == len(ranks) and t.events == n + 1  # the start, then the rolls
        assert zto == (t.holder if t.reason == "prizes_out" else 0), (seed, t.reason, zto, t.holder)
        reasons.add(t.reason)
    assert reasons == {"prizes_out", "liubohong"}


def test_kiosk_and_time_limit(capsys):
    assert cli.main(["stats", "--games", "30", "--profile", "capped_classes", "--set", "time_limit=5",
                     "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "customers" in text and "how games ended" in text
    assert cli.main(["stats", "--games", "0"]) == 2
    assert cli.main(["stats", "--count", "bad"]) == 2
    assert game.Table("capped_classes", 1).kiosk
