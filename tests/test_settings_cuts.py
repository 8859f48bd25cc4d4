# No file loss reopens a kiosk: a kiosk bowl set up with its own PIN,
# then its settings.txt cut at every length, or one of its files deleted, and
# booted into a real Console over a real folder. Every boot must be a kiosk
# (never a family bowl), its PIN never the default 1234: the kiosk's own PIN
# while the file still holds the whole pin line, else lost (said; maintenance
# mode's `make pin` sets a new one). tests/test_settings.py probes each value.
import os
import subprocess
import sys

import portable
import pytest

from bobing import console as C
from bobing import settings as S
from bobing import vocab

PIN = "5678"


@pytest.fixture(scope="module")
def kiosk_files(tmp_path_factory):
    """The files of a kiosk set up with PIN 5678 that has a kiosk game on flash."""
    root = str(tmp_path_factory.mktemp("kiosk"))
    c = C.Console(root, 0, os.urandom, has_sensor=False)
    c.settings.mode = "kiosk"
    c.settings.pin = S.pin_record(PIN, os.urandom(16))
    S.save(c)
    c.new_game()
    assert c.table.kiosk
    c.j.close()
    files = {}
    for name in os.listdir(root):
        with open(os.path.join(root, name), "rb") as f:
            files[name] = f.read()
    return files


def _boot(tmp_path, files, n):
    root = tmp_path / ("b%d" % n)
    root.mkdir()
    for name, data in files.items():
        (root / name).write_bytes(data)
    return C.Console(str(root), 0, os.urandom, has_sensor=False)


def _shown(c):
    seen = [a[0] for a in c._notices]
    if c.view == C.V_NOTICE:
        seen.insert(0, c.arg[0])
    return seen


def _is_damaged_kiosk(c, pin_kept):
    s = c.settings
    assert s.mode == "kiosk" and c.table.kiosk, (s.mode, c.log)
    assert vocab.N_SETTINGS in _shown(c), c.log  # said, never silent
    if pin_kept:
        assert S.pin_check(s.pin, PIN) and not c.settings.pin_lost
    else:
        assert s.pin == "" and c.settings.pin_lost, c.log  # never 1234
    c.press(C.B_OK, C.PRESS)
    c.press(C.B_MENU, C.PRESS)
    c.j.close()


def test_every_cut_and_deletion_of_a_kiosk_s_settings_is_a_damaged_kiosk(kiosk_files, tmp_path):
    full = kiosk_files[S.SETTINGS_FILE]
    pin_end = full.index(b"\npin=") + full[full.index(b"\npin=") + 1:].index(b"\n") + 1  # the pin line's "\n"
    counts = {"kept": 0, "lost": 0}
    for n in range(len(full)):  # every cut short of the whole file (the whole minus "\n" still checks)
        files = dict(kiosk_files)
        files[S.SETTINGS_FILE] = full[:n]
        c = _boot(tmp_path, files, n)
        if n == len(full) - 1:  # only the last newline gone: the checksum line still reads
            assert c.settings.mode == "kiosk" and S.pin_check(c.settings.pin, PIN) and _shown(c) == []
            c.j.close()
            continue
        kept = n > pin_end
        _is_damaged_kiosk(c, kept)
        counts["kept" if kept else "lost"] += 1
    assert counts["kept"] + counts["lost"] == len(full) - 1 and counts["lost"] > 100 and counts["kept"] > 20
    # settings.txt deleted: beside claim.key, and with claim.key gone too (the kiosk's journal says it)
    for k, gone in enumerate(((S.SETTINGS_FILE,), (S.SETTINGS_FILE, S.SECRET_FILE))):
        files = dict((name, data) for name, data in kiosk_files.items() if name not in gone)
        _is_damaged_kiosk(_boot(tmp_path, files, 1000 + k), False)


def test_a_deleted_claim_key_or_pin_count_keeps_the_kiosk_and_its_pin(kiosk_files, tmp_path):
    files = dict((name, data) for name, data in kiosk_files.items() if name != S.SECRET_FILE)
    c = _boot(tmp_path, files, 0)
    assert c.settings.mode == "kiosk" and S.pin_check(c.settings.pin, PIN)
    assert _shown(c) and S.SECRET_FILE in c.arg[1]  # a new secret: said (tell the counter)
    c.j.close()
    # pin.txt (the wrong PINs in a row) deleted: a lock, never a fresh count of tries
    assert S.PIN_FILE in kiosk_files
    files = dict((name, data) for name, data in kiosk_files.items() if name != S.PIN_FILE)
    c = _boot(tmp_path, files, 1)
    assert S.pin_check(c.settings.pin, PIN)
    c.press(C.B_MENU, C.PRESS)
    assert c.view == C.V_NOTICE and c.arg[0] == vocab.N_LOCKED
    c.j.close()


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE_MPREMOTE = os.path.join(ROOT, "tests", "fake_mpremote.py")


def _make_pin(tmp_path, fs, pin):
    env = dict(os.environ, FAKE_BOWL_FS=str(fs), FAKE_BOWL_MP=portable.MP32_FROZEN, FAKE_LOG=str(tmp_path / "log"),
               PIN=pin)
    return subprocess.run(["make", "-s", "pin", "PORT=/dev/ttyFAKE", "DATA=data",
                           "MPREMOTE_BIN=" + sys.executable + " " + FAKE_MPREMOTE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_a_lost_pin_is_set_again_only_in_maintenance_mode(mp_built, kiosk_files, tmp_path):
    # the kiosk's settings.txt is lost: PIN lost (said); the attendant opens the case, holds MENU
    # at RESET and runs `make pin` from a computer (the bowl here: the frozen unix build)
    fs = tmp_path / "bowl"
    data = fs / "data"
    data.mkdir(parents=True)
    for name, b in kiosk_files.items():
        if name != S.SETTINGS_FILE:
            (data / name).write_bytes(b)
    c = C.Console(str(data), 0, os.urandom, has_sensor=False)
    assert c.settings.pin_lost and c.settings.mode == "kiosk"
    c.j.close()
    before = (data / S.SETTINGS_FILE).read_bytes()
    for bad in ("1234", "12a4", "123"):  # refused on the computer: nothing reaches the bowl
        p = _make_pin(tmp_path, fs, bad)
        assert p.returncode == 2 and "error: PIN:" in p.stderr and "Traceback" not in p.stderr, (bad, p.stderr)
        assert (data / S.SETTINGS_FILE).read_bytes() == before and not (tmp_path / "log").exists()
    p = _make_pin(tmp_path, fs, "2468")
    assert p.returncode == 0 and "PIN set (kiosk mode)" in p.stdout, p.stdout + p.stderr
    assert not os.path.exists(os.path.join(ROOT, "build", "pin_set.py"))  # the script with the PIN is gone
    assert b"2468" not in (data / S.SETTINGS_FILE).read_bytes()
    c = C.Console(str(data), 1000, os.urandom, has_sensor=False)
    assert not c.settings.pin_lost and c.settings.mode == "kiosk" and S.pin_check(c.settings.pin, "2468")
    assert _shown(c) == []
    c.j.close()


def test_set_pin_refuses_a_settings_file_it_cannot_trust(tmp_path):
    root = str(tmp_path)
    assert "4 to 8 digits" in S.set_pin(root, "12", C.Settings())
    assert "not the default" in S.set_pin(root, "1234", C.Settings())
    assert "missing or damaged" in S.set_pin(root, "2468", C.Settings())  # no settings.txt: boot first
    (tmp_path / S.SETTINGS_FILE).write_bytes(b"mode=kiosk\npin=\n")  # no checksum
    assert "missing or damaged" in S.set_pin(root, "2468", C.Settings())
    assert (tmp_path / S.SETTINGS_FILE).read_bytes() == b"mode=kiosk\npin=\n"
