# Repairing a damaged journal (bobing/journal.py's recover): the bytes after
# the good prefix go to a .bad file, the prefix stays. Only a journal with a
# problem needs this, so it is imported then, and a sound bowl never loads it.
import os

from bobing import jformat, store


def free_bad_name(root, gid):
    """A .bad name for game gid not yet taken in root."""
    names = store.listdir(root)
    name = jformat.file_name(gid, jformat.BAD)
    k = 1
    while name in names:
        k += 1
        name = "g%08d-%d%s" % (gid, k, jformat.BAD)
    return name


def cut_back(path, keep):
    """Cut a journal file back to its first `keep` bytes (a record whose write
    failed, yet reached the flash). -> True when done; False (the file as it was,
    no .tmp left) when the flash refused."""
    tmp = path[:-4] + jformat.TMP
    try:
        store.copy(path, tmp, 0, keep)
        os.rename(tmp, path)
        return True
    except OSError:
        store.discard(tmp)
        return False


def set_aside(root, s, make_room):
    """Move what follows the good prefix of s to a .bad file; keep the prefix.
    On a flash too full for the copies, make_room() prunes finished games (oldest
    first; -> their ids) and it is tried once more; if that fails too, nothing is changed (no .tmp, no
    partial .bad) and -> False: the game is resumed as it stands, read-only, with
    a FLASH_FULL problem. -> True when done."""
    p = s.problem
    gid = p.game_id
    path = jformat.path_of(root, gid)
    tmp = jformat.path_of(root, gid, jformat.TMP)
    if not (s.base and s.count > s.base):
        # first the checkpoint, unless the kept records include the one it names:
        # it may cover records about to go, and once the game grows again its
        # record index would hold another event
        store.discard(jformat.path_of(root, gid, jformat.CKPT))
    if s.config is None:  # nothing readable: the whole file goes (a rename needs no room)
        bad = free_bad_name(root, gid)
        os.rename(path, store.join(root, bad))
        p.text += "; the whole file was moved to %s; start a new game" % bad
        p.moved_to = bad
        return True
    pruned = []
    for attempt in range(2):
        bad = free_bad_name(root, gid)
        try:
            store.copy(path, store.join(root, bad), s.end, s.size)
            store.copy(path, tmp, 0, s.end)
            os.rename(tmp, path)
            break
        except OSError as e:
            store.discard(tmp)  # the original still holds every byte: drop the partial copies
            store.discard(store.join(root, bad))
            if attempt:
                p.text += "; the flash has no room to set the bytes after them aside (%s), even after " \
                          "removing %d finished game(s): the game is resumed as it stands and cannot go " \
                          "on until room is made" % (e, len(pruned))
                return False
            pruned = make_room()  # finished games go first (the caller says which may go)
    p.text += "; kept the %d records before it, moved %d bytes after them to %s" % (
        s.count, s.size - s.end, bad)
    if pruned:
        p.text += " (removed finished games %s to make room)" % ", ".join([str(g) for g in pruned])
    p.moved_to = bad
    return True
