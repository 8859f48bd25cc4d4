"""Golden games: tests/data/games/*.txt are event files for `python -m host_sim
replay`, each with its arguments (`# args:`), the expected JSON (`# expect:`
lines, awards written sparse: an absent class is 0) and the RULES.md clause or
seed sentence it checks (`# checks:`). Together they must cover every value of
every game option and of every ranking option, and a game that sets a ranking
option must come out differently without it."""
import argparse
import contextlib
import glob
import io
import json
import os
import shlex
import subprocess
import sys

import pytest

from bobing import profiles
from conftest import ROOT
from host_sim.cli import replay as cmd_replay
from host_sim.cli import main as host_main

GAMES = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "games", "*.txt")))
GAME_OPTIONS = ("when_exhausted", "chase_tiers", "liuhong_effect", "heiliubo_effect", "direction",
                "spill_penalty", "time_limit", "prizes", "mode", "kiosk_shakes")
COVERED = GAME_OPTIONS + profiles.RANK_OPTIONS


def header(path):
    args, expect, checks = None, [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# args:"):
                args = shlex.split(line[len("# args:"):])
            elif line.startswith("# expect:"):
                expect.append(line[len("# expect:"):])
            elif line.startswith("# checks:"):
                checks.append(line)
    return args, json.loads(" ".join(expect)), checks


def dense(expect, got):
    """The sparse expectation in the result's full shape (absent counts are 0)."""
    classes = list(got["pool"])
    out = dict(expect)
    for key in ("pool", "grabbed", "won"):
        if key in expect:
            assert set(expect[key]) <= set(classes), (key, expect[key])
            out[key] = dict((c, expect[key].get(c, 0)) for c in classes)
    if isinstance(expect["awards"], list):  # a kiosk's: every award in order, written out whole
        return out
    assert set(expect["awards"]) <= set(got["awards"]), expect["awards"]
    out["awards"] = {}
    for seat in got["awards"]:
        mine = expect["awards"].get(seat, {})
        assert set(mine) <= set(classes), mine
        out["awards"][seat] = dict((c, mine.get(c, 0)) for c in classes)
    return out


def replay_parser():
    p = argparse.ArgumentParser(prog="replay")
    cmd_replay.add_arguments(p)
    return p


def replay_in_process(argv):
    """The replay command's own code path (python -m host_sim's main) in this process."""
    buf, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        rc = host_main(["replay"] + list(argv))
    return rc, buf.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", GAMES, ids=[os.path.basename(p)[:-4] for p in GAMES])
def test_golden_game(path):
    args, expect, checks = header(path)
    assert args is not None and checks, path
    assert "RULES.md" in "".join(checks) or "seed" in "".join(checks), path
    rc, out, err = replay_in_process(args + [path])
    assert rc == 0, err
    got = json.loads(out)
    assert got == dense(expect, got)


def test_golden_games_cover_every_option_value():
    parser = replay_parser()
    seen = dict((name, set()) for name in COVERED)
    for path in GAMES:
        args, _, _ = header(path)
        ns = parser.parse_args(args + [path])
        prof = cmd_replay.profile_from(ns)
        for name in COVERED:
            v = prof[name]
            if profiles.options()[name][1][0] == "+":
                seen[name].update(v.split("+"))
            else:
                seen[name].add(v)
    for name in COVERED:
        default, allowed = profiles.options()[name]
        if allowed[0] == "int":
            assert default in seen[name] and len(seen[name]) >= 2, (name, seen[name])
        else:
            want = set(allowed[1]) if allowed[0] == "+" else set(allowed)
            assert seen[name] == want, (name, want - seen[name])


def without_rank_settings(args):
    """args without its --set OPTION=VALUE of ranking options (None if it has none)."""
    out, dropped, i = [], False, 0
    while i < len(args):
        if args[i] == "--set" and args[i + 1].split("=")[0] in profiles.RANK_OPTIONS:
            dropped = True
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out if dropped else None


def test_ranking_option_games_depend_on_their_option():
    n = 0
    for path in GAMES:
        args, expect, _ = header(path)
        plain = without_rank_settings(args)
        if plain is None:
            continue
        rc, out, err = replay_in_process(plain + [path])
        assert rc == 0, err
        got = json.loads(out)
        assert got != dense(expect, got), "%s: the same result without its ranking option" % path
        n += 1
    assert n >= 9


def test_replay_cli_end_to_end(tmp_path):
    # a real process: exit status 0 and exactly one JSON object on stdout
    path = os.path.join(ROOT, "tests", "data", "games", "liuhong_take_all.txt")
    args, expect, _ = header(path)
    p = subprocess.run([sys.executable, "-m", "host_sim", "replay"] + args + [path],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.strip().splitlines()) == 1
    got = json.loads(p.stdout)
    assert got == dense(expect, got)


@pytest.mark.parametrize("text,line,words", [
    ("412355\n\n# fine\n44441\n", 4, ["six dice"]),
    ("412355\nroll\n", 2, ["not a face"]),
    ("412355\n4123557\n", 2, ["six dice"]),
    ("412355\n412305\n", 2, ["1..6"]),
    ("customer\n", 1, ["kiosk"]),
    ("412355\ntimeup\n", 2, ["time_limit"]),
])
def test_bad_line_exits_2_without_json(tmp_path, text, line, words):
    f = tmp_path / "bad.txt"
    f.write_text(text)
    rc, out, err = replay_in_process(["--seats", "3", "--first", "1", str(f)])
    assert rc == 2
    assert out == ""
    assert ("line %d:" % line) in err
    for w in words:
        assert w in err, err


def test_bad_line_cli_process(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("412355\n\n44441x\n")
    p = subprocess.run([sys.executable, "-m", "host_sim", "replay", "--seats", "3", "--first", "1", str(f)],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stdout == "" and "line 3:" in p.stderr, (p.returncode, p.stderr)


def test_bad_arguments_exit_2(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("412355\n")
    for argv in (["--seats", "3", str(f)],  # no start
                 ["--seats", "13", "--first", "1", str(f)],
                 ["--seats", "3", "--first", "4", str(f)],
                 ["--seats", "3", "--start-roll", "13", str(f)],
                 ["--seats", "3", "--first", "1", "--prizes", "nope=1", str(f)],
                 ["--seats", "3", "--first", "1", "--set", "when_exhausted=never", str(f)],
                 ["--profile", "kiosk", "--seats", "1", "--first", "1", str(f)],
                 ["--seats", "3", "--first", "1", str(tmp_path / "missing.txt")]):
        rc, out, err = replay_in_process(argv)
        assert rc == 2 and out == "" and "error:" in err, (argv, rc, out, err)


def test_events_after_the_end_are_not_counted(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("444444\n412355\n412355\n")
    rc, out, _ = replay_in_process(["--seats", "2", "--first", "2", str(f)])
    got = json.loads(out)
    assert rc == 0 and got["ended"] and got["events_used"] == 1 and got["reason"] == "liubohong"
    assert got["zhuangyuan"]["seat"] == 2


def test_unfinished_game_reports_in_play(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("412355\nspill\n444456\n")
    rc, out, _ = replay_in_process(["--seats", "4", "--first", "1", str(f)])
    got = json.loads(out)
    assert got["ended"] is False and got["reason"] == "in_play" and got["events_used"] == 3
    assert got["zhuangyuan"] == {"seat": 3, "dice": [4, 4, 4, 4, 5, 6], "rank": "sihong"}
    assert got["awards"]["1"]["yixiu"] == 1 and got["pool"]["yixiu"] == 31
    assert sorted(got["awards"]) == ["1", "2", "3", "4"]


def test_read_events_is_reusable():
    ev = cmd_replay.read_events(["# c\n", "\n", "444411  # 插金花\n", "SPILL\n", "timeup\n", "4,4,4,4,1,1\n"])
    assert ev == [(3, 3, [4, 4, 4, 4, 1, 1]), (4, 4, None), (5, 5, None), (6, 3, [4, 4, 4, 4, 1, 1])]
    with pytest.raises(cmd_replay.EventFileError) as e:
        cmd_replay.read_events(["444411\n", "x\n"])
    assert e.value.line == 2
