# Benchmark of the journal on flash: bytes and block writes per roll on a real
# littlefs (vfs.VfsLfs2) with the ESP32's geometry (4096-byte sectors, the
# readsize/progsize 32 that `vfs.mount(bdev, "/")` uses), counting every
# writeblocks call of the block device. MicroPython unix port only (CPython has
# no VfsLfs2): `make bench` runs it there. Prints figures, asserts nothing. "per roll"
# is the commit before the result is shown (the journal's tail, bobing/journal.py);
# "its fold" the tail's records into the journal file after it, as bowl/app.py does.
import sys
import time

sys.path.insert(0, "firmware")
sys.path.insert(0, "tests")
import vfs

from bobing import game, journal
from ramflash import BS, RamFlash

NB = 64


def script(profile, seats, seed, limit):
    """A whole game (or `limit` events of one) with dice from a fixed LCG."""
    x = seed
    t = game.Table(journal.Config(profile).make_profile(), seats)
    evs = [(game.EV_CUSTOMER, None)] if t.kiosk else [(game.EV_START_TOTAL, 7)]
    t.apply(*evs[0])
    while not t.ended and len(evs) < limit:
        if t.kiosk and not t.shakes_left:
            ev = (game.EV_CUSTOMER, None)
        else:
            d = []
            for _ in range(6):
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                d.append(1 + (x >> 8) % 6)
            ev = (game.EV_ROLL, tuple(d))
        t.apply(*ev)
        evs.append(ev)
    return evs


def stats(rows):
    n = len(rows)
    if not n:
        return "-"
    w = b = e = 0
    mw = mb = 0
    for rw, rb, re in rows:
        w += rw
        b += rb
        e += re
        mw = max(mw, rw)
        mb = max(mb, rb)
    return "%5.2f writeblocks (max %2d), %5.0f B programmed (max %4d), %.3f erases  [%d rolls]" % (
        w / n, mw, b / n, mb, e / n, n)


def run(label, profile, seats, limit):
    evs = script(profile, seats, 2024, limit)
    dev = RamFlash(NB)
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/bench")
    try:
        w0, b0 = dev.writes, dev.bytes
        j = journal.start("/bench/games", profile, seats=seats)
        start = (dev.writes - w0, dev.bytes - b0)
        rows = []
        folds = []
        us = 0
        for kind, arg in evs:
            w, b, e = dev.writes, dev.bytes, dev.erases
            t0 = time.ticks_us()
            j.append(kind, arg)  # the commit before the result is shown: into the tail
            us += time.ticks_diff(time.ticks_us(), t0)
            if kind == game.EV_ROLL:
                rows.append((dev.writes - w, dev.bytes - b, dev.erases - e))
            w, b, e = dev.writes, dev.bytes, dev.erases
            j.fold()  # once the result is shown (bowl/app.py): the tail into the journal file
            if kind == game.EV_ROLL:
                folds.append((dev.writes - w, dev.bytes - b, dev.erases - e))
        j.close()
        size = len(j.config.encode()) + journal.RECORD * j.count
        inline = 128 // journal.RECORD  # records that fit littlefs's inline limit (cache 128 B)
        r0 = dev.reads
        t0 = time.ticks_ms()
        r = journal.recover("/bench/games")
        dt = time.ticks_diff(time.ticks_ms(), t0)
        ok = r.journal is not None and r.journal.count == len(evs) and not r.problems
        r.journal.close()
    finally:
        vfs.umount("/bench")
    print("%s: %d events, file %d B (header %d B + %d B per event), start: %d writeblocks %d B"
          % (label, len(evs), size, len(j.config.encode()), journal.RECORD, start[0], start[1]))
    print("  per roll, all      : " + stats(rows))
    print("  per roll, 1st %-5d: " % inline + stats(rows[:inline]))
    print("  per roll, later    : " + stats(rows[inline:]))
    print("  its fold, later    : " + stats(folds[inline:]))
    print("  append: %.0f us per event on this host; recovery: %d readblocks, %d ms on this host, %s"
          % (us / len(evs), dev.reads - r0, dt, "ok" if ok else "FAILED"))


def main():
    if sys.implementation.name != "micropython":
        print("journal_bench needs the MicroPython unix port (vfs.VfsLfs2)")
        return
    print("journal on vfs.VfsLfs2, %d-byte blocks, readsize=progsize=32 (cache 128 B), %d B per record"
          % (BS, journal.RECORD))
    run("10-seat xiamen game", "xiamen", 10, 100000)
    run("kiosk game (default stock, 3 shakes a customer)", "kiosk", 1, 100000)


main()
