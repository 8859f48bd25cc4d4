# Runs only on the MicroPython unix port: the 状元王中王's file (final.txt,
# bobing/final_play.py) on the real littlefs (vfs.VfsLfs2) over a RAM flash
# whose power goes at its k-th write or erase (tests/ramflash.py), for every k,
# while the fourth roll of a final is written (torn writes too): the next boot
# reads the final as it was before that roll or after it, never damaged and
# never gone, and goes on from there.
import sys

from bobing import final_play as F
from bobing import game

sys.path.append("tests")  # the runner's working folder is the repo
from powercut import Flash

NBLOCKS = 16
MNT = "/fcut"
FLASH = Flash(MNT, NBLOCKS)
ROLLS = ((4, 4, 4, 4, 1, 2), (1, 2, 3, 5, 6, 6), (4, 4, 4, 4, 1, 2), (4, 4, 4, 4, 1, 3))


def _base():
    def fill():
        fp = F.FinalPlay(MNT, 4711, 3, "xiamen")
        for d in ROLLS[:3]:
            fp.apply(game.EV_ROLL, d)
        fp.save()
    return FLASH.image(fill)


def _roll(dev):
    fp = F.load(MNT)
    fp.apply(game.EV_ROLL, ROLLS[3])
    fp.save()


def _cut_every_op(torn):
    seen = {3: 0, 4: 0}

    def check(k):
        fp = F.load(MNT)  # ValueError (damaged) or None (gone) fail the test
        n = len(fp.events)
        assert n in (3, 4), (k, n)
        assert [d for _kind, d in fp.events] == list(ROLLS[:n]), k
        seen[n] += 1
        if n == 3:  # the boot goes on: champion 1 rolls again in round 2 (1 and 3 tied)
            assert fp.final.contenders == [1, 3] and fp.final.turn == 1, k

    return FLASH.every_cut(_base(), _roll, check, torn), seen


def test_a_roll_cut_at_every_flash_operation_leaves_the_old_or_the_new_final():
    for torn in (False, True):
        ops, seen = _cut_every_op(torn)
        assert ops >= 3 and seen[3] and seen[3] + seen[4] == ops, (torn, ops, seen)
