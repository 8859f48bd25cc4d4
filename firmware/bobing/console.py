# The bowl's console: everything the bowl decides that is not hardware, as ONE
# state machine fed (t_ms, event). Pure logic (emlearn style): no machine, no
# clock, no asyncio; it runs unchanged on the ESP32, on the unix port and
# under CPython, and a test replays events into it. bowl/app.py feeds it from
# real (or simulated) parts and draws what it says; host_sim/portable/fakes/bowl.py and the
# simulator drive it the same way.
#
# Events in (each with the time t_ms it happened):
#   sample(t, ax, ay, az, t_us)  an accelerometer sample (milli-g): the shake
#                                detector, then the dice, journal, game
#   buttons(t, mask)             the level of the three buttons (bit set =
#                                pressed); debounced here into presses and
#                                long presses
#   tick(t)                      time passes: result pages, animations,
#                                time limit, idle timeout
# What comes out (read by the app after each call):
#   view, page, frame, out       what the screen shows; `changed` counts
#                                changes so the app redraws only when needed
#   led, led_t0                  what the ring shows: a leds.py pattern id
#                                (a rank code or leds.P_*), since when
#   beeps, duty                  tones to play (list of (hz, ms), hz 0 a rest:
#                                bobing/sound.py's tunes and the dice's rattle),
#                                drained; duty: the PWM duty they play at
#   speech                       (out, zhuangyuan, ended) of the last roll or spill
#                                shown, for the voice (bobing/voice.py: the app says
#                                it and takes it); None, or with the sound off
#   sleep                        True: the idle timeout ran out, deep-sleep now
#   log                          lines for the serial log, drained
#
# Order of a roll (commit before reveal): detector says "rolled" -> the dice
# are drawn from the source and this shake's samples -> Journal.play applies
# the roll and writes it durably -> only then does the view change to the
# result. A failed write shows nothing and resumes from the journal.
#
# Buttons: MENU, NEXT, OK, and the attendant's key (a lock-and-key switch
# through the case wall, spring return: a turn is one press; no magnet or
# phone works it). The key starts the next kiosk customer and nothing else.
# Playing: OK skips a result page; MENU opens the menu (in kiosk mode only
# after the PIN; every admin item, in both modes, is behind the PIN; a kiosk
# lets no customer in while its PIN is the default; any menu closes after
# MENU_LOCK_MS without a button, whatever idle_min says). Menu:
# NEXT moves, OK chooses, MENU goes back. A number (PIN, stock, bowl id) is
# entered digit by digit: NEXT counts the digit up, a long NEXT down, OK goes
# to the next digit, MENU back one. In kiosk mode only the attendant starts
# the next customer's shakes: the key (or the PIN's menu), never OK alone.
import binascii
import os
import time

from micropython import const

from bobing import dice as dicemod
from bobing import game, journal, leds, profiles, shake, sound
from bobing.vocab import (B_KEY, B_MENU, B_NEXT, B_OK, FRAME_MS, J_IN_PLAY, LONG, MENU_LOCK_MS, N_BATTERY, N_DISPLAY,
                          N_FLASH, N_JOURNAL, N_LOCKED, N_PIN_DEFAULT, N_RNG, N_SENSOR, PRESS, V_CLAIM, V_CONFIRM,
                          V_DIGITS, V_FINAL, V_GATE, V_MENU, V_NOTICE, V_OVER, V_POOL, V_RESULT, V_SECRET, V_SEED,
                          V_SHAKING, V_SLEEP, V_TABLE, V_TURN, V_WAIT)

# The battery (mV at the cell, read by the app every few seconds, under
# whatever load the bowl has then). hardware/power.md: the LDO loses
# regulation below about 3.55 V, the ESP32 module is rated from 3.0 V on its
# rail, i.e. about 3.25 V at the cell; a roll's LED show sags the cell by
# some 30 mV more than the moment of any reading.
BAT_LOW_MV = const(3550)  # warn on the screen and the ring (about a tenth of the charge left)
BAT_EMPTY_MV = const(3400)  # no roll starts; deep sleep until charged
BAT_RESUME_MV = const(3450)  # at boot: a rested cell recovers some tens of mV, that is not a charge

PAGE_MS = const(2200)  # each page of a result
CLAIM_PAGE_MS = const(5000)  # a claim's text page, then its QR code page, in turn
SPILL_MS = const(2500)
NOTICE_MS = const(6000)
LONG_MS = const(800)
DEBOUNCE_MS = const(30)


class Buttons:
    """Debounce the buttons (and the attendant's key) into PRESS (on release)
    and LONG (held LONG_MS)."""

    def __init__(self):
        self.stable = 0  # debounced mask
        self._raw = 0
        self._since = 0  # when _raw last changed
        self._down = [0, 0, 0, 0]  # press time per button
        self._long = 0  # mask of buttons whose LONG already fired

    def feed(self, t_ms, mask):
        """-> 0, or an event (button << 2 | PRESS/LONG). One event per call."""
        if mask != self._raw:
            self._raw = mask
            self._since = t_ms
        elif mask != self.stable and time.ticks_diff(t_ms, self._since) >= DEBOUNCE_MS:
            changed = mask ^ self.stable
            self.stable = mask
            for b in range(4):
                bit = 1 << b
                if changed & bit:
                    if mask & bit:
                        self._down[b] = t_ms
                    else:
                        fired = self._long & bit
                        self._long &= ~bit
                        if not fired:
                            return (b << 2) | PRESS
        for b in range(4):
            bit = 1 << b
            if self.stable & bit and not self._long & bit and time.ticks_diff(t_ms, self._down[b]) >= LONG_MS:
                self._long |= bit
                return (b << 2) | LONG
        return 0


class Settings:
    """The bowl's own settings (not a game's), with their defaults. Kept in
    ROOT/settings.txt; reading (with every value's bounds), writing and the
    claim secret's and PIN's files are bobing/settings.py, loaded at boot and
    by the menus only."""

    def __init__(self):
        self.mode = "family"
        self.profile = profiles.DEFAULT_PRESET  # the family table's preset
        self.kiosk_profile = "kiosk"
        self.seats = 10
        self.lang = "zh"
        self.pin = ""  # the PIN's salted hash (settings.pin_record)
        self.bowl_id = "0001"
        self.secret = ""  # hex, kept in its own file; made from the random source on first boot
        self.stock = {}  # kiosk stock per class, overriding the preset's counts
        self.idle_min = 5  # deep sleep after this many idle minutes (0 = never)
        self.sound = "on"  # sound.LEVELS: on, quiet, off
        self.names = bytearray(game.MAX_SEATS)  # each seat's name: 1 + vocab.TITLES index, 0 none

    # what the boot's read of the files found (bobing/settings.py sets them; not kept in the file)
    mode_lost = False  # settings.txt's mode could not be read (a kiosk's until the journal says otherwise)
    pin_lost = False  # the PIN's record is damaged: maintenance mode's `make pin` sets a new one
    pin_doubt = False  # settings.txt failed its checksum: a value, the PIN's too, may be wrong
    pin_plain = None  # the PIN is still the default 1234 (None: not checked since boot or a change)

    def active_profile(self):
        return self.kiosk_profile if self.mode == "kiosk" else self.profile


def _unsent(root):
    """The first game whose awards have not all reached the broker (outbox.unsent_from), which
    no prune may remove; 0 on a bowl not provisioned for an event (it never loads the outbox)."""
    if not journal.provisioned(root):
        return 0
    from bobing import outbox
    return outbox.unsent_from(root)


def _unload(name):
    """Drop a module only the boot needs: on a bowl running .mpy files its code
    is heap, free again once nothing refers to it (imported again if asked)."""
    import sys
    import bobing
    sys.modules.pop("bobing." + name, None)
    if hasattr(bobing, name):
        delattr(bobing, name)


class Console:
    """See the module comment. `root`: the folder for the journal and settings;
    `urandom`: the random source (os.urandom); `entropy`: bytes with real
    entropy for the claim secret (the board's strong_random; default urandom
    off the bowl); has_display/has_sensor: which
    parts came up; hw_errors: [(part, message)] from the board's bring-up.
    event: the event the bowl is provisioned for (net.txt): a new kiosk game is
    then an event game, whose stock comes only from the prize desk's grants
    (allot(), firmware/PROTOCOL.md "Shared stock")."""

    # Defaults on the class (no heap per instance until set); the rest in __init__.
    speech = None  # what the voice is to say (announce; the app takes it)
    final = None  # the 状元王中王 on this bowl, a final_play.FinalPlay (None: no final; set_final)
    fair = None  # verifiable dice on an event kiosk (net.txt fair=on): a fair.Fair, else None (use_fair)
    _own = False  # the roll on show is the bowl's own dice on a fair kiosk whose desk did not answer
    _fair_err = None  # when the last commitment could not be made (flash, random source)
    _pressed = 0  # when a button was last pressed (any menu closes MENU_LOCK_MS after it)
    _pages = 1  # pages of the result on show (screen.result_pages decides, via set_pages)
    _clock0 = (0, 0)  # (the game's minute, the time it was read): the kiosk's minutes go on from it
    # state objects made when first needed (a family game played by shakes makes neither):
    menu = None  # what the menus have open and the PIN's lockout: a menu.MenuState (_menus)
    grants = None  # what the prize desk granted: a grants.Grants (_grants)

    def __init__(self, root, t_ms, urandom, has_display=True, has_sensor=True, hw_errors=(),
                 woke_by="power", entropy=None, event=""):
        self.root = root
        self.event = event
        self.urandom = urandom
        self.entropy = entropy or urandom
        self.has_display = has_display
        self.has_sensor = has_sensor
        self.log = []
        self.beeps = []
        self.sleep = False
        self.changed = 0
        self.view = V_TURN
        self.stage = V_TURN  # the view the game's flow is in (show(): the view, or under V_FINAL the final's phase)
        self.page = 0
        self.frame = 0
        self.out = None  # the Outcome on show
        self.arg = None  # view argument (menus, notices)
        self.led = leds.P_IDLE
        self.led_t0 = t_ms
        self.claims = []  # kiosk codes still to show (class, code, game no, award no, "game-award", bowl id)
        self.rolled = 0  # rolls drawn since boot
        self.now = t_ms  # the time of the last event fed in (the console reads no clock)
        self.boot_t = t_ms  # when the bowl came up (a PIN's lock read from flash counts from here)
        self.since = t_ms  # when the view (or the final's phase) last changed
        self._active = t_ms  # last button or shake: the idle timeout counts from here
        self._frame_t = t_ms
        self._notices = []  # [(kind, detail)] still to show
        self._reshow = None  # the last roll before a power cut, shown again after the notices
        self._play_ms = 0  # for the profile's time limit (counts while awake)
        self._last_tick = t_ms  # the time limit counts from here, not from tick 0
        self._roll_buf = bytearray(6)
        self._rattle = sound.Rattle(t_ms)
        self._buttons = Buttons()
        self.j = None
        self.rng_error = None
        self.battery_mv = None  # the last reading, or None (a board that cannot tell)
        self.flat = False  # the battery is empty: no roll starts, deep sleep follows
        self._bat_warned = False

        self.settings = Settings()
        from bobing import settings
        settings.boot(self)  # settings.txt, the claim secret, the PIN (notices for damage)
        _unload("settings")
        _unload("claim")
        for part, msg in hw_errors:
            self.say("hardware: %s: %s" % (part, msg))
            if part == "display":
                self._notices.append((N_DISPLAY, msg))
            elif part == "accel":
                self._notices.append((N_SENSOR, msg))
        try:
            self.dice = dicemod.Dice(urandom)
        except dicemod.EntropyError as e:
            self.dice = None
            self.rng_error = e
            if e.test != "memory":  # no memory is no failed source: the first roll reads it again
                self._notices.append((N_RNG, e.test))
            self.say("dice: %s" % e)
        self.detector = None
        self._resume(woke_by)
        if self.settings.mode_lost and self.table is not None and not self.table.kiosk:
            self.settings.mode = "family"  # the game on flash is a family table's (the journal is checksummed)
            self.say("settings: the mode was damaged; the game on flash is a family table's")
            from bobing import settings
            settings.save(self)
            _unload("settings")
        try:
            os.stat(root + "/final.txt")  # a final is on: play on where it stood (final_play.FILE)
        except OSError:
            pass
        else:
            from bobing import final_play
            final_play.resume(self)
        try:
            os.stat(root + "/shakes.txt")  # a desk's grant was taken (grants.FILE)
        except OSError:
            pass
        else:
            self._grant_state()  # one taken before a power cut waits for its customer
        self.next_notice_or(self.home())

    # ------------------------------------------------------------ helpers
    # The public ones (say, notify, show, redraw, home, next_notice_or, set_led, secret,
    # new_game, make_detector, set_final, use_fair, rearm, draw_dice, announce, ok_rolls,
    # confirm; the attributes now, since, stage, boot_t; the state objects settings, menu,
    # grants, final, fair) are what the modules the console loads on demand (menu,
    # settings, final_play, panels) and bowl/ use: they change those state objects, and
    # the Console's own attributes only through these methods.
    def say(self, line):
        """A line for the serial log."""
        self.log.append(line)

    def notify(self, kind, detail=""):
        """A notice (N_*) to show before the next view (next_notice_or)."""
        self._notices.append((kind, detail))

    @property
    def lang(self):
        """The screen's language: the setting's (the menu changes it at once)."""
        return self.settings.lang

    def redraw(self):
        """The view on show changed in place (a menu's cursor, a digit): drawn again."""
        self.changed += 1

    def secret(self):
        """The kiosk's claim secret (bytes)."""
        return binascii.unhexlify(self.settings.secret)

    def show(self, view, arg=None):
        """Show `view` (V_FINAL: the final in its phase). The ring, the detector and
        the rattle follow `stage`: the view, or under V_FINAL the final's phase
        (final_play's phases are the views V_TURN, V_SHAKING, V_RESULT, V_OVER)."""
        self.view = view
        self.arg = arg
        self.page = 0
        self.frame = 0
        self.since = self.now
        self._frame_t = self.now
        self.changed += 1
        if view != V_NOTICE and not V_MENU <= view <= V_SECRET and view != V_CLAIM:
            if self.menu is not None:
                self.menu.authed = False  # the PIN (or the key) opened the menus only until they close
        if view == V_FINAL:
            view = self.final.phase
        self.stage = view
        if view == V_TURN or view == V_POOL:
            self.rearm()
        if view == V_TURN or view == V_POOL or view == V_MENU or view == V_WAIT or view == V_GATE or view == V_SEED:
            self.set_led(leds.P_IDLE)
        elif view == V_SHAKING:
            self.set_led(leds.P_SHAKE)
            self._rattle.start(self.now)
        elif view == V_OVER:
            self.set_led(leds.P_GAME_OVER)
        elif view == V_SLEEP:
            self.set_led(leds.P_OFF)

    def set_led(self, pattern):
        if pattern != self.led:
            self.led_t0 = self.now  # a new show starts at its first frame
        self.led = pattern

    def rearm(self):
        if self.detector is not None:
            self.detector.rearm()

    @property
    def table(self):
        return self.j.table if self.j is not None else None

    def next_notice_or(self, view):
        """Show the next pending notice; when none is left, the roll to show again
        (after a power cut), else `view`."""
        if not self._notices and self.j is None and self.final is None:
            self._notices.append((N_FLASH, "no game: the flash is full"))  # nothing to play: it stays
        if self._notices:
            kind, detail = self._notices.pop(0)
            self.show(V_NOTICE, (kind, detail))
            self.set_led(leds.P_BATTERY if kind == N_BATTERY else leds.P_ERROR)
            self.tune(sound.ALERT)
        elif self._reshow is not None:
            out = self._reshow
            self._reshow = None
            self._reveal(out)
        else:
            self.show(view)

    def home(self):
        if self.final is not None:
            return V_FINAL
        t = self.table
        if t is None:
            return V_TURN
        if t.ended:
            return V_OVER
        if t.kiosk and not t.shakes_left:
            return V_WAIT if t.event and not t.stocked() else V_GATE
        if self._unseeded():
            return V_SEED
        return V_TURN

    @property
    def unverified(self):
        """The screen shows a fair kiosk's turn played with the bowl's own dice (no desk
        value came in time, bobing/fair.py): its turn, shaking, a roll's result and the
        claims it won say so, as verify-fair, the desk's page and the claim link do."""
        v = self.view
        m = self.menu
        if v == V_RESULT or v == V_CLAIM and (m is None or m.edit != "codes"):  # (a code looked up later: not known)
            return self._own
        f = self.fair
        return (v == V_TURN or v == V_SHAKING) and f is not None and f.unseeded()

    def _unseeded(self):
        """A fair event kiosk whose customer may not shake yet: no desk value for his commitment."""
        t = self.table
        return self.fair is not None and t is not None and t.event and t.kiosk and \
            t.shakes_left > 0 and not t.ended and not self.fair.ready()

    def _fair_step(self):
        """Commit for a customer about to shake, reveal after his last shake (bobing/fair.py)."""
        f = self.fair
        if f is None or self.j is None:
            return
        if self._fair_err is None or time.ticks_diff(self.now, self._fair_err) >= NOTICE_MS:
            try:
                f.need(self.j, self.now)  # (the time: a desk that does not answer)
                self._fair_err = None
            except (OSError, dicemod.EntropyError) as e:  # no commitment: the customer waits (V_SEED)
                self._fair_err = self.now  # tried again after a while, not at every tick
                self.say("fair: no commitment made: %s" % e)
        if f.log:
            self.log.extend(f.log)
            del f.log[:]
        if self.view == V_TURN and self._unseeded():
            self.show(V_SEED)
        elif self.view == V_SEED and not self._unseeded():
            self.show(self.home())

    def seed(self, g, q, c_hex, d):
        """The desk's value for a commitment (bowl/net.py) -> True when it was this turn's."""
        f = self.fair
        if f is None:
            return False
        try:
            ok = f.seed(g, q, c_hex, d)
        except OSError as e:  # not on flash: not used (the retained seed comes again after a reconnect)
            self.say("fair: desk value not written: %s" % e)
            return False
        self._fair_step()
        return ok

    # ------------------------------------------------------------ games
    def _resume(self, woke_by):
        r = journal.recover(self.root, self.secret(), _unsent(self.root))
        full = False  # the damage could not be set aside: that is the one notice (its screen says so)
        for p in r.problems:
            full = full or p.code == journal.FLASH_FULL
        for p in r.problems:
            self.say("journal: %s" % p.text)
            if not full or p.code == journal.FLASH_FULL:
                self._notices.append((N_JOURNAL, p.code))
        for name in r.removed:
            self.say("journal: removed half-written %s" % name)
        for line in r.notes:
            self.say("journal: " + line)
        if r.journal is None:
            self.new_game()
            return
        self.j = r.journal
        self._clock0 = (self.j.minute, self.now)  # the game's minutes go on from its last customer's
        self.say("resumed game %d at event %d" % (self.j.game_id, self.j.count))
        self.make_detector()
        if woke_by in ("power", "watchdog", "reset") and self.j.count:
            last = self.j.last  # the Outcome of the last event, replayed at recovery
            if last is not None and last.kind == game.EV_ROLL:
                self._reshow = last  # the roll seen just before the cut is shown again as it stands

    def _menus(self):
        """bobing/menu.py, its state made when the first menu opens."""
        from bobing import menu
        if self.menu is None:
            self.menu = menu.MenuState()
        return menu

    def set_final(self, fp, detector=None):
        """Play the final fp (a final_play.FinalPlay) with `detector` (its rules'), or
        None: no final (the detector stays until make_detector)."""
        self.final = fp
        if fp is not None:
            self.detector = detector

    def use_fair(self, f):
        """Verifiable dice (a fair.Fair) from now on: bowl/app.py for an event kiosk."""
        self.fair = f

    def make_detector(self):
        opts = self.table.profile.options
        self.detector = shake.Detector(self.dice, opts.get("spill_detect", "off"))

    def new_game(self):
        s = self.settings
        kiosk = s.mode == "kiosk"
        plays = bool(self.event) and kiosk
        # an event's stock goes from game to game (journal.carried): never lost, never twice
        stock = journal.carried(self.j, self.event if plays else "", s.bowl_id)
        had = self.j is not None
        if self.j is not None:
            self.j.close()
            self.j = None
        counts = None
        if kiosk and s.stock and not plays:
            counts = {}
            for c in profiles.Profile(s.kiosk_profile).prizes["classes"]:
                if c[0] in s.stock:
                    counts[c[0]] = s.stock[c[0]]
        try:
            self.j = journal.start(self.root, s.active_profile(), None, s.seats, counts,
                                   s.bowl_id if kiosk else "", self.secret() if kiosk else None,
                                   stock=stock, plays=plays, unsent=_unsent(self.root))
        except ValueError as e:
            self.say("cannot start a game: %s" % e)
            raise
        except OSError as e:  # no room on the flash: nothing is lost, the bowl says so
            self.say("cannot start a game: %s" % e)
            self._notices.append((N_FLASH, "flash full: no new game (%s)" % e))
            if had:
                self._resume("flash full")  # the game it had, as it stands
            return
        self.say("new game %d: %s, %d seats%s" % (self.j.game_id, s.active_profile(), s.seats,
                                                   ", event %s" % self.event if plays else ""))
        self._play_ms = 0
        self._clock0 = (0, self.now)
        self.out = None
        self.claims = []
        self.make_detector()
        g = self.grants.shakes if self.grants is not None else None
        if g is not None:  # not used in the game that ended: it is for this game's first customer
            from bobing import grants
            try:
                grants.write(self.root, g[0], g[1], self.j.game_id, 1)
                self.grants.shakes = (g[0], g[1], self.j.game_id, 1)
            except OSError as e:
                self.grants.shakes = None
                self.say("shakes: grant %d lost with the old game: flash write failed: %s" % (g[0], e))
            _unload("shakes")

    def _play(self, kind, arg, meta=0):
        """Apply and journal one event; -> Outcome, or None when it could not be
        made durable (then the game resumes from flash and nothing is shown)."""
        try:
            return self.j.play(kind, arg, meta)
        except OSError as e:
            self.say("journal write failed: %s; resuming from flash" % e)
            if self.fair is not None:
                self.fair.lost()  # as a power cut: this commitment stays unrevealed
            self.j.close()
            self.j = None
            self._notices.append((N_FLASH, str(e)))
            self._resume("failed write")
            self.next_notice_or(self.home())
            return None

    def draw_dice(self):
        """Six dice from the source -> the roll buffer, or None when no roll can be
        made (the battery is empty, the random source failed: shown)."""
        if self.flat:  # a roll the battery cannot finish is never started
            if self.detector is not None:
                self.detector.rearm()
            self._battery_empty()
            return None
        if self.rng_error is not None and self.rng_error.test == "memory":
            self._dice_again()
        if self.dice is None or (self.dice.failed is not None):
            self._notices.append((N_RNG, self.rng_error.test if self.rng_error else "source"))
            self.next_notice_or(self.home())
            return None
        try:
            if self.fair is not None and self.fair.ready():
                d = self.fair.roll(self._roll_buf)  # the committed secret and the desk's value
            else:
                d = self.dice.roll(self._roll_buf)
        except dicemod.EntropyError as e:
            self.rng_error = e
            self.say("dice: %s" % e)
            if e.test == "memory":  # no roll made, none recorded: bowl.app restarts into the game
                self.dice = None
                raise MemoryError("dice: %s" % e)
            self._notices.append((N_RNG, e.test))
            self.next_notice_or(self.home())
            return None
        self.rolled += 1
        return d

    def _dice_again(self):
        """The random source could not be read for want of memory (no health test
        failed): a fresh Dice after a collection; short of memory again -> MemoryError
        (bowl.app restarts into the same game); a failed health test is latched as ever."""
        import gc
        gc.collect()
        try:
            self.dice = dicemod.Dice(self.urandom)
            self.rng_error = None
        except dicemod.EntropyError as e:
            self.dice = None
            self.rng_error = e
            self.say("dice: %s" % e)
            if e.test == "memory":
                raise MemoryError("dice: %s" % e)

    def _roll(self, t_us):
        """Draw six dice for the seat whose turn it is (or seat 1's start total)."""
        t = self.table
        d = self.draw_dice()
        if d is None:
            return
        if not t.started and not t.kiosk:
            out = self._play(game.EV_START_TOTAL, d[0] + d[1])
            if out is not None:
                out.dice = (d[0], d[1])  # the two dice of the start total, for the screen
        else:
            out = self._play(game.EV_ROLL, (d[0], d[1], d[2], d[3], d[4], d[5]))
            if out is not None and self.fair is not None and self.fair.ready():
                self.fair.rolled(d)
        if out is None:
            return
        own = self.fair is not None and self.fair.unseeded()  # (before his last shake ends the turn)
        self._fair_step()  # his last shake: the secret is revealed now
        self._reveal(out, own)

    def _reveal(self, out, own=False):
        self.out = out
        self._own = own
        self.claims = []
        if out.claims:  # kiosk: claims[i] pays won[i], award numbers counted by the table
            t = self.table
            first = t.award_no - len(out.claims) + 1
            for k in range(len(out.claims)):
                n = first + k
                self.claims.append((out.won[k][0], out.claims[k], t.game_no, n, "%d-%d" % (t.game_no, n),
                                    t.bowl_id))
        self.show(V_RESULT)
        t = self.table
        if not self.claims and t is not None and not t.ended and (not t.kiosk or t.shakes_left):
            self.rearm()  # the next shake may begin while the pages show: it is not lost
        zy = out.kind == game.EV_ROLL and out.holder_after == out.seat and out.holder_before != out.seat
        self.announce(out, zy, out.ended)

    def announce(self, out, zhuangyuan, ended):
        """A roll's or spill's show on the ring (its rank's, from its first frame, even
        without a screen) and its sound (sound.tune_for, then the end's tune when it
        ended the game): the table's and the final's."""
        self.led_t0 = self.now
        self.set_led(leds.pattern_for(out))
        del self.beeps[:]  # the rattle's last clicks give way
        self.tune(sound.tune_for(out, zhuangyuan))
        if ended:
            self.tune(sound.GAME_END)
        if self.settings.sound != "off":
            self.speech = (out, zhuangyuan, ended)

    def take_speech(self):
        """-> what announce() left for the voice, once ((out, zhuangyuan, ended) or None)."""
        sp = self.speech
        self.speech = None
        return sp

    def rattle(self, t_ms):
        """While the bowl is shaken (the table's game or the final): the dice
        knocking on the bowl, a click at irregular moments."""
        if not self.beeps and self.settings.sound != "off":
            click = self._rattle.next(t_ms)
            if click is not None:
                self.beeps.append(click)

    def tune(self, steps):
        """Queue a tune of bobing/sound.py (nothing when the sound is off)."""
        if self.settings.sound != "off":
            sound.queue(self.beeps, steps)

    @property
    def duty(self):
        """The PWM duty the tunes play at (the sound setting)."""
        s = self.settings.sound
        return sound.DUTY[0] if s == "on" else sound.DUTY[1] if s == "quiet" else 0

    def _after_result(self):
        if self.claims:
            self.show(V_CLAIM, self.claims.pop(0))
            t = self.table
            if t.shakes_left and not t.ended:
                self.rearm()  # his next shake moves on: the code stays in the attendant's list (codes)
            return
        self.next_notice_or(self.home())  # one that came while the result showed (damage found meanwhile)

    # ------------------------------------------------------------ events in
    def sample(self, t_ms, ax, ay, az, t_us=None):
        """One accelerometer sample."""
        self.now = t_ms
        det = self.detector
        if det is None:
            return
        ev = det.feed(t_ms, ax, ay, az, t_us)
        if ev == shake.EV_NONE:
            return
        v = self.view
        t = self.table
        # a shake counts on the turn screen, while shaking, from a look at the prizes, and
        # while a result shows (its pages give way to the next shake; not while a claim
        # waits to be seen) or a claim code (once shown it is in the attendant's list),
        # never while a kiosk waits for the attendant
        waiting = t is not None and t.kiosk and not t.shakes_left or self._unseeded()
        m = self.menu
        playing = (v == V_TURN or v == V_SHAKING or v == V_POOL or v == V_TABLE or v == V_RESULT and
                   not self.claims or v == V_CLAIM and (m is None or m.edit != "codes")) and not waiting
        if (v == V_RESULT or v == V_CLAIM) and ev == shake.EV_JOLT:
            return  # a knock while the result or a code shows: it stays
        if ev == shake.EV_STUCK:
            self.say("accelerometer stuck: rolls by the OK button")
            self.has_sensor = False
            self._notices.append((N_SENSOR, "stuck"))
            if playing:
                self.next_notice_or(self.home())
            return
        if v == V_FINAL:
            self._active = t_ms
            from bobing import final_play
            final_play.shake_event(self, ev)
            return
        if not playing or t is None or t.ended:  # (a waiting kiosk is not playing)
            if ev == shake.EV_ROLLED or ev == shake.EV_SPILL:
                det.rearm()  # a shake while the bowl is busy counts for nothing
            return
        self._active = t_ms
        if ev == shake.EV_SHAKE:
            self.show(V_SHAKING)
        elif ev == shake.EV_JOLT:
            self.show(V_TURN)
        elif ev == shake.EV_ROLLED:
            self._roll(t_us)
        elif ev == shake.EV_SPILL:
            if not t.started and not t.kiosk:
                self.show(V_TURN)  # a spilled start roll: just roll again
                return
            out = self._play(game.EV_SPILL, None)
            if out is not None:
                if self.fair is not None and self.fair.ready():
                    self.fair.spilled()
                self._fair_step()
                self._reveal(out)

    def lost_sensor(self, why):
        """The accelerometer failed while playing: rolls go to the OK button."""
        self.has_sensor = False
        self.detector = None
        self.say("accelerometer lost (%s): the OK button rolls" % why)
        self._notices.append((N_SENSOR, why[:21]))
        if self.view in (V_TURN, V_SHAKING, V_POOL, V_TABLE):
            self.next_notice_or(self.home())

    def lost_display(self, why):
        """The display failed: the ring (error blink, then every rank) and the log go on."""
        self.has_display = False
        self.say("display lost (%s): the LED ring shows the ranks" % why)
        self.set_led(leds.P_ERROR)
        self.led_t0 = self.now
        self.tune(sound.ALERT)

    def battery(self, t_ms, mv):
        """The battery voltage in mV (None: the board cannot tell), from the app."""
        if mv is None:
            return
        self.now = t_ms
        first = self.battery_mv is None
        self.battery_mv = mv
        if mv < (BAT_RESUME_MV if first else BAT_EMPTY_MV):
            if not self.flat:
                self.flat = True
                self.say("battery empty (%d mV): no more rolls until charged; deep sleep" % mv)
                self._battery_empty()
        elif mv < BAT_LOW_MV and not self._bat_warned:
            self._bat_warned = True
            self.say("battery low (%d mV): charge soon" % mv)
            self._notices.append((N_BATTERY, "%d.%02d V" % (mv // 1000, mv % 1000 // 10)))
            if self.view in (V_TURN, V_POOL, V_OVER, V_FINAL, V_GATE, V_TABLE):
                self.next_notice_or(self.home())

    def _battery_empty(self):
        if self.view != V_SLEEP:
            self.show(V_NOTICE, (N_BATTERY, "empty"))
            self.set_led(leds.P_BATTERY)
            self.led_t0 = self.now

    def found_sensor(self):
        """The lost accelerometer answers again: shakes roll again."""
        self.has_sensor = True
        if self.table is not None:
            self.make_detector()
        self.say("accelerometer back: shakes roll again")

    def found_display(self):
        """The lost display answers again: the screen is drawn again."""
        self.has_display = True
        self.changed += 1
        self.say("display back")
        # its "no display" notice was for the ring only: the screen has nothing to say for it
        self._notices = [n for n in self._notices if n[0] != N_DISPLAY]
        if self.view == V_NOTICE and self.arg[0] == N_DISPLAY:
            self.next_notice_or(self.home())

    def buttons(self, t_ms, mask, t_us=0):
        """The buttons' levels (bit B_* set = pressed)."""
        self.now = t_ms
        ev = self._buttons.feed(t_ms, mask)
        if ev:
            self._active = t_ms
            self.press(ev >> 2, ev & 3, t_us or t_ms * 1000)

    def press(self, b, kind, t_us=0):
        """A debounced press (PRESS or LONG) of button b; also for the simulator."""
        v = self.view
        self._pressed = self.now
        if v == V_SLEEP:
            return
        if v == V_NOTICE:
            if b == B_OK or b == B_MENU:  # the key that closes a notice does nothing else
                self._notice_done()
            return
        if b == B_KEY:
            self._menus().attendant(self)
            return
        if v == V_MENU or v == V_DIGITS or v == V_CONFIRM or v == V_SECRET:
            self._menus().key(self, b, kind)
            return
        m = self.menu
        if v == V_CLAIM and m is not None and m.edit == "codes":  # a code shown again from the attendant's list
            self._menus().key(self, b, kind)
            return
        if b == B_MENU:
            self._menus().open_menu(self)
            return
        if v == V_FINAL:
            from bobing import final_play
            final_play.press(self, b, t_us)
            return
        t = self.table
        if v == V_RESULT and b == B_OK:
            self._result_page_done()
        elif v == V_CLAIM and b == B_OK:
            self._after_result()
        elif v == V_OVER and b == B_OK:
            self._menus().ask_new_game(self)
        elif v == V_OVER and b == B_NEXT and not t.kiosk:
            self.show(V_TABLE, 1)  # who won what, a page a seat
        elif v == V_TABLE:
            if b == B_NEXT and self.arg < t.seats:
                self.show(V_TABLE, self.arg + 1)
            elif b == B_NEXT and not t.ended:
                self.show(V_POOL)  # after the last seat: the prizes left
            else:
                self.show(self.home())
        elif v == V_GATE:
            if b == B_NEXT:
                self.show(V_POOL)  # a look at the prizes left; OK alone never starts a customer
            else:
                self.tune(sound.KEY)
        elif v == V_POOL:
            self.show(self.home())
        elif v == V_TURN and self.ok_rolls(b, t_us):
            self._roll(t_us)
        elif v == V_TURN and b == B_NEXT:
            if t is not None and not t.kiosk and t.started:
                self.show(V_TABLE, 1)  # the prizes by seat, then the pool
            else:
                self.show(V_POOL)  # a look at the prizes left

    def ok_rolls(self, b, t_us):
        """-> True when press b rolls (the table's turn or the final's): OK, while no
        shake sensor rolls; the press time joins the random pool."""
        if b != B_OK or self.has_sensor:
            return False
        if self.dice is not None:
            self.dice.absorb(t_us & 0x3FFFFFFF, 0, 0, 0)
        return True

    def confirm(self, title, action):
        """Ask for OK to confirm `title` (V_CONFIRM); menu.py does `action` on OK."""
        self._menus()
        self.menu.edit = action
        self.show(V_CONFIRM, title)

    def next_customer(self, n=None, who=journal.BY_PIN):
        """The attendant starts the next customer's shakes (who: the key, the PIN's
        menu, or n shakes granted at the prize desk: never OK alone); journaled
        with who and the game's minute. -> True if a customer now shakes."""
        t = self.table
        if t is None or not t.kiosk or t.ended or t.shakes_left:
            return False
        if self.pin_default():
            self.say("kiosk: no customer while the PIN is the default 1234: change it (menu, admin, PIN)")
            self._notices.append((N_PIN_DEFAULT, ""))
            self.next_notice_or(self.home())
            return False
        if t.event and not t.stocked():
            self.show(V_WAIT)  # the stock ran out under this screen
            return False
        g = self.grants.shakes if self.grants is not None else None  # (on flash: the next customer's)
        if g is not None and n is None and t.customer + 1 == g[3]:
            n = g[1]
        m, t0 = self._clock0
        out = self._play(game.EV_CUSTOMER, n, journal.customer_meta(
            journal.BY_DESK if n else who, m + time.ticks_diff(self.now, t0) // 60000))
        if out is None:
            return False
        if g is not None and t.customer == g[3]:
            self.grants.shakes = None
            self.ack((g[0], "used", ""))
            self.say("shakes: grant %d used by customer %d" % (g[0], t.customer))
            n = g[1]
        self.say("customer %d: %s started %d shakes" % (t.customer, "the prize desk" if n else "the attendant's key"
                                                        if who == journal.BY_KEY else "the attendant", t.shakes_left))
        self.show(V_TURN)
        self._fair_step()
        return True

    def pin_default(self):
        """-> True while the PIN is the default 1234 (checked once: a PBKDF2)."""
        if self.settings.pin_plain is None:
            from bobing import settings
            self.settings.pin_plain = bool(self.settings.pin) and settings.pin_check(self.settings.pin,
                                                                             settings.DEFAULT_PIN)
            _unload("settings")
        return self.settings.pin_plain

    def tick(self, t_ms):
        """Time passes (call it often: every 10-50 ms)."""
        self.now = t_ms
        v = self.view
        m = self.menu  # (None until a menu opens; the menu views are shown only then)
        if (V_MENU <= v <= V_SECRET or v == V_CLAIM and m is not None and m.edit == "codes") and \
                time.ticks_diff(t_ms, self._pressed) >= MENU_LOCK_MS:
            m.edit = m.then = None
            self.say("menu closed: %d s without a button (the PIN asked again)" % (MENU_LOCK_MS // 1000))
            self.show(self.home())  # (the PIN's opening ends with the menus)
            v = self.view
        since = time.ticks_diff(t_ms, self.since)
        st = self.stage  # (the final's phase too)
        if st == V_SHAKING:
            self.rattle(t_ms)
        if time.ticks_diff(t_ms, self._frame_t) >= FRAME_MS:
            self._frame_t = t_ms
            if st == V_SHAKING or st == V_OVER:
                self.frame += 1
                self.changed += 1
        if v == V_RESULT:
            if self.turns_in(t_ms) == 0:
                self._result_page_done()
        elif v == V_NOTICE:
            if since >= NOTICE_MS:
                self._notice_done()
            elif self.arg[0] == N_LOCKED and since // 1000 != self.frame:
                self.frame = since // 1000  # the lock counts down on the screen, a second a step
                self.changed += 1
        elif v == V_FINAL:
            from bobing import final_play
            final_play.tick(self, t_ms)
        elif v != V_SHAKING and self.turns_in(t_ms) == 0:  # (a shake's rounds: no call more)
            # the screen shows page % its pages (a claim: its text, then its QR code)
            self.page += 1
            self.since = t_ms
            self.changed += 1
        self._time_limit(t_ms)
        if self.j is not None and v != V_SHAKING:
            p = self.j.check_step()  # a few of the records the boot's checkpoint covered
            if p is not None:
                self.say("journal: %s" % p.text)
                self._notices.append((N_JOURNAL, J_IN_PLAY))  # (its own screen: nothing was set aside)
                if v == V_TURN or v == V_POOL or v == V_OVER or v == V_GATE or v == V_WAIT or v == V_TABLE:
                    self.next_notice_or(self.home())  # between shakes: said now, the game goes on after it
        if self.fair is not None and v != V_SHAKING:
            self._fair_step()
        gr = self.grants
        if gr is not None and gr.allot is not None and v != V_SHAKING and v != V_SLEEP:
            self._apply_allot()
        if gr is not None and gr.shakes is not None and v == V_GATE:
            self._use_grant()
        if self.flat and (v != V_NOTICE or since >= NOTICE_MS // 2):
            self.sleep = True  # every journal write is done: they finish inside sample()/press()
            self.show(V_SLEEP)
            return
        idle = self.settings.idle_min
        if idle and v in (V_TURN, V_POOL, V_OVER, V_MENU, V_FINAL, V_GATE, V_TABLE) and \
                time.ticks_diff(t_ms, self._active) >= idle * 60000:
            self.sleep = True
            self.show(V_SLEEP)
        self._last_tick = t_ms

    def turns_in(self, t_ms):
        """ms until tick() turns the screen by itself (the view's next page, or what follows it;
        0: due now), or -1 when the view waits for a button or a shake. A connect, which holds
        the loop for most of a second, waits while a turn is near (bowl/net.py's quiet())."""
        v = self.view
        if v == V_RESULT:
            turn = SPILL_MS if self.out is not None and self.out.kind == game.EV_SPILL else PAGE_MS
        elif v == V_NOTICE:
            turn = NOTICE_MS
        elif v == V_POOL:
            turn = PAGE_MS
        else:
            f = self.fair  # (fair: the receipt's, the seed's QR in turn)
            if not (v == V_CLAIM or f is not None and (v == V_GATE and f.receipt or v == V_TURN and f.joinable())):
                return -1
            turn = CLAIM_PAGE_MS
        return max(0, turn - time.ticks_diff(t_ms, self.since))

    def _time_limit(self, t_ms):
        """The profile's time limit counts play while the bowl is awake (a game
        resumed after sleep or a reset starts counting again from there)."""
        t = self.table
        last = self._last_tick
        if t is None or not t.time_limit or not t.started or t.ended or self.view == V_SLEEP:
            return
        self._play_ms += time.ticks_diff(t_ms, last)
        if self._play_ms >= t.time_limit * 60000 and self.view in (V_TURN, V_POOL):
            self._play_ms = -(1 << 29)  # once
            out = self._play(game.EV_TIMEUP, None)
            if out is not None:
                self.say("time limit reached")
                self.show(self.home())


    # ------------------------------------------------------------ shakes from the desk (Grants)
    def _grants(self):
        """The desk's grants, made at the first (bobing/grants.py's class: loaded only then)."""
        if self.grants is None:
            from bobing import grants
            self.grants = grants.Grants()
            _unload("shakes")
        return self.grants

    def ack(self, a):
        """An answer (id, st, why) to a desk's grant of shakes, to be sent once (bowl/net.py)."""
        gr = self._grants()
        if gr.acks is None:
            gr.acks = []
        if a not in gr.acks:
            gr.acks.append(a)

    def next_ack(self):
        """-> the next answer to a desk's grant to send (bowl/net.py), or None."""
        gr = self.grants
        return gr.acks.pop(0) if gr is not None and gr.acks else None

    def _grant_state(self):
        """Read the record once: -> the highest id taken; sets the pending grant."""
        self._grants()
        if self.grants.floor < 0:
            from bobing import grants
            try:
                r = grants.read(self.root)
            except ValueError as e:
                r = None
                self.grants.floor = 0
                self.grants.damaged = True  # the next grant seen may have been used: it only sets the floor
                self.say("shakes: %s: the next grant is refused, later ones are taken" % e)
            else:
                self.grants.floor = r[0] if r else 0
                t = self.table
                if r and t is not None and self.j is not None and r[2] == self.j.game_id and t.customer < r[3]:
                    self.grants.shakes = r
            _unload("shakes")
        return self.grants.floor

    def grant_shakes(self, gid, n):
        """The desk's grant (decoded and authenticated by bowl/net.py with
        grants.decode) -> (st, why): "got" once it is on flash (or was taken
        before and is still pending), "used", or "no" with the reason."""
        floor = self._grant_state()
        if self.grants.damaged:
            self.grants.damaged = False
            self.grants.floor = gid
            return "no", "the bowl's record of grants was damaged: grant again"
        if gid <= floor:
            if self.grants.shakes is not None and self.grants.shakes[0] == gid:
                return "got", ""
            return ("used" if gid == floor else "no"), ("" if gid == floor else "not newer than grant %d" % floor)
        t = self.table
        if t is None or not t.kiosk or t.ended or self.j is None:
            return "no", "this bowl is not in a kiosk game"
        if self.grants.shakes is not None:
            return "no", "grant %d is still waiting for its customer" % self.grants.shakes[0]
        from bobing import grants
        r = (gid, n, self.j.game_id, t.customer + 1)
        try:
            grants.write(self.root, *r)
        except OSError as e:
            self.say("shakes: grant %d not taken: flash write failed: %s" % (gid, e))
            return "no", "flash write failed"
        _unload("shakes")
        self.grants.shakes = r
        self.grants.floor = gid
        self.say("shakes: grant %d of %d shakes taken" % (gid, n))
        return "got", ""

    def _use_grant(self):
        g = self.grants.shakes
        if self.table.customer + 1 == g[3]:
            if self.settings.pin_plain:
                return  # (said when the key or the menu tried: the grant waits for a PIN of the kiosk's own)
            self.next_customer()
        elif self.table.customer >= g[3]:  # its customer is on flash (a write that failed after all)
            self.grants.shakes = None
            self.ack((g[0], "used", ""))

    def grant_news(self):
        """At (re)connect: the answer for the last grant taken, sent again."""
        self._grant_state()
        if self.grants.shakes is not None:
            return (self.grants.shakes[0], "got", "")
        if self.grants.floor > 0:
            return (self.grants.floor, "used", "")
        return None

    # ------------------------------------------------------------ the event's stock
    def allot(self, s, grant):
        """The prize desk's grant for this bowl (from bowl/net.py, decoded by
        outbox.decode_allot): kept, and applied through the journal at the next
        tick that is between rolls. -> False for one not newer than the grant
        applied or kept (a repeat or a late one: ignored)."""
        t = self.table
        gr = self._grants()
        if t is not None and t.event and s <= t.grant_s or gr.allot is not None and s <= gr.allot[0]:
            return False
        gr.allot = (s, grant)
        return True

    def grant_s(self):
        """The highest grant this bowl has applied (0: none; not an event game)."""
        t = self.table
        return t.grant_s if t is not None and t.event else 0

    def _apply_allot(self):
        t = self.table
        if t is None or not t.event or t.ended:
            return  # kept for the next event game (it carries the stock applied so far)
        s, grant = self.grants.allot
        try:
            evs = t.stock_events(s, grant)
        except ValueError as e:
            self.grants.allot = None
            self.say("stock: grant %d refused: %s" % (s, e))
            return
        was = t.stocked()
        for kind, arg in evs:
            before = t.granted[t.classes[arg[0]]] if kind == game.EV_GRANT else 0
            if self._play(kind, arg) is None:
                return  # not on flash: resumed from it; the grant is applied again at the next tick
            if kind == game.EV_GRANT:
                gr = self.grants
                if gr.steps is None:
                    gr.steps = {}
                gr.steps[t.classes[arg[0]]] = arg[1] - before
        self.grants.allot = None
        if evs:
            self.say("stock: grant %d applied: %s" % (s, " ".join(["%s=%d" % (c, n) for c, n in t.left()])))
        if not was and t.stocked() and self.view == V_WAIT:
            self.show(self.home())

    def stock_low(self):
        """-> True when an event game should ask the desk for more: no stock at
        all, or a class it was granted is down to its low mark (a quarter of that
        class's last grant raise, at least 1; PROTOCOL.md "Shared stock")."""
        t = self.table
        if t is None or not t.event or t.ended:
            return False
        if not t.stocked():
            return True
        steps = self.grants.steps if self.grants is not None else None
        for c in t.classes:
            g = t.granted[c]
            if g and t.pool[c] <= max(1, (steps.get(c, g) if steps else g) // 4):
                return True
        return False

    def set_pages(self, n):
        """The app tells how many pages the screen needs for the result on show."""
        self._pages = n if n > 0 else 1

    def _result_page_done(self):
        self.page += 1
        self.since = self.now
        self.changed += 1
        if self.page >= self._pages:
            self._after_result()

    def _notice_done(self):
        then = self.menu.then if self.menu is not None else None
        if then is not None and not self._notices:
            self.menu.then = None
            self._menus().after_notice(self, then)  # e.g. a wrong PIN: the entry again, never the game under it
            return
        self.next_notice_or(self.home())

