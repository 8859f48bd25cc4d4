# One simulated kiosk bowl of an event on loopback (host_sim/event: `python -m host_sim
# event-demo` and the tests' load and fault run, tests/harness/event_sim.py, start N of them):
# the bowl's own code, bowl/app.py on host_sim/portable/fakes/bowl.py's simulated board
# (board.py's bring-up on the simulated ESP32, the MPU6050 driver on the fake
# chip replaying a recorded shake), with bowl/net.py publishing its journal
# over micropython-lib's umqtt.simple to a real mosquitto, through
# host_sim/portable/fakes/wlan.py's simulated radio. Runs on the 32-bit frozen
# MicroPython unix port (everything it imports is frozen in):
#
#   micropython host_sim/event/kiosk_bowl.py ROOT [SPEED [GAP_MS]]
#
# ROOT is the bowl's flash (settings.txt, claim.key, net.txt: written by
# event_sim before the start; the journal). Customers play at full speed
# (nobody waits at a screen: the attendant lets the next one in at once, each
# shakes as soon as the bowl asks), on the game's own simulated clock, which
# runs SPEED times as fast as real time (0: as fast as the CPU lets it), so one
# process plays like SPEED bowls; the publisher (bowl/net.py, started by its own
# net.start) runs on the real clock, as on the bowl: its socket, its timeouts,
# its back-off, its 30 s status. With no customer left ("idle") the game's
# clock is real time. GAP_MS (the demo's pace): the attendant lets the next customer in only
# GAP_MS of the game's clock after the last one finished (0: at once).
#   ROOT.ctl  read every CTL_MS (real time): "play" (customers), "idle" (no new
#             customer; the one shaking finishes; time goes on), "exit"; and
#             "nowifi" (the access point is gone: the radio and the sockets
#             through it carry nothing) until the word is removed
#   ROOT.log  one line per award the journal committed: "a GAME AWARD WALL_NS"
#             (written just after the 10 ms round whose journal write made it,
#             CLOCK_REALTIME: the same clock as the desk's on this machine);
#             "wifi 0|1 WALL_NS" when the radio goes or comes back; "over" when
#             the game ended (stock out); "play|idle|exit WALL_NS game_ms MS"
#             at each change (MS: the game's clock so far); "end ..." last
import asyncio
import os
import sys
import time

from host_sim.portable.fakes import wlan as fake_wlan
from host_sim.portable.fakes import bowl as hal
from bobing import console as C
from bowl import net

CTL_MS = 100
YIELD_STEPS = 4  # simulated 10 ms rounds between two chances for the publisher's task to run
PRESS_MS = 150  # a press is held 80 ms (Sim.press): the next one after the release is debounced
SHAKE_AGAIN_STEPS = 700  # a shake trace is 4.5 s; one the detector did not take is shaken again


class _OnRealTime:
    # the app as net.start(app) sees it, its board's clock the real one (time.ticks_*)
    def __init__(self, app):
        self._app = app
        self.hw = _BoardOnRealTime(app.hw)

    def __getattr__(self, name):
        return getattr(self._app, name)  # con, running, ...: the app's own, read when asked


class _BoardOnRealTime:
    def __init__(self, hw):
        self._hw = hw

    def __getattr__(self, name):
        return getattr(self._hw, name)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)


class Bowl:
    def __init__(self, root, speed, gap_ms=0):
        self.root = root
        self.speed = speed
        self.gap = gap_ms // hal.TICK_MS  # rounds between one customer's end and the next one's start
        self.sim = hal.Sim(root, urandom=os.urandom)  # dice from the host's entropy: bowls differ
        self.air = fake_wlan.Air({"event-ap": "mooncake88"})
        self.sim.board.wlan = fake_wlan.WLAN(fake_wlan.STA_IF, self.air)
        fake_wlan.through(self.air)  # umqtt.simple's sockets go through the simulated radio
        self.log = open(root + ".log", "a")
        self.mode = None  # the first look at ROOT.ctl sets it
        self.t_play = self.ms_play = 0
        self.last = (0, 0)  # (game, award) last logged
        self.wait = 0  # rounds until the next press or shake may come
        self.turn_steps = 0
        self.gap_left = 0
        self.sim_ms = 0
        self.steps = 0

    def ctl(self):
        try:
            with open(self.root + ".ctl") as f:
                words = f.read().split()
        except OSError:
            words = ["play"]
        mode = "exit" if "exit" in words else "idle" if "idle" in words else "play"
        up = "nowifi" not in words
        if up != self.air.up:
            self.air.up = up
            self.log.write("wifi %d %d\n" % (up, time.time_ns()))
        if mode != self.mode:
            self.log.write("%s %d game_ms %d\n" % (mode, time.time_ns(), self.sim_ms))
            if mode == "play":
                self.t_play = time.ticks_ms()
                self.ms_play = self.sim_ms
                # bowls started together would play in step (the same shake, the same screens):
                # each lets its first customer in after its own 0-5 s, so awards come spread out
                self.wait = os.urandom(2)[0] * 2
        self.mode = mode

    def drive(self):
        """The customer and the attendant, at full speed: one decision a round."""
        sim = self.sim
        c = sim.console
        if self.wait > 0:
            self.wait -= 1
            return
        v = c.view
        t = c.table
        if v == C.V_TURN:
            if self.turn_steps % SHAKE_AGAIN_STEPS == 0:
                sim.shake()
            self.turn_steps += 1
            return
        self.turn_steps = 0
        if v in (C.V_RESULT, C.V_CLAIM, C.V_NOTICE):
            sim.press("ok")
            self.wait = PRESS_MS // hal.TICK_MS
        elif v == C.V_GATE and t.kiosk and not t.shakes_left and not t.ended and self.mode == "play":
            if self.gap_left > 0:  # the next customer is not there yet (the demo's pace)
                self.gap_left -= 1
                return
            sim.attendant_key(80)  # the attendant's key: the next customer
            self.wait = PRESS_MS // hal.TICK_MS
            self.gap_left = self.gap

    def note_awards(self):
        t = self.sim.console.table
        if t is None:
            return
        g, n = t.game_no, t.award_no
        lg, ln = self.last
        if (g, n) == (lg, ln):
            return
        if g != lg:
            ln = 0
        now = time.time_ns()
        for k in range(ln + 1, n + 1):
            self.log.write("a %d %d %d\n" % (g, k, now))
        self.last = (g, n)
        if t.ended:
            self.log.write("over %d\n" % g)

    async def play(self):
        sim = self.sim
        self.ctl()
        last_ctl = time.ticks_ms()
        steps = 0
        while True:
            if time.ticks_diff(time.ticks_ms(), last_ctl) >= CTL_MS:
                last_ctl = time.ticks_ms()
                self.ctl()
                if self.mode == "exit":
                    break
            self.drive()
            sim.step(hal.TICK_MS)
            self.note_awards()
            steps += 1
            self.steps = steps
            self.sim_ms += hal.TICK_MS
            if self.mode == "idle":
                await asyncio.sleep_ms(hal.TICK_MS)  # nobody plays: the game on real time
                continue
            ahead = self.sim_ms - self.ms_play - self.speed * time.ticks_diff(time.ticks_ms(), self.t_play)
            if self.speed and ahead > 0:
                await asyncio.sleep_ms(ahead // self.speed)
            elif steps % YIELD_STEPS == 0:
                await asyncio.sleep(0)
        sim.app.running = False  # the publisher's task ends: the broker publishes the will

    async def main(self):
        n = net.start(_OnRealTime(self.sim.app))
        if n is None:
            raise SystemExit("the bowl has no usable net.txt: %s" % self.sim.board.lines)
        # the quiet rule reads the app's clocks (the console's last touch, the ui task's round):
        # they are the simulated board's, so it is judged on that clock, not on the real one the
        # sockets wait on (the two compared said "never quiet": no bowl ever connected)
        app, b = self.sim.app, self.sim.board
        n.quiet = lambda waited: net.quiet(app.con, b.ticks_ms(), b.ticks_diff, waited, app.ui_t)
        await self.play()
        await asyncio.sleep(0.3)
        self.log.write("end %d sent %d game_ms %d rounds %d\n" % (time.time_ns(), n.sent, self.sim_ms, self.steps))
        self.log.close()


def main():
    b = Bowl(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    asyncio.run(b.main())
    for line in b.sim.board.lines:
        print(line)


main()
