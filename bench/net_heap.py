# Heap and time of the event network's bowl side (bowl/net.py, bobing/outbox.py,
# umqtt.simple) on the 32-bit frozen unix port (the ESP32's word size, code in
# "flash" as on a frozen bowl): what importing them keeps, what one
# Outbox.next() allocates and keeps while it reads a kiosk game back from its
# journal (on a real littlefs, vfs.VfsLfs2 on RAM), and an MQTTClient. The
# socket's own buffers (lwIP on the ESP32) are not in the MicroPython heap and
# not counted. `make bench` runs it; prints figures, asserts nothing.
#   build/mp/unix32-frozen/micropython bench/net_heap.py
import gc
import sys
import time

sys.path.insert(0, "tests")
import vfs  # noqa: E402

from ramflash import RamFlash  # noqa: E402

gc.collect()
a0 = gc.mem_alloc()
import umqtt.simple  # noqa: E402
from bobing import game, journal, outbox  # noqa: E402
from bowl import net  # noqa: E402
gc.collect()
print("net_heap: importing bowl.net, bobing.outbox, umqtt.simple (+ journal, game): %d bytes kept"
      % (gc.mem_alloc() - a0))

dev = RamFlash(64)
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


for want in (10, 60):
    n, events = kiosk_game(want, 7 + want)
    box = outbox.Outbox("/flash", "midautumn", SECRET)
    box.cursor = (box.cursor[0], 0)
    gc.collect()
    b0 = gc.mem_alloc()
    gc.disable()
    t0 = time.ticks_us()
    item = box.next()  # reads the game back: journal.scan + game.Table
    dt = time.ticks_diff(time.ticks_us(), t0)
    b1 = gc.mem_alloc()
    gc.enable()
    gc.collect()
    kept = gc.mem_alloc() - b0
    t0 = time.ticks_us()
    box.next()  # the file did not grow: no second read
    dt2 = time.ticks_diff(time.ticks_us(), t0)
    print("net_heap: Outbox.next() over a game of %d events, %d awards: %d bytes allocated, %d kept, "
          "%d us (again, file unchanged: %d us); payload %d bytes"
          % (events, n, b1 - b0, kept, dt, dt2, len(item[1])))
    box.sent(item[2], item[3])

gc.collect()
c0 = gc.mem_alloc()
m = umqtt.simple.MQTTClient("bowl-0005", "127.0.0.1", 1883, None, None, net.KEEPALIVE_S)
m.set_last_will(outbox.topic("midautumn", "0005", "status"), net.status_payload(False), True, 1)
gc.collect()
print("net_heap: an MQTTClient with its will: %d bytes" % (gc.mem_alloc() - c0))
