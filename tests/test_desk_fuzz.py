"""Bad input to every desk command and every public address parameter, as an
operator or a stranger would type it: digits of other scripts (², ①, ١),
numbers too large for SQLite, days out of range, arguments that are not
UTF-8, special files (a folder, /dev/zero, a FIFO). Each gets a clear answer
(a 400 page with what is allowed, or a bilingual line and exit 2; a refused
journal exits 1 as documented): never a traceback, a 500, a hang, nor exit 0."""
import os
import signal
import subprocess

import pytest

import deskkit

FOLDER = deskkit.folder()

from django.test import Client  # noqa: E402

from host_sim.desk import inputs  # noqa: E402
from host_sim.desk.__main__ import main  # noqa: E402
from host_sim.desk.models import Bowl  # noqa: E402

HEX = "00112233445566778899aabbccddeeff"
ODD = ["²", "①", "١٢", "99999999999999999999999", "-1", "0", "1e3", " ", "a/b", "<b>x</b>", "１２٣"]


def run(argv, env=None):
    """The desk's command line in this process (its database: deskkit's) -> (exit status, stderr)."""
    old = dict(os.environ)
    os.environ.update(env or {})
    signal.alarm(20)  # a hang fails the test instead of the gate
    try:
        status = main(["python -m host_sim.desk"] + argv)
    except SystemExit as e:
        status = e.code
    finally:
        signal.alarm(0)
        os.environ.clear()
        os.environ.update(old)
    return status


def fifo(tmp_path, name="fifo.bbj"):
    p = str(tmp_path / name)
    os.mkfifo(p)
    return p


def bad_commands(tmp_path):
    """-> [(argv, env, expected exit status)] of the desk's commands with bad input."""
    taken = deskkit.free_port()
    cases = [(["addbowl", b, "--secret-hex", HEX], None, 2)
             for b in ["a/b", "two words", "<b>x</b>", "$SYS", "123456789", "", "²", "①", "MALL-1", "0x1"]]
    cases += [(["addbowl", "7", "--secret-hex", h], None, 2) for h in ["zz", "00", "²" * 32]]
    cases += [(["stock", "--event", "fuzz", "duitang=%s" % n], None, 2)
              for n in [v for v in ODD if v != "0"] + ["100001", ""]]
    cases += [(["stock", "--event", e], None, 2) for e in ["a/b", "$SYS", "", "x" * 40]]
    cases += [(["listen", "--broker", b, "--event", "fuzz"], None, 2)
              for b in ["127.0.0.1:²", "127.0.0.1:70000", ":1883", "[::1", "[::1]x", "a b:1883", "", "h:0"]]
    cases += [(["listen", "--broker", "127.0.0.1", "--event", e], None, 2) for e in ["a/b", "#", ""]]
    cases += [(["serve", "--listen", a], None, 2)
              for a in ["999.1.1.1:8000", "127.0.0.1:²", "127.0.0.1", "x", "127.0.0.1:99999", "[::1"]]
    cases += [(["serve", "--threads", t], None, 2) for t in ["0", "²", "65"]]
    cases += [(["attendant", "fuzz-new"], None, 2), (["attendant", ""], None, 2),
              (["attendant", "fuzz-new", "--language", "xx"], None, 2)]
    folder = str(tmp_path)
    junk = str(tmp_path / "junk.sqlite3")
    with open(junk, "wb") as f:
        f.write(b"not a database" * 100)
    cases += [(["backup", p], None, 2) for p in [folder, folder + "/no/such/dir/b.sqlite3", "/dev/null/x"]]
    cases += [(["restore", p], None, 2) for p in [folder, "/dev/zero", fifo(tmp_path, "r"), junk, folder + "/none"]]
    cases += [(["serve", "--backup-dir", folder, "--backup-every", m], None, 2) for m in ["²", "0", "1e3", "-1", "x"]]
    cases += [(["serve", "--backup-dir", folder + "/none"], None, 2)]
    cases += [(["serve"] + a, None, 2) for a in [["--cert", junk, "--key", junk], ["--https", "--cert", junk],
                                                  ["--https", "--cert", junk, "--key", junk],
                                                  ["--https", "--cert", "/dev/zero", "--key", folder]]]
    cases += [(["importjournal", p], None, 1) for p in [folder, "/dev/zero", fifo(tmp_path), folder + "/none.bbj"]]
    # not UTF-8 (Python keeps such bytes of argv as surrogates)
    cases += [([c, "\udcff\udcfe"] + rest, None, 2) for c, rest in
              [("addbowl", ["--secret-hex", HEX]), ("importjournal", []), ("attendant", [])]]
    cases += [(["stock", "--event", "fuzz"], {"BOBING_DESK_DIR": os.path.join(FOLDER, "secret_key")}, 2)]
    return cases, taken


def test_every_desk_command_refuses_bad_input_clearly(tmp_path, capsys):
    cases, _taken = bad_commands(tmp_path)
    for argv, env, want in cases:
        status = run(argv, env)
        out, err = capsys.readouterr()
        assert status == want, (argv, status, out, err)
        assert "Traceback" not in err + out, (argv, err)
        assert err.strip(), argv  # it says what was wrong
        if want == 2 and argv[0] != "serve" or "--listen" in argv:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in err), (argv, err)  # Chinese first
    print("desk commands: %d cases of bad input" % len(cases))
    assert len(cases) >= 60


def test_a_port_in_use_is_said_not_a_traceback(capsys):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        status = run(["serve", "--listen", "127.0.0.1:%d" % s.getsockname()[1]])
    err = capsys.readouterr().err
    assert status == 2 and "cannot listen there" in err and "Traceback" not in err, err


def test_every_address_is_said_when_the_host_is_left_out(capsys, monkeypatch):
    import waitress

    class Quick:
        channel_class = None

        def __init__(self, *a, **kw):
            pass
        run = close = lambda self: None
    monkeypatch.setattr(waitress, "create_server", Quick)
    assert run(["serve", "--listen", ":%d" % deskkit.free_port()]) == 0
    assert "every address" in capsys.readouterr().err


def test_one_bowl_id_everywhere(capsys):
    """`1` is `0001`, full-width digits fold, and a bowl known by one form is found by any."""
    assert run(["addbowl", "１２３", "--secret-hex", HEX]) == 0
    assert run(["addbowl", "31", "--secret-hex", HEX]) == 0
    assert Bowl.objects.filter(bowl_id__in=["0123", "0031"]).count() == 2
    assert run(["addbowl", "0000031", "--secret-hex", HEX[::-1]]) == 0  # the same bowl: a new secret
    assert "new secret for bowl 0031" in capsys.readouterr().out
    assert inputs.find_bowl("31").bowl_id == "0031" and inputs.find_bowl("00000031").bowl_id == "0031"
    assert inputs.bowl_id("12345") == "12345" and inputs.bowl_id("1") == "0001"


def test_the_desk_without_django_says_which_python_to_use():
    """The system's python (no Django) as the README's `python -m host_sim.desk` reads."""
    py = "/usr/bin/python3"
    if subprocess.run([py, "-c", "import django"], capture_output=True).returncode == 0:
        pytest.skip("the system python has Django")
    p = subprocess.run([py, "-m", "host_sim.desk", "serve"], cwd=deskkit.ROOT, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert "Django" in p.stderr and ".venv/bin/python" in p.stderr


PUBLIC = ["/fair?game=%s", "/fair?bowl=%s", "/fair?award=%s&game=1", "/fair?award=1&game=%s",
          "/fair?award=1&game=1&bowl=%s", "/fair?claim=BB1:0001:%s-1:YIXIU:AAAAAAAA",
          "/fair?claim=BB1:0001:1-%s:YIXIU:AAAAAAAA", "/fair?claim=BB1:%s:1-1:YIXIU:AAAAAAAA",
          "/fair/export.json?game=%s", "/fair/export.json?bowl=%s",
          "/F/0001/%s-1/YIXIU", "/F/0001/1-%s/YIXIU", "/F/%s/1-1/YIXIU"]


def test_every_public_address_parameter_refuses_bad_values_with_a_400():
    c = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    n = 0
    for url in PUBLIC:
        for v in ODD:
            if url.startswith("/F/") and "/" in v:
                continue  # another path, not this parameter: the desk's 404 page
            if v == "0" and ("bowl=%s" in url or url.startswith("/F/%s") or "BB1:%s" in url):
                continue  # bowl 0000: a bowl may have it
            from urllib.parse import quote
            r = c.get(url % quote(v, safe=""))
            n += 1
            page = r.content.decode()
            assert r.status_code == 400, (url, v, r.status_code)
            assert "Traceback" not in page and ("碗号" in page or "整数" in page or "局号" in page
                                                or "error" in page), (url, v, page[-400:])
    print("public address parameters: %d cases" % n)
    assert n >= 120


def test_days_out_of_range_and_odd_numbers_on_the_attendant_s_pages():
    deskkit.attendant("fuzz")
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username="fuzz", password=deskkit.PASSWORD)
    for day in ["9999-12-31", "0001-01-01", "²０２６-01-01", "2026-02-30", "x" * 500]:
        r = c.get("/stock?day=" + day)
        assert r.status_code == 200 and "not a date" in r.content.decode()
        r = c.get("/report.csv?day=" + day)
        assert r.status_code == 400 and "YYYY-MM-DD" in r.content.decode()
    for v in ODD:
        r = c.get("/forecast", {"bowl": v, "rate": v})
        assert r.status_code in (400, 404) and "Traceback" not in r.content.decode()
        r = c.post("/check", {"code": "AAAAAAAA", "bowl": "0001", "game": v, "award": v, "cls": "yixiu"})
        assert r.status_code == 400
        r = c.post("/check", {"code": "BB1:0001:%s-1:YIXIU:AAAAAAAA" % v})
        assert r.status_code in (400, 404), (v, r.status_code)


def test_a_malformed_content_length_is_no_500():
    deskkit.attendant("fuzz-cl")
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username="fuzz-cl", password=deskkit.PASSWORD)
    for v in ["x", "²", "-5", "9" * 30]:
        r = c.post("/import", {}, CONTENT_LENGTH=v)
        assert r.status_code in (400, 413), (v, r.status_code)
