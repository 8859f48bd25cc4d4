# A RAM flash for vfs.VfsLfs2 (MicroPython's extended block protocol:
# readblocks/writeblocks with an offset, ioctl 4/5/6), shared by the journal's
# tests and bench/journal_bench.py. It counts what littlefs does to it, and can
# lose power at flash operation number `cut` (0-based; writes and erases): that
# operation raises OSError, after half of its bytes landed when `torn`, and
# `image` keeps the bytes as they were at that instant. The device goes on
# working afterwards, so that the dead filesystem's file finalisers run
# harmlessly. `quiet_read`: copy reads with a loop, which allocates nothing
# (for heap_lock tests); a slice copy is faster.
BS = 4096  # an ESP32 flash sector
_ERASED = b"\xff" * BS


class RamFlash:
    def __init__(self, blocks, data=None, cut=-1, torn=False, quiet_read=False):
        self.blocks = blocks
        if data is not None:
            self.data = bytearray(data)
        else:  # one allocation, blanked in place (bytes * n then a bytearray of it held two copies)
            self.data = bytearray(BS * blocks)
            self.erase_all()
        self.cut = cut
        self.torn = torn
        self.quiet_read = quiet_read
        self.image = None
        self.probe = None
        self.ops = 0  # writes + erases
        self.writes = 0  # writeblocks calls (flash programs)
        self.bytes = 0  # bytes programmed
        self.erases = 0
        self.reads = 0

    def readblocks(self, block, buf, off=0):
        self.reads += 1
        a = block * BS + off
        if self.quiet_read:
            d = self.data
            for i in range(len(buf)):
                buf[i] = d[a + i]
        else:
            buf[:] = self.data[a:a + len(buf)]

    def _power_fails(self, a, buf):
        n = self.ops
        self.ops += 1
        if self.probe is not None:
            self.probe(n, a, buf)
        if n != self.cut:
            return False
        if self.torn:
            h = len(buf) // 2
            self.data[a:a + h] = buf[:h]
        self.image = bytes(self.data)
        return True

    def writeblocks(self, block, buf, off=None):
        a = block * BS + (off or 0)
        self.writes += 1
        self.bytes += len(buf)
        if self._power_fails(a, buf):
            raise OSError(5)  # EIO
        self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BS
        if op == 6:  # erase
            self.erases += 1
            a = arg * BS
            if self._power_fails(a, _ERASED):
                raise OSError(5)
            self.data[a:a + BS] = _ERASED
        return 0


    def erase_all(self):
        """Blank again, in place (no new buffer), its counters back to zero."""
        for b in range(self.blocks):
            self.data[b * BS:(b + 1) * BS] = _ERASED
        self.ops = self.writes = self.bytes = self.erases = self.reads = 0


_mounts = []
_made = [0]
_devs = {}  # blocks -> the one RamFlash of that size fresh_root reuses


def fresh_root(leaf="games", blocks=24):
    """A fresh, empty folder for a test's files: on MicroPython in a new littlefs
    (vfs.VfsLfs2) on a RamFlash, the previous one unmounted; on CPython a
    temporary folder. -> its path (not created yet: the code under test makes it)."""
    import sys
    if sys.implementation.name == "micropython":
        import gc

        import vfs
        while _mounts:
            vfs.umount(_mounts.pop())
        # One buffer per size, reused: a new 96K buffer per case fragments the heap until
        # none fits. Collect first, so the finalisers of files the old filesystem left
        # unreachable run now, on the old filesystem, and not later on the new one.
        gc.collect()
        dev = _devs.get(blocks)
        if dev is None:
            dev = _devs[blocks] = RamFlash(blocks)
        else:
            dev.erase_all()
        _made[0] += 1
        mnt = "/rf%d" % _made[0]
        vfs.VfsLfs2.mkfs(dev)
        vfs.mount(vfs.VfsLfs2(dev), mnt)
        _mounts.append(mnt)
        return mnt + "/" + leaf
    import tempfile
    return tempfile.mkdtemp() + "/" + leaf
