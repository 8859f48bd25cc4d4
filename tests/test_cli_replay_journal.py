"""`python -m host_sim replay --journal FILE`: a journal copied off a bowl gives
the same JSON as replaying the same game written as an event file."""
import json
import os
import random
import subprocess
import sys

from conftest import ROOT

from bobing import game, journal


def replay(*args):
    p = subprocess.run([sys.executable, "-m", "host_sim", "replay"] + list(args),
                       capture_output=True, text=True, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


def _bowl_game(tmp_path, profile, seats, first, n, seed, **kw):
    """Play up to n events on a 'bowl' folder; -> (journal path, event-file text)."""
    rng = random.Random(seed)
    j = journal.start(str(tmp_path / "games"), profile, seats=seats, **kw)
    lines = []
    if first:
        j.play(game.EV_START_TOTAL, first)
    while not j.table.ended and len(lines) < n:
        if j.table.kiosk and not j.table.shakes_left:
            j.play(game.EV_CUSTOMER, None)
            lines.append("customer")
        elif rng.random() < 0.03:
            j.play(game.EV_SPILL, None)
            lines.append("spill")
        else:
            dice = [rng.randint(1, 6) for _ in range(6)]
            j.play(game.EV_ROLL, dice)
            lines.append("".join(map(str, dice)))
    j.close()
    return j.path, "\n".join(lines) + "\n"


def test_journal_replays_like_its_event_file(tmp_path):
    path, text = _bowl_game(tmp_path, "zhangzhou", 8, 9, 100000, 5)
    ev = tmp_path / "game.txt"
    ev.write_text(text)
    rc1, out1, err1 = replay("--journal", path)
    rc2, out2, err2 = replay("--profile", "zhangzhou", "--seats", "8", "--start-roll", "9", str(ev))
    assert rc1 == 0 and rc2 == 0, (err1, err2)
    a, b = json.loads(out1), json.loads(out2)
    assert a == b
    assert a["ended"] and a["events_used"] == len(text.split())


def test_unfinished_kiosk_journal(tmp_path):
    path, text = _bowl_game(tmp_path, "kiosk", 1, 0, 40, 6, counts={"yixiu": 5}, bowl_id="mall-7")
    ev = tmp_path / "kiosk.txt"
    ev.write_text(text)
    rc1, out1, _ = replay("--journal", path)
    rc2, out2, _ = replay("--profile", "kiosk", "--seats", "1", "--prizes", "yixiu=5", str(ev))
    assert rc1 == rc2 == 0
    a = json.loads(out1)
    assert a == json.loads(out2) and a["reason"] == "in_play" and a["events_used"] == 40


def test_a_copied_file_under_another_name(tmp_path):
    path, _ = _bowl_game(tmp_path, "xiamen", 4, 3, 10, 7)
    copy = tmp_path / "from_the_bowl.bbj"
    copy.write_bytes(open(path, "rb").read())
    rc, out, _ = replay("--journal", str(copy))
    assert rc == 0 and json.loads(out)["events_used"] == 10


def test_damaged_journal_says_what_and_prints_no_json(tmp_path):
    path, _ = _bowl_game(tmp_path, "xiamen", 4, 3, 10, 8)
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data[:-3])
    rc, out, err = replay("--journal", path)
    assert rc == 2 and out == ""
    assert "record 10 is cut short" in err and "10 good events" in err
    # nothing on the copy is moved or changed by a replay
    assert open(path, "rb").read() == data[:-3] and os.listdir(os.path.dirname(path)) == ["g00000001.bbj"]


def test_journal_takes_no_table_arguments(tmp_path):
    path, _ = _bowl_game(tmp_path, "xiamen", 4, 3, 5, 9)
    rc, out, err = replay("--journal", path, "--seats", "4")
    assert rc == 2 and out == "" and "--seats" in err
    rc, out, err = replay("--journal", str(tmp_path / "nope.bbj"))
    assert rc == 2 and out == "" and "no such file" in err
