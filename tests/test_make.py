"""The Makefile as a developer meets it: `make help` names every target, reading it does
no work, `make test` lists the slowest tests and `make test-fast` leaves out the slow,
MicroPython, broker and browser tests, which tests/conftest.py marks by what they use."""
import os
import re
import shutil
import subprocess
import sys

from conftest import ROOT


def _make(*args, cwd=ROOT):
    return subprocess.run(["make", "-s"] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)


def test_make_help_names_every_target():
    with open(os.path.join(ROOT, "Makefile")) as f:
        phony = re.search(r"^\.PHONY:(.*)$", f.read(), re.M).group(1).split()
    p = _make("help")
    assert p.returncode == 0, p.stderr
    listed = {line.split()[0] for line in p.stdout.splitlines()[1:] if line.strip()}
    assert set(phony) == listed, (set(phony) ^ listed)


def test_reading_the_makefile_writes_nothing(tmp_path):
    shutil.copy(os.path.join(ROOT, "Makefile"), tmp_path)
    p = _make("help", cwd=tmp_path)
    assert p.returncode == 0 and "test-fast" in p.stdout, p.stderr
    assert sorted(os.listdir(tmp_path)) == ["Makefile"]  # no build/ made just by asking


def test_make_test_shows_durations_and_test_fast_deselects_the_marked(tmp_path):
    venv = "VENV=%s" % (tmp_path / "venv")
    gate = _make("-n", "test", venv).stdout
    # two phases: all but the serial tests on two workers, then the serial ones alone; both with durations
    assert '-m pytest -m "not serial" -n 2 --dist loadgroup --durations=15' in gate, gate
    assert "-m pytest -m serial --durations=15" in gate, gate
    fast = _make("-n", "test-fast", venv).stdout
    assert '-m "not slow and not micropython and not broker and not browser"' in fast, fast
    assert "-n 2 --dist loadgroup" in fast  # two workers (pytest-xdist), a file's tests together (conftest)
    assert "make -s mp" not in fast and "ports/unix" not in fast  # no MicroPython build


PLUGIN = """
def pytest_collection_finish(session):
    for item in session.items:
        print("MARKS", item.path.name, " ".join(sorted({m.name for m in item.iter_markers()})))
"""


def test_markers_come_from_the_fixtures_and_files_a_test_uses(tmp_path):
    (tmp_path / "show_marks.py").write_text(PLUGIN)
    files = ["tests/" + f for f in ("test_mqtt.py", "test_desk_browser.py", "test_framebuf_standin.py",
                                    "test_rules.py", "test_desk_server.py", "test_desk_flood.py",
                                    "test_micropython.py")]
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "show_marks", "-p",
                        "no:cacheprovider"] + files, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    marks = {}
    for line in p.stdout.splitlines():
        if line.startswith("MARKS "):
            name, _, ms = line[6:].partition(" ")
            marks.setdefault(name, set()).update(ms.split())
    assert {"micropython", "broker"} <= marks["test_mqtt.py"]  # mp_built, broker fixtures
    assert {"broker", "browser"} <= marks["test_desk_browser.py"]
    assert "micropython" in marks["test_framebuf_standin.py"]  # mp_built, for one of its tests
    assert "slow" in marks["test_desk_server.py"] and "slow" in marks["test_rules.py"]  # one slow test there
    # make test's phases: the flood (a real-time rate) alone after the others; a file's tests on one
    # worker, but test_micropython.py's spread over both
    assert "serial" in marks["test_desk_flood.py"] and "serial" not in marks["test_rules.py"]
    assert "xdist_group" in marks["test_rules.py"] and "xdist_group" not in marks["test_micropython.py"]
    fast = [line for line in p.stdout.splitlines() if line.startswith("MARKS test_rules.py") and
            not ({"slow", "micropython", "broker", "browser"} & set(line.split()[2:]))]
    assert fast  # the rest of test_rules.py stays in make test-fast


WHERE = """
import os


def pytest_runtest_setup(item):
    with open(os.environ["WHERE_OUT"], "a") as f:
        f.write("%s %s %s\\n" % (os.environ.get("PYTEST_XDIST_WORKER"), item.path.name, item.nodeid))
"""


def test_a_file_s_tests_run_on_one_worker_in_their_order(tmp_path):
    # make test's --dist loadgroup with conftest's groups: every test of a file on the worker that
    # runs its module fixtures once (it handed each test out alone when pytest stopped reading
    # xdist's group suffix: both workers then set up a file's desk server or browser)
    (tmp_path / "where.py").write_text(WHERE)
    out = tmp_path / "where.txt"
    env = dict(os.environ, PYTHONPATH=str(tmp_path), WHERE_OUT=str(out))
    files = ["tests/test_settings.py", "tests/test_verify_claim.py", "tests/test_mpu6050.py"]
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "where",
                        "-p", "no:cacheprovider"] + files, cwd=ROOT, capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    ran = [line.split() for line in out.read_text().splitlines()]
    workers = {}
    for worker, name, nodeid in ran:
        workers.setdefault(name, set()).add(worker)
        assert nodeid.endswith("@" + name[:-3]), nodeid
    assert sorted(workers) == sorted(os.path.basename(f) for f in files) and len(ran) >= 20, ran
    assert all(len(w) == 1 for w in workers.values()), workers
    assert len(set().union(*workers.values())) == 2, workers  # and both workers had files
