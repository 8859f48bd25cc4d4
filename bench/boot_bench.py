# Boot time against game length (a boot must not outlast the watchdog): a kiosk game of 100,
# 1,000 and 10,000 events on a real littlefs (vfs.VfsLfs2 on a RAM flash with
# the ESP32's 4096-byte sectors), then journal.recover() as the bowl's boot
# does it: from the checkpoint (at most journal.CHECKPOINT_EVERY + 1 events
# replayed), and, for comparison, the whole game replayed as a bowl without a
# usable checkpoint would. The per-event figure of the whole replay is the
# measurement behind host_sim/portable/fakes/chiptime.py's REPLAY_US_HOST. MicroPython unix port
# only (CPython has no VfsLfs2): `make bench` runs it there. Prints figures,
# asserts nothing.
import gc
import sys
import time

sys.path.insert(0, "firmware")
sys.path.insert(0, "tests")
import vfs

from bobing import game, journal, store
from ramflash import RamFlash

NB = 128  # 512 KB: room for 10,000 events (60 KB) and littlefs's copies
STOCK = {"yixiu": 50000, "erju": 20000, "sijin": 9000, "sanhong": 3000, "duitang": 900, "zhuangyuan": 300}
SECRET = bytes(range(16))


def play(j, n):
    """n events of a kiosk game with dice from a fixed LCG."""
    x = 2024
    t = j.table
    for _ in range(n):
        if not t.shakes_left:
            j.play(game.EV_CUSTOMER, None)
            continue
        d = []
        for _ in range(6):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            d.append(1 + (x >> 8) % 6)
        j.play(game.EV_ROLL, d)


def boot(root):
    """The median of 5 boots (the machine is shared) -> (us, events replayed, ok, count)."""
    times = []
    for _ in range(5):
        gc.collect()  # a boot starts with a clean heap (the app collects before play)
        r0 = journal.replayed()
        t0 = time.ticks_us()
        r = journal.recover(root, SECRET)
        times.append(time.ticks_diff(time.ticks_us(), t0))
        n = journal.replayed() - r0
        ok = r.journal is not None and not r.problems and not r.notes
        count = r.journal.count
        r.journal.close()
    times.sort()
    return times[2], n, ok, count


def flash_cost(n, every):
    """(erases, writeblocks) of playing n events with a checkpoint every `every`."""
    keep = journal.CHECKPOINT_EVERY
    journal.CHECKPOINT_EVERY = every
    dev = RamFlash(NB)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/cost")
    try:
        j = journal.start("/cost/games", "kiosk", seats=1, counts=STOCK, secret=SECRET)
        play(j, n)
        j.close()
    finally:
        vfs.umount("/cost")
        journal.CHECKPOINT_EVERY = keep
    return dev.erases, dev.writes


def run(n):
    dev = RamFlash(NB)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/boot")
    try:
        root = "/boot/games"
        j = journal.start(root, "kiosk", seats=1, counts=STOCK, secret=SECRET)
        play(j, n)
        j.close()
        size = store.size(root + "/g00000001.bbc")
        us, replayed, ok, count = boot(root)
        journal.remove_beside(root, j.game_id, journal.CKPT)  # as a game from firmware before checkpoints
        full_us, full_n, full_ok, _ = boot(root)
    finally:
        vfs.umount("/boot")
    print("%6d events: boot %5.1f ms (%3d events replayed from the checkpoint)%s;  whole replay %7.1f ms "
          "(%d events, %.0f us each)%s" % (count, us / 1000, replayed, "" if ok else " FAILED", full_us / 1000,
                                         full_n, full_us / full_n, "" if full_ok else " FAILED"))
    return size


def main():
    if sys.implementation.name != "micropython":
        print("boot_bench needs the MicroPython unix port (vfs.VfsLfs2)")
        return
    print("boot (journal.recover) against game length; checkpoint every %d events; kiosk game, VfsLfs2"
          % journal.CHECKPOINT_EVERY)
    for n in (100, 1000, 10000):
        size = run(n)
    e1, w1 = flash_cost(1000, journal.CHECKPOINT_EVERY)
    e0, w0 = flash_cost(1000, 1 << 30)
    print("checkpoints' flash cost over 1,000 events: %d erases and %d writeblocks more (%d and %d without); "
          "checkpoint file %d B" % (e1 - e0, w1 - w0, e0, w0, size))


main()
