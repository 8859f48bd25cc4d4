# python -m host_sim verify-claim: the prize counter's check of a kiosk code,
# and its answers to bad command lines (a table of probes: exit status and what
# the message must name; never a traceback).
import os
import subprocess
import sys

from bobing import claim
from host_sim.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECRET = b"sixteen byte key"
VALID, INVALID = "有效 valid\n", "无效 invalid\n"
HEX = SECRET.hex()


def run(capsys, *argv):
    try:
        rc = main(["verify-claim"] + list(argv))
    except SystemExit as e:  # argparse's own errors
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def args(game, award, code, cls="yixiu", bowl="0001"):
    return ("--secret-hex", HEX, "--bowl", bowl, "--game", str(game), "--award", str(award),
            "--class", cls, code)


def test_a_code_is_valid_only_for_its_game_and_award(capsys):
    c1 = claim.code(SECRET, "0001", 1, 1, "yixiu")
    c2 = claim.code(SECRET, "0001", 2, 1, "yixiu")
    assert c1 != c2
    assert run(capsys, *args(1, 1, c1))[:2] == (0, VALID)
    assert run(capsys, *args(2, 1, claim.pretty(c2).lower()))[:2] == (0, VALID)
    # game 2's award #1 shown as game 1's (it used to be the same code)
    assert run(capsys, *args(1, 1, c2))[:2] == (1, INVALID)
    assert run(capsys, *args(2, 2, c2))[:2] == (1, INVALID)
    assert run(capsys, *args(2, 1, c2, bowl="0002"))[:2] == (1, INVALID)
    text = ("--secret", SECRET.decode(), "--bowl", "0001", "--game", "2", "--award", "1", "--class", "yixiu", c2)
    assert run(capsys, *text)[:2] == (0, VALID)


GOOD = claim.code(SECRET, "0001", 1, 1, "yixiu")
BASE = ["--secret-hex", HEX, "--bowl", "0001", "--game", "1", "--award", "1", "--class", "yixiu", GOOD]


def _with(option, value):
    a = list(BASE)
    if option == "CODE":
        a[-1] = value
    elif option == "--secret":
        a[0:2] = ["--secret", value]
    else:
        a[a.index(option) + 1] = value
    return a


# (argv, exit status, a fragment the message must hold). Python keeps argv bytes
# that are not UTF-8 as surrogates (PEP 383): "\udcff" is a 0xFF byte on the line.
PROBES = [
    (BASE, 0, ""),
    (_with("CODE", "ZZZZZZZZ"), 1, ""),
    (_with("CODE", "短码"), 1, ""),  # not a code: invalid, not an error
    (_with("CODE", "\udcff\udcfe"), 2, "CODE"),
    (_with("--secret", "\udcff" * 20), 2, "--secret"),
    (_with("--secret", "秘密秘密秘密"), 1, ""),  # 18 bytes of UTF-8: a secret, just not this one
    (_with("--secret", "short"), 2, "128 bits"),
    (_with("--secret-hex", "00"), 2, "128 bits"),
    (_with("--secret-hex", "zz"), 2, "--secret-hex"),
    (_with("--secret-hex", "abc"), 2, "--secret-hex"),
    (_with("--secret-hex", "ｆｆ"), 2, "--secret-hex"),
    (_with("--secret-hex", "\udcff"), 2, "--secret-hex"),
    (_with("--bowl", "a|b"), 2, "1 to 8 digits"),
    (_with("--bowl", "\udcff"), 2, "--bowl"),
    (_with("--class", "\udcff"), 2, "--class"),
    (_with("--game", "0"), 2, "game number"),
    (_with("--game", "-1"), 2, "game number"),
    (_with("--game", "x"), 2, "--game"),
    (_with("--award", "0"), 2, "award number"),
    (_with("--award", "1.5"), 2, "--award"),
    (BASE[:4] + BASE[6:], 2, "--game"),  # no --game: the code cannot be checked
    (BASE[2:], 2, "--secret"),
]


def test_bad_command_lines_are_clear_errors(capsys):
    for argv, status, fragment in PROBES:
        rc, out, err = run(capsys, *argv)
        assert rc == status, (argv, rc, out, err)
        assert "Traceback" not in err and fragment in err, (argv, err)
        if status == 2:
            assert out == "", (argv, out)


def test_non_utf8_secret_in_a_real_process():
    # the bytes as a shell passes them, not as Python strings
    p = subprocess.run([sys.executable, "-m", "host_sim", "verify-claim", "--secret", b"\xff\xfe" * 10,
                        "--bowl", "0001", "--game", "1", "--award", "1", "--class", "yixiu", GOOD],
                       capture_output=True, cwd=ROOT)
    assert p.returncode == 2 and b"--secret" in p.stderr and b"Traceback" not in p.stderr



def test_the_counter_check_loads_only_what_it_needs():
    # the check answers at once because it loads neither the game engine nor another
    # command's packages (the time itself is a figure for a benchmark, not a test)
    probe = ("import sys\n"
             "from host_sim import compat\n"
             "compat.install()\n"  # a script of its own: its entry point's set-up, as python -m host_sim's
             "from host_sim.cli import main\n"
             "for argv in (['verify-claim', '--help'], ['verify-claim', '--secret', 'k' * 16, %r]):\n"
             "    try:\n"
             "        main(argv)\n"
             "    except SystemExit:\n"
             "        pass\n"
             "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n" % QR)
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    loaded = set(p.stderr.split())
    assert "bobing.claim" in loaded, p.stderr
    assert not loaded & {"bobing.game", "bobing.rules", "numpy", "tempfile"}, sorted(loaded)
    assert not [m for m in loaded if m.startswith("host_sim.cli.") and m not in
                ("host_sim.cli.options", "host_sim.cli.verify_claim")], sorted(loaded)

# ---- the counter types what the claim screen shows (No.2-1 状元 9AVF2S2Q on bowl 0001)
ZY = claim.code(SECRET, "0001", 2, 1, "zhuangyuan")
QR = "BB1:0001:2-1:ZHUANGYUAN:" + ZY
LINK = "HTTP://192.168.1.10:8000/F/0001/2-1/ZHUANGYUAN#" + ZY  # a fair kiosk's claim QR (claim.link)


def test_the_counter_types_what_the_screen_shows(capsys):
    seen = [
        ("--bowl", "0001", "--game", "2", "--award", "1", "--class", "zhuangyuan", ZY),  # ids, as before
        ("--bowl", "0001", "--game", "2", "--award", "1", "--class", "状元", ZY),  # the class in Chinese
        ("--bowl", "1", "--game", "2", "--award", "1", "--class", "状元", ZY),  # 0001 typed as 1
        ("--bowl", "00000001", "--game", "2-1", "--class", "状元", ZY),  # No.2-1 as one number
        ("--bowl", "1", "--game", "No.2-1", "--class", "Zhuangyuan", ZY),
        ("--bowl", "０００１", "--game", "２－１", "--class", "ＺＨＵＡＮＧＹＵＡＮ", ZY.lower()),  # full-width
        (QR,),  # the QR code's text alone
        ("--bowl", "1", QR.lower()),  # and with options that agree with it
        (LINK,), (LINK.lower(),),  # a fair kiosk's QR: the link to the desk's page, the same fields
    ]
    for a in seen:
        assert run(capsys, "--secret-hex", HEX, *a)[:2] == (0, VALID), a
    # the English screen's pinyin names a class too
    c = claim.code(SECRET, "7", 3, 2, "yixiu")
    assert run(capsys, "--secret-hex", HEX, "--bowl", "0007", "--game", "3-2", "--class", "Yi Xiu", c)[:2] == (0, VALID)
    # a real code of another award stays invalid
    assert run(capsys, "--secret-hex", HEX, "--bowl", "1", "--game", "2-2", "--class", "状元", ZY)[:2] == (1, INVALID)
    assert run(capsys, "--secret-hex", HEX, "--bowl", "2", "--game", "2-1", "--class", "状元", ZY)[:2] == (1, INVALID)


# (arguments after the secret, a fragment of the error): never a verdict, never argparse's raw words
UNKNOWABLE = [
    (("--bowl", "1", "--game", "2-1", "--class", "状圆", ZY), "no such prize class"),  # a typo
    (("--bowl", "1", "--game", "2-1", "--class", "zhuangyun", ZY), "状元"),  # the message lists the names
    (("--bowl", "A1", "--game", "2-1", "--class", "状元", ZY), "1 to 8 digits"),
    (("--bowl", "123456789", "--game", "2-1", "--class", "状元", ZY), "1 to 8 digits"),
    (("--bowl", "1", "--game", "2-x", "--class", "状元", ZY), "award number"),
    (("--bowl", "1", "--game", "2-1", "--award", "3", "--class", "状元", ZY), "two awards"),
    (("--bowl", "1", "--game", "2", "--class", "状元", ZY), "--award"),
    (("--bowl", "2", QR), "does not match"),
    (("--class", "yixiu", QR), "does not match"),
    (("BB1:0001:2:ZHUANGYUAN:" + ZY,), "award"),
    (("BB1:0001:2-1:NOSUCH:" + ZY,), "no such prize class"),
    (("BB1:0001:2-1",), "BB1:<bowl id>"),
    (("--bowl", "2", LINK), "does not match"),
    (("HTTP://192.168.1.10:8000/F/0001/2-1#" + ZY,), "not a claim's link"),
]


def test_a_class_or_bowl_no_bowl_can_show_is_an_error_not_a_verdict(capsys):
    for a, fragment in UNKNOWABLE:
        rc, out, err = run(capsys, "--secret-hex", HEX, *a)
        assert (rc, out) == (2, ""), (a, rc, out, err)
        assert fragment in err and "invalid int value" not in err and "Traceback" not in err, (a, err)
