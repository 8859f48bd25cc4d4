# Runs only on the MicroPython unix port: the bowl's settings files on the real
# littlefs (vfs.VfsLfs2) over a RAM flash whose power goes at its k-th write or
# erase (tests/ramflash.py), for every k:
#  - the wrong-PIN count going from 2 to 3 (the third wrong PIN): after the
#    cut it reads 2 or 3, never nothing, never garbage, so a cut cannot lift
#    or skip the lock;
#  - the first boot of a new firmware over an old settings.txt (PIN 4321 and
#    the claim secret in plain text): after the cut, the next boot still has
#    that PIN and that secret (moved to claim.key, the PIN hashed).
import os
import sys

from bobing import console as C
from bobing import settings as S

sys.path.append("tests")  # the runner's working folder is the repo
from powercut import Flash

NBLOCKS = 16  # 64 KB: room for the files, two images fit the 32-bit port's heap
MNT = "/scut"
FLASH = Flash(MNT, NBLOCKS)
SECRET = "00112233445566778899aabbccddeeff"
OLD = ("mode=kiosk\nprofile=xiamen\nkiosk_profile=kiosk\nseats=10\nlang=zh\npin=4321\nbowl_id=0042\n"
       "secret=%s\nstock=yixiu=5\nidle_min=5\n" % SECRET)


def _image(files):
    def fill():
        for name, text in files:
            f = open(MNT + "/" + name, "w")
            f.write(text)
            f.close()
    return FLASH.image(fill)


def test_the_pin_count_survives_a_cut_at_every_write():
    base = _image([(S.PIN_FILE, "2\n")])

    def check(k):
        got = S.read(MNT, S.PIN_FILE)
        assert got in (b"2\n", b"3\n"), (k, got)

    n = FLASH.every_cut(base, lambda dev: S.write(MNT, S.PIN_FILE, "3\n"), check)
    print("pin count: %d cut points" % n)
    assert n >= 2, n


def test_moving_an_old_settings_file_on_survives_a_cut_at_every_write():
    base = _image([(S.SETTINGS_FILE, OLD)])

    def boot(dev=None):
        c = C.Console(MNT, 0, os.urandom, has_sensor=False)
        if c.j is not None:
            c.j.close()
        return c

    def check(k):
        c = boot()
        s = c.settings
        assert s.secret == SECRET, (k, s.secret, c.log)
        assert S.pin_check(s.pin, "4321"), (k, c.log)
        assert (s.mode, s.bowl_id, s.stock) == ("kiosk", "0042", {"yixiu": 5}), k
        text = S.read(MNT, S.SETTINGS_FILE)
        # the plain PIN is no line of it (the hash's hex may well hold "4321": 1 run in ~100 did)
        assert b"\npin=4321\n" not in b"\n" + text and SECRET.encode() not in text, (k, text)

    n = FLASH.every_cut(base, boot, check)
    print("old settings moved on: %d cut points" % n)
    assert n >= 5, n
