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
    assert "-m pytest --durations=15" in _make("-n", "test", venv).stdout
    fast = _make("-n", "test-fast", venv).stdout
    assert '-m "not slow and not micropython and not broker and not browser"' in fast, fast
    assert "make -s mp" not in fast and "ports/unix" not in fast  # no MicroPython build


def _collected(marks, *files):
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "-m", marks] + ["tests/" + f for f in files], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode in (0, 5), p.stdout[-2000:] + p.stderr[-2000:]  # 5: nothing selected
    return {line.split(":")[0].split("/")[-1] for line in p.stdout.splitlines() if re.search(r": \d+$", line)}


def test_markers_come_from_the_fixtures_and_files_a_test_uses():
    files = ("test_mqtt.py", "test_desk_browser.py", "test_framebuf_standin.py", "test_rules.py")
    assert _collected("micropython", *files) == {"test_mqtt.py", "test_framebuf_standin.py"}
    assert _collected("broker", *files) == {"test_mqtt.py", "test_desk_browser.py"}
    assert _collected("browser", *files) == {"test_desk_browser.py"}
    assert "test_rules.py" in _collected("not slow and not micropython and not broker and not browser", *files)
