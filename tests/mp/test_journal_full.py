# Runs only on the MicroPython unix port: repairing a damaged journal on a real
# littlefs (vfs.VfsLfs2) that is full. The repair copies the good
# prefix to a new file; with no room for it, finished games are pruned first,
# and if there is still no room the game is resumed as it stands (read-only,
# a FLASH_FULL problem) with the file untouched. Never: a half-written .tmp
# left behind, a new game at 0 events while the old one's events stay unread.
import os
import sys
import vfs

from bobing import game, journal

sys.path.append("tests")  # the runner's working folder is the repo
from journal_probes import log_lines
from journal_probes import read_file as _read
from ramflash import RamFlash

MNT = "/jfull"
ROOT = MNT + "/games"
ROLL = (2, 2, 3, 3, 5, 6)  # ranks nothing: the game goes on


def _mount(blocks):
    dev = RamFlash(blocks)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), MNT)


def _game(n, keep_bytes=100000):
    j = journal.start(ROOT, seats=6, keep_bytes=keep_bytes)
    j.play(game.EV_START_TOTAL, 7)
    for _ in range(n - 1):
        j.play(game.EV_ROLL, ROLL)
    j.close()
    return j.path


def _fill():
    """Fill the flash with filler files until littlefs says it is full (a failed
    write gives its blocks back, so a few rounds)."""
    chunk = bytes(256)
    for i in range(4):
        try:
            f = open(MNT + "/filler%d" % i, "wb")
        except OSError:
            return
        try:
            while True:
                f.write(chunk)
                f.flush()
        except OSError:
            pass
        try:
            f.close()
        except OSError:
            pass


def _unfill():
    for name in os.listdir(MNT):
        if name.startswith("filler"):
            os.remove(MNT + "/" + name)


def _damage(path):
    # a torn last record: 2 bytes of the next one
    f = open(path, "ab")
    f.write(b"\x02\x09")
    f.close()


def _files():
    return sorted(os.listdir(ROOT))


def test_full_flash_prunes_finished_games_to_repair():
    _mount(16)
    try:
        _game(200)
        _game(200)
        path = _game(600)
        _damage(path)
        _fill()
        r = journal.recover(ROOT)
        assert [p.code for p in r.problems] == [journal.TRUNCATED], log_lines(r)
        assert "removed finished games 1, 2 to make room" in r.problems[0].text, r.problems[0].text
        assert r.journal is not None and r.journal.game_id == 3 and r.journal.count == 600
        assert r.journal.table.events == 600
        r.journal.play(game.EV_ROLL, ROLL)  # it goes on
        r.journal.close()
        assert _files() == ["g00000003.bad", "g00000003.bbc", "g00000003.bbj"], _files()
        r = journal.recover(ROOT)
        assert not r.problems and r.journal.count == 601
        r.journal.close()
    finally:
        vfs.umount(MNT)


def test_no_room_at_all_resumes_the_game_read_only():
    _mount(12)
    try:
        path = _game(900)
        _damage(path)
        before = _read(path)
        _fill()
        names = _files()
        r = journal.recover(ROOT)
        assert [p.code for p in r.problems] == [journal.TRUNCATED, journal.FLASH_FULL], log_lines(r)
        j = r.journal
        assert j is not None and j.game_id == 1 and j.count == 900 and j.table.events == 900
        assert _files() == names and _read(path) == before  # untouched: no .tmp, no partial .bad
        try:
            j.play(game.EV_ROLL, ROLL)
            raise AssertionError("a read-only game took an event")
        except OSError:
            pass
        j.close()
        assert _read(path) == before
        _unfill()  # room again: the repair goes through
        r = journal.recover(ROOT)
        assert [p.code for p in r.problems] == [journal.TRUNCATED] and r.journal.count == 900
        r.journal.play(game.EV_ROLL, ROLL)
        r.journal.close()
        assert "g00000001.bad" in _files() and not [n for n in _files() if n.endswith(".tmp")]
    finally:
        vfs.umount(MNT)
