# micropython: -X heapsize=640K
# Runs only on the MicroPython unix port: the simulated bowl on its vfs partition (fakes/flash.py,
# the port's esp32.Partition) with MicroPython's own littlefs on it, mounted by board.mount() as
# the frozen _boot.py does at every reset. Its metadata blocks damaged (both superblock copies),
# littlefs no longer mounts it: the bowl neither loops (the port's inisetup.fs_corrupted()) nor
# plays; it says on its screen that its storage is damaged, Chinese first and English beside,
# and the person at it walks the repair: a family bowl with OK, a kiosk behind its PIN (or the
# attendant's key). The fresh filesystem keeps the settings.txt read back from the raw flash.
import sys

import framebuf

from bobing import console as C
from bobing import paint, screen
from bobing import settings as S

sys.path.append("tests")  # the runner's working folder is the repo
from bowlkit import PIN, press, roll, to_kiosk
from bowlrun import Stream, hal
from host_sim.portable.fakes.flash import Partition

BLOCKS = 40  # 160 KB: room for the files; the image lives in the heap


class _Frame(framebuf.FrameBuffer):
    """A 128x64 frame that keeps the 8x8 text drawn on it: [(y, x, text)]."""

    def __init__(self):
        super().__init__(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
        self.items = []

    def fill(self, c):
        self.items = []
        super().fill(c)

    def text(self, s, x, y, c=1):
        self.items.append((y + 4, x, s))
        super().text(s, x, y, c)


class _Painter(paint.Painter):
    def glyph(self, ch, x, y, c=1):
        self.fb.items.append((y + 8, x, ch))
        return super().glyph(ch, x, y, c)


def shown(sim):
    """What the bowl's screen says, top to bottom (its own drawing, read as text)."""
    fb = _Frame()
    sim.app._draw(screen.Screen(fb, "zh", _Painter(fb)))
    lines = []
    for y, x, t in sorted(fb.items):
        if lines and y - lines[-1][0] < 6:
            lines[-1][1].append(t)
        else:
            lines.append((y, [t]))
    return [("".join(p)).strip() for _, p in lines]


_n = [0]
_part = []


def _bowl():
    import vfs
    try:
        vfs.umount("/sd%d" % _n[0])  # the last test's bowl
    except OSError:
        pass
    _n[0] += 1
    if not _part:
        _part.append(Partition(BLOCKS))
    part = _part[0]
    part.erase_all()
    sim = hal.Sim("/sd%d/data" % _n[0], urandom=Stream(3), partition=part)  # a new bowl: its flash blank
    sim.step(100)
    return sim, part


def _damage(sim, part):
    """The superblock pair (blocks 0 and 1) scrambled, then the power goes and comes back."""
    part.damage((0, 1))
    sim.power_cut()
    sim.step(100)


def test_a_family_bowl_whose_storage_does_not_mount_is_repaired_with_ok():
    sim, part = _bowl()
    assert sim.console is not None and sim.board.storage is None  # formatted at its first boot
    sim.console.settings.seats = 6
    S.save(sim.console)
    roll(sim)
    _damage(sim, part)
    assert sim.console is None and sim.resets == ["power"]  # no game, and no boot loop
    lines = shown(sim)
    assert lines[:2] == ["存储损坏", "Storage damaged"], lines
    assert "确定:修复" in lines and "OK: repair" in lines and "settings readable" in lines, lines
    sim.step(3000)
    assert sim.resets == ["power"]  # it waits for the person: the watchdog is fed
    press(sim, "ok")
    lines = shown(sim)
    assert lines[:2] == ["确定:重建", "OK: make new"] and "留设置 清牌局" in lines, lines
    assert "games erased" in lines, lines
    press(sim, "ok")  # the fresh filesystem, then a restart into a new game
    assert sim.resets == ["power", "reset"], sim.resets
    c = sim.console
    assert c is not None and c.view == C.V_TURN and c.settings.seats == 6 and c.table.events == 0
    roll(sim)
    assert sim.console.table.events == 1


def test_a_kiosk_whose_storage_does_not_mount_asks_its_pin_first():
    sim, part = _bowl()
    to_kiosk(sim)
    bowl_id, record = sim.console.settings.bowl_id, sim.console.settings.pin
    _damage(sim, part)
    lines = shown(sim)
    assert lines[:2] == ["存储损坏", "Storage damaged"] and "确定:输密码" in lines, lines
    press(sim, "ok")
    assert shown(sim)[:2] == ["输入密码", "Enter PIN"]
    for _ in range(4):  # 0000: wrong
        press(sim, "ok")
    lines = shown(sim)
    assert "密码错误" in lines and "wrong PIN" in lines, lines
    press(sim, "ok")
    for d in PIN:
        for _ in range(int(d)):
            press(sim, "next")
        press(sim, "ok")
    assert shown(sim)[:2] == ["确定:重建", "OK: make new"]
    press(sim, "ok")
    assert sim.resets[-1] == "reset"
    s = sim.console.settings
    assert s.mode == "kiosk" and s.bowl_id == bowl_id and s.pin == record


def test_the_attendants_key_opens_the_repair_after_three_wrong_pins():
    sim, part = _bowl()
    to_kiosk(sim)
    _damage(sim, part)
    for _ in range(3):
        press(sim, "ok")
        for _ in range(4):
            press(sim, "ok")
    lines = shown(sim)
    assert lines[:2] == ["存储损坏", "Storage damaged"] and "请用钥匙" in lines and "turn the key" in lines, lines
    press(sim, "ok")  # no more PINs
    assert "请用钥匙" in shown(sim)
    sim.attendant_key()
    sim.step(450)
    assert shown(sim)[:2] == ["确定:重建", "OK: make new"]
    press(sim, "ok")
    assert sim.console.settings.mode == "kiosk"


def test_a_flash_whose_first_sectors_cannot_be_read_says_it_needs_repair():
    # reads of blocks 0 and 1 fail (the port's esp_partition_read -> OSError): littlefs cannot mount,
    # and a fresh filesystem there cannot be read back either: the bowl says so and waits
    sim, part = _bowl()
    sim.console.settings.seats = 6
    S.save(sim.console)
    part.damage((0, 1), unreadable=True)
    sim.power_cut()
    sim.step(100)
    lines = shown(sim)
    assert lines[:2] == ["存储损坏", "Storage damaged"] and "settings readable" in lines, lines
    press(sim, "ok")
    press(sim, "ok")  # the fresh filesystem: made, but not mountable
    lines = shown(sim)
    assert lines[:2] == ["存储损坏", "Storage damaged"] and "请送修" in lines and "needs repair" in lines, lines
    sim.step(10000)
    assert sim.resets == ["power"] and sim.console is None  # no loop, no restart: it waits there
