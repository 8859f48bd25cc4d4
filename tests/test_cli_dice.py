# python -m host_sim dice / dice-stats: the audit commands over the dice path.
import json
import os
import subprocess
import sys

from bobing import dice
import dice_stats
from host_sim.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_dice_prints_lines_of_at_most_1000_digits(capsys):
    rc, out, err = run(capsys, "dice", "--count", "2503", "--seed", "audit")
    assert rc == 0 and err == ""
    assert out.endswith("\n")
    lines = out.split("\n")[:-1]
    assert [len(x) for x in lines] == [1000, 1000, 503]
    assert set("".join(lines)) == set("123456")


def test_dice_output_is_the_dice_path(capsys):
    rc, out, _ = run(capsys, "dice", "--count", "13", "--seed", "same")
    d = dice.Dice(dice_stats.SeededSource("same"))
    buf = bytearray(6)
    expect = ""
    for _ in range(3):
        expect += "".join(str(f) for f in d.roll(buf))
    assert out == expect[:13] + "\n"
    rc, out2, _ = run(capsys, "dice", "--count", "13", "--seed", "same")
    assert out2 == out


def test_dice_with_host_entropy_by_default():
    # a real process, os.urandom: two runs differ (2^-1000-ish to coincide)
    outs = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-m", "host_sim", "dice", "--count", "400"],
                           capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 0, p.stderr
        assert len(p.stdout) == 401
        outs.append(p.stdout)
    assert outs[0] != outs[1]


def test_dice_zero_and_negative(capsys):
    rc, out, _ = run(capsys, "dice", "--count", "0")
    assert rc == 0 and out == ""
    rc, out, err = run(capsys, "dice", "--count", "-1")
    assert rc == 2 and "count" in err


def test_dice_refuses_a_failing_source(capsys, monkeypatch):
    monkeypatch.setattr(os, "urandom", lambda n: bytes(n))
    rc, out, err = run(capsys, "dice", "--count", "10")
    assert rc == 1 and out == ""
    assert "repetition count test" in err and "will not roll" in err


def test_fairness_prints_both_tests_as_json(capsys):
    rc, out, err = run(capsys, "dice-stats", "--rolls", "3000", "--seed", "j", "--json")
    assert rc == 0, err
    r = json.loads(out)
    assert r["rolls"] == 3000 and r["source"] == "seed:j" and r["profile"] == "xiamen"
    assert sum(r["faces"]["observed"].values()) == 18000
    assert sum(r["ranks"]["observed"].values()) == 3000
    assert r["ranks"]["exact_of_46656"]["chajinhua"] == 15
    assert r["ranks"]["exact_of_46656"]["none"] == 14300
    for k in ("faces", "ranks"):
        assert 0 <= r[k]["p"] <= 1 and r[k]["df"] >= 1
        assert r[k]["pass"] == (r[k]["p"] >= r["alpha"])
    assert r["pass"] == (r["faces"]["pass"] and r["ranks"]["pass"])


def test_fairness_uses_the_profiles_odds(capsys):
    rc, out, _ = run(capsys, "dice-stats", "--rolls", "100", "--seed", "t", "--profile", "tongan", "--json")
    r = json.loads(out)
    # 同安: 123456 is a 一秀 and two triples a 对堂: 15 pairs of faces x 20 orders,
    # less the 5 pairs with 444 (三红) = 200
    assert r["ranks"]["exact_of_46656"]["duitang"] == 200
    rc, out, err = run(capsys, "dice-stats", "--rolls", "100", "--set", "nope=1")
    assert rc == 2 and "unknown option" in err
