"""`python -m host_sim rank`: the command users settle disputes with."""
import json
import subprocess
import sys

from conftest import ROOT


def rank(stdin, *args):
    p = subprocess.run([sys.executable, "-m", "host_sim", "rank"] + list(args), input=stdin,
                       capture_output=True, text=True, cwd=ROOT)
    return p.returncode, [json.loads(line) for line in p.stdout.splitlines()], p.stderr


def test_rank_formats_and_json():
    rc, out, _ = rank("444411\n1 2 3 4 5 6\n5,5,5,5,5,4\n\n")
    assert rc == 0
    assert out == [
        {"dice": [4, 4, 4, 4, 1, 1], "rank": "chajinhua", "bonus": [], "order": [12, 0, 0]},
        {"dice": [1, 2, 3, 4, 5, 6], "rank": "duitang", "bonus": [], "order": [5, 0, 0]},
        {"dice": [5, 5, 5, 5, 5, 4], "rank": "wuzi", "bonus": ["yixiu"], "order": [7, 5, 4]},
    ]


def test_bad_line_reports_and_continues():
    rc, out, _ = rank("4444\n444411\n1234567\n")
    assert rc == 1
    assert "error" in out[0] and "line 1" in out[0]["error"] and "six dice" in out[0]["error"]
    assert out[1]["rank"] == "chajinhua"
    assert "error" in out[2] and "line 3" in out[2]["error"]


def test_profile_and_set():
    rc, out, _ = rank("123456\n444411\n444444\n", "--profile", "tongan", "--set", "zhuangyuan_order=liuhong_top")
    assert rc == 0
    assert out[0]["rank"] == "yixiu"
    assert out[2]["order"] > out[1]["order"]


def test_bad_option_is_refused():
    rc, out, err = rank("444411\n", "--set", "combined=maybe")
    assert rc == 2 and out == []
    assert "combined" in err and "on, off" in err


def dispute(*args):
    p = subprocess.run([sys.executable, "-m", "host_sim", "rank"] + list(args), capture_output=True,
                       text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.splitlines(), p.stderr


def test_a_dispute_at_the_table_in_plain_words():
    # two 四红: which holds the 状元? The sum of the other two dice (xiamen), or the higher die first
    rc, out, err = dispute("444463", "444455")
    assert rc == 0, err
    assert out[0].split()[:3] == ["1.", "444455", "四红"] and "Four reds" in out[0]
    assert out[2].startswith("444455 胜 444463：同为四红") and "sihong_key=sum" in out[2]
    assert out[3].startswith("444455 beats 444463: both are Four reds")
    rc, out, _ = dispute("444463", "444455", "--set", "sihong_key=high_then_low")
    assert "444463 胜 444455" in out[2] and "444463 beats 444455" in out[3]
    # different ranks, and the 状元 order that decides between them
    rc, out, _ = dispute("444444", "444411", "--set", "zhuangyuan_order=liuhong_top")
    assert "444444 胜 444411：六勃红 大于 状元插金花" in out[2] and "Six reds is above Golden flower" in out[3]
    # equal rolls: a tie, and what the table does with it
    rc, out, _ = dispute("555554", "5 5 5 5 5 4")
    assert "555554 平 555554" in out[2] and "先博者胜" in out[2] and "ties with" in out[3]
    assert "+ 一秀" in out[0]  # its combined award named too
    rc, out, _ = dispute("123456", "412356")
    assert "平" in out[2] and "each wins one" in out[3]


def test_a_game_option_or_a_bad_roll_is_refused():
    rc, out, err = dispute("--set", "kiosk_shakes=2", "444411")
    assert rc == 2 and out == [] and "kiosk_shakes" in err and "game option" in err and "sihong_key" in err
    rc, out, err = rank("444411\n", "--set", "prizes=kiosk")
    assert rc == 2 and "game option" in err
    rc, out, err = dispute("44441x", "444411")
    assert rc == 2 and out == [] and "44441x" in err and "Traceback" not in err
