# The bowl's app: asyncio tasks that carry accelerometer samples, button
# levels and time from the hardware into bobing.console.Console (the
# hardware-free state machine that decides everything), and carry what it
# decides out to the display, the LED ring and the buzzer.
#
#   sensor task  every SAMPLE_MS: accelerometer -> Console.sample (shake
#                detector -> dice -> journal, commit before reveal -> game)
#   ui task      every UI_MS: buttons -> Console.buttons, Console.tick, then
#                the screen (only when the view changed), the ring, the
#                buzzer; deep sleep when the console asks for it
#   watchdog     every WDT_FEED_MS: feeds machine.WDT only if both other
#                tasks ran since the last feed, so a hung task (not only a
#                hung loop) reboots the bowl, which resumes from the journal
#
# The hardware comes in as a bowl.hw.Hardware (firmware/board.py on the bowl,
# host_sim/portable/fakes/bowl.py on the unix port and CPython); nothing here imports
# `machine`, so this file runs everywhere. App.step(t_ms) does one round of
# all three tasks synchronously: the simulator and the tests drive the app
# with it under simulated time; run() is the same work on real time.
#
# A part that fails while playing (an I2C error from the accelerometer or the
# display) is tried again at its next round: a bus glitch costs one sample or
# one frame and nothing is reported. Only a part that keeps failing for
# LOST_MS, and does not answer when it is set up again (bowl.hw.reattach), is
# reported lost, on what remains: no display -> the ring and the buzzer say so
# and still show every rank; no accelerometer -> the screen says so and the
# OK button rolls. A lost part, or one missing at boot, is looked for every
# PROBE_MS (one empty write first: on a stuck bus the ESP32's driver waits
# 100 ms a byte, so nothing longer is tried) and taken back.
#
# The voice (bobing/voice.py), when the board has an amplifier (hw.amp: machine.I2S)
# and the flash its clips (ROOT/voice): what the console announces (Console.speech:
# a roll's rank, the 状元 with its fanfare, whose turn, the game's end) is said on the
# speaker, and the piezo's tune for it gives way; with no amplifier or no clips the
# piezo plays the tunes as before. The sound setting: off says nothing, quiet says it
# 12 dB down. The clip streams a chunk per sensor round, after the sample.
#
# A frame goes to the display in 32-byte transfers (bowl/oled.py's send) with a
# sensor round between them whenever one is due: the whole frame in one transfer
# would hold 100 Hz sampling for two or three periods while the dice are shaken.
# The shaking screen's drawing (tens of ms of the ESP32's CPU) is cut the same way:
# screen.Screen.pause, called between its pieces, takes a sensor round when one is
# due; a frame that such a sample made stale (the shake settled) is given up and the
# next drawn at once, and a sample is also taken between the frame and the LED
# ring's work, and after it.
import gc

from micropython import const

from bobing import console, leds, screen

SAMPLE_MS = const(10)  # 100 samples a second (bowl.mpu6050's default rate)
UI_MS = const(20)
WDT_FEED_MS = const(1000)
LED_BRIGHTNESS = const(64)  # of 255: bright enough indoors, and the power budget assumes it
_ALL_ALIVE = const(3)
LOST_MS = const(1000)  # an I2C part failing this long (and not answering a re-probe) is lost
PROBE_MS = const(2000)  # a lost part is looked for again this often
BATTERY_MS = const(5000)  # the battery is read this often (and at boot)
VOICE_FOLDER = "voice"  # bobing.voice.FOLDER, looked for before the voice is imported (tests/test_voice.py)
NO_FRAME_ROUNDS = const(50)  # a second of UI rounds with no frame drawn for want of memory: restart


def _net_config(hw):
    """ROOT/net.txt (make provision), read once at boot -> its settings, or None: not
    provisioned (nothing of the network is loaded), or a file that cannot be read (said:
    the bowl plays offline)."""
    import os
    try:
        os.stat(hw.root + "/net.txt")
    except OSError:
        return None
    from bowl import net
    try:
        cfg = net.read_config(hw.root)
    except ValueError as e:
        hw.say("net: %s; playing offline" % e)
        return None
    if cfg is None:  # there, but it cannot be read (a folder, a flash error)
        hw.say("net: net.txt cannot be read; playing offline")
    return cfg


def _event(cfg):
    """The event of net.txt, or "" (none, or stock=bowl): a kiosk game is then an event
    game, whose stock comes from the prize desk."""
    return cfg["event"] if cfg is not None and cfg["stock"] == "desk" else ""


def _fair(hw, con, cfg):
    """An event kiosk (net.txt, unless it says fair=off): each customer's dice from a
    commitment and the desk's value (bobing/fair.py); loaded only then. The bowl's
    own dice roll a turn whose desk value did not come in time (unverified)."""
    if cfg["fair"] == "on":
        from bobing import fair
        con.use_fair(fair.Fair(hw.root, hw.strong_random, lambda out: con.dice.roll(out),
                               cfg["desk_scheme"] + "://" + cfg["desk"].upper() if cfg["desk"] else None,
                               cfg["fair_wait"] * 1000))


class App:
    def __init__(self, hw, urandom=None):
        self.hw = hw
        t = hw.ticks_ms()
        self.net_cfg = cfg = _net_config(hw)  # (bowl/net.py's start reads it here)
        event = _event(cfg)
        self.con = console.Console(hw.root, t, urandom or hw.urandom,
                                   has_display=hw.display is not None, has_sensor=hw.accel is not None,
                                   hw_errors=hw.errors, woke_by=hw.woke_by, entropy=hw.strong_random,
                                   event=event)
        if event:
            _fair(hw, self.con, cfg)
        self.screen = None
        if hw.display is not None:
            self.screen = screen.Screen(hw.display, self.con.lang)
        self.ring = None
        if hw.pixels is not None:
            self.ring = leds.Ring(hw.pixels.n, LED_BRIGHTNESS)
        self._xyz = [0, 0, 0]  # one sample, milli-g
        self._drawn = -1  # console.changed at the last frame shown
        self._stale = False  # a sample taken while a frame was drawn or sent changed the console
        self._led_key = -1  # (pattern, frame) last written to the ring
        self._beep_end = 0
        self._beeping = False
        self._alive = 0
        self.running = True
        self.shown = 0  # frames sent to the display
        self._no_frame = 0  # frames in a row that found no memory to be drawn
        self._bad = [None, None]  # since when the accelerometer / display has failed (ms), or None
        # lost while playing, or missing at boot: looked for every PROBE_MS
        on_bus = hw.on_i2c()
        self._lost = [on_bus and hw.accel is None, on_bus and hw.display is None]
        self._sample_t = t
        self.voice = None
        if hw.has_amp:
            self._open_voice()
        self.net = None
        self._probe_t = t
        self._bat_t = t
        self.ui_t = t  # when the ui task's latest round began (its buttons read): bowl/net.py's quiet()
        self.con.battery(t, hw.battery_mv())  # an empty cell: no roll, deep sleep
        self._flush_log()
        gc.collect()  # the boot's garbage (replaying the journal) goes before play begins
        hw.booted()
        # The watchdog starts only now: machine.WDT cannot be stopped once started (a
        # new WDT(timeout=...) only reconfigures it: ports/esp32/machine_wdt.c), and the
        # boot's journal replay (bounded by checkpoints, but a whole old or damaged game
        # when they are missing) is no hang to reset.
        hw.start_watchdog()

    # ---------------------------------------------------------------- inputs
    def poll_sensor(self, t):
        hw = self.hw
        if hw.accel is None:
            return
        xyz = self._xyz
        try:
            hw.accel.read_into(xyz)
        except OSError as e:
            if self._failing(t, 0, "accel"):
                hw.accel = None
                self.con.lost_sensor("%s" % e)
            return
        self._bad[0] = None
        self._sample_t = t
        self.con.sample(t, xyz[0], xyz[1], xyz[2], hw.ticks_us())

    def _failing(self, t, k, part):
        """Part k (0 accel, 1 display) failed at t: True once it is lost (it has
        failed for LOST_MS and did not come back when set up again)."""
        bad = self._bad
        if bad[k] is None:
            bad[k] = t
            return False
        if self.hw.ticks_diff(t, bad[k]) < LOST_MS:
            return False
        bad[k] = None
        if self._reattach(part):
            return False
        self._lost[k] = True
        return True

    def _reattach(self, part):
        hw = self.hw
        if not hw.on_i2c():
            return False
        from bowl import hw as hwmod
        try:
            hwmod.reattach(hw, part)
        except Exception as e:  # OSError from the bus, or a driver refusing the chip
            hw.say("%s still not answering: %s" % (part, e))
            return False
        if part == "display":
            self.screen = screen.Screen(hw.display, self.con.lang)
            self._drawn = -1
        return True

    def probe_lost(self, t):
        """Every PROBE_MS: look again for a part lost while playing."""
        hw = self.hw
        if hw.ticks_diff(t, self._probe_t) < PROBE_MS or not (self._lost[0] or self._lost[1]):
            return
        self._probe_t = t
        lost = self._lost
        if lost[0] and self._reattach("accel"):
            lost[0] = False
            self.con.found_sensor()
        if lost[1] and self._reattach("display"):
            lost[1] = False
            self.con.found_display()

    def poll_buttons(self, t):
        mask = 0
        b = self.hw.buttons
        for i in range(len(b)):
            if b[i].value() == 0:  # pulled up: pressed reads 0
                mask |= 1 << i
        if self.hw.key is not None and self.hw.key.value() == 0:
            mask |= 1 << console.B_KEY  # the attendant's key turned in the case's lock
        self.con.buttons(t, mask, self.hw.ticks_us())

    # ---------------------------------------------------------------- outputs
    def render(self, t):
        c = self.con
        s = self.screen
        if s is None or c.changed == self._drawn:
            return
        if s.pause is None:
            s.pause = self._due  # the shaking screen is drawn in pieces, sampling between them
        try:
            # a frame that a sample taken while it was drawn or sent made stale (the shake
            # settled: its result is due) gives way at once to the next
            for _ in range(3):
                self._drawn = c.changed
                self._stale = False
                if s.lang != c.lang:
                    s.set_lang(c.lang)
                self._draw(s, c)
                if not self._stale and self._send(self.hw.display):
                    self.shown += 1
                    self._bad[1] = None
                    return
        except OSError as e:
            self._drawn = -1  # draw it again at the next round
            if self._failing(t, 1, "display"):
                self.screen = None
                self.hw.display = None
                c.lost_display("%s" % e)

    def fold(self):
        """Once a roll's result is on the screen and no shake is followed: the journal's
        tail into the journal file (bobing/journal.py: the copy-on-write commit, an erase,
        stays off the way from a settled shake to its result)."""
        c = self.con
        j = c.j
        if j is not None and c.stage != console.V_SHAKING and self.drawn():
            e = j.fold()
            if e is not None:
                self.hw.say("journal: moving the latest records failed (%s); they are safe in its tail" % e)

    def drawn(self):
        """The console's latest view is on the screen (or there is none): a roll's result is
        never kept waiting behind the network's round (bowl/net.py sends only then)."""
        return self.screen is None or self.con.changed == self._drawn

    def _send(self, d):
        """The frame to the display a part at a time (bowl/oled.py), sampling between
        the parts when due -> True (sent whole: a frame begun on the panel is finished)."""
        if hasattr(d, "send"):
            d.send(self._due)
        else:  # a display of another kind: its own show()
            d.show()
        return True

    def _due(self):
        """Between the pieces of a long step (a frame's drawing, its transfers): a sensor
        round when a sample is due, so no two samples are more than SAMPLE_MS and one
        piece apart -> True when such a sample has changed the console since the frame
        was begun (it is stale)."""
        hw = self.hw
        t = hw.ticks_ms()
        if hw.ticks_diff(t, self._sample_t) >= SAMPLE_MS:
            c = self.con
            before = c.changed
            self.sensor_round(t)
            if c.changed != before:
                self._stale = True
        return self._stale

    def _draw(self, s, c):
        v = c.view
        tb = c.table
        s.paint.names = c.settings.names if tb is not None and not tb.kiosk else None  # (the seats' names)
        if v == console.V_TURN:
            if c.fair is not None and c.page % 2 and c.fair.joinable():
                from bobing import panels
                panels.join(s, tb, c.fair)  # (a fair kiosk's customer may add his own seed: its QR)
            else:
                s.idle(tb, c.unverified)
        elif v == console.V_SHAKING:
            s.shaking(tb, c.frame, c.unverified)
        elif v == console.V_RESULT:
            if c.page == 0:
                c.set_pages(s.result_pages(tb, c.out, c.unverified))
            s.result(tb, c.out, c.page, c.unverified)
        elif v == console.V_POOL:
            s.pool(tb, c.page % s.pool_pages(tb))
        elif v == console.V_OVER:
            s.game_over(tb, c.frame)
        elif v == console.V_FINAL:
            from bobing import final_play
            final_play.draw(s, c)
        else:  # the console's own screens (notices, menus, claim codes, sleep)
            from bobing import panels
            panels.draw(s, c)

    def drive_leds(self, t):
        ring = self.ring
        if ring is None:
            return
        c = self.con
        frame = self.hw.ticks_diff(t, c.led_t0) * leds.FPS // 1000
        if frame < 0:
            frame = 0
        key = (c.led << 20) | (frame & 0xFFFFF)
        if key == self._led_key:
            return
        self._led_key = key
        hw = self.hw
        if hw.led_power is not None:
            hw.led_power.value(0 if c.led == leds.P_OFF else 1)
        ring.render(c.led, frame, hw.pixels.buf)
        self._due()  # (the ring's frame is worked out, then sent: a sample between when due)
        hw.pixels.write()

    def sound(self, t):
        bz = self.hw.buzzer
        c = self.con
        if bz is None:
            del c.beeps[:]
            return
        if self._beeping and self.hw.ticks_diff(t, self._beep_end) >= 0:
            bz.duty_u16(0)
            self._beeping = False
        if not self._beeping and c.beeps:
            hz, ms = c.beeps.pop(0)  # (hz 0: a rest in a tune)
            if hz:
                bz.freq(hz)
                bz.duty_u16(c.duty)
            self._beep_end = self.hw.ticks_add(t, ms)
            self._beeping = True

    def _open_voice(self):
        """The voice, when the flash has its clips and the amplifier's I2S starts."""
        import os
        hw = self.hw
        try:
            os.stat(hw.root + "/" + VOICE_FOLDER)
        except OSError:
            hw.say("voice: no clips in %s/%s: the piezo plays (make deploy-voice copies them)"
                   % (hw.root, VOICE_FOLDER))
            return
        from bobing import voice  # (only now: a bowl without clips spends no heap on the voice)
        try:
            amp = hw.open_amp(voice.RATE, voice.IBUF)
        except Exception as e:  # (machine.I2S: ValueError, OSError from ESP-IDF)
            hw.say("voice: the amplifier's I2S did not start (%s): the piezo plays" % (e,))
            return
        if amp is not None:
            self.voice = voice.Voice(hw.root, amp)

    def speak(self, t):
        """What the console announced, said by the voice (its piezo tune then gives way)."""
        c = self.con
        v = self.voice
        sp = c.take_speech()
        if v is None:
            return
        if sp is None:
            if v.speaking and c.settings.sound == "off":
                v.stop()
            return
        from bobing import voice
        t_ = c.table
        turn = t_.turn if t_ is not None and not t_.kiosk and not t_.ended and c.final is None else 0
        v.shift = voice.QUIET_SHIFT if c.settings.sound == "quiet" else 0
        if v.say(voice.say_for(sp[0], sp[1], sp[2], turn, c.settings.names), t):
            del c.beeps[:]
        elif v.missing is not None:
            self.hw.say("voice: no clip %s/%s/%s%s: the piezo plays" % (self.hw.root, voice.FOLDER, v.missing,
                                                                        voice.SUFFIX))
            v.missing = None

    def _flush_log(self):
        log = self.con.log
        while log:
            self.hw.say(log.pop(0))

    # ---------------------------------------------------------------- rounds
    def sensor_round(self, t):
        self.poll_sensor(t)
        if self.voice is not None:
            self.voice.step(t)
        self._alive |= 1

    def ui_round(self, t):
        self.ui_t = t
        self.poll_buttons(t)
        if self.hw.ticks_diff(t, self._bat_t) >= BATTERY_MS:
            self._bat_t = t
            self.con.battery(t, self.hw.battery_mv())
        self.con.tick(t)
        self.probe_lost(t)
        try:
            self.render(t)
            self._stale = False
            if self._due():  # a sample between the frame's last transfer and the ring's (long) work
                self.render(t)  # it settled the shake: its result at once
            self._no_frame = 0
        except MemoryError:
            self._drawn = -1  # drawn again at the next round, after a collection
            self._no_frame += 1
            gc.collect()
            if self._no_frame == 1:
                self.hw.say("screen: out of memory drawing a frame; drawn again")
            elif self._no_frame >= NO_FRAME_ROUNDS:
                self.out_of_memory("%d frames in a row" % self._no_frame)
                return
        self.drive_leds(t)
        self._due()  # and between the ring's work and what follows (the network's round)
        self.speak(t)
        self.fold()
        self.sound(t)
        self._flush_log()
        self._alive |= 2
        if self.con.sleep:
            self.sleep()

    def watchdog_round(self):
        if self._alive == _ALL_ALIVE:
            if self.hw.wdt is not None:
                self.hw.wdt.feed()
            self._alive = 0

    def step(self, t):
        """One round of every task at time t (simulated time: tests, simulator)."""
        try:
            self.sensor_round(t)
            self.ui_round(t)
        except MemoryError:
            self.out_of_memory("a round")
        self.watchdog_round()

    def out_of_memory(self, where):
        """Out of memory (a heap too fragmented for one more block) stops nothing. A frame
        that cannot be drawn is drawn again at the next round (ui_round); anywhere else the
        round may have left the console half way through an event, so the bowl says so and
        restarts into the same game, which the journal holds to its last recorded event."""
        gc.collect()
        self._flush_log()
        self.hw.say("out of memory in %s (%d B free after a collection): restarting into the same game"
                    % (where, gc.mem_free() if hasattr(gc, "mem_free") else 0))
        self.running = False
        self.hw.restart()

    def sleep(self):
        """Deep sleep until a shake or the OK button; waking is a reset, and the
        game resumes from the journal. The journal is already durable."""
        self.running = False
        if self.hw.buzzer is not None:
            self.hw.buzzer.duty_u16(0)
        if self.voice is not None:
            self.voice.stop()
        self.hw.say("idle: deep sleep")
        self.hw.deepsleep()

    def start_net(self):
        """Provisioned (make provision: net.txt): the event network's own task
        (bowl/net.py) -> its Net, or None."""
        if self.net_cfg is None:
            return None  # not provisioned (or net.txt unreadable, said at boot): nothing of the network is loaded
        try:
            from bowl import net
            self.net = net.start(self)
        except OSError as e:  # the game never waits for the network: play on, say why
            self.hw.say("net: %r; playing offline" % (e,))
        except MemoryError:  # reading net.txt or the outbox's first step: the game goes on without
            self.net = None
            gc.collect()
            self.hw.say("net: out of memory starting the network; playing offline (the next boot tries again)")
        return self.net

    # ---------------------------------------------------------------- asyncio
    async def _every(self, ms, work):
        import asyncio
        while self.running:
            try:
                work(self.hw.ticks_ms())
            except MemoryError:
                self.out_of_memory("a task's round")
            await asyncio.sleep(ms / 1000)

    async def run(self, stop_after_ms=0):
        """The tasks on real time. stop_after_ms > 0 ends them (tests)."""
        import asyncio
        sensor = asyncio.create_task(self._every(SAMPLE_MS, self.sensor_round))
        ui = asyncio.create_task(self._every(UI_MS, self.ui_round))
        self.start_net()
        t0 = self.hw.ticks_ms()
        while self.running:
            await asyncio.sleep(WDT_FEED_MS / 1000)
            self.watchdog_round()
            if stop_after_ms and self.hw.ticks_diff(self.hw.ticks_ms(), t0) >= stop_after_ms:
                self.running = False
        await sensor
        await ui


def boot(hw, urandom=None):
    """What the bowl runs after a reset: the game (App), or, when its filesystem did not mount
    (hw.storage, bowl/storage.py), the repair screen (bowl/repair.py) in its place."""
    if hw.storage is not None:
        import vfs
        from bowl import repair
        return repair.Repair(hw, vfs, getattr(hw, "mount_at", "/"))
    return App(hw, urandom)


def main(hw):
    """Start the bowl (firmware/main.py): never returns on the bowl. A crash is
    printed; the watchdog, no longer fed, then reboots into the same game."""
    import asyncio
    try:
        app = boot(hw)
    except Exception:
        hw.start_watchdog()  # a boot that failed resets the bowl, as a hung one would
        raise
    if app.con is None:  # the repair screen: a loop of its own, no game tasks
        app.run()
        return
    try:
        asyncio.run(app.run())
    except MemoryError:  # the scheduler itself (its queue, a task's frame): into the same game
        app.out_of_memory("the task loop")
