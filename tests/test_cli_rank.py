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
