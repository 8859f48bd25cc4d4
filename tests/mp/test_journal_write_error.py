# Runs only on the MicroPython unix port: a one-off flash write error during a
# roll, on a real littlefs (vfs.VfsLfs2). The ESP32 port's partition driver
# raises OSError when esp_partition_write/erase fails (ports/esp32/esp32_partition.c,
# check_esp_err); the flash then works again. The roll must not count: no
# record of it committed (the console shows a flash notice and the roll is not
# shown), whatever the console does next -- close the file, resume from flash,
# lose power -- and the game goes on from the events before it.
import sys
import vfs

from bobing import game, journal

sys.path.append("tests")  # the runner's working folder is the repo
from ramflash import RamFlash

MNT = "/jwerr"
ROOT = MNT + "/games"
ROLL = (4, 4, 4, 4, 1, 2)  # 四进: pays a prize


def _session(at):
    """A roll whose write meets one failing flash operation, `at` operations into
    it -> (events before, events on flash after the console's error path, a
    boot's count, whether the write failed)."""
    dev = RamFlash(24)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), MNT)
    try:
        j = journal.start(ROOT, "kiosk", None, 1, {"sijin": 50}, "5F", b"k" * 16)
        for _ in range(40):  # past littlefs's inline limit: each sync copies the file's last block
            if not j.table.shakes_left:
                j.play(game.EV_CUSTOMER, None)
            j.play(game.EV_ROLL, (2, 2, 3, 3, 5, 6))
        if not j.table.shakes_left:
            j.play(game.EV_CUSTOMER, None)
        before = j.count
        dev.cut = dev.ops + at
        failed = False
        try:
            j.play(game.EV_ROLL, ROLL)
        except OSError:
            failed = True
        dev.cut = -1
        if failed:
            j.close()  # the console's error path (console._play), then it resumes from flash
            r = journal.recover(ROOT, b"k" * 16)
            after = r.journal.count
            r.journal.close()
        else:
            j.close()
            after = j.count
        boot = journal.recover(ROOT, b"k" * 16).journal
        n = boot.count
        boot.close()
        return before, after, n, failed
    finally:
        vfs.umount(MNT)


def test_a_roll_whose_flash_write_failed_is_not_committed():
    failures = 0
    for at in range(12):
        before, after, boot, failed = _session(at)
        if failed:
            failures += 1
            assert after == before and boot == before, (at, before, after, boot)
        else:
            assert after == boot == before + 1, (at, before, after, boot)
    assert failures >= 2, failures
