# The outbox catching up beside the game loop (bobing/outbox.py), on the 32-bit
# frozen unix port with the journal on a real littlefs (vfs.VfsLfs2 on RAM): a
# bowl holding ~8,000 finished family-game events then provisioned for an
# event, and a kiosk game's backlog of 3,000 events (the broker took award 1,
# then went away). Each Outbox.next() is one step; printed: the steps, the most
# records one step replayed (outbox.STEP at most), the longest step in host
# milliseconds without its cursor write, and the cursor writes apart (a
# littlefs commit). Host time here includes littlefs's block reads through the
# RAM flash's Python callbacks (on the ESP32 the partition driver is C), so the
# flash reads per step are printed too, for hardware/timing.md to price.
# Asserts nothing; `make bench` runs it.
#   build/mp/unix32-frozen/micropython -X heapsize=2M bench/outbox_bench.py
import sys
import time

sys.path.insert(0, "tests")
import vfs

from bobing import journal, outbox
from ramflash import RamFlash
from outboxkit import BOWL, EVENT, kiosk_events, table_events, write_game

_n = [0]
dev = None
writes = [0, 0, 0, 0]  # cursor writes, worst us, worst flash ops (programs + erases), worst reads
_real_write = outbox.write_cursor


def _timed_write(root, g, n):
    o0, r0 = dev.ops, dev.reads
    t0 = time.ticks_us()
    _real_write(root, g, n)
    dt = time.ticks_diff(time.ticks_us(), t0)
    writes[0] += 1
    writes[1] = max(writes[1], dt)
    writes[2] = max(writes[2], dev.ops - o0)
    writes[3] = max(writes[3], dev.reads - r0)
    _paused[0] += dt


_paused = [0]
outbox.write_cursor = _timed_write


def fresh(blocks):
    global dev
    _n[0] += 1
    dev = RamFlash(blocks)
    vfs.VfsLfs2.mkfs(dev)
    mnt = "/ob%d" % _n[0]
    vfs.mount(vfs.VfsLfs2(dev), mnt)
    return mnt + "/games"


def catch_up(root, what):
    box = outbox.Outbox(root, EVENT)
    steps = sent = worst = worst_us = worst_reads = 0
    times = []
    writes[:] = [0, 0, 0, 0]
    while True:
        n0 = journal.replayed()
        _paused[0] = 0
        r0 = dev.reads
        t0 = time.ticks_us()
        item = box.next()
        dt = time.ticks_diff(time.ticks_us(), t0) - _paused[0]
        steps += 1
        worst = max(worst, journal.replayed() - n0)
        worst_us = max(worst_us, dt)
        times.append(dt)
        worst_reads = max(worst_reads, dev.reads - r0)  # (cursor writes' reads included)
        if item is None:
            if box.busy:
                continue
            break
        box.sent(item[2], item[3])
        sent += 1
    print("outbox_bench: %s: %d steps, %d awards; worst_records_per_step=%d (STEP %d), worst_step_ms=%.1f host "
          "without cursor writes (median %.2f; the host's scheduling adds spikes), worst_flash_reads_per_step=%d; "
          "%d cursor writes (steps' and sends'), worst %.1f ms host, %d flash ops, %d reads"
          % (what, steps, sent, worst, outbox.STEP, worst_us / 1000, sorted(times)[len(times) // 2] / 1000,
             worst_reads, writes[0], writes[1] / 1000, writes[2], writes[3]))


root = fresh(96)
ev = table_events(3)
games = 8000 // len(ev) + 1
for gid in range(1, games + 1):
    write_game(root, journal.Config("xiamen", None, 10, game_id=gid), ev)
write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, games + 1),
            kiosk_events(4, 200, games + 1))
catch_up(root, "%d family-game events in %d games, then an event kiosk game of 200 events"
         % (games * len(ev), games))

root = fresh(24)
write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(5, 3000), ck_at=2960)
_real_write(root, 1, 1)
catch_up(root, "a kiosk backlog of 3000 events (cursor at award 1, checkpoint at event 2960)")
