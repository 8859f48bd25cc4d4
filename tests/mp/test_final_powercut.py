# Runs only on the MicroPython unix port: the 状元王中王's file (final.txt,
# bobing/final_play.py) on the real littlefs (vfs.VfsLfs2) over a RAM flash
# whose power goes at its k-th write or erase (tests/ramflash.py), for every k,
# while the fourth roll of a final is written (torn writes too): the next boot
# reads the final as it was before that roll or after it, never damaged and
# never gone, and goes on from there.
import gc
import sys
import vfs

from bobing import final_play as F
from bobing import game

sys.path.append("tests")  # the runner's working folder is the repo
from ramflash import RamFlash  # noqa: E402

NBLOCKS = 16
MNT = "/fcut"
ROLLS = ((4, 4, 4, 4, 1, 2), (1, 2, 3, 5, 6, 6), (4, 4, 4, 4, 1, 2), (4, 4, 4, 4, 1, 3))


def _mount(dev):
    vfs.mount(vfs.VfsLfs2(dev), MNT)


def _umount():
    try:
        vfs.umount(MNT)
    except OSError:
        pass


def _base():
    dev = RamFlash(NBLOCKS)
    vfs.VfsLfs2.mkfs(dev)
    _mount(dev)
    fp = F.FinalPlay(MNT, 4711, 3, "xiamen")
    for d in ROLLS[:3]:
        fp.apply(game.EV_ROLL, d)
    fp.save()
    _umount()
    return bytes(dev.data)


def _cut_every_op(torn):
    base = _base()
    k = 0
    seen = {3: 0, 4: 0}
    while True:
        gc.collect()
        dev = RamFlash(NBLOCKS, base, cut=k, torn=torn, quiet_read=True)
        _mount(dev)
        try:
            fp = F.load(MNT)
            fp.apply(game.EV_ROLL, ROLLS[3])
            fp.save()
        except OSError:
            if dev.image is None:
                raise
        _umount()
        if dev.image is None:
            return k, seen
        _mount(RamFlash(NBLOCKS, dev.image))
        try:
            fp = F.load(MNT)  # ValueError (damaged) or None (gone) fail the test
            n = len(fp.events)
            assert n in (3, 4), (k, n)
            assert [d for _kind, d in fp.events] == list(ROLLS[:n]), k
            seen[n] += 1
            if n == 3:  # the boot goes on: champion 1 rolls again in round 2 (1 and 3 tied)
                assert fp.final.contenders == [1, 3] and fp.final.turn == 1, k
        finally:
            _umount()
        k += 1


def test_a_roll_cut_at_every_flash_operation_leaves_the_old_or_the_new_final():
    for torn in (False, True):
        ops, seen = _cut_every_op(torn)
        assert ops >= 3 and seen[3] and seen[3] + seen[4] == ops, (torn, ops, seen)
