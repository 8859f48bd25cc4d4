# The bowl's publisher (bowl/net.py over bobing/outbox.py and umqtt.simple) run
# on the MicroPython unix port against a real broker, for tests/test_mqtt.py:
#   micropython tests/mqtt_bowl.py ROOT PORT EVENT BOWL SECRET_HEX SECONDS [CUT_AFTER [USER PASSWORD]]
#   micropython tests/mqtt_bowl.py app ROOT MS
#       the whole app (bowl/app.py on host_sim/portable/fakes/bowl.py's board, real time) with
#       ROOT/net.txt provisioned: the publisher runs as its task beside the game's
#   micropython tests/mqtt_bowl.py gate ROOT MS [cut]
#       the same on a board without an accelerometer (OK rolls), with a customer who
#       presses OK whenever he may shake or a result shows (the shakes the prize desk
#       granted); cut: the power fails as soon as the bowl has taken a grant
# Publishes the awards of the journal in ROOT until none is left (or SECONDS
# pass), then prints "sent N cursor G N". CUT_AFTER=k: the power fails right
# after the broker acknowledged the k-th award, before the cursor is written (0: never).
# USER PASSWORD: the bowl's user on the broker (net.txt's user= and mqtt_password=).
# MQTT_BOWL_RETRIES=n in the environment: it stops too once it has said its n-th "retrying in"
# (a test of a broker that refuses it waits for the retries it checks, not for SECONDS).
import asyncio
import binascii
import os
import sys
import time

from host_sim.portable.fakes import wlan as fake_wlan
from bobing import outbox, wire
from bowl import net


def app(root, ms):
    from host_sim.portable.fakes import bowl as hal
    from bowl import app as bowl_app
    board = hal.SimBoard(root, realtime=True)
    board.wlan = fake_wlan.WLAN(fake_wlan.STA_IF, fake_wlan.Air({"mall-5F": "mooncake88"}))
    a = bowl_app.App(board)
    gaps = [0, time.ticks_ms(), 0]  # the longest wait between two sensor rounds, the last round, rounds
    sensor_round = a.sensor_round

    def timed(t):
        now = time.ticks_ms()
        if gaps[2]:
            gaps[0] = max(gaps[0], time.ticks_diff(now, gaps[1]))
        gaps[1] = now
        gaps[2] += 1
        sensor_round(t)
    a.sensor_round = timed
    spent = [0, 0]
    send_one = net.Net.send_one

    def timed_send(self):  # the time the game's loop waits for the publisher (a send blocks)
        t0 = time.ticks_us()
        r = send_one(self)
        d = time.ticks_diff(time.ticks_us(), t0)
        spent[0] += d
        spent[1] = max(spent[1], d)
        return r
    net.Net.send_one = timed_send
    asyncio.run(a.run(stop_after_ms=ms))
    print("\n".join(board.lines))
    print("longest gap between sensor rounds %d ms, %d rounds" % (gaps[0], gaps[2]))
    print("sending: %d us in all, %d us at most" % (spent[0], spent[1]))
    g, n = outbox.read_cursor(root)
    print("samples %d feeds %d cursor %d %d" % (board.chip.samples_read, board.wdt.feeds, g, n))


def gate(root, ms, cut):
    from host_sim.portable.fakes import bowl as hal
    from bowl import app as bowl_app
    from bobing import console as C
    board = hal.SimBoard(root, accel=False, realtime=True)
    board.wlan = fake_wlan.WLAN(fake_wlan.STA_IF, fake_wlan.Air({"mall-5F": "mooncake88"}))
    a = bowl_app.App(board)
    con = a.con
    if cut:
        take = con.grant_shakes

        def taken(gid, n):
            r = take(gid, n)
            if r[0] == "got":
                print("\n".join(board.lines))
                print("power cut after taking grant %d" % gid)
                sys.exit(3)
            return r
        con.grant_shakes = taken
    ok = board.pins[2]

    async def customer():
        while True:
            v = con.view
            t = con.table
            if v in (C.V_RESULT, C.V_CLAIM, C.V_NOTICE) or v == C.V_TURN and t is not None and t.shakes_left:
                ok.value(0)
                await asyncio.sleep_ms(120)
                ok.value(1)
            await asyncio.sleep_ms(200)

    async def both():
        asyncio.create_task(customer())
        await a.run(stop_after_ms=ms)
    asyncio.run(both())
    print("\n".join(board.lines))
    t = con.table
    print("table customers %d shakes_left %d events %d" % (t.customer, t.shakes_left, t.events))


def main(argv):
    if argv[1] == "app":
        return app(argv[2], int(argv[3]))
    if argv[1] == "gate":
        return gate(argv[2], int(argv[3]), len(argv) > 4)
    root, port, event, bowl, secret_hex, seconds = argv[1:7]
    cut = int(argv[7]) if len(argv) > 7 else 0
    user, password = argv[8:10] if len(argv) > 9 else ("", "")
    air = fake_wlan.Air({"mall-5F": "mooncake88"})
    wlan = fake_wlan.WLAN(fake_wlan.STA_IF, air)
    cfg = net.parse_config("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nport=%s\nevent=%s\n"
                           "user=%s\nmqtt_password=%s\n" % (port, event, user, password))
    box = outbox.Outbox(root, event)
    if cut:
        real_sent = box.sent

        def sent(g, n, later=False, at=None):
            if n >= cut:
                print("power cut after award %d-%d" % (g, n))
                sys.exit(3)
            real_sent(g, n, later, at)
        box.sent = sent
    retries = int(os.getenv("MQTT_BOWL_RETRIES") or 0)
    said = [0]

    def say(line):
        print(line)
        if "retrying in " in line:
            said[0] += 1
    n = net.Net(cfg, box, bowl, wlan, say,
                lambda at: ('{"v":2,"on":1,"b":%d,"c":%d,"i":%d,"fw":"1","g":0,"left":[],"faults":[]}' % at).encode(),
                lambda: True, wire.key(binascii.unhexlify(secret_hex)))
    t0 = time.ticks_ms()

    async def watch():
        while time.ticks_diff(time.ticks_ms(), t0) < int(seconds) * 1000:
            if n.client is not None and box.next() is None and not box.busy:
                break
            if retries and said[0] >= retries:
                break
            await asyncio.sleep_ms(20)
        n.running = False

    async def both():
        task = asyncio.create_task(n.run(time.ticks_ms, time.ticks_diff))
        await watch()
        await task  # its last round commits the cursor (asyncio.run would drop a task still asleep)
    asyncio.run(both())
    print("sent %d cursor %d %d" % (n.sent, box.cursor[0], box.cursor[1]))


main(sys.argv)
