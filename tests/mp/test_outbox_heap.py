# Runs only on the MicroPython unix port: what the outbox allocates to follow the
# game being played (bobing/outbox.py). With the journal on a real littlefs
# (vfs.VfsLfs2), each read after one more roll costs the same small amount
# however long the game is, where reading the game again whole costs its length.
import gc
import sys
import vfs

from bobing import game, journal, outbox

sys.path.append("tests")  # the runner's working folder is the repo
from game_check import Lcg
from ramflash import RamFlash

SECRET = b"outbox heap key!"
# Bytes Outbox.next() may allocate to read one appended record on the 32-bit
# frozen build: the folder listed, the file opened (twice: the records, then the
# last one again to know the file later), the chunk buffer, the event's
# game.Outcome, and for an award its claim code and payload (measured: ~2.3 KB,
# ~3.7 KB with an award; bench/net_heap.py prints it).
PER_READ = 4608
# Bytes a step of catching up may allocate (garbage, collected as the net task's
# pauses allow): the first builds the game's table from its header (measured
# ~16 KB), each further one replays at most outbox.STEP records (~23 KB: every
# event's game.Outcome). Before, a boot's first call read the game whole: its
# length decided.
FIRST_BYTES = 24576
STEP_BYTES = 28672


def _alloc(f):
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    try:
        r = f()
        return gc.mem_alloc() - a0, r
    finally:
        gc.enable()


def test_following_the_game_allocates_per_record_not_per_game():
    dev = RamFlash(32, quiet_read=True)  # its reads allocate nothing (the ESP32's flash driver is C)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/obheap")
    try:
        j = journal.start("/obheap/games", "kiosk", None, 1, {"yixiu": 2000}, "5F", SECRET)
        rnd = Lcg(3)

        def play():
            if j.table.shakes_left:
                j.play(game.EV_ROLL, [1 + rnd(6) for _ in range(6)])
            else:
                j.play(game.EV_CUSTOMER, None)
            j.fold()  # at rest after it (bowl/app.py): what the outbox reads
        for _ in range(400):
            play()
        box = outbox.Outbox("/obheap/games", "midautumn")
        first, item = _alloc(box.next)  # a boot's first step: the game's header and table
        step = 0
        while item is None and box.busy:  # then at most outbox.STEP records a step
            a, item = _alloc(box.next)
            step = max(step, a)
        worst = 0
        reads = 0
        for _ in range(60):
            while item is not None or box.busy:
                if item is not None:
                    box.sent(item[2], item[3])
                item = box.next()
            play()
            a, item = _alloc(box.next)
            worst = max(worst, a)
            reads += 1
        assert reads == 60 and box.cursor[1] > 100
        assert worst <= PER_READ, "one record read cost %d bytes, budget %d" % (worst, PER_READ)
        assert first <= FIRST_BYTES and step <= STEP_BYTES, (first, step, worst)  # not the game's length
        j.close()
    finally:
        vfs.umount("/obheap")
