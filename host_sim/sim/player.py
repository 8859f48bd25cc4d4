"""A person at the simulated bowl: the real app (firmware/bowl/app.py) on the
simulated board (host_sim/portable/fakes/bowl.py), plus what the terminal, the window and the
scripts need on top: a shake that lasts as long as a key is held, button
macros for the menu (new game, seats, profile, language, mode), a report of
each outcome, and a small command language for scripts.

Nothing here decides a rule or draws a pixel: the console (bobing/console.py)
decides, the app draws into the simulated display and ring, and we only read
the frame, the LEDs and the game table back.

A held shake: the bowl only knows accelerometer samples, so a shake is fed as
samples. While a key is held (a terminal sees its auto-repeat; the window sees
key down/up) we queue 100 ms chunks of synthetic shaking (a 5 Hz sway of about
1.2 g, below every spill threshold) into the simulated MPU6050; when the key
is let go the chunks stop, the bowl goes still and the shake detector rolls.

Script commands (one a line, '#' starts a comment; see SCRIPT_HELP).
"""
import atexit
import math
import os
import shutil
import tempfile

import framebuf  # host_sim.framebuf, registered by the shim
from bobing import console as con
from bobing import vocab
from bobing import game, journal, paint, rules, voice
from bobing import screen as scr
from host_sim.portable.fakes import mpu6050 as fake_mpu6050
from host_sim.portable.fakes import bowl as hal

CHUNK_MS = 100
TAP_MS = 800  # a single key press shakes this long (covers the auto-repeat delay)
REPEAT_GRACE_MS = 250  # each auto-repeat keeps the shake going this much longer
PRESS_MS = 80  # how long a button is held for a press
SETTLE_MS = 160  # after a release: debounce and the console's reaction
MAX_WAIT_MS = 20000
# Script bounds: a shake is held at most a minute; `wait` lets at most an
# hour of bowl time pass (seconds of real time); `play N` at most this many rolls.
MAX_SHAKE_MS = 60 * 1000
MAX_SCRIPT_MS = 3600 * 1000
MAX_PLAY = 100000
MAX_TRACE_BYTES = 1 << 20  # ten minutes of samples at 100 Hz

SCRIPT_HELP = """script commands (one a line; '#' comments; an empty line in line mode = shake):
  shake [MS]          OK through any result on show, shake the bowl for MS ms (default 1000,
                      at most 60000), and wait for the new result
  spill               a violent shake (a spill when the profile's spill_detect is on)
  trace NAME          replay a recorded trace from tests/data/traces (e.g. model_tap)
  ok | menu | next    press a button;  long ok|menu|next: hold it 1 s
  key                 the attendant turns the key in the case's lock (kiosk: the next customer only)
  wait MS             let MS ms pass (at most 3600000: an hour)
  play [N]            play N rolls (default: to the end of the game), skipping result pages
  new                 start a new game (menu > new game > confirm)
  seats N             set the seats for the next game (2..12)
  profile NAME        set the rule profile for the next game
  lang zh|en          the screen's language
  mode family|kiosk   family table or mall kiosk (kiosk menus ask for the PIN)
  pin NNNN            change the PIN (4-8 digits, not 1234: a kiosk lets nobody in until it is changed)
  power               pull the plug and plug it back in
  screen              print the screen, the LEDs, the pool and the awards
  state               print the state as one JSON line
  expect KEY VALUE    stop with an error unless the state's KEY is VALUE: view, ended, reason,
                      seats, profile, mode, turn, round, holder, started, events (the game on
                      the bowl); settings.seats, settings.profile, settings.mode, settings.lang
  quit                stop here"""


class ScriptError(ValueError):
    pass


class _TextFrame(framebuf.FrameBuffer):
    """A 128x64 FrameBuffer that also keeps the text drawn on it since its last
    fill(): (y, x, text, width in pixels)."""

    def __init__(self):
        super().__init__(bytearray(hal.WIDTH * hal.HEIGHT // 8), hal.WIDTH, hal.HEIGHT, framebuf.MONO_VLSB)
        self.items = []

    def fill(self, c):
        self.items = []
        super().fill(c)

    def text(self, s, x, y, c=1):
        self.items.append((y + 4, x, s, 8 * len(s)))  # (its vertical centre)
        super().text(s, x, y, c)


class _TextPainter(paint.Painter):
    """The firmware's painter, drawing as on the bowl, noting each piece of text it
    draws: Chinese glyphs, 8x8 text, scaled-up text and numbers."""

    def glyph(self, ch, x, y, c=1):
        w = super().glyph(ch, x, y, c)
        self.fb.items.append((y + 8, x, ch, w))
        return w

    def big(self, s, x, y, sx, sy, c=1):
        self.fb.items.append((y + 4 * sy, x, s, 8 * len(s) * sx))
        return super().big(s, x, y, sx, sy, c)

    def big_text(self, s, x, y, c=1):
        end = super().big_text(s, x, y, c)
        self.fb.items.append((y + 16, x, s, end - x))
        return end

    def big_number(self, n, x, y, sx, sy, c=1):
        end = super().big_number(n, x, y, sx, sy, c)
        self.fb.items.append((y + 4 * sy, x, "%d" % n, end - x))
        return end


class _TextScreen(scr.Screen):
    """The firmware's Screen, drawing through a _TextPainter."""

    def __init__(self, fb, lang="zh"):
        super().__init__(fb, lang, _TextPainter(fb))


def screen_lines(items):
    """Text pieces (vertical centre, x, text, width) -> the lines a person reads,
    top to bottom; pieces side by side are joined, with a space where the screen
    leaves a gap."""
    lines = []
    for y, x, t, w in sorted(items):
        if lines and y - lines[-1][0] < 6:
            lines[-1][1].append((x, t, w))
        else:
            lines.append((y, [(x, t, w)]))
    out = []
    for _y, parts in lines:
        parts.sort()
        text = ""
        end = None
        for x, t, w in parts:
            if end is not None and x - end >= 6:
                text += " "
            text += t
            end = x + w
        out.append(text)
    return out


def shown_lines(app, c, lang=None):
    """What the bowl's screen says for console c, in lang (default the bowl's own), as the
    lines a person reads: drawn by the app's own drawing code for the view on show."""
    ts = _TextScreen(_TextFrame(), lang or c.lang)
    app._draw(ts, c)
    return screen_lines(ts.fb.items)


def _chunk_rows(k):
    """Chunk k of the endless synthetic shake: (ax, ay, az) in milli-g, 10 ms apart."""
    rows = []
    for i in range(CHUNK_MS // hal.TICK_MS):
        t = (k * CHUNK_MS + i * hal.TICK_MS) / 1000.0
        ax = 1200 * math.sin(2 * math.pi * 5.0 * t)
        ay = 900 * math.sin(2 * math.pi * 3.7 * t + 1.0)
        az = 1000 + 500 * math.sin(2 * math.pi * 6.3 * t + 2.0)
        rows.append((int(ax) + (i * 7) % 5 - 2, int(ay) + (i * 3) % 5 - 2, int(az)))
    return rows


class Player:
    """The simulated bowl and the person at it."""

    pin = "1234"  # what the menu macros type when asked (the default PIN; the bowl keeps a hash)

    def __init__(self, root, urandom=None):
        os.makedirs(root, exist_ok=True)
        self.root = root
        self.sim = hal.Sim(root, urandom=urandom)
        self._dir = tempfile.mkdtemp(prefix="bobing-shake-")
        atexit.register(shutil.rmtree, self._dir, True)
        self._chunks = []
        for k in range(10):  # one second of motion, reused round and round
            path = os.path.join(self._dir, "chunk%d.csv" % k)
            with open(path, "w") as f:
                f.write("t_ms,ax,ay,az\n")
                for i, (ax, ay, az) in enumerate(_chunk_rows(k)):
                    f.write("%d,%d,%d,%d\n" % (i * hal.TICK_MS, ax, ay, az))
            self._chunks.append(path)
        self._next_chunk = 0
        self._shake_until = None  # sim ms: shake until then (None = not shaking)
        self._fed_until = 0  # sim ms up to which chunks are queued
        self._held = False  # window mode: the key is down
        self._seen = None  # the last outcome reported
        self._seen_boots = self.sim.boots
        self.history = []  # outcome reports, newest last (of this game: a new game clears them)
        self._game = None  # the game id they are of
        self.customers = {}  # kiosk: customer -> {class: prizes won}, of this game
        self.keep_said = False  # keep what the bowl's amplifier is sent in self.said (play --say-to)
        self.said = bytearray()
        self.hear = None  # hear(pcm bytes): each step's samples the amplifier got (the window's speaker)
        self.rolls = 0  # rolls seen since start (this process)
        self.log = []  # the bowl's log lines

    def close(self):
        shutil.rmtree(self._dir, True)

    def speak(self):
        """Keep from now on what the bowl's voice says (bowl/app.py through board.py's
        machine.I2S: host_sim/portable/fakes/i2s.py) in self.said (16-bit PCM)."""
        self.keep_said = True

    def _heard(self):
        dev = self.sim.board.i2s
        if dev is None or not dev.data:
            return
        pcm = bytes(dev.data)
        del dev.data[:]  # (a long evening's speech is not kept by the fake)
        if not dev.reaches_amp:
            return  # no amplifier on those pins: nobody hears it
        if self.keep_said:
            self.said.extend(pcm)
        if self.hear is not None:
            self.hear(pcm)

    def write_said(self, path):
        """What the voice said, as a WAV file (16-bit mono at voice.RATE)."""
        import wave
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(voice.RATE)
            w.writeframes(bytes(self.said))

    # ------------------------------------------------------------ reading
    @property
    def console(self):
        return self.sim.console

    @property
    def table(self):
        c = self.sim.console
        return c.table if c is not None else None

    @property
    def now(self):
        return self.sim.now

    @property
    def view(self):
        c = self.sim.console
        return vocab.VIEW_IDS[c.view] if c is not None else "off"

    @property
    def shaking(self):
        return self._shake_until is not None

    # ------------------------------------------------------------ time
    def step(self, ms=hal.TICK_MS):
        """Let ms pass on the simulated clock, feeding a held shake as it goes."""
        n = max(1, (ms + hal.TICK_MS - 1) // hal.TICK_MS)
        for _ in range(n):
            self._feed_shake()
            self.sim.step(hal.TICK_MS)
            self._report()
            self._heard()

    def _feed_shake(self):
        if self._shake_until is None:
            return
        now = self.sim.now
        if self._held:
            self._shake_until = max(self._shake_until, now + CHUNK_MS)
        if now >= self._shake_until and self._fed_until <= now:
            self._shake_until = None
            return
        if self._fed_until - now < CHUNK_MS and self._fed_until < self._shake_until:
            self.sim.shake(self._chunks[self._next_chunk])
            self._next_chunk = (self._next_chunk + 1) % len(self._chunks)
            # a chunk plays after those queued, plus one resting tick between traces
            self._fed_until = max(self._fed_until, now) + CHUNK_MS + hal.TICK_MS

    # ------------------------------------------------------------ people
    def shake_key(self, now_hold_ms=None):
        """A shake key was pressed, or auto-repeated while held: start a shake
        (TAP_MS long) or keep the one going REPEAT_GRACE_MS longer."""
        now = self.sim.now
        if self._shake_until is None:
            self._shake_until = now + (now_hold_ms if now_hold_ms is not None else TAP_MS)
        else:
            self._shake_until = max(self._shake_until, now + REPEAT_GRACE_MS)

    def shake_down(self):
        """Window mode: the shake key went down (it shakes until shake_up)."""
        self._held = True
        self.shake_key(CHUNK_MS)

    def shake_up(self):
        self._held = False

    def trace(self, name):
        """Queue a recorded trace (tests/data/traces/NAME.csv or a path), checked
        first: the simulated chip reads it sample by sample while time runs."""
        path = name if name.endswith(".csv") else os.path.join(hal.TRACES, name + ".csv")
        if not os.path.isfile(path):
            raise ScriptError("trace %s: no such trace file (%s)" % (name, path))
        ok = os.path.getsize(path) <= MAX_TRACE_BYTES
        try:
            ok = ok and len(fake_mpu6050.load_trace(path)) > 0
        except (ValueError, IndexError):  # a short line, not a number, not UTF-8
            ok = False
        if not ok:
            raise ScriptError("trace %s: not a shake trace: give a CSV file of at most %d kB, a header line, "
                              "then t_ms,ax,ay,az a line in whole numbers (milli-g)"
                              % (name, MAX_TRACE_BYTES >> 10))
        self.sim.shake(path)

    def button(self, name, hold_ms=PRESS_MS):
        """Press a bowl button ("menu", "next", "ok") and let the console see it."""
        if name not in hal.BUTTONS:
            raise ScriptError("no button %r: the bowl has %s" % (name, ", ".join(hal.BUTTONS)))
        self.sim.press(name, hold_ms)
        self.step(hold_ms + SETTLE_MS - PRESS_MS if hold_ms > PRESS_MS else SETTLE_MS)

    def power_cut(self):
        self.sim.power_cut()
        self._report()

    def key(self, hold_ms=300):
        """The attendant turns the key in the case's lock (spring return: one press)."""
        self.sim.attendant_key(hold_ms)
        self.step(hold_ms + SETTLE_MS)

    def screen_text(self):
        """What the screen says, as lines of text (drawn by the firmware's own
        drawing code for the view on show; the pixels are the app's)."""
        c = self.console
        if c is None or self.sim.app is None:
            return ""
        ts = getattr(self, "_ts", None)
        if ts is None:
            ts = self._ts = _TextScreen(_TextFrame(), c.lang)
        if ts.lang != c.lang:
            ts.set_lang(c.lang)
        self.sim.app._draw(ts, c)
        return "\n".join(screen_lines(ts.fb.items))

    # ------------------------------------------------------------ macros
    def _home(self):
        """Leave menus and notices: back to the game."""
        for _ in range(12):
            v = self.console.view
            if v in (con.V_MENU, con.V_DIGITS, con.V_CONFIRM, con.V_SECRET, con.V_NOTICE):
                self.button("menu")
            else:
                return
        raise ScriptError("could not leave the %s view" % self.view)

    def _enter_digits(self, value):
        """On a digit entry view: NEXT counts each digit up, OK moves on."""
        a = self.console.arg
        for i, ch in enumerate(value):
            cur = a[1][i] - 48
            for _ in range((int(ch) - cur) % 10):
                self.button("next")
            self.button("ok")

    def _open_menu(self):
        self._home()
        self.button("menu")
        c = self.console
        if c.view == con.V_DIGITS:  # kiosk: the PIN first
            self._enter_digits(self.pin)
        if c.view != con.V_MENU:
            raise ScriptError("the menu did not open (the bowl shows %s)" % self.view)

    def _choose(self, item):
        """In a list: NEXT until `item` is under the cursor, then OK."""
        c = self.console
        m = c.arg
        if item not in m[1]:
            raise ScriptError("%r is not in the %s list: %s" % (item, m[0], ", ".join(m[1])))
        for _ in range(len(m[1])):
            if m[1][m[2]] == item:
                break
            self.button("next")
            m = c.arg
        self.button("ok")

    def _set(self, key, value):
        self._open_menu()
        self._choose(key)
        if self.console.view != con.V_MENU:
            raise ScriptError("%s: no list to choose from (the bowl shows %s)" % (key, self.view))
        self._choose(value)
        self._home()

    def new_game(self):
        self.ask_new_game()
        if self.console.view == con.V_CONFIRM:
            self.button("ok")
        self._home()

    def ask_new_game(self):
        """The menu's new game, up to the bowl's own question (确定:是 菜单:否 OK: yes, MENU:
        no): the terminal's g, so a stray key never ends a game."""
        self._open_menu()
        self._choose("new")

    def set_seats(self, n):
        if not 2 <= n <= game.MAX_SEATS:
            raise ScriptError("seats %d: the bowl takes 2..%d" % (n, game.MAX_SEATS))
        self._set("seats", "%d" % n)

    def set_names(self, names):
        """The seats' names (Settings.names, as the bowl's seats menu sets them), saved to
        the bowl's settings.txt as the menu saves them."""
        from bobing import settings
        c = self.console
        c.settings.names[:] = names
        settings.save(c)
        c.redraw()  # (drawn again with the names)

    def set_profile(self, name):
        self._set("profile", name)

    def set_lang(self, lang):
        self._set("lang", lang)

    def set_mode(self, mode):
        self._set("mode", mode)

    def set_pin(self, new):
        """admin > change PIN: the old PIN, then `new` twice (a kiosk lets no customer
        in while its PIN is the default)."""
        from bobing import settings
        try:
            settings.check_pin(new)
        except ValueError as e:
            raise ScriptError("pin: %s" % e)
        self._open_menu()
        self._choose("admin")
        if self.console.view == con.V_DIGITS:  # a family bowl's admin items ask the PIN
            self._enter_digits(self.pin)
        self._choose("pin")
        for digits in (self.pin, new, new):
            if self.console.view != con.V_DIGITS:
                break
            self._enter_digits(digits)
        c = self.console
        if c.view != con.V_NOTICE or c.arg[0] != vocab.N_DONE:
            raise ScriptError("pin: not changed (the bowl shows %s)" % self.view)
        self.pin = new
        self._home()

    def next_profile(self, d=1):
        names = vocab.presets_for(self.console.settings.mode)
        cur = self.console.settings.active_profile()
        i = names.index(cur) if cur in names else -d
        self.set_profile(names[(i + d) % len(names)])

    # ------------------------------------------------------------ playing
    def wait_ready(self, max_ms=MAX_WAIT_MS):
        """Step until the bowl waits for a shake, a button or has ended."""
        end = self.now + max_ms
        while self.now < end and (self.shaking or self.console.view == con.V_SHAKING):
            self.step()

    def ready(self):
        """Get the bowl to wait for a shake, as a player would: OK through result
        pages, claims and notices, OK for the next kiosk customer, out of menus.
        -> False when the game is over."""
        for _ in range(100):
            c = self.console
            t = self.table
            v = c.view
            if v == con.V_TURN:
                return True
            if v == con.V_OVER or (t is not None and t.ended and v in (con.V_POOL, con.V_TURN)):
                return False
            if v == con.V_GATE:  # a kiosk between customers: the attendant lets the next one in
                self.key()
                if c.view == con.V_NOTICE and c.arg[0] == con.N_PIN_DEFAULT:
                    raise ScriptError("the kiosk's PIN is still the default 1234: no customer plays until it is "
                                      "changed (menu, admin, change PIN)")
            elif v in (con.V_RESULT, con.V_CLAIM, con.V_NOTICE, con.V_POOL, con.V_TABLE):
                self.button("ok")
            elif v in (con.V_MENU, con.V_DIGITS, con.V_CONFIRM, con.V_SECRET):
                self._home()
            else:
                self.step(100)
        raise ScriptError("the bowl does not come back to a turn (it shows %s)" % self.view)

    def shake(self, hold_ms=1000):
        """Shake for hold_ms and wait until the shake has been dealt with."""
        before = self.console.changed
        self.shake_key(hold_ms)
        self.wait_ready(hold_ms + MAX_WAIT_MS)
        # the detector rolls once the bowl has been still for a moment
        end = self.now + 2000
        while self.now < end and self.console.view in (con.V_TURN, con.V_SHAKING) and \
                self.console.changed == before:
            self.step()

    def play(self, n=None, hold_ms=500):
        """Play n rolls (None: to the end), as a player would: shake on the turn
        screen, OK through results, claims and notices, OK for the next kiosk
        customer. -> rolls played."""
        done = 0
        while n is None or done < n:
            if not self.ready():
                break
            r0 = self.console.rolled
            self.shake(hold_ms)
            if self.console.rolled > r0:
                done += 1
        return done

    # ------------------------------------------------------------ reports
    def _report(self):
        c = self.console
        if c is None:
            return
        for line in self.sim.log():
            self.log.append(line)
        del self.log[:-50]
        if self.sim.boots != self._seen_boots:
            self._seen_boots = self.sim.boots
            self._seen = c.out
            self.history.append("-- the bowl restarted (%s) and resumed from its journal --"
                                % (self.sim.resets[-1] if self.sim.resets else "power"))
            self._tally()
        gid = c.j.game_id if c.j is not None else None
        tallied = gid != self._game  # (then the journal has counted the outcome on show)
        if tallied:
            if self._game is not None and gid is not None:  # a new game: the last one's lines are stale
                t = self.table
                del self.history[:]
                table = "商场 kiosk" if t.kiosk else "%d 人 seats" % t.seats
                self.history.append("-- 新游戏 new game: %s --" % table)
            self._game = gid
            self._tally()
        out = c.out
        if out is None or out is self._seen:
            return
        self._seen = out
        if out.kind == game.EV_ROLL:
            self.rolls += 1
            if not tallied:
                self._count(out)
        self.history.append(describe(out, self.table, c.settings.names))
        del self.history[:-200]

    def _count(self, out):
        """A kiosk roll's prizes to its customer (the game pays them all to "seat" 1)."""
        t = self.table
        if t is not None and t.kiosk and out.won:
            a = self.customers.setdefault(out.customer, {})
            for cls, _src in out.won:
                a[cls] = a.get(cls, 0) + 1

    def _tally(self):
        """The kiosk's prizes per customer, read again from the game's journal (a new
        game, a restart: the game engine replays it, each roll's Outcome counted)."""
        self.customers = {}
        c = self.console
        t = self.table
        if t is None or not t.kiosk or c.j is None:
            return
        scan = journal.Scan()
        me = self

        class Keep:
            def append(self, ev):
                if ev[0] == game.EV_ROLL:
                    me._count(scan.last)

        journal.scan(journal.path_of(self.root, c.j.game_id), c.j.game_id, c.secret(), Keep(), into=scan)

    def state(self):
        """The bowl as plain data (JSON-ready)."""
        c = self.console
        t = self.table
        s = c.settings
        out = {
            "view": self.view,
            "sim_ms": self.now,
            "boots": self.sim.boots,
            "settings": {"mode": s.mode, "profile": s.active_profile(), "seats": s.seats, "lang": s.lang},
            "leds": [list(x) for x in self.sim.leds],
            "rolls_seen": self.rolls,
        }
        if t is not None:
            out.update({
                "profile": t.profile.name,
                "mode": "kiosk" if t.kiosk else "family",
                "seats": t.seats,
                "started": t.started,
                "ended": t.ended,
                "reason": t.reason,
                "round": t.round,
                "turn": t.turn,
                "holder": t.holder,
                "holder_rank": rules.RANK_IDS[t.holder_rank] if t.holder else None,
                "holder_dice": list(t.holder_dice) if t.holder_dice else None,
                "classes": list(t.classes),
                "initial": dict(t.initial),
                "pool": dict(t.pool),
                "grabbed": dict(t.grabbed),
                "awards": {str(k): dict(v) for k, v in t.awards.items()},
                "events": t.events,
            })
        return out


def describe(out, table, names=None):
    """One line about an outcome, for people; names: the seats' (Settings.names), said
    beside their numbers ("seat 2 奶奶")."""
    zh = table.class_zh if table is not None else {}

    def seat(n):
        k = names[n - 1] if names is not None and not getattr(table, "kiosk", False) and 0 < n <= len(names) else 0
        return "%d %s" % (n, vocab.TITLES_ZH[k - 1]) if k else "%d" % n
    if out.kind == game.EV_START_TOTAL or out.kind == game.EV_START_SEAT:
        s = "start: seat %s rolls first" % seat(out.seat)
    elif out.kind == game.EV_CUSTOMER:
        s = "customer %d steps up" % out.customer
    elif out.kind == game.EV_SPILL:
        s = "seat %s: spill! the roll is void" % seat(out.seat)
        if out.skipped:
            s += "; seat %s sits out" % ",".join(seat(k) for k in out.skipped)
    elif out.kind == game.EV_TIMEUP:
        s = "time is up: this round is the last"
    else:
        s = "seat %s: %s  %s (%s)" % (seat(out.seat), "".join("%d" % d for d in out.dice),
                                      rules.rank_names("zh")[out.rank], rules.rank_names("pinyin")[out.rank])
        if out.bonus:
            s += " + %s" % rules.rank_names("zh")[out.bonus]
        if out.won:
            s += " -> " + ", ".join(zh.get(c, c) + (" (from seat %s)" % seat(src) if src else "") for c, src in out.won)
        if out.holder_after != out.holder_before:
            s += "; 状元 now seat %s" % seat(out.holder_after) if out.holder_after else "; no 状元"
    if out.ended:
        s += "  == game over (%s)" % out.reason
        if out.zhuangyuan_to:
            s += ", 状元 prize to seat %s" % seat(out.zhuangyuan_to)
    return s


def run_command(p, line, emit):
    """Run one script line on Player p; emit(text) prints. -> False to stop."""
    line = line.split("#", 1)[0].strip()
    if not line:
        return True
    w = line.split()
    cmd, args = w[0].lower(), w[1:]

    def num(i, default=None, lo=0, hi=MAX_SCRIPT_MS):
        if len(args) <= i:
            if default is None:
                raise ScriptError("%s: needs a whole number %d..%d" % (cmd, lo, hi))
            return default
        a = args[i]
        # ASCII digits only: str.isdigit() is also true for '²' and '٣'
        v = int(a) if a.isascii() and a.isdigit() and len(a) <= 12 else None
        if v is None or not lo <= v <= hi:
            raise ScriptError("%s: %r is not allowed: give a whole number %d..%d" % (cmd, a, lo, hi))
        return v

    if cmd == "shake":
        ms = num(0, 1000, 1, MAX_SHAKE_MS)
        if not p.ready():
            raise ScriptError("the game is over: 'new' starts another")
        p.shake(ms)
    elif cmd == "spill":
        p.trace("model_violent_shake")
        p.step(4500)
    elif cmd == "trace":
        if not args:
            raise ScriptError("trace: name a trace, e.g. trace model_tap")
        p.trace(args[0])
        p.step(100)
        p.wait_ready()
    elif cmd in hal.BUTTONS:
        p.button(cmd)
    elif cmd == "key":
        p.key()
    elif cmd == "long":
        if not args or args[0] not in hal.BUTTONS:
            raise ScriptError("long: which button? %s" % ", ".join(hal.BUTTONS))
        p.button(args[0], 1000)
    elif cmd == "wait":
        p.step(num(0))
    elif cmd == "play":
        p.play(num(0, hi=MAX_PLAY) if args else None)
    elif cmd == "new":
        p.new_game()
    elif cmd == "seats":
        p.set_seats(num(0, lo=2, hi=game.MAX_SEATS))
    elif cmd == "profile":
        if not args:
            raise ScriptError("profile: name one of %s" % ", ".join(vocab.presets_for(p.console.settings.mode)))
        p.set_profile(args[0])
    elif cmd == "lang":
        if not args or args[0] not in vocab.LANGS:
            raise ScriptError("lang: zh or en")
        p.set_lang(args[0])
    elif cmd == "mode":
        if not args or args[0] not in vocab.MODES:
            raise ScriptError("mode: family or kiosk")
        p.set_mode(args[0])
    elif cmd == "pin":
        if len(args) != 1:
            raise ScriptError("pin: one PIN of 4 to 8 digits")
        p.set_pin(args[0])
    elif cmd == "power":
        p.power_cut()
        p.step(100)
    elif cmd == "screen":
        from host_sim.sim import textview
        emit("\n".join(textview.compose(p, width=200, color=False)))
    elif cmd == "state":
        import json
        emit(json.dumps(p.state(), ensure_ascii=False))
    elif cmd == "expect":
        if len(args) < 2:
            raise ScriptError("expect KEY VALUE")
        got = p.state()
        key, want = args[0], " ".join(args[1:])
        for part in key.split("."):  # settings.seats: what the next game will have
            if not isinstance(got, dict) or part not in got:
                raise ScriptError("expect: no state %r; keys: %s" % (key, ", ".join(sorted(p.state()))))
            got = got[part]
        text = {True: "yes", False: "no", None: "none"}.get(got, got) if not isinstance(got, int) or \
            isinstance(got, bool) else "%d" % got
        if str(text) != want:
            raise ScriptError("expected %s %s, the bowl has %s" % (key, want, text))
    elif cmd in ("quit", "exit"):
        return False
    elif cmd == "help":
        emit(SCRIPT_HELP)
    else:
        raise ScriptError("unknown command %r\n%s" % (cmd, SCRIPT_HELP))
    return True
