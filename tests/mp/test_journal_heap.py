# Runs only on the MicroPython unix port: writing a roll to the journal on a
# real littlefs (vfs.VfsLfs2) allocates nothing: the record buffer is made
# once per game, and littlefs works in the buffers VfsLfs2 gave it at mount.
import micropython
import sys
import vfs

from bobing import game, journal

sys.path.append("tests")  # the runner's working folder is the repo
from ramflash import RamFlash


def test_append_allocates_nothing():
    dev = RamFlash(16, quiet_read=True)  # its reads allocate nothing either
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/jheap")
    try:
        j = journal.start("/jheap/games", seats=6)
        j.append(game.EV_START_TOTAL, 7)
        rolls = [bytes([1 + (i * 7 + k) % 6 for k in range(6)]) for i in range(16)]
        w0 = dev.writes
        n = 0
        micropython.heap_lock()
        try:
            # past littlefs's inline limit and across block copies
            for i in range(300):
                j.append(game.EV_ROLL, rolls[i & 15])
                n += 1
        finally:
            micropython.heap_unlock()
        assert n == 300 and j.count == 301
        assert dev.writes - w0 >= 300  # it really wrote (every append flushes)
        j.close()
        evs = []
        s = journal.scan(j.path, j.game_id, keep=evs)
        assert s.problem is None and len(evs) == 301 and evs[1] == (game.EV_ROLL, tuple(rolls[0]))
    finally:
        vfs.umount("/jheap")


def test_a_sealed_journal_feeds_its_running_mac_without_allocating():
    # a kiosk game with the claim secret: every record also goes through the seal's
    # running HMAC (hashlib's update works in place); only a seal computes digests
    dev = RamFlash(16, quiet_read=True)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/jheap")
    try:
        from bobing import seal
        j = journal.start("/jheap/games", "kiosk", None, 1, {"yixiu": 50}, "H1", b"s" * 16)
        assert j._sealer is not None
        roll = (1, 2, 3, 5, 6, 6)
        micropython.heap_lock()
        try:
            for i in range(100):
                j.append(game.EV_ROLL, roll)
        finally:
            micropython.heap_unlock()
        j.append(game.EV_ROLL, roll, True)  # a seal: digests, allocated
        j.close()
        c = seal.verify(j.path, b"s" * 16)
        assert c.bad is None and c.tail == 0 and c.sealed == j.count == journal.SEAL_SLOTS * 2 + 101
    finally:
        vfs.umount("/jheap")
