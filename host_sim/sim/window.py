"""The bowl in a pygame window: the OLED's pixels scaled up (from the very same
framebuffer the app draws into), the LED ring as coloured discs, the prize
pool and everyone's awards beside it.

Keys as in the terminal (host_sim/sim/terminal.py), but here the shake key is a
real key: the bowl shakes exactly as long as space is held down.

With a script (a list of command lines) the commands run one a frame on
simulated time, which is how the tests drive it with SDL_VIDEODRIVER=dummy.
"""
import math
import os
import sys

from host_sim.portable.fakes import bowl as hal
from host_sim.cli.options import InputError
from host_sim.sim import player
from host_sim.sim import terminal
from host_sim.sim import textview

SCALE = 5  # the whole window fits a 1,280 x 720 screen with its title bar (size())
MARGIN = 20
PANEL_W = 560
RING_H = 200
FPS = 50
BG = (24, 24, 28)
OFF = (0, 0, 0)
ON = textview.OLED_RGB
UNLIT = (40, 40, 44)  # an LED that is off: a dark disc
R = "\x01"  # a table cell starting with it is right-aligned (panel_rows)
HINT = ("空格 摇碗 space: hold to shake  m/n/o 按键 buttons (按住 长按 hold: long)  v 猛摇 violent  "
        "g 新局 new  +/- 人数 seats  p 规则 rules  l 语言 lang  x 断电 power  q 退出 quit")
CJK_FONTS = ("notosanscjksc", "notosanscjk", "wenquanyimicrohei", "wenquanyizenhei", "unifont")


class Speaker:
    """The bowl's piezo through pygame's mixer: plays what the app drives the
    buzzer's PWM with (the very tunes and rattle of bobing/sound.py), a square
    wave at the PWM's frequency, louder or softer with its duty. Silent where
    there is no audio device (or SDL_AUDIODRIVER=dummy: the tests)."""

    RATE = 22050

    def __init__(self, pygame):
        self.pg = pygame
        self.ok = False
        self._tones = {}
        self._channel = None
        self._voice = None  # the amplifier's channel (reserved: the piezo's tones never take it)
        self._pending = bytearray()  # the amplifier's samples at the mixer's rate, not yet queued
        self.voiced = 0  # samples of the voice handed to the mixer
        try:
            pygame.mixer.init(self.RATE, -16, 1, 512)
            self.ok = pygame.mixer.get_init() is not None
            if self.ok:
                pygame.mixer.set_reserved(1)
                self._voice = pygame.mixer.Channel(0)
        except pygame.error:
            self.ok = False

    def hear(self, pcm):
        """The bowl's speaker: what its I2S amplifier was sent (16-bit mono at voice.RATE, the
        clips of bobing/voice.py), resampled to the mixer's rate and queued on its channel."""
        import array
        from bobing import voice
        src = array.array("h")
        src.frombytes(pcm[:len(pcm) & ~1])
        if sys.byteorder != "little":
            src.byteswap()
        n = len(src) * self.RATE // voice.RATE
        out = array.array("h", (src[i * voice.RATE // self.RATE] for i in range(n)))
        self.voiced += n
        if not self.ok:
            return
        self._pending.extend(out.tobytes())
        self.flush()

    def flush(self):
        """Hand the pending voice to the mixer: played at once when its channel is idle,
        else queued behind what plays (pygame keeps one queued sound a channel)."""
        ch = self._voice
        if ch is None or not self._pending:
            return
        if ch.get_busy() and ch.get_queue() is not None:
            return
        snd = self.pg.mixer.Sound(buffer=bytes(self._pending))
        del self._pending[:]
        if ch.get_busy():
            ch.queue(snd)
        else:
            ch.play(snd)

    def _tone(self, hz):
        s = self._tones.get(hz)
        if s is None:
            import array
            period = max(2, self.RATE // hz)
            half = period // 2
            wave = array.array("h", ([6000] * half + [-6000] * (period - half)) * max(1, 2000 // period))
            s = self._tones[hz] = self.pg.mixer.Sound(buffer=wave.tobytes())
        return s

    def feed(self, pwm):
        """Play the PWM's changes since the last call: the tone it is left on, or a
        click's short tone that began and ended within one frame."""
        if pwm is None:
            return
        if pwm.events is None:
            pwm.events = []  # (the PWM keeps its changes only for a listener)
        if not pwm.events:
            return
        events = pwm.events[:]
        del pwm.events[:]
        if not self.ok:
            return
        if self._channel is not None:
            self._channel.stop()
            self._channel = None
        hz, duty = events[-1]
        if duty and hz:
            snd = self._tone(hz)
            snd.set_volume(min(1.0, duty / 32768.0))
            self._channel = snd.play(loops=-1)
            return
        for hz, duty in events:
            if duty and hz:  # (a click: one short burst)
                snd = self._tone(hz)
                snd.set_volume(min(1.0, duty / 32768.0))
                self._channel = snd.play(maxtime=20)


# _BIT[k] maps a frame byte to 0/1: pixel k of its 8 (MONO_VLSB: bit k is row 8*page + k)
_BIT = [bytes((b >> k) & 1 for b in range(256)) for k in range(8)]


def frame_mono(frame):
    """A 128x64 SSD1306 frame as 8192 bytes of 0/1, row by row (64 C-speed
    translations, not 8192 Python calls: the window redraws it often)."""
    frame = bytes(frame)
    w = hal.WIDTH
    return b"".join(frame[(y >> 3) * w:((y >> 3) + 1) * w].translate(_BIT[y & 7]) for y in range(hal.HEIGHT))


def oled_rect():
    return (MARGIN, MARGIN, hal.WIDTH * SCALE, hal.HEIGHT * SCALE)


def led_rgb(r, g, b):
    """How a lit WS2812 looks, not its PWM duty: the app drives the ring at 64 of
    255, and the dim idle glow (48 of 255 of that) is still plainly visible on a
    real ring; a gamma curve (1/2.2) over the app's 0..65 range shows it so,
    brightest channel first (hue kept)."""
    top = max(r, g, b)
    if not top:
        return None
    level = 255 * min(1.0, top / 65.0) ** (1 / 2.2)
    k = max(level, 60) / top  # never as dark as the unlit discs around it
    return (min(255, int(r * k)), min(255, int(g * k)), min(255, int(b * k)))


def _font(pygame, size):
    """A font that has Chinese if the machine has one, else pygame's own (ids instead)."""
    for name in CJK_FONTS:
        path = pygame.font.match_font(name)
        if path:
            return pygame.font.Font(path, size), True
    return pygame.font.Font(None, size + 4), False


def panel_rows(p, cjk):
    """The side panel as rows: a text, or a list of cells drawn in aligned
    columns (a proportional font: spaces cannot align them)."""
    t = p.table
    text = (lambda x: x) if cjk else _ascii  # without a Chinese font: the English half
    c = p.console
    if c is not None and c.final is not None:  # the final, not the table game it interrupts
        return [text("博饼碗 Bo Bing bowl")] + [text(x) for x in textview.final_lines(c.final)]
    if t is None:
        return ["(no game)"]
    name = (lambda k: t.class_zh[k]) if cjk else (lambda k: k)
    rows = [text("博饼碗 Bo Bing bowl: " + textview.game_line(t)), text(textview.turn_line(p))]
    nxt = textview.next_game_line(p)
    if nxt:
        rows.append(text(nxt))
    rows.append("")
    who, table = textview.award_rows(p)
    rows.append([who if cjk else "seat" if who == "seat" else "customer"] + [name(k) for k in t.classes])
    rows.append([text("奖池 pool")] + [R + "%d/%d" % (t.pool[k], t.initial[k]) for k in t.classes])  # (a row: room)
    for mark, n, star, a in table:
        rows.append(["%s%s%s" % (">" if mark != " " else " ", n, "*" if star != " " else " ")]
                    + [R + ("%d" % a[k] if a.get(k) else ".") for k in t.classes])
    rows.append("")
    for h in p.history[-4:]:
        rows.append(h if cjk else h.encode("ascii", "replace").decode())
    return rows


def _ascii(s):
    """The English of a bilingual line, for a font without Chinese."""
    return " ".join(w for w in s.replace("，", " ").replace("：", " ").split() if w.isascii()) or s


def _clip(font, text, width):
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def draw_panel(screen, font, rows, x0, y0, width, height, color=(220, 220, 220)):
    """Rows as panel_rows makes them: tables in columns (R before a cell
    right-aligns it), texts cut to the width; what does not fit below drops the oldest
    history (the rows at the end stay: the latest outcome is the one wanted)."""
    ls = font.get_linesize()
    fit = max(1, height // ls)
    if len(rows) > fit:
        rows = rows[:fit - 4] + rows[-4:] if fit > 8 else rows[-fit:]
    # column widths per run of table rows with the same number of cells
    widths = {}
    for r in rows:
        if isinstance(r, list):
            w = widths.setdefault(len(r), [0] * len(r))
            for i, c in enumerate(r):
                w[i] = max(w[i], font.size(c.lstrip(R))[0])
    y = y0
    for r in rows:
        if isinstance(r, list):
            x = x0
            for i, c in enumerate(r):
                right = c.startswith(R)
                text = c[1:] if right else c
                img = font.render(text, True, color)
                screen.blit(img, (x + (widths[len(r)][i] - img.get_width() if right else 0), y))
                x += widths[len(r)][i] + 12
        elif r:
            screen.blit(font.render(_clip(font, r, width), True, color), (x0, y))
        y += ls


class View:
    """What the window shows, redrawn only when it changed (the bowl idles most
    of the time: a frame that looks the same costs nothing but the check)."""

    def __init__(self, pygame, screen, font, cjk):
        self.pygame, self.screen, self.font, self.cjk = pygame, screen, font, cjk
        self._oled_key = None
        self._oled = None
        self._key = None
        self.glow = None  # what each LED shows: its colour, or the afterglow of a moving light

    def afterglow(self, leds):
        """The ring as the eye sees it: a light that moves on leaves a fading
        trail (a third a frame), so the 一秀's one red dot going round reads as
        going round, not as one red LED lit, at any frame rate."""
        if self.glow is None or len(self.glow) != len(leds):
            self.glow = [tuple(c) for c in leds]
            return self.glow
        out = []
        for (r, g, b), (gr, gg, gb) in zip(leds, self.glow):
            out.append((max(r, gr // 3), max(g, gg // 3), max(b, gb // 3)) if not (r or g or b) else (r, g, b))
        self.glow = out
        return out

    def draw(self, p):
        """-> True if the screen was redrawn (flip it)."""
        frame = bytes(p.sim.frame)
        rows = panel_rows(p, self.cjk)
        leds = self.afterglow(p.sim.leds)
        key = (frame, tuple(leds), repr(rows))
        if key == self._key:
            return False
        self._key = key
        pygame, screen = self.pygame, self.screen
        screen.fill(BG)
        x0, y0, w, h = oled_rect()
        if frame != self._oled_key:
            img = pygame.image.frombuffer(frame_mono(frame), (hal.WIDTH, hal.HEIGHT), "P")
            img.set_palette([OFF, ON])
            self._oled = pygame.transform.scale(img, (w, h))
            self._oled_key = frame
        screen.blit(self._oled, (x0, y0))
        pygame.draw.rect(screen, (90, 90, 90), (x0 - 3, y0 - 3, w + 6, h + 6), 2)
        cx, cy, r = x0 + w // 2, y0 + h + RING_H // 2 + 5, RING_H // 2 - 20
        for i, (cr, cg, cb) in enumerate(leds):
            a = 2 * math.pi * i / max(1, len(leds))
            pos = (int(cx + r * math.sin(a)), int(cy - r * math.cos(a)))
            lit = led_rgb(cr, cg, cb)
            if lit:
                pygame.draw.circle(screen, tuple(c // 3 for c in lit), pos, 15)  # its glow
                pygame.draw.circle(screen, lit, pos, 11)
            else:
                pygame.draw.circle(screen, UNLIT, pos, 11)
        sw, sh = screen.get_size()
        px = x0 + w + MARGIN
        draw_panel(screen, self.font, rows, px, MARGIN, sw - px - MARGIN, sh - 2 * MARGIN)
        hint = HINT
        if not self.cjk:
            hint = _ascii(hint)
        screen.blit(self.font.render(_clip(self.font, hint, sw - 2 * MARGIN), True, (150, 150, 150)),
                    (MARGIN, y0 + h + RING_H + 5))
        return True


class Keys:
    """The window's keyboard: space shakes as long as it is held, m / n / o (and
    Enter) are the bowl's buttons pressed as long as the key is held (held 0.8 s:
    the long press the screen asks for, e.g. 长按:-1), other keys as in the terminal."""

    def __init__(self, pygame, p):
        self.pg = pygame
        self.p = p
        self.buttons = {pygame.K_m: "menu", pygame.K_n: "next", pygame.K_o: "ok", pygame.K_RETURN: "ok"}
        self.down = {}  # button -> the sim's ms when its key went down

    def event(self, ev):
        """One pygame event. -> False to quit."""
        pg, p = self.pg, self.p
        if ev.type == pg.QUIT:
            return False
        if ev.type == pg.KEYDOWN:
            b = self.buttons.get(ev.key)
            if ev.key == pg.K_SPACE:
                p.shake_down()
            elif b is not None:
                if b not in self.down:  # (not the key's auto-repeat)
                    self.down[b] = p.now
                    p.sim.press(b, player.MAX_SHAKE_MS)  # until the key is let go
            elif ev.unicode:
                return terminal.key(p, ev.unicode)
        elif ev.type == pg.KEYUP:
            b = self.buttons.get(ev.key)
            if ev.key == pg.K_SPACE:
                p.shake_up()
            elif b in self.down:  # a tap still lasts a press's time: the buttons' debounce sees it
                p.sim.release(b, max(0, player.PRESS_MS - (p.now - self.down.pop(b))))
        return True


def size():
    """The window's (width, height) in pixels: the OLED, the ring and the hint line beside the panel."""
    return MARGIN + hal.WIDTH * SCALE + MARGIN + PANEL_W, MARGIN + hal.HEIGHT * SCALE + RING_H + 40


def draw(pygame, screen, p, font, cjk):
    View(pygame, screen, font, cjk).draw(p)


def run(p, script=None, frames=0, screenshot=None):
    """The window until closed (or q, or `frames` frames). script: command lines
    run one a frame on simulated time (then the window stays until closed,
    unless frames is given). -> exit status."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    w, h = size()
    try:  # (a video driver named in SDL_VIDEODRIVER that cannot start fails already here)
        pygame.display.init()  # not pygame.init(): no sound card needed
        pygame.font.init()
        screen = pygame.display.set_mode((w, h))
        why = None
        if pygame.display.get_driver() in ("offscreen", "dummy") and not os.environ.get("SDL_VIDEODRIVER"):
            why = "SDL found no display and would draw off screen"
    except pygame.error as e:
        why = str(e)
    if why:
        pygame.quit()
        raise InputError("no window (%s): is there a display (DISPLAY / WAYLAND_DISPLAY)? "
                         "The terminal bowl needs none: drop --window." % why)
    pygame.display.set_caption("博饼碗 Bo Bing bowl (simulator)")
    font, cjk = _font(pygame, 16)
    speaker = Speaker(pygame)
    p.hear = speaker.hear  # the amplifier's samples, as the bowl's I2S was sent them
    view = View(pygame, screen, font, cjk)
    clock = pygame.time.Clock()
    lines = list(script) if script is not None else None
    status = 0
    n = 0
    keys = Keys(pygame, p)
    try:
        running = True
        while running:
            for ev in pygame.event.get():
                running = keys.event(ev) and running
            if lines:
                try:
                    if not player.run_command(p, lines.pop(0), print):
                        lines = []
                        running = running and not frames
                except player.ScriptError as e:
                    print("script: %s" % e)
                    status = 1
                    lines = []
            p.step(1000 // FPS)
            speaker.feed(p.sim.board.pwm)
            speaker.flush()
            if view.draw(p):
                pygame.display.flip()
            n += 1
            if frames and n >= frames:
                running = False
            if not (frames and os.environ.get("SDL_VIDEODRIVER") == "dummy"):
                clock.tick(FPS)
        if screenshot:
            pygame.image.save(screen, screenshot)
    finally:
        pygame.quit()
    return status
