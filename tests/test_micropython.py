"""The real MicroPython v1.28.0, built from pinned source by `make mp` (build/mp/):
every firmware file through the pinned mpy-cross; the firmware's manifests through
MicroPython's own tools/makemanifest.py; the portable tests on two 32-bit unix
ports (the ESP32's word size: 31-bit small ints, 4-byte pointers):

  unix32-frozen  the firmware and the simulated hardware frozen in, as the bowl
                 holds its code in flash (tests/boards/unix_frozen/manifest.py):
                 every `# micropython:` module and every tests/mp module
  unix32-stock   nothing of the bowl frozen; the firmware imported as .mpy files
                 into the heap (the stock-firmware route): the same modules but
                 STOCK_SKIPPED, long pure-logic runs whose bytecode and result
                 are the same wherever the code lives
"""
import ast
import os
import re
import subprocess
import sys

import pytest

import portable

ROOT = portable.ROOT
MPB = portable.MPB
MP_DIR = os.path.join(MPB, "micropython")
MPY_CROSS = portable.MPY_CROSS
STOCK_SKIPPED = {"test_rules", "test_fairness", "test_journal_powercut", "test_grant_powercut"}

# Modules built into MicroPython v1.28.0's ESP32 port (C modules, not frozen):
# ports/esp32/mpconfigport.h (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES, MICROPY_PY_MACHINE,
# _NETWORK, _ESPNOW, _THREAD, _ONEWIRE; not _BLUETOOTH, which the bowl's board turns off), ports/esp32/modesp.c (esp),
# modesp32.c (esp32), extmod/modframebuf.c, modhashlib.c, modbinascii.c, ...
ESP32_BUILTIN = {
    "array", "binascii", "builtins", "cmath", "collections", "cryptolib", "deflate",
    "errno", "esp", "esp32", "espnow", "framebuf", "gc", "hashlib", "heapq", "io", "json", "machine",
    "math", "micropython", "network", "onewire", "os", "platform", "random", "re", "select",
    "socket", "struct", "sys", "time", "tls", "uctypes", "vfs", "_thread", "_onewire", "_espnow",
    "_asyncio"}


@pytest.fixture(scope="session")
def built(mp_built):
    return mp_built


def compile_firmware(out_dir):
    """mpy-cross every firmware .py into out_dir, and micropython-lib's ssd1306 beside them (what
    `mip install ssd1306` puts on a stock bowl); returns {relpath: (rc, stderr)}."""
    from host_sim import compat
    results = {}
    for rel, src in [(r, os.path.join(portable.FIRMWARE, r)) for r in portable.firmware_sources()] + [
            ("ssd1306.py", os.path.join(compat.SSD1306, "ssd1306.py"))]:
        dst = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        p = subprocess.run([MPY_CROSS, "-o", dst, src], capture_output=True, text=True)
        results[rel] = (p.returncode, p.stderr)
    return results


@pytest.fixture(scope="session")
def mpy_build(built, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    results = compile_firmware(out)
    return out, results


@pytest.mark.parametrize("rel", portable.firmware_sources())
def test_mpy_cross_compiles(mpy_build, rel):
    rc, err = mpy_build[1][rel]
    assert rc == 0, "mpy-cross failed on firmware/%s:\n%s" % (rel, err)


def run_on(binary, flags, fw, directory, name):
    return subprocess.run([binary] + flags + [os.path.join(portable.TESTS, "mp_runner.py"), fw, directory, name],
                          capture_output=True, text=True, timeout=1200, cwd=ROOT)


RUNS = [pytest.param(build, *m, id="%s-%s" % (build, m[0]))
        for build in ("frozen", "stock") for m in portable.modules()
        if not (build == "stock" and m[0] in STOCK_SKIPPED)]


@pytest.mark.parametrize("build,name,directory,flags", RUNS)
def test_on_unix_port(built, mpy_build, build, name, directory, flags):
    if build == "frozen":
        fw = "frozen"
    else:
        fw, results = mpy_build
        bad = [r for r, (rc, _) in results.items() if rc]
        assert not bad, "firmware did not compile: %s" % bad
    p = run_on(built[build], flags.get(build, flags[""]), fw, directory, name)
    print(p.stdout[-4000:], p.stderr[-4000:])
    assert p.returncode == 0, "unix32-%s run of %s failed:\n%s\n%s" % (build, name, p.stdout[-6000:], p.stderr[-3000:])
    assert " 0 failed" in p.stdout


def test_builds_are_32_bit_and_frozen_as_said(built, mpy_build, tmp_path):
    code = ("import sys\nprint(sys.maxsize)\nimport bobing.game\nfrom host_sim.portable.fakes import bowl\n"
            "print(bobing.game.__file__, bowl.__file__)")
    p = subprocess.run([built["frozen"], "-c", code], capture_output=True, text=True, cwd=str(tmp_path), timeout=60)
    assert p.returncode == 0, p.stderr
    # run outside the tree: only what is frozen can be imported
    assert p.stdout.split() == [str(2 ** 31 - 1), "bobing/game.py", "host_sim/portable/fakes/bowl.py"]
    p = subprocess.run([built["stock"], "-c", "import sys\nprint(sys.maxsize)\nimport bobing.game"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.stdout.split()[0] == str(2 ** 31 - 1)
    assert "ImportError" in p.stdout, "the stock build must not hold the bowl's code"


def is_firmware_module(name):
    path = os.path.join(portable.FIRMWARE, *name.split("."))
    return os.path.isfile(path + ".py") or os.path.isfile(os.path.join(path, "__init__.py"))


def firmware_imports():
    """{module name: first firmware file that imports it}, every import in every file
    (those inside functions too: modules loaded on demand must be on the bowl as well)."""
    found = {}
    for rel in portable.firmware_sources():
        if rel.endswith("manifest.py"):
            continue
        with open(os.path.join(portable.FIRMWARE, rel), encoding="utf-8") as f:
            tree = ast.parse(f.read(), rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module] + ["%s.%s" % (node.module, a.name) for a in node.names  # submodules
                                         if is_firmware_module("%s.%s" % (node.module, a.name))]
            else:
                continue
            for n in names:
                found.setdefault(n, rel)
    return found


def frozen_names(manifest, port, tmp_path, mpy_cross_flags=""):
    """Run MicroPython's tools/makemanifest.py on a board manifest -> frozen module names."""
    bdir = tmp_path / "build"
    (bdir / "genhdr").mkdir(parents=True)
    # mpy-tool needs the port's ROM qstrs; the unix build's (a subset question only: which qstrs
    # are already in ROM) stand in for the ESP32's, which cannot be built here
    qstr = os.path.join(os.path.dirname(portable.MP32_FROZEN), "genhdr", "qstrdefs.preprocessed.h")
    (bdir / "genhdr" / "qstrdefs.preprocessed.h").write_bytes(open(qstr, "rb").read())
    out = tmp_path / "frozen_content.c"
    p = subprocess.run([sys.executable, os.path.join(MP_DIR, "tools", "makemanifest.py"), "-o", str(out),
                        "-b", str(bdir), "--mpy-cross-flags=" + mpy_cross_flags,
                        "-v", "MPY_DIR=" + MP_DIR, "-v", "PORT_DIR=" + os.path.join(MP_DIR, "ports", port),
                        "-v", "MPY_LIB_DIR=" + os.path.join(MPB, "micropython-lib"), manifest],
                       capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, MICROPY_MPYCROSS=MPY_CROSS))
    assert p.returncode == 0, "makemanifest.py failed on %s:\n%s%s" % (manifest, p.stdout, p.stderr)
    text = out.read_text()
    names = re.search(r"mp_frozen_names\[\] = \{(.*?)\};", text, re.S).group(1)
    return {n[:-3].replace("/__init__", "").replace("/", ".")
            for n in re.findall(r'"([^"\\]+\.py)\\0"', names)}


@pytest.fixture(scope="module")
def esp32_frozen(built, tmp_path_factory):
    return frozen_names(os.path.join(ROOT, "firmware", "boards", "BOBING_ESP32", "manifest.py"), "esp32",
                        tmp_path_factory.mktemp("esp32"), "-march=xtensawin")  # the ESP32 port's mpy-cross flags


def test_esp32_board_manifest_freezes_everything_the_firmware_imports(esp32_frozen):
    frozen = esp32_frozen
    assert {"ssd1306", "neopixel", "asyncio", "board", "bobing.game", "bowl.app"} <= frozen
    # main.c runs the frozen _boot.py, then boot.py and main.py, frozen ones first (pyexec.c):
    # the bowl's own three, so that a filesystem that does not mount cannot take them away
    assert {"_boot", "boot", "main", "bowl.storage", "bowl.repair", "flashbdev"} <= frozen
    missing = []
    for name, where in sorted(firmware_imports().items()):
        if name in frozen or name in ESP32_BUILTIN:
            continue
        missing.append("%s (imported by firmware/%s)" % (name, where))
    assert not missing, "not frozen by firmware/boards/BOBING_ESP32/manifest.py nor built into the ESP32 port: " \
        + ", ".join(missing)


def test_unix_manifest_freezes_the_same_bowl(esp32_frozen, tmp_path):
    esp = esp32_frozen
    unix = frozen_names(os.path.join(ROOT, "tests", "boards", "unix_frozen", "manifest.py"), "unix", tmp_path)
    bowl = {n for n in esp if n.split(".")[0] in ("board", "bobing", "bowl", "ssd1306")}
    assert bowl and bowl <= unix, sorted(bowl - unix)
    assert {"host_sim.portable.fakes." + n for n in ("bowl", "mpu6050", "wlan")} | {"asyncio"} <= unix
