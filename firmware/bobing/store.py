# The bowl's power-safe file layer: the few file operations the journal, the
# outbox's cursor, the settings files and the final's file are written with.
# Hardware-free like the journal (littlefs on the bowl, a folder on the host).
#
# Why these and no others: on littlefs a write reaches only the file's RAM
# cache until a flush (lfs2_file_sync) commits data and size in one atomic,
# CRC-checked metadata commit, and a rename is atomic too. So a file is either
# appended and flushed (the journal's records), or written whole to a temporary
# name, flushed, and renamed over the old one (write_whole): a power cut leaves
# the old file or the new, never half of one. bobing/journal.py's header says
# what that costs in flash programs and wear.
import os

from micropython import const

TMP = ".tmp"  # write_new's temporary suffix (in place of the last 4 characters)
_COPY = const(192)  # bytes per read while copying

_SYNC = getattr(os, "fsync", None)  # CPython: also push the host OS's cache to disk


def join(root, name):
    """The one way a path is made: root/name ("" = the current folder)."""
    return root + "/" + name if root else name


def listdir(root):
    """The names in folder root, which is made (empty) if it is not there."""
    try:
        return os.listdir(root)
    except OSError:
        os.mkdir(root)
        return []


def size(path):
    """The file's size in bytes; 0 when there is none."""
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def fill(f, mv):
    """Read until mv is full or the file ends; -> bytes read."""
    got = 0
    n = len(mv)
    while got < n:
        k = f.readinto(mv[got:])
        if not k:
            break
        got += k
    return got


def fsync(f):
    """Commit what was written to f (littlefs: its sync) before going on."""
    f.flush()
    if _SYNC is not None and hasattr(f, "fileno"):
        _SYNC(f.fileno())


def discard(path):
    """Remove a file if it is there (a partial copy, a stale temporary)."""
    try:
        os.remove(path)
    except OSError:
        pass


def write_whole(path, tmp, parts):
    """Power-safe: write the bytes of `parts` to tmp, flush them to flash, then
    rename tmp over path (littlefs renames atomically: the old file or the new,
    never half of one). The journal's checkpoints and new games, the outbox's
    cursor, the settings and the final's files all go through here."""
    f = open(tmp, "wb")
    try:
        for p in parts:
            f.write(p)
        fsync(f)
    finally:
        f.close()
    os.rename(tmp, path)


def write_new(path, parts):
    """write_whole via the temporary name path with its 4-character suffix
    (".bbj", ".bbc") replaced by TMP: the journal's files."""
    write_whole(path, path[:-4] + TMP, parts)


def copy(src, dst, start=0, stop=-1):
    """Bytes start..stop (stop < 0: to the end) of file src into a new file dst,
    durably (flushed before it returns), through one small buffer."""
    mv = memoryview(bytearray(_COPY))
    fi = open(src, "rb")
    try:
        fo = open(dst, "wb")
        try:
            fi.seek(start)
            left = stop - start
            while stop < 0 or left > 0:
                k = fill(fi, mv if stop < 0 or left >= _COPY else mv[:left])
                if not k:
                    break
                fo.write(mv[:k])
                left -= k
            fsync(fo)
        finally:
            fo.close()
    finally:
        fi.close()
