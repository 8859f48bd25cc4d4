# The power-cut scaffolding of tests/mp/*_powercut.py (MicroPython unix port
# only): the real littlefs (vfs.VfsLfs2) on tests/ramflash.py's RAM flash,
# mounted at one folder; a flash image made once; a run on a copy of it whose
# power goes at flash operation k (a write or an erase, torn or not); and the
# flash as it was at that instant, mounted again for the checks, as the next
# boot would find it.
import gc

import vfs
from ramflash import RamFlash


class Flash:
    def __init__(self, mnt, blocks):
        self.mnt = mnt
        self.blocks = blocks

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
