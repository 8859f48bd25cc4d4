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
    assert (a.pop("bowl"), a.pop("game")) == ("mall-7", 1)  # the journal knows its bowl and game
    assert a == json.loads(out2) and a["reason"] == "in_play" and a["events_used"] == 40


SECRET = b"sixteen byte key"


def _kiosk_day(tmp_path):
    """Two kiosk games on bowl 0001: game 1 pays a 状元 to customer 2."""
    root = str(tmp_path / "bowl")
    paths = []
    for plays in (["customer", [4, 1, 2, 3, 5, 5], [2, 2, 3, 3, 5, 6], [6, 6, 5, 5, 3, 2],
                   "customer", [4, 4, 4, 4, 1, 1]],
                  ["customer", [4, 4, 2, 3, 5, 6]]):
        j = journal.start(root, "kiosk", seats=1, counts={"zhuangyuan": 1, "yixiu": 5, "erju": 5},
                          bowl_id="0001", secret=SECRET)
        for p in plays:
            if p == "customer":
                j.play(game.EV_CUSTOMER, None)
            else:
                j.play(game.EV_ROLL, p)
        j.close()
        paths.append(j.path)
    return paths


def test_a_kiosk_journal_lists_every_award_with_its_customer_number_and_code(tmp_path):
    from bobing import claim
    g1, g2 = _kiosk_day(tmp_path)
    rc, out, err = replay("--journal", g1, "--secret-hex", SECRET.hex())
    assert rc == 0, err
    a = json.loads(out)
    assert "zhuangyuan" not in a  # no 状元 held to the end at a kiosk: no false null
    assert a["customers"] == 2 and a["won"]["zhuangyuan"] == 1 and a["won"]["yixiu"] == 1
    got = [(w["customer"], w["award"], w["class"], w["code"]) for w in a["awards"]]
    assert got == [(1, 1, "yixiu", claim.code(SECRET, "0001", 1, 1, "yixiu")),
                   (2, 2, "zhuangyuan", claim.code(SECRET, "0001", 1, 2, "zhuangyuan"))]
    assert a["awards"][1]["class_zh"] == "状元" and a["awards"][1]["rank"] == "chajinhua"
    # without the secret: the same list, no codes
    rc, out, _ = replay("--journal", g1)
    assert [sorted(w) for w in json.loads(out)["awards"]] == [
        ["award", "class", "class_zh", "customer", "dice", "rank"]] * 2
    # a secret too short to be a bowl's is an error, not a list of wrong codes
    rc, out, err = replay("--journal", g1, "--secret-hex", "00ff")
    assert rc == 2 and out == "" and "128 bits" in err and "Traceback" not in err


def test_the_days_list_of_awards(tmp_path):
    from bobing import claim
    g1, g2 = _kiosk_day(tmp_path)
    rc, out, err = replay("--awards", "--journal", g1, "--journal", g2, "--secret-hex", SECRET.hex())
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["碗号", "bowl", "编号", "No.", "顾客", "customer", "奖项", "class", "领奖码", "code"]
    rows = [line.split() for line in lines[1:-1]]
    assert rows == [["0001", "1-1", "1", "一秀", "yixiu", claim.code(SECRET, "0001", 1, 1, "yixiu")],
                    ["0001", "1-2", "2", "状元", "zhuangyuan", claim.code(SECRET, "0001", 1, 2, "zhuangyuan")],
                    ["0001", "2-1", "1", "二举", "erju", claim.code(SECRET, "0001", 2, 1, "erju")]]
    assert lines[-1] == "共 3 个奖 3 awards: 状元 zhuangyuan 1, 二举 erju 1, 一秀 yixiu 1"
    # one JSON object is one game
    rc, out, err = replay("--journal", g1, "--journal", g2)
    assert rc == 2 and out == "" and "--awards" in err


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


def test_a_file_that_is_no_journal_is_named_in_plain_words(tmp_path):
    # the journal's magic as it is written, not as a Python bytes literal; Chinese first
    path = tmp_path / "g00000001.bbj"
    path.write_bytes(b"a letter, not a journal")
    rc, out, err = replay("--journal", str(path))
    assert rc == 2 and out == "" and "Traceback" not in err
    assert "b'" not in err and "start with BBJ" in err and "日志有误（设置无效）journal problem" in err, err
