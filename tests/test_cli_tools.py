"""The organiser's and the auditor's commands as they read them: plan (seats as
the bowl allows, every --count shown, progress while it works) and dice-stats (a
verdict first)."""
import os
import pty
import subprocess
import sys

from conftest import ROOT


def host(*args):
    p = subprocess.run([sys.executable, "-m", "host_sim"] + list(args), capture_output=True, text=True,
                       cwd=ROOT, stdin=subprocess.DEVNULL, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_seats_are_the_bowls_two_to_twelve():
    for cmd in ("plan", "stats"):
        rc, out, _ = host(cmd, "--help")
        assert rc == 0 and "2..12" in out and "1..12" not in out, cmd
        rc, out, err = host(cmd, "--seats", "1")
        assert rc == 2 and "from 2 to 12" in err, (cmd, err)


def test_plan_shows_the_count_of_the_zhuangyuan_it_was_given():
    rc, out, err = host("plan", "--seats", "2", "--count", "zhuangyuan=3", "--count", "yixiu=4",
                        "--count", "erju=2", "--count", "sijin=1", "--count", "sanhong=1", "--count", "duitang=1")
    assert rc == 0, err
    assert "zhuangyuan 3 held to the end (its count does not change the length)" in out.splitlines()[0]


def test_plan_shows_progress_on_a_terminal():
    # stderr on a terminal (a kiosk's plan takes seconds): a line that counts up, wiped at the end
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "host_sim", "plan", "--seats", "2", "--count", "yixiu=3",
                          "--count", "erju=2", "--count", "sijin=1", "--count", "sanhong=1",
                          "--count", "duitang=1"], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave,
                         stdin=subprocess.DEVNULL)
    os.close(slave)
    out = p.communicate(timeout=300)[0].decode()
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert p.returncode == 0 and "Plan for profile" in out
    assert "计算中 planning:" in seen.decode() and "pool states" in seen.decode()
    assert seen.endswith(b"\r\x1b[K")  # wiped when done
    # not a terminal: no progress in the output a script reads
    rc, out, err = host("plan", "--seats", "2", "--count", "yixiu=3")
    assert rc == 0 and "planning" not in out


def test_fairness_says_its_verdict_first():
    rc, out, err = host("dice-stats", "--rolls", "2000", "--seed", "x")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("公平 FAIR: 两项检验都通过 both tests pass (2000 次 rolls, seed:x, alpha 0.001)")
    assert len(lines) == 3 and "点数 faces" in lines[1] and "名次 ranks" in lines[2]
    rc, out, err = host("dice-stats", "--rolls", "2000", "--seed", "x", "--json")
    assert out.startswith("{") and '"pass": true' in out


def test_the_final_win_screen_shows_the_winners_own_roll():
    import screen_cases
    fp = [a for name, _lang, _m, a in screen_cases.CASES if name == "final_result_win"][0][0]
    assert fp.final.winner and fp.out.seat == fp.final.winner  # "2号 四红" beside "王中王 2号"
