# Deploying the firmware: `make mpy`, `make deploy`, firmware/manifest.py (freezing)
# and firmware/package.json (mip) all cover the same files.
import json
import os
import subprocess
import sys

import portable

ROOT = portable.ROOT
FIRMWARE = portable.FIRMWARE
# the pinned 32-bit build without the bowl frozen in, as a stock image (make mp; `make mpy` compiles
# with its mpy-cross)
MICROPYTHON = portable.MP32_STOCK
from host_sim.tools import make_package_json  # noqa: E402

ON_FS = {"boot.py", "main.py"}  # run by name (frozen into the bowl's board; on the filesystem for the stock route)
BUILD_ONLY = {"manifest.py"}


def test_package_json_is_fresh_and_valid():
    with open(os.path.join(FIRMWARE, "package.json"), encoding="utf-8") as f:
        text = f.read()
    assert text == make_package_json.render(), "stale: run make package-json"
    doc = json.loads(text)
    assert ["ssd1306", "latest"] in doc["deps"]
    for target, url in doc["urls"]:
        assert target == url and os.path.isfile(os.path.join(FIRMWARE, url)), url
    listed = {t for t, _ in doc["urls"]}
    assert ON_FS <= listed and "board.py" in listed


def test_manifest_freezes_every_module():
    calls = []
    env = {n: (lambda *a, _n=n, **k: calls.append((_n, a, k)))
           for n in ("include", "require", "module", "package", "freeze", "metadata")}
    with open(os.path.join(FIRMWARE, "manifest.py"), encoding="utf-8") as f:
        exec(compile(f.read(), "manifest.py", "exec"), env)
    modules = {a[0] for n, a, _ in calls if n == "module"}
    packages = {a[0] for n, a, _ in calls if n == "package"}
    assert ("require", ("ssd1306",), {}) in calls
    # the bowl's board manifest adds the ESP32 port's own (makemanifest.py runs it: test_micropython)
    with open(os.path.join(ROOT, "firmware", "boards", "BOBING_ESP32", "manifest.py"), encoding="utf-8") as f:
        board = f.read()
    # the port's own boards/manifest.py line by line, but its modules folder frozen without its
    # _boot.py (the bowl freezes its own: modules/_boot.py), and main.py and boot.py frozen too
    port = os.path.join(ROOT, "build", "mp", "micropython", "ports", "esp32")
    if os.path.isdir(port):
        with open(os.path.join(port, "boards", "manifest.py"), encoding="utf-8") as f:
            for line in f.read().splitlines():
                if line.strip() and not line.startswith("#") and line != 'freeze("$(PORT_DIR)/modules")':
                    assert line in board, "keep the port's own modules: " + line
        ported = sorted(n for n in os.listdir(os.path.join(port, "modules")) if n.endswith(".py") and n != "_boot.py")
        assert 'freeze("$(PORT_DIR)/modules", (%s))' % ", ".join('"%s"' % n for n in ported) in board
    assert 'freeze("modules", "_boot.py")' in board and 'freeze("../..", ("main.py", "boot.py"))' in board
    assert 'include("../../manifest.py")' in board
    top = set(os.listdir(FIRMWARE))
    want_modules = {f for f in top if f.endswith(".py")} - ON_FS - BUILD_ONLY
    want_packages = {d for d in top if os.path.isfile(os.path.join(FIRMWARE, d, "__init__.py"))}
    assert modules == want_modules
    assert packages == want_packages


def test_make_mpy_builds_what_deploy_copies(mp_built, tmp_path):
    out = str(tmp_path / "mpy")  # not build/mpy: other test runs may share the work tree
    p = subprocess.run(["make", "-s", "mpy", "MPY_OUT=" + out], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    built = set()
    for dirpath, _dirs, names in os.walk(out):
        built |= {os.path.relpath(os.path.join(dirpath, n), out) for n in names}
    want = set()
    for rel in portable.firmware_sources():
        if rel in BUILD_ONLY:
            continue
        want.add(rel if rel in ON_FS else rel[:-3] + ".mpy")
    assert built == want
    # the compiled board file imports on the real MicroPython (no machine at import time)
    r = subprocess.run([MICROPYTHON, "-c", "import board; print(board.__file__, board.LED_COUNT, board.PIN_MPU_INT)"],
                       cwd=out, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["board.mpy", "12", "25"]


FROZEN_MP = portable.MP32_FROZEN
FAKE_MPREMOTE = os.path.join(ROOT, "tests", "fake_mpremote.py")


def test_make_deploy_needs_a_port():
    p = subprocess.run(["make", "-s", "deploy"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "usage: make deploy PORT=" in p.stdout


def bowl_fs(tmp_path, files):
    fs = tmp_path / "bowl"
    for rel in files:
        path = fs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"old")
    return fs


def files_of(fs):
    return sorted(str(q.relative_to(fs)) for q in fs.rglob("*") if q.is_file())


def deploy(tmp_path, fs, micropython):
    log = tmp_path / "mpremote.log"
    env = dict(os.environ, FAKE_BOWL_FS=str(fs), FAKE_BOWL_MP=micropython, FAKE_LOG=str(log))
    p = subprocess.run(["make", "-s", "deploy", "PORT=/dev/ttyFAKE", "MPREMOTE_BIN=" + sys.executable + " "
                        + FAKE_MPREMOTE, "MPY_OUT=" + str(tmp_path / "mpy")], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    return p, log.read_text() if log.exists() else ""


STALE = ("board.mpy", "bobing/rules.mpy", "bobing/console.py", "bowl/app.mpy", "lib/ssd1306.mpy",
         "lib/umqtt/simple.mpy", "boot.py", "main.py", "data/journal.bin", "data/vbat.cal")


def test_deploy_onto_a_frozen_image_removes_every_shadow_and_copies_no_app(mp_built, tmp_path):
    # MicroPython imports from the filesystem before frozen modules: stale .mpy files of an earlier
    # `make deploy` ran instead of the firmware, from the heap (the old clean removed .py only)
    fs = bowl_fs(tmp_path, STALE)
    p, log = deploy(tmp_path, fs, FROZEN_MP)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "firmware: frozen" in p.stdout and "make flash" in p.stdout
    assert files_of(fs) == ["boot.py", "data/journal.bin", "data/vbat.cal", "main.py"]
    assert (fs / "main.py").read_bytes() != b"old", "main.py not copied"
    assert "cp boot.py main.py :" in log and "mip install" not in log and "bobing" not in log


def test_deploy_onto_a_stock_image_copies_the_app_and_removes_shadowing_sources(mp_built, tmp_path):
    fs = bowl_fs(tmp_path, STALE)
    p, log = deploy(tmp_path, fs, MICROPYTHON)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "firmware: stock" in p.stdout
    left = files_of(fs)
    assert "bobing/console.py" not in left  # would shadow bobing/console.mpy
    assert {"board.mpy", "bobing/console.mpy", "bowl/app.mpy", "lib/ssd1306.mpy", "boot.py", "main.py",
            "data/journal.bin", "data/vbat.cal"} <= set(left)
    assert "mip install ssd1306" in log and "cp -r bobing bowl board.mpy boot.py main.py :" in log
    # the copied app is the fresh one, and imports on the stock build
    assert (fs / "board.mpy").read_bytes() != b"old"
    r = subprocess.run([MICROPYTHON, "-c", "import board; print(board.PIN_BTN_MENU)"], cwd=str(fs),
                       capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == str(__import__("board").PIN_BTN_MENU), r.stdout + r.stderr


def test_device_clean_tells_the_firmware_and_keeps_data(mp_built, tmp_path):
    script = os.path.join(ROOT, "host_sim", "tools", "device_clean.py")
    with open(script) as f:
        code = f.read()
    for mp, kind in ((FROZEN_MP, "frozen"), (MICROPYTHON, "stock")):
        fs = bowl_fs(tmp_path / kind, ("data/journal.bin", "data/settings.txt", "notes.txt"))
        r = subprocess.run([mp, "-c", code], cwd=str(fs), capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip().splitlines()[-1] == "firmware: " + kind
        assert files_of(fs) == ["data/journal.bin", "data/settings.txt", "notes.txt"]


def make_flash(tmp_path, *args):
    log = tmp_path / "esptool.log"
    fake = tmp_path / "esptool"
    fake.write_text("#!/bin/sh\necho \"$@\" >> %s\n" % log)
    fake.chmod(0o755)
    p = subprocess.run(["make", "-s", "flash", "ESPTOOL=" + str(fake)] + list(args), cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    return p, log.read_text() if log.exists() else ""


def test_make_flash_checks_its_inputs_before_esptool(tmp_path):
    image = tmp_path / "firmware.bin"
    image.write_bytes(b"\xe9" + bytes(100))
    text = tmp_path / "notes.txt"
    text.write_text("not an image")
    for args, says in (([], "usage: make flash PORT="), (["PORT=/dev/ttyUSB9"], "usage: make flash PORT="),
                       (["PORT=/dev/ttyUSB9", "FIRMWARE=" + str(tmp_path / "nope.bin")], "no file"),
                       (["PORT=/dev/ttyUSB9", "FIRMWARE=" + str(text)], "not an ESP32 image"),
                       (["PORT=/dev/ttyUSB9", "FIRMWARE=" + str(image), "ERASE=yes"], "ERASE=1 or nothing")):
        p, log = make_flash(tmp_path, *args)
        assert p.returncode != 0 and says in p.stdout, (args, p.stdout, p.stderr)
        assert log == "", "esptool ran on bad input"
    p, log = make_flash(tmp_path, "PORT=/dev/ttyUSB9", "FIRMWARE=" + str(image))
    assert p.returncode == 0, p.stdout + p.stderr
    assert log.splitlines() == ["--chip esp32 --port /dev/ttyUSB9 --baud 460800 write-flash 0x1000 " + str(image)]
    (tmp_path / "esptool.log").unlink()
    p, log = make_flash(tmp_path, "PORT=/dev/ttyUSB9", "FIRMWARE=" + str(image), "ERASE=1")
    assert log.splitlines()[0] == "--chip esp32 --port /dev/ttyUSB9 erase-flash"
