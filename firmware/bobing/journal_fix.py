# Repairing a damaged journal (bobing/journal.py's recover): the bytes after
# the good prefix go to a .bad file, the prefix stays. Only a journal with a
# problem needs this, so it is imported then, and a sound bowl never loads it.
import os

from micropython import const

from bobing import journal
from bobing.journal import (BAD_CHECKSUM, BAD_CONFIG, BAD_EVENT, NEWER_VERSION, OTHER_GAME, TRUNCATED,
                            UNREADABLE)

_COPY = const(192)  # bytes per read while copying

# what a screen shows for each Problem code: (Chinese, English)
SCREEN_TEXT = {
    TRUNCATED: ("记录不完整", "record cut short"),
    BAD_CHECKSUM: ("记录已损坏", "record damaged"),
    NEWER_VERSION: ("新版记录", "newer firmware's game"),
    OTHER_GAME: ("非本局记录", "another game's file"),
    BAD_CONFIG: ("设置无效", "game settings invalid"),
    BAD_EVENT: ("记录无效", "invalid event"),
    UNREADABLE: ("无法读取", "flash unreadable"),
}


def _free_bad_name(root, gid):
    names = journal._listdir(root)
    name = journal._name(gid, journal.BAD)
    k = 1
    while name in names:
        k += 1
        name = "g%08d-%d%s" % (gid, k, journal.BAD)
    return name


def _copy(src, dst, start, stop):
    """Bytes start..stop of file src into a new file dst (durably)."""
    buf = bytearray(_COPY)
    mv = memoryview(buf)
    fi = open(src, "rb")
    try:
        fo = open(dst, "wb")
        try:
            fi.seek(start)
            left = stop - start
            while left > 0:
                k = journal._fill(fi, mv[:min(left, len(buf))])
                if not k:
                    break
                fo.write(mv[:k])
                left -= k
            journal._fsync(fo)
        finally:
            fo.close()
    finally:
        fi.close()


def set_aside(root, s):
    """Move what follows the good prefix of s to a .bad file; keep the prefix."""
    p = s.problem
    path = journal._join(root, journal._name(p.game_id, journal.SUFFIX))
    bad = _free_bad_name(root, p.game_id)
    if not (s.base and s.count > s.base):
        # first the checkpoint, unless the kept records include the one it names:
        # it may cover records about to go, and once the game grows again its
        # record index would hold another event
        journal.remove_checkpoint(root, p.game_id)
    if s.config is None:  # nothing readable: the whole file goes
        os.rename(path, journal._join(root, bad))
        p.text += "; the whole file was moved to %s; start a new game" % bad
    else:
        _copy(path, journal._join(root, bad), s.end, s.size)
        tmp = journal._join(root, journal._name(p.game_id, journal.TMP))
        _copy(path, tmp, 0, s.end)
        os.rename(tmp, path)
        p.text += "; kept the %d records before it, moved %d bytes after them to %s" % (
            s.count, s.size - s.end, bad)
    p.moved_to = bad
