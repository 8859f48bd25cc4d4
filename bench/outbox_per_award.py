# What one award of a drained backlog costs on the 32-bit frozen unix port itself (the bowl's
# code as frozen, micropython-lib's umqtt.simple): a kiosk game of 3,000 events played on flash
# (a folder under build/; budget.py's stock), then, timed apart, (1) the outbox reading it back
# and handing out every award, a window of 8 at a time, each sealed (bobing/outbox.py, the
# game's replay that numbers them, bobing/wire.py), and (2) the publisher writing each award's
# PUBLISH and taking in the window's PUBACKs (bowl/net.py _publish, take_in) over a socket that
# answers at once. Host us per award (x the ESP32 factor, hardware/timing.md, for the chip);
# the ESP32 model's own figure is bench/outbox_warm.py's. Asserts nothing; `make bench` runs it.
#   build/mp/unix32-frozen/micropython -X heapsize=2M bench/outbox_per_award.py
import os
import time

from umqtt.simple import MQTTClient  # (frozen in, as on the bowl)

from bobing import game, journal, outbox, wire
from bowl import net

STOCK = {"zhuangyuan": 40, "duitang": 100, "sanhong": 200, "sijin": 400, "erju": 800, "yixiu": 1600}
EVENT = "midautumn"
BOWL = "5F-kiosk"
NET = "ssid=mall\npassword=mooncake88\nbroker=10.0.0.2\nevent=%s\nstock=bowl\nfair=off\ntls=off\n" % EVENT


def backlog(root):
    j = journal.start(root, "kiosk", None, 1, STOCK, BOWL, bytes(32))
    x = 99
    while j.table.events < 3000 and not j.table.ended:
        if j.table.shakes_left == 0:
            j.play(game.EV_CUSTOMER, None)
        else:
            dice = []
            for _ in range(6):
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF  # (the same dice at every run)
                dice.append((x >> 16) % 6 + 1)
            j.play(game.EV_ROLL, dice)
    n = j.table.events, j.table.award_no
    j.close()
    return n


def read_back(root):
    box = outbox.Outbox(root, EVENT)
    k = wire.key(bytes(32))
    t0 = time.ticks_us()
    n = 0
    while True:
        item = box.next()
        if item is None:
            if box.busy:
                continue
            return n, time.ticks_diff(time.ticks_us(), t0)
        window = [item]
        while len(window) < net.WINDOW:
            x = box.next(window[-1][2:])
            if x is None:
                if box.busy:
                    continue
                break
            window.append(x)
        for it in window:
            wire.seal(k, wire.FROM_BOWL, EVENT, BOWL, "award", it[1])
            box.sent(it[2], it[3], True, it[4])
            n += 1


class Answers:
    """The broker's side of the socket: a PUBACK is there as soon as take_in looks."""

    def __init__(self):
        self.data = bytearray()

    def settimeout(self, t):
        pass

    def read(self, n):
        if not self.data:
            return None
        out = bytes(self.data[:n])
        self.data = self.data[n:]
        return out

    def write(self, buf, n=-1):
        return len(buf) if n < 0 else n


class Box:
    notes = []

    def sent(self, game_no, award_no, later=False, at=None):
        pass


def publish(awards):
    p = net.Net(net.parse_config(NET), Box(), BOWL, None, lambda text: None, lambda at: b"{}", lambda: True,
                wire.key(bytes(32)), mqtt_class=MQTTClient)
    m = MQTTClient("bowl-" + BOWL, "10.0.0.2")
    s = Answers()
    m.sock = net._Bounded(s)
    p.client = m
    p._now = time.ticks_ms
    t = outbox.topic(EVENT, BOWL, "award")
    t0 = time.ticks_us()
    for w in range(awards // net.WINDOW):
        for i in range(net.WINDOW):
            a = w * net.WINDOW + i + 1
            p._publish(t, outbox.award_payload(1, a, "yixiu", 7), False, "award", (1, a, (a, 0, 0)))
        for f in p._inflight:
            s.data.extend(bytes([0x40, 2, f[0] >> 8, f[0] & 255]))
        p.take_in()
        p.take_in()  # (and the turn's read that finds nothing)
    return p.sent, time.ticks_diff(time.ticks_us(), t0)


def main():
    root = "build/outbox-per-award-%d" % time.ticks_ms()
    os.mkdir(root)
    events, awards = backlog(root)
    n, us = read_back(root)
    print("outbox per award (32-bit frozen unix port, host us): a kiosk backlog of %d events, %d awards: read back,"
          " numbered and sealed %.1f us an award (%d ms in all)" % (events, awards, us / n, us // 1000))
    n, us = publish(1600)
    print("outbox per award: published and acknowledged (bowl/net.py, a window of %d) %.1f us an award"
          % (net.WINDOW, us / n))
    for f in os.listdir(root):
        if f == "outbox":
            for g in os.listdir(root + "/outbox"):
                os.remove(root + "/outbox/" + g)
            os.rmdir(root + "/outbox")
        else:
            os.remove(root + "/" + f)
    os.rmdir(root)


main()
