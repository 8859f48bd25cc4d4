# The power-cut scaffolding of tests/mp/*_powercut.py (MicroPython unix port
# only): the real littlefs (vfs.VfsLfs2) on tests/ramflash.py's RAM flash,
# mounted at one folder; a flash image made once; a run on a copy of it whose
# power goes at flash operation k (a write or an erase, torn or not); and the
# flash as it was at that instant, mounted again for the checks, as the next
# boot would find it. sweep() checks every cut point of a long run in ONE uncut
# run: before each operation k it mounts a copy of the flash as a cut there would
# leave it (the bytes so far, half of operation k's when torn) at a second folder
# and checks it, so the cost grows with the operations, not with their square
# (replaying the run from its start for each cut, as cut() does).
import gc
import io

import vfs
from ramflash import BS, RamFlash

_ERASED = b"\xff" * BS


class _Copy:
    """sweep()'s flash as a cut would leave it, reloaded before each check: its bytes in an
    io.BytesIO of its own (py/objstringio.c: make_new given a size allocates that much), so a
    read is seek + readinto, one memcpy that allocates nothing (py/stream.c: both return small
    ints) and a finaliser may read inside a collection. RamFlash's quiet_read copies a byte per
    loop turn instead: a check's littlefs makes thousands of small reads, and that loop was most
    of a sweep's time (test_journal_powercut: 50 s of 63). Writes stay within the buffer, so it
    never grows."""

    def __init__(self, blocks):
        self.blocks = blocks
        self.f = io.BytesIO(BS * blocks)  # room for the flash, allocated once; load() fills it

    def load(self, data, at=0):
        self.f.seek(at)
        self.f.write(data)

    def readblocks(self, block, buf, off=0):
        self.f.seek(block * BS + off)
        self.f.readinto(buf)

    def writeblocks(self, block, buf, off=None):
        self.f.seek(block * BS + (off or 0))
        self.f.write(buf)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BS
        if op == 6:  # erase
            self.load(_ERASED, arg * BS)
        return 0


class _Window:
    """One check's view of the shared copy of the flash: once the check is over its
    filesystem's files may still be closed by finalisers at a later collection; their
    writes must not land in the next check's copy, so a closed window drops them."""

    def __init__(self, dev):
        self.dev = dev
        self.live = True

    def readblocks(self, block, buf, off=0):
        if self.live:
            self.dev.readblocks(block, buf, off)

    def writeblocks(self, block, buf, off=None):
        if self.live:
            self.dev.writeblocks(block, buf, off)

    def ioctl(self, op, arg):
        if op == 6 and not self.live:
            return 0
        return self.dev.ioctl(op, arg)


class Flash:
    def __init__(self, mnt, blocks):
        self.mnt = mnt
        self.blocks = blocks
        self._copy = None  # sweep()'s _Copy

    def mount(self, dev):
        vfs.mount(vfs.VfsLfs2(dev), self.mnt)

    def umount(self):
        try:
            vfs.umount(self.mnt)
        except OSError:
            pass

    def image(self, fill=None):
        """A fresh littlefs, fill() run on it while mounted -> the flash's bytes."""
        dev = RamFlash(self.blocks)
        vfs.VfsLfs2.mkfs(dev)
        if fill is not None:
            self.mount(dev)
            try:
                fill()
            finally:
                self.umount()
        return bytes(dev.data)

    def cut(self, base, k, action, torn=False, quiet_read=False):
        """action(dev) on a flash from `base` whose power goes at operation k (-1: never)
        -> (dev, what action returned; None when the cut stopped it). dev.image is the
        flash at the cut (None: action finished first). quiet_read: for files the dead
        filesystem left open, whose finalisers read the flash inside a collection."""
        gc.collect()  # a flash image per trial: keep the heap unfragmented
        dev = RamFlash(self.blocks, base, cut=k, torn=torn, quiet_read=quiet_read)
        self.mount(dev)
        got = None
        try:
            got = action(dev)
        except OSError:  # the power went: whatever the bowl was doing stops here
            if dev.image is None:
                raise
        finally:
            self.umount()
        return dev, got

    def at_cut(self, dev, check, *args, same_buffer=False):
        """check(*args) on the flash as it was at dev's cut, mounted as the next boot
        finds it. same_buffer: reuse dev's buffer (no third image in the heap; only
        when nothing of the dead filesystem is left open to write through it)."""
        if same_buffer:
            dev.data[:] = dev.image
            dev.image = None
            dev.cut = -1
        else:
            dev = RamFlash(self.blocks, dev.image)
        self.mount(dev)
        try:
            return check(*args)
        finally:
            self.umount()

    def sweep(self, base, action, check, torn=None, want=None):
        """action(dev) once, uncut, on a flash from `base`; before each of its operations k
        (with want(k) true; every one by default) check(root, k, is_torn) on the flash as a
        cut at k would leave it (torn(k): half of k's bytes landed), mounted at `root` (the
        second folder, self.mnt + "x"). A check runs inside the run's flash operation, so
        the flash as it stood is all it sees. -> (operations of the run, cuts checked)."""
        gc.collect()
        dev = RamFlash(self.blocks, base)
        # one buffer for every cut's copy, kept for the next sweep (a new 96K one each time fragments
        # the heap until none fits); its reads allocate nothing (a finaliser may read in a collection)
        at_cut = self._copy
        if at_cut is None:
            at_cut = self._copy = _Copy(self.blocks)
        root = self.mnt + "x"
        checked = [0]
        busy = [False]

        def probe(k, a, buf):
            if busy[0]:  # a collection inside a check closed a file the run had left open
                raise AssertionError("operation %d of the run came from inside a check: the run "
                                     "must close its files (a finaliser wrote to its flash)" % k)
            if want is not None and not want(k):
                return
            busy[0] = True
            try:
                is_torn = torn is not None and torn(k)
                at_cut.load(dev.data)
                if is_torn:
                    at_cut.load(memoryview(buf)[:len(buf) // 2], a)
                w = _Window(at_cut)
                vfs.mount(vfs.VfsLfs2(w), root)
                try:
                    check(root, k, is_torn)
                finally:
                    vfs.umount(root)
                    w.live = False
                checked[0] += 1
            finally:
                busy[0] = False

        dev.probe = probe
        self.mount(dev)
        try:
            action(dev)
        finally:
            self.umount()
        return dev.ops, checked[0]

    def every_cut(self, base, action, check, torn=False):
        """action(dev) cut at operation k, then check(k) on the flash at the cut, for
        k = 0, 1, ... until action finishes uncut -> the cut points tried."""
        k = 0
        while True:
            dev, _ = self.cut(base, k, action, torn, quiet_read=True)
            if dev.image is None:
                return k
            self.at_cut(dev, check, k)
            k += 1
