# Runs only on the MicroPython unix port: writing a roll to the journal on a
# real littlefs (vfs.VfsLfs2) allocates nothing: the record buffer is made
# once per game, and littlefs works in the buffers VfsLfs2 gave it at mount.
import micropython
import vfs

from bobing import game, journal

BS = 4096
NB = 16


class Flash:
    """RAM flash that itself allocates nothing per call (a loop, not a slice
    copy, on read), so that heap_lock measures the journal and littlefs only."""

    def __init__(self):
        self.data = bytearray(b"\xff" * (BS * NB))
        self.writes = 0

    def readblocks(self, block, buf, off=0):
        a = block * BS + off
        d = self.data
        for i in range(len(buf)):
            buf[i] = d[a + i]

    def writeblocks(self, block, buf, off=None):
        a = block * BS + (off or 0)
        self.data[a:a + len(buf)] = buf
        self.writes += 1

    def ioctl(self, op, arg):
        if op == 4:
            return NB
        if op == 5:
            return BS
        if op == 6:
            d = self.data
            for i in range(arg * BS, (arg + 1) * BS):
                d[i] = 255
        return 0


def test_append_allocates_nothing():
    dev = Flash()
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
