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
MICROPYTHON = os.path.join(ROOT, "build", "mp", "unix32-stock", "micropython")
sys.path.insert(0, os.path.join(ROOT, "host_sim", "tools"))
import make_package_json  # noqa: E402

ON_FS = {"boot.py", "main.py"}  # MicroPython runs these by name from the filesystem
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
    assert 'include("$(PORT_DIR)/boards/manifest.py")' in board, "keep the port's own modules"
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


def test_make_deploy_needs_a_port_and_uses_mpremote():
    p = subprocess.run(["make", "-s", "deploy"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "usage: make deploy PORT=" in p.stdout
    p = subprocess.run(["make", "-n", "deploy", "PORT=/dev/ttyUSB9"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "mpremote connect /dev/ttyUSB9 mip install ssd1306" in p.stdout
    assert "mpremote connect /dev/ttyUSB9 run host_sim/tools/device_clean.py" in p.stdout
    assert "mpremote connect /dev/ttyUSB9 cp -r bobing bowl board.mpy boot.py main.py : + reset" in p.stdout


def test_device_clean_removes_shadowing_py_only(mp_built, tmp_path):
    # run the device-side script on the real MicroPython in a folder laid out like the bowl
    for rel in ("board.py", "board.mpy", "main.py", "bobing/rules.py", "bobing/rules.mpy",
                "bowl/app.py", "data/journal.bin"):
        path = tmp_path / rel
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"x")
    script = os.path.join(ROOT, "host_sim", "tools", "device_clean.py")
    p = subprocess.run([MICROPYTHON, script], cwd=str(tmp_path), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    left = sorted(str(q.relative_to(tmp_path)) for q in tmp_path.rglob("*") if q.is_file())
    assert left == sorted(["bobing/rules.mpy", "board.mpy", "data/journal.bin", "main.py"])
