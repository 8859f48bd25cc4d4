# Heap and time of the event network's bowl side (bowl/net.py, bobing/outbox.py,
# umqtt.simple) on the 32-bit frozen unix port (the ESP32's word size, code in
# "flash" as on a frozen bowl): what importing them keeps; what Outbox.next()
# allocates and keeps when it reads a kiosk game whole (a boot) and when it
# follows the game being played (one more event: only that record is read),
# with the journal on a real littlefs (vfs.VfsLfs2 on RAM); and an MQTTClient.
# The socket's own buffers (lwIP on the ESP32) are not in the MicroPython heap
# and not counted. `make bench` runs it; prints figures, asserts nothing.
# (The whole app's heap with the network: bench/net_app_heap.py.)
#   build/mp/unix32-frozen/micropython bench/net_heap.py
import gc
import sys
import time

sys.path.insert(0, "tests")
import vfs

from ramflash import RamFlash

gc.collect()
a0 = gc.mem_alloc()
import umqtt.simple  # noqa: E402
from bobing import game, journal, outbox, wire  # noqa: E402
from bowl import net  # noqa: E402
gc.collect()
print("net_heap: importing bowl.net, bobing.outbox, umqtt.simple (+ journal, game): %d bytes kept"
      % (gc.mem_alloc() - a0))

dev = RamFlash(64, quiet_read=True)  # its reads allocate nothing (the ESP32's flash driver is C)
vfs.VfsLfs2.mkfs(dev)
vfs.mount(vfs.VfsLfs2(dev), "/flash")
SECRET = bytes(range(16))


def kiosk_game(awards, seed):
    j = journal.start("/flash", "kiosk", None, 1, None, "0005", SECRET)
    x = seed
    while j.table.award_no < awards and not j.table.ended:
        if not j.table.shakes_left:
            j.play(game.EV_CUSTOMER, None)
            continue
        d = []
        for _ in range(6):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            d.append(x % 6 + 1)
        j.play(game.EV_ROLL, d)
    n, events = j.table.award_no, j.count
    j.close()
    return n, events


def allocated(f):
    """-> (f(), bytes allocated, bytes kept after a collection)."""
    gc.collect()
    b0 = gc.mem_alloc()
    gc.disable()
    r = f()
    b1 = gc.mem_alloc()
    gc.enable()
    gc.collect()
    return r, b1 - b0, gc.mem_alloc() - b0


def timed(f):
    """-> (f(), microseconds). The RAM flash's allocation-free reads copy in a slow
    loop: times are taken with its fast ones, as a bowl's flash driver is C."""
    dev.quiet_read = False
    t0 = time.ticks_us()
    r = f()
    dt = time.ticks_diff(time.ticks_us(), t0)
    dev.quiet_read = True
    return r, dt


def fresh_box():
    box = outbox.Outbox("/flash", "midautumn")
    box.cursor = (box.cursor[0], 0)  # all of the newest game still to send
    return box


def first(box):
    """The first award: next() called again while it stops at a step with more to read."""
    item = box.next()
    while item is None and box.busy:
        item = box.next()
    return item


for want in (10, 60):
    n, events = kiosk_game(want, 7 + want)
    item, alloc, kept = allocated(lambda: first(fresh_box()))  # a boot's first read, in steps
    box = fresh_box()
    _, dt = timed(lambda: first(box))
    _, dt2 = timed(box.next)  # the file did not grow: nothing read
    print("net_heap: Outbox.next() reading a game of %d events, %d awards to its first award (a boot, "
          "steps of %d records): %d bytes "
          "allocated, %d kept, %d us (again, file unchanged: %d us); payload %d bytes"
          % (events, n, outbox.STEP, alloc, kept, dt, dt2, len(item[1])))
    box.sent(item[2], item[3])

# following the game being played: all sent, then one more event, read by the same outbox
j = journal.recover("/flash", SECRET).journal
worst = total = worst_us = total_us = reads = 0
while reads < 40 and not j.table.ended:
    item = box.next()
    if item is not None or box.busy:
        if item is not None:
            box.sent(item[2], item[3])
        continue
    if j.table.shakes_left:
        j.play(game.EV_ROLL, (4, 1, 1, 2, 2, 3))  # 一秀: an award every roll
    else:
        j.play(game.EV_CUSTOMER, None)
    reads += 1
    if reads & 1:
        item, alloc, _ = allocated(box.next)
        worst, total = max(worst, alloc), total + alloc
    else:
        item, dt = timed(box.next)
        worst_us, total_us = max(worst_us, dt), total_us + dt
    if item is not None:
        box.sent(item[2], item[3])
j.close()
print("net_heap: Outbox.next() after one more event, following a game of %d events: %d bytes allocated "
      "on average, %d at most; %d us on average, %d at most (only the record appended is read)"
      % (j.count, total // ((reads + 1) // 2), worst, total_us // (reads // 2), worst_us))

gc.collect()
c0 = gc.mem_alloc()
m = umqtt.simple.MQTTClient("bowl-0005", "127.0.0.1", 1883, None, None, net.KEEPALIVE_S)
m.set_last_will(outbox.topic("midautumn", "0005", "status"),
                wire.seal(wire.key(SECRET), "b", "midautumn", "0005", "status", net.status_payload(False)), True, 1)
gc.collect()
print("net_heap: an MQTTClient with its will: %d bytes" % (gc.mem_alloc() - c0))
