"""The bowl in a pygame window: the OLED's pixels scaled up (from the very same
framebuffer the app draws into), the LED ring as coloured discs, the prize
pool and everyone's awards beside it.

Keys as in the terminal (host_sim/terminal.py), but here the shake key is a
real key: the bowl shakes exactly as long as space is held down.

With a script (a list of command lines) the commands run one a frame on
simulated time, which is how the tests drive it with SDL_VIDEODRIVER=dummy.
"""
import os
import sys

from host_sim import hal, player, terminal

SCALE = 6
MARGIN = 20
PANEL_W = 470
RING_H = 200
FPS = 50
BG = (24, 24, 28)
OFF = (0, 0, 0)
ON = terminal.OLED_RGB
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
        try:
            pygame.mixer.init(self.RATE, -16, 1, 512)
            self.ok = pygame.mixer.get_init() is not None
        except pygame.error:
            self.ok = False

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


def frame_rgb(frame):
    """A 128x64 SSD1306 frame as RGB bytes, row by row."""
    on = bytes(ON)
    off = bytes(OFF)
    out = bytearray()
    for y in range(hal.HEIGHT):
        for x in range(hal.WIDTH):
            out += on if terminal.lit(frame, x, y) else off
    return bytes(out)


def oled_rect():
    return (MARGIN, MARGIN, hal.WIDTH * SCALE, hal.HEIGHT * SCALE)


def _font(pygame, size):
    """A font that has Chinese if the machine has one, else pygame's own (ids instead)."""
    for name in CJK_FONTS:
        path = pygame.font.match_font(name)
        if path:
            return pygame.font.Font(path, size), True
    return pygame.font.Font(None, size + 4), False


def _panel_lines(p, cjk):
    t = p.table
    if t is None:
        return ["(no game)"]
    name = (lambda k: t.class_zh[k]) if cjk else (lambda k: k)
    lines = ["Bo Bing bowl: %s, %s" % (t.profile.name, "kiosk" if t.kiosk else "%d seats" % t.seats)]
    if t.ended:
        lines.append("game over (%s)" % t.reason)
    elif t.kiosk:
        lines.append("customer %d, %d shake(s) left" % (t.customer, t.shakes_left))
    else:
        lines.append("round %d, seat %d to shake" % (t.round, t.turn))
    lines.append("")
    lines.append("pool:")
    for k in t.classes:
        lines.append("  " + terminal.pad(name(k), 12) + " %3d / %d" % (t.pool[k], t.initial[k]))
    lines.append("")
    lines.append("seat  " + " ".join(terminal.pad(name(k)[:4], 5) for k in t.classes))
    for s in sorted(t.awards):
        a = t.awards[s]
        mark = ">" if s == t.turn and not t.kiosk else " "
        star = "*" if s == t.holder else " "
        lines.append("%s%2d%s  " % (mark, s, star) + " ".join(terminal.pad("%d" % a[k] if a[k] else ".", 5) for k in t.classes))
    lines.append("")
    for h in p.history[-4:]:
        lines.append(h if cjk else h.encode("ascii", "replace").decode())
    return lines


def draw(pygame, screen, p, font, cjk):
    screen.fill(BG)
    img = pygame.image.frombuffer(frame_rgb(p.sim.frame), (hal.WIDTH, hal.HEIGHT), "RGB")
    x0, y0, w, h = oled_rect()
    screen.blit(pygame.transform.scale(img, (w, h)), (x0, y0))
    pygame.draw.rect(screen, (90, 90, 90), (x0 - 3, y0 - 3, w + 6, h + 6), 2)
    leds = p.sim.leds
    cx, cy, r = x0 + w // 2, y0 + h + RING_H // 2 + 5, RING_H // 2 - 20
    import math
    for i, (cr, cg, cb) in enumerate(leds):
        a = 2 * math.pi * i / max(1, len(leds))
        pos = (int(cx + r * math.sin(a)), int(cy - r * math.cos(a)))
        lit = (min(255, cr * terminal.LED_GAIN), min(255, cg * terminal.LED_GAIN), min(255, cb * terminal.LED_GAIN))
        pygame.draw.circle(screen, lit if (cr or cg or cb) else (45, 45, 45), pos, 11)
    y = MARGIN
    for line in _panel_lines(p, cjk):
        screen.blit(font.render(line, True, (220, 220, 220)), (x0 + w + MARGIN, y))
        y += font.get_linesize()
    hint = "space: hold to shake   v violent shake   m/n/o: buttons   g new game   +/- seats   p profile   l lang   x power   q quit"
    screen.blit(font.render(hint, True, (150, 150, 150)), (MARGIN, y0 + h + RING_H + 5))


def run(p, script=None, frames=0, screenshot=None):
    """The window until closed (or q, or `frames` frames). script: command lines
    run one a frame on simulated time (then the window stays until closed,
    unless frames is given). -> exit status."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    pygame.display.init()  # not pygame.init(): no sound card needed
    pygame.font.init()
    w = MARGIN + hal.WIDTH * SCALE + MARGIN + PANEL_W
    h = MARGIN + hal.HEIGHT * SCALE + RING_H + 40
    try:
        screen = pygame.display.set_mode((w, h))
        why = None
        if pygame.display.get_driver() in ("offscreen", "dummy") and not os.environ.get("SDL_VIDEODRIVER"):
            why = "SDL found no display and would draw off screen"
    except pygame.error as e:
        why = str(e)
    if why:
        pygame.quit()
        print("error: no window (%s): is there a display (DISPLAY / WAYLAND_DISPLAY)? "
              "The terminal bowl needs none: drop --window." % why, file=sys.stderr)
        return 2
    pygame.display.set_caption("博饼碗 Bo Bing bowl (simulator)")
    font, cjk = _font(pygame, 16)
    speaker = Speaker(pygame)
    clock = pygame.time.Clock()
    lines = list(script) if script is not None else None
    status = 0
    n = 0
    keys = {pygame.K_m: "menu", pygame.K_n: "next", pygame.K_o: "ok", pygame.K_RETURN: "ok"}
    try:
        running = True
        while running:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    running = False
                elif ev.type == pygame.KEYDOWN:
                    if ev.key == pygame.K_SPACE:
                        p.shake_down()
                    elif ev.key in keys:
                        p.sim.press(keys[ev.key])
                    elif ev.unicode and not terminal.key(p, ev.unicode):
                        running = False
                elif ev.type == pygame.KEYUP and ev.key == pygame.K_SPACE:
                    p.shake_up()
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
            draw(pygame, screen, p, font, cjk)
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
