"""The bowl drawn as text: the OLED from the very same framebuffer the app draws
into (two pixels a character with Unicode half-blocks; quadrant blocks when the
terminal is narrow), the LED ring in colour (24-bit ANSI), the prize pool and
everyone's awards beside it. The terminal (host_sim/sim/terminal.py), the
window's side panel and the script's `screen` command (host_sim/sim/player.py)
draw through it; it drives nothing.
"""
import math
import shutil
import textwrap
import unicodedata

from bobing import rules, vocab
from host_sim.portable.fakes import bowl as hal

OLED_RGB = (140, 215, 255)  # a blue-white SSD1306
LED_GAIN = 4  # the app drives the ring at 64/255: show it as bright as it looks

KEYS_HELP = ("空格 摇碗 space shake (hold = longer)  v 猛摇 violent shake  m/n/o 菜单/下一个/确定 menu/next/ok  "
             "M/N/O 长按 long press  "
             "g 新局 new game  +/- 下一局人数 seats of the next game (g starts it)  p 规则 profile (next game)  "
             "l 语言 lang  x 断电 power cut  q 退出 quit")
KEYS_SHORT = "空格 摇 shake  m/n/o 菜单/下一个/确定  M/N/O 长按 long  g 新局 new  +/- 人数 seats (g)  q 退出 quit"
SIDE_MIN = 40  # columns the side panel needs beside the OLED (else it goes below)
POOL = "奖池 pool:  "
STATE_HEADS = ("第", "游戏结束", "等待顾客", "摇碗定先手", POOL, "下一局", "王中王")  # kept in a short terminal


# ---------------------------------------------------------------- drawing
def lit(frame, x, y):
    """Pixel (x, y) of a 128x64 SSD1306 frame (MONO_VLSB: a byte is 8 pixels down)."""
    return (frame[(y >> 3) * hal.WIDTH + x] >> (y & 7)) & 1


def oled_halfblocks(frame):
    """64 pixel rows -> 32 text rows of 128 characters (upper/lower half blocks)."""
    glyph = (" ", "▀", "▄", "█")
    rows = []
    for y in range(0, hal.HEIGHT, 2):
        rows.append("".join(glyph[lit(frame, x, y) | (lit(frame, x, y + 1) << 1)] for x in range(hal.WIDTH)))
    return rows


# quadrant blocks by (top-left, top-right, bottom-left, bottom-right) bits
_QUAD = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def oled_quadrants(frame):
    """64 pixel rows -> 32 text rows of 64 characters (2x2 pixels a character)."""
    rows = []
    for y in range(0, hal.HEIGHT, 2):
        row = []
        for x in range(0, hal.WIDTH, 2):
            k = (lit(frame, x, y) | lit(frame, x + 1, y) << 1 | lit(frame, x, y + 1) << 2
                 | lit(frame, x + 1, y + 1) << 3)
            row.append(_QUAD[k])
        rows.append("".join(row))
    return rows


def width_of(s):
    """Columns a string takes (a Chinese character takes two); ANSI escapes take none."""
    w = 0
    esc = False
    for ch in s:
        if esc:
            if ch == "m":
                esc = False
            continue
        if ch == "\x1b":
            esc = True
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w


def pad(s, n):
    return s + " " * max(0, n - width_of(s))


def fg(rgb, color):
    return "\x1b[38;2;%d;%d;%dm" % rgb if color else ""


def reset(color):
    return "\x1b[0m" if color else ""


def ring_rows(leds, color):
    """The LED ring as a clock face of 12 (or n) dots, 7 rows."""
    n = len(leds)
    grid = [[" "] * 15 for _ in range(7)]
    for i in range(n):
        a = 2 * math.pi * i / n
        x = 7 + int(round(6.5 * math.sin(a)))
        y = 3 - int(round(3 * math.cos(a)))
        r, g, b = leds[i]
        on = r or g or b
        rgb = (min(255, r * LED_GAIN), min(255, g * LED_GAIN), min(255, b * LED_GAIN))
        if color:
            grid[y][x] = (fg(rgb, True) + "●" + reset(True)) if on else (fg((60, 60, 60), True) + "○" + reset(True))
        else:
            grid[y][x] = "●" if on else "○"
    return ["".join(r) for r in grid]


def clip(s, n):
    """s cut to n columns, "…" marking the cut; a coloured line is cut too (its
    escapes take no room) and its colour ended, so it never overflows its column."""
    if width_of(s) <= n:
        return s
    out = ""
    for ch in s:
        if width_of(out + ch) > n - 1:
            break
        out += ch
    return out + ("\x1b[0m" if "\x1b" in s else "") + "…"


def panel(p, color, width=78):
    """The side panel: game, pool, awards, last outcomes, each line cut to width
    (the pool's line is wrapped instead: every class's count whole)."""
    out = []
    for x in _panel(p, color):
        if x.startswith(POOL) and width_of(x) > width:
            out.extend(wrap(x, width))
        else:
            out.append(clip(x, width))
    return out


def game_line(t):
    """The game's rules and table, Chinese first."""
    return "规则 profile %s，%s" % (t.profile.name, "商场 kiosk" if t.kiosk else "%d 人 seats" % t.seats)


def state_line(t):
    """Where the game stands, Chinese first."""
    if t.ended:
        return "游戏结束 game over (%s)" % t.reason
    if not t.started:
        return ("摇碗定先手：1号先摇 shake to start: seat 1 rolls for who begins" if not t.kiosk
                else "等待顾客 waiting for a customer")
    if t.kiosk:
        return "第 %d 位顾客，还有 %d 次 customer %d, %d shake(s) left" % (t.customer, t.shakes_left, t.customer,
                                                                   t.shakes_left)
    return "第 %d 轮，%d 号摇 round %d, seat %d to shake" % (t.round, t.turn, t.round, t.turn)


def turn_line(p):
    """state_line, the seat's name beside its number when it has one."""
    t = p.table
    line = state_line(t)
    if t.started and not t.ended and not t.kiosk and t.turn:
        label = seat_label(p, t.turn)
        if label != "%d" % t.turn:
            line += " (%s)" % label.split(" ", 1)[1]
    return line


def next_game_line(p):
    """What the next game (g) will be, when the settings changed it; else None."""
    t = p.table
    s = p.console.settings
    nxt = (s.active_profile(), s.seats)
    if nxt[0] != t.profile.name or (not t.kiosk and nxt[1] != t.seats):
        return "下一局 next game (g): %s, %d 人 seats" % nxt
    return None


KIOSK_ROWS = 8  # a kiosk's prize table: its last customers who won


def seat_label(p, seat):
    """'2 奶奶 Nainai' for a seat with a name (the bowl's Settings.names), else '2'."""
    c = p.console
    k = c.settings.names[seat - 1] if c is not None and 0 < seat <= len(c.settings.names) else 0
    return "%d %s %s" % (seat, vocab.TITLES_ZH[k - 1], vocab.TITLES[k - 1]) if k else "%d" % seat


def award_rows(p):
    """The prize table's rows -> (its first column's head, [(mark, number, star,
    {class: prizes})]): at a table a seat a row (▶ whose turn, ★ the 状元's); at a
    kiosk, which pays everything to "seat" 1, a customer a row: the last ones who
    won (Player.customers, from the journal) and the one shaking (▶)."""
    t = p.table
    if not t.kiosk:
        return "seat", [("▶" if seat == t.turn else " ", seat_label(p, seat), "★" if seat == t.holder else " ",
                         t.awards[seat]) for seat in sorted(t.awards)]
    shown = sorted(p.customers)[-KIOSK_ROWS:]
    if t.shakes_left and t.customer not in shown:
        shown = shown[-(KIOSK_ROWS - 1):] + [t.customer]
    return "顾客", [("▶" if k == t.customer and t.shakes_left else " ", "%d" % k, " ", p.customers.get(k, {}))
                  for k in shown]


def final_lines(fp):
    """The 状元王中王 final on this bowl (firmware/bobing/final_play.py), Chinese first:
    its state, who is still in, its last rolls; the winner once it is won."""
    f = fp.final
    zh = rules.rank_names("zh")
    out = ["状元王中王 final %d：%d 位冠军 champions，规则 profile %s" % (fp.fid, f.players, fp.profile)]
    if f.ended:
        out.append("王中王 %d 号 winner: champion %d, %s %s" % (f.winner, f.winner, "".join(
            "%d" % d for d in f.winner_dice), zh[f.winner_rank]))
    else:
        out.append("第 %d 轮，%d 号摇 round %d, champion %d to shake" % (f.round, f.turn, f.round, f.turn))
        if len(f.contenders) < f.players:
            out.append("同分重摇 tied, rolling again: " + " ".join("%d" % k for k in f.contenders))
    out.append("")
    for seat, rnd, dice, rank in fp.log[-5:]:
        out.append("%d 号 champion %d (第 %d 轮 round %d): %s" % (
            seat, seat, rnd, rnd, "骰子出碗 spill, void" if dice is None else
            "".join("%d" % d for d in dice) + " " + zh[rank]))
    return out


def _panel(p, color):
    t = p.table
    out = []
    bold = "\x1b[1m" if color else ""
    c = p.console
    if c is not None and c.final is not None:  # the final, not the table game it interrupts
        return [bold + "博饼碗 Bo Bing bowl" + reset(color)] + final_lines(c.final)
    if t is None:
        return ["(no game)"]
    zh = t.class_zh
    out.append(bold + "博饼碗 Bo Bing bowl" + reset(color) + "   " + game_line(t))
    out.append(turn_line(p) + "   [%s]" % p.view)
    nxt = next_game_line(p)
    if nxt:
        out.append(nxt)
    out.append("")
    cells = []
    for k in t.classes:
        cells.append("%s %d/%d" % (zh[k], t.pool[k], t.initial[k]))
    out.append(POOL + "  ".join(cells))
    if any(t.grabbed.values()):
        out.append("抢到 grabbed: " + "  ".join("%s %d" % (zh[k], t.grabbed[k]) for k in t.classes if t.grabbed[k]))
    out.append("")
    who, rows = award_rows(p)
    w = 2 if who == "seat" else 3  # seats 1..12; a kiosk's customers run into the hundreds
    first = ["%s%*s%s " % (mark, w, n, star) for mark, n, star, _a in rows]
    col = max([width_of(x) for x in first] + [w + 3])  # (a seat's name widens the column)
    out.append((pad(who, col) + "".join(pad(zh[k], 6) for k in t.classes)).rstrip())  # (no padding to cut)
    for x, (_m, _n, _s, a) in zip(first, rows):
        out.append((pad(x, col) + "".join(pad("%d" % a[k] if a.get(k) else "·", 6) for k in t.classes)).rstrip())
    if t.holder and t.holder_dice:  # on its own line: the table keeps to its columns
        out.append("★ 状元 %d号 seat %d: %s %s" % (t.holder, t.holder, "".join("%d" % d for d in t.holder_dice),
                                                 rules.rank_names("zh")[t.holder_rank]))
    out.append("")
    for line in p.history[-5:]:
        out.append(line)
    return out


def oled_braille(frame):
    """64 pixel rows -> 16 text rows of 64 Braille characters (2x4 pixels each), for
    small terminals."""
    dots = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20),
            (0, 3, 0x40), (1, 3, 0x80))
    rows = []
    for y in range(0, hal.HEIGHT, 4):
        row = []
        for x in range(0, hal.WIDTH, 2):
            k = 0
            for dx, dy, bit in dots:
                if lit(frame, x + dx, y + dy):
                    k |= bit
            row.append(chr(0x2800 + k))
        rows.append("".join(row))
    return rows


def compose(p, width=None, color=True, help_line=True, height=None):
    """The whole screen as lines: the OLED and the ring, the panel beside or
    below. The sharpest OLED with which the whole panel (every seat's row) is
    shown: half-blocks (130 columns), else quadrant blocks (66); when neither
    shows it all, the sharpest that fits, the panel shortened; Braille (18
    rows) when the terminal is short."""
    if width is None:
        width = shutil.get_terminal_size((100, 50)).columns
    if height is None:
        height = 10000  # not a screen: nothing to cut
    if height < 34 + 3:  # the box, the ring in a row and a line of keys do not fit
        tries = [oled_braille]
    elif width >= hal.WIDTH + 2:
        tries = [oled_halfblocks, oled_quadrants]
    else:
        tries = [oled_quadrants]
    for draw in tries:
        lines, whole = _compose(p, draw(p.sim.frame), width, color, help_line, height)
        if whole:
            return lines
    return _compose(p, tries[0](p.sim.frame), width, color, help_line, height)[0]


def _compose(p, oled, width, color, help_line, height):
    """compose() with this OLED drawing -> (lines, whether the panel is whole)."""
    ow = len(oled[0])
    room = width - (ow + 4)  # beside the OLED
    side = panel(p, color, room if room >= SIDE_MIN else max(20, width - 1))
    side_w = max([width_of(x) for x in side] + [SIDE_MIN])
    box = ["┌" + "─" * ow + "┐"]
    on = fg(OLED_RGB, color)
    for r in oled:
        box.append("│" + on + r + reset(color) + "│")
    box.append("└" + "─" * ow + "┘")
    one_row = " ".join(ring_row_dots(p.sim.leds, color))  # every LED once, in a row
    ring = ring_rows(p.sim.leds, color) if len(oled) >= 32 else [one_row]  # short terminal: one row
    left = box + [" " * max(0, (ow + 2 - width_of(ring[0])) // 2) + r for r in ring]
    lines = []
    whole = True
    keys = wrap(KEYS_HELP, max(20, width - 1)) if help_line else []
    if len(keys) > 2:  # a small terminal: the short list, the room is the bowl's
        keys = wrap(KEYS_SHORT, max(20, width - 1))
    if width >= ow + 2 + 2 + side_w:
        if len(left) + len(keys) > height - 1:  # short: the ring in one row under the OLED
            left = box + [one_row]
        for i in range(max(len(left), len(side))):
            lines.append(pad(left[i] if i < len(left) else "", ow + 4) + (side[i] if i < len(side) else ""))
    else:
        lines = left + [""] + side
        if len(lines) + 3 > height - 1:  # short: the OLED, the ring, the game's state, the pool, the last roll
            whole = False
            keep = [x for x in side if x.startswith(STATE_HEADS)]
            lines = left + keep + p.history[-1:]
            if len(lines) + 3 > height - 1:  # shorter: the ring in one row, beside the state
                lines = box + [one_row + "   " + (keep[0] if keep else "")] + keep[1:] + p.history[-1:]
    if len(lines) + len(keys) > height - 1:  # keep the keys in view; say what was cut
        whole = False
        lines = lines[:max(0, height - 2 - len(keys))] + ["(a taller terminal shows the rest)"]
    elif keys and len(lines) + len(keys) + 1 <= height - 1:
        lines.append("")
    return lines + keys, whole


def wrap(text, width):
    """Lines of at most width columns (a Chinese character takes two), broken
    between the "  "-separated items, inside one only when it alone is wider."""
    lines = []
    cur = ""
    for item in text.split("  "):
        for piece in (textwrap.wrap(item, width // 2) if width_of(item) > width else [item]):
            if cur and width_of(cur + "  " + piece) > width:
                lines.append(cur)
                cur = piece
            else:
                cur = cur + "  " + piece if cur else piece
    if cur:
        lines.append(cur)
    return lines


def ring_row_dots(leds, color):
    out = []
    for r, g, b in leds:
        rgb = (min(255, r * LED_GAIN), min(255, g * LED_GAIN), min(255, b * LED_GAIN))
        if r or g or b:
            out.append(fg(rgb, color) + "●" + reset(color))
        else:
            out.append(fg((60, 60, 60), color) + "○" + reset(color))
    return out
