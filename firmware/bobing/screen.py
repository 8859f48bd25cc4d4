# What the bowl shows on its 128x64 monochrome OLED (SSD1306). Pure drawing:
# no hardware, runs unchanged on MicroPython and CPython.
#
# A Screen draws on ANY FrameBuffer-like object the caller allocated once (the
# ssd1306 driver on the bowl, host_sim.framebuf on the host); every method
# clears the frame and draws a whole screen, and the caller calls show().
# The drawing itself (text, numbers, names, dice, frame pieces) is the
# painter's (paint.py), which allocates nothing either: drawing a frame
# allocates nothing on MicroPython (bench/screen_bench.py measures it).
# lang "zh" (default) shows Chinese; "en" shows pinyin names with English
# glosses for visitors, in the 8x8 font (two lines where Chinese has one).
#
# The game state comes from game.Table / game.Outcome, read by attribute name
# only (notes: game contract): turn, round, seats, started, ended, reason,
# holder, holder_dice, holder_rank, classes, class_zh, initial, pool; outcome
# kind, seat, dice, rank, bonus, won, holder_before, holder_after, skipped,
# ended, reason.
from micropython import const

from bobing import paint, rules
from bobing.game import EV_ROLL, EV_SPILL, EV_TIMEUP, REASONS

_W = const(128)
_H = const(64)

LANGS = paint.LANGS

# Labels, by index. Chinese first; "en" is for visitors.
_L_HAO = const(0)
_L_ROUND_A = const(1)
_L_ROUND_B = const(2)
_L_TURN = const(3)
_L_LEFT = const(4)
_L_ZY = const(5)
_L_NEW = const(6)
_L_PLAYERS = const(7)
_L_SHAKE_START = const(8)
_L_SHAKING = const(9)
_L_WINS = const(10)
_L_CHASE = const(11)
_L_NO_PRIZE = const(12)
_L_ZY_TO = const(13)
_L_ZY_STAYS = const(14)
_L_SITS_OUT = const(15)
_L_NEXT = const(16)
_L_GAME_OVER = const(17)
_L_GRAB = const(18)
_L_NO_ZY = const(19)
_L_PRIZES = const(20)
_L_SPILL = const(21)
_L_VOID = const(22)
_L_TIME_UP = const(23)
_L_START = const(24)
_L_CUSTOMER = const(25)
_L_SHAKES_A = const(26)
_L_SHAKES_B = const(27)
_L_NEXT_CUSTOMER = const(28)
_L_THANKS = const(29)
_L_YOU_WIN = const(30)
_L_LAST_ROUND = const(31)
_L_FIRST = const(32)
_L_TOTAL_A = const(33)
_L_TOTAL_B = const(34)
_L_ALL_WON = const(35)
_L_NOT_PAID = const(36)
_L_TO_SHAKE = const(37)
_L_TIE = const(38)
_L_NOT_ABOVE = const(39)
_L_UNVERIFIED = const(40)
_L_UNVERIFIED_A = const(41)
_L_UNVERIFIED_B = const(42)
_L_NTH = const(43)
_L_SEAT_OF = const(44)
_L_TO = const(45)
_L_SHAKE = const(46)
_L_GRAB_B = const(47)
_L_TIMES = const(48)

# The labels of each language: a tuple of constants, which the frozen image keeps in flash
# (mpy-tool freezes constant tuples as ROM objects): choosing a language allocates nothing.
# (Split from one "|"-separated text at set_lang, they took ~1.3 KB of the frozen bowl's heap.)
_ZH = (
    "号", "第", "轮", "轮到", "剩余奖品", "状元", "新游戏", "人", "摇碗定先手", "摇碗中", "得", "追", "无奖",
    "状元归", "状元仍归", "停一轮", "下一位",
    "游戏结束", "关灯抢饼", "无状元", "奖品", "骰子出碗", "本次作废", "时间到", "开始", "位顾客", "还有",
    "次", "请下一位顾客", "谢谢参与", "", "本轮后结束",
    "先摇", "共", "点", "已派完", "此项不设奖", "", "同分先到者得", "未胜过", "未验证", "骰子未验证", "", "位",
    "", "", "", "", "×",
)
_EN = (
    "Seat", "Round", "", "Seat", "Prizes left", "Champion:", "New game", "players", "Shake to start",
    "shaking...", "takes", "from", "No prize", "Zhuangyuan now", "Zhuangyuan stays", "sits out a turn",
    "Next:", "Game over", "LIGHTS OFF!", "No Zhuangyuan", "Prizes", "Dice out of bowl", "roll void",
    "Time is up", "Start", "Customer", "Shakes left", "", "Next customer!", "Thank you!", "You win",
    "Last round", "starts", "Total", "", "all won", "pays no prize here", "to shake", "Tie: first keeps",
    "does not beat", "unverified", "Unverified:", "no desk value", "",
    "seat", "to", "shake", "GRAB!", " x",
)

# why a game ended (game.REASONS, in its order) -> Chinese, English
_REASON_ZH = (
    "奖品发完", "六勃红", "关灯抢饼", "时间到", "库存已空", "状元王中王",
)
_REASON_EN = (
    "All prizes won", "Liu Bo Hong", "Lights off, grab", "Time is up", "Out of stock", "Champion final",
)


_BOWL_Y = const(17)  # the shaking screen's bowl and dice: rows 17-63 (its header above)


class Screen:
    """Draws the bowl's screens on `fb` (128x64, MONO_VLSB FrameBuffer-like)
    through its painter, `paint` (paint.Painter on fb unless one is given).
    pause: None, or called between the pieces of the shaking screen (drawn while the
    accelerometer must be read every 10 ms: bowl/app.py samples there when due);
    it returns True when the frame is no longer wanted (the shake settled meanwhile),
    and the drawing stops there."""

    pause = None

    def __init__(self, fb, lang="zh", painter=None):
        self.fb = fb
        self.paint = painter if painter is not None else paint.Painter(fb)
        self.lang = "zh"
        self.set_lang(lang)

    def set_lang(self, lang):
        p = self.paint
        p.set_lang(lang)
        self.lang = lang
        zh = p.zh
        # this language's labels and reasons
        self._l = _ZH if zh else _EN
        self._why = _REASON_ZH if zh else _REASON_EN

    # ---------------------------------------------------------------- screens
    def idle(self, t, unverified=False):
        """Waiting for a shake: whose turn, the round, the 状元 so far, prizes left.
        unverified: a fair kiosk's turn played with the bowl's own dice (no desk value
        came in time, bobing/fair.py): marked so (mark_unverified)."""
        p = self.paint
        if t.ended:
            self.game_over(t, 0)
            return
        fb = self.fb
        fb.fill(0)
        zh = p.zh
        L = self._l
        if not t.started:
            if zh:
                p.text_centred(L[_L_NEW], 0)
                w = p.number_width(t.seats) + 16
                p.text(L[_L_PLAYERS], p.number(t.seats, (_W - w) // 2, 22), 18)
                p.text_centred(L[_L_SHAKE_START], 44)
            else:
                p.en_centred(L[_L_NEW], 4)
                w = p.number_width(t.seats) + 8 + 8 * len(L[_L_PLAYERS])
                p.en(L[_L_PLAYERS], p.number(t.seats, (_W - w) // 2, 26) + 8, 26)
                p.en_centred(L[_L_SHAKE_START], 48)
            p.corners()
            return
        if getattr(t, "kiosk", False):
            self._idle_kiosk(t, unverified)
            return
        # top line: the round, and the 状元 holder so far
        if zh:
            x = p.text(L[_L_ROUND_A], 0, 0)
            p.text(L[_L_ROUND_B], p.number(t.round, x, 4), 0)
        else:
            p.number(t.round, p.en(L[_L_ROUND_A], 0, 0) + 8, 0)
        if t.holder:
            if zh:
                x = _W - 32 - p.seat_width(t.holder)
                p.seat(t.holder, p.text(L[_L_ZY], x, 0), 0)
            elif p.name_of(t.holder) is not None:  # "Champion: Nainai"
                p.seat(t.holder, p.en(L[_L_ZY], 0, 9) + 8, 9)
            else:  # "Champion: seat 5" (the 状元 so far)
                x = p.en(L[_L_ZY], 0, 9) + (8 if t.holder < 10 else 0)
                p.number(t.holder, p.en(L[_L_SEAT_OF], x, 9) + 8, 9)
        # middle: the seat to shake, big
        name = p.name_of(t.turn)
        if name is not None:  # "轮到奶奶" / "Nainai / to shake", the name big
            if zh:
                lw = p.text_width(L[_L_TURN])
                x = (_W - lw - 4 - 2 * p.text_width(name)) // 2
                p.big_text(name, p.text(L[_L_TURN], x, 24) + 4, 16)
            else:
                p.big(name, (_W - 16 * len(name)) // 2, 20, 2, 2)
                p.en_centred(L[_L_TO_SHAKE], 40)
        elif zh:
            w = p.number_width(t.turn) * 3
            lw = p.text_width(L[_L_TURN])
            x = (_W - lw - 4 - w - 4 - 16) // 2
            x = p.text(L[_L_TURN], x, 26) + 4
            x = p.big_number(t.turn, x, 20, 3, 3) + 4
            p.text(L[_L_HAO], x, 26)
        else:  # "Seat 1 to / shake": the number big between
            k = 3 if t.turn < 10 else 2
            w = p.number_width(t.turn) * k
            x = (_W - 32 - 8 - w - 8 - 40) // 2
            x = p.big_number(t.turn, p.en(L[_L_TURN], x, 26) + 8, 22 if k == 2 else 18, k, k) + 8
            p.en(L[_L_TO], x, 22)
            p.en(L[_L_SHAKE], x, 32)
        self.prizes_left(t)

    def prizes_left(self, t):
        """The bottom line: prizes left in the pool."""
        p = self.paint
        L = self._l
        left = 0
        for cls in t.classes:
            left += t.pool[cls]
        if p.zh:
            lw = p.text_width(L[_L_LEFT]) + 4 + p.number_width(left)
            x = p.text(L[_L_LEFT], (_W - lw) // 2, 48) + 4
            p.number(left, x, 52)
        else:
            lw = 8 * len(L[_L_LEFT]) + 8 + p.number_width(left)
            p.number(left, p.en(L[_L_LEFT], (_W - lw) // 2, 52) + 8, 52)

    def _idle_kiosk(self, t, unverified):
        p = self.paint
        # a mall kiosk (game.Table extras: kiosk, customer, shakes_left): the
        # customer's number and shakes left, or a call for the next customer
        L = self._l
        n = t.shakes_left
        if n and unverified:
            right = self.mark_unverified(_W, 0 if p.zh else 10)
        else:
            right = _W
        if p.zh:
            if n:
                x = p.number(t.customer, p.text(L[_L_ROUND_A], 0, 0), 4)
                if x + p.text_width(L[_L_CUSTOMER]) <= right - 4:
                    p.text(L[_L_CUSTOMER], x, 0)
                else:  # "第123位" beside the mark
                    p.text(L[_L_NTH], x, 0)
                lw = p.text_width(L[_L_SHAKES_A])
                x = (_W - lw - 4 - 3 * p.number_width(n) - 4 - 16) // 2
                x = p.big_number(n, p.text(L[_L_SHAKES_A], x, 26) + 4, 20, 3, 3) + 4
                p.text(L[_L_SHAKES_B], x, 26)
            else:
                p.text_centred(L[_L_NEXT_CUSTOMER], 24)
        else:
            if n:
                p.number(t.customer, p.en(L[_L_CUSTOMER], 0, 0) + 8, 0)
                lw = 8 * len(L[_L_SHAKES_A])
                x = (_W - lw - 8 - 3 * p.number_width(n)) // 2
                p.big_number(n, p.en(L[_L_SHAKES_A], x, 28) + 8, 20, 3, 3)
            else:
                p.en_centred(L[_L_NEXT_CUSTOMER], 28)
        self.prizes_left(t)

    def shaking(self, t, frame, unverified=False):
        """Dice tumbling in the bowl while the seat whose turn it is shakes; one
        call per animation frame (any int frame; the motion repeats). unverified:
        as idle's, marked at the top right."""
        p = self.paint
        fb = self.fb
        # the frame after the one drawn last, for the same seat: only the bowl is drawn again
        # (the header above it, text costly on the ESP32, is as it was)
        # (kept as three small ints, not a tuple: a frame allocates nothing, test_screen_heap)
        key = t.turn * 4 + (2 if unverified else 0) + (1 if p.zh else 0)
        again = frame == self._shook_frame + 1 and key == self._shook_key
        self._shook_frame = frame
        self._shook_key = key
        pause = self.pause
        if again:
            fb.fill_rect(0, _BOWL_Y, _W, 64 - _BOWL_Y, 0)
        else:
            fb.fill(0)
            if self._shaking_header(t, unverified, pause):
                self._shook_frame = -2  # given up half drawn: the next frame draws its header whole
                return
        if pause is not None and pause():
            return
        self._bowl(frame)

    _shook_frame = -2  # the last shaking frame drawn and its header's key (seat, mark, language)
    _shook_key = -1

    def _shaking_header(self, t, unverified, pause):
        # -> True when a pause() between its pieces said the frame is stale (a glyph is a
        # few ms of the ESP32's CPU: the Chinese header is drawn a character at a time)
        p = self.paint
        y = 0 if unverified else 4  # (in English the mark takes the line under it)
        if not t.turn:  # the start roll: no seat's turn yet
            if p.zh:
                p.text_centred(self._l[_L_SHAKE_START], 0)
            else:
                p.en_centred(self._l[_L_SHAKE_START], y)
        elif p.zh:
            x = p.seat(t.turn, 2, 0) + 4
            for ch in self._l[_L_SHAKING]:
                if pause is not None and pause():
                    return True
                x = p.text(ch, x, 0)
        else:
            x = p.seat(t.turn, 2, y)
            p.en(self._l[_L_SHAKING], x + 8, y)
        if unverified:
            self.mark_unverified(_W, 0 if p.zh else 9)
        return False

    def _bowl(self, frame):
        p = self.paint
        fb = self.fb
        pause = self.pause
        # the bowl: a rim and a rounded bottom
        fb.line(2, 18, 12, 52, 1)
        fb.line(12, 52, 28, 62, 1)
        fb.hline(28, 63, 72, 1)
        fb.line(99, 62, 115, 52, 1)
        fb.line(115, 52, 125, 18, 1)
        if pause is not None and pause():
            return
        for i in range(6):
            # each die bounces between the bowl's walls on its own periods
            ph = frame * (3 + i % 3) + 17 * i
            cx = 24 + _tri(ph, 80)
            cy = 26 + _tri(frame * (2 + (i * 5) % 3) + 11 * i, 26)
            step = (frame + i) * (1 + (i & 1))
            face = (frame // 3 + i * 5) % 6 + 1
            p.tumbling_die(cx, cy, step, face)
            if pause is not None and pause():
                return

    def result(self, t, out, page=0, unverified=False):
        """A roll's outcome: the six dice (1s and 4s lit), the rank, then one
        message per page (prize won or chased from a seat, 状元 holder change,
        skipped seats, who is next; unverified: a roll of the bowl's own dice on
        a fair kiosk, as idle's, says so last); result_pages() says how many pages."""
        p = self.paint
        fb = self.fb
        fb.fill(0)
        zh = p.zh
        L = self._l
        if out.kind == EV_ROLL and out.dice:
            p.dice_row(out.dice, 0, 17, 4)
            # the rank, a combined award as "+一秀"; in Chinese after the roller's seat
            w = p.rank_width(out.rank)
            if out.bonus:
                w += 8 + p.rank_width(out.bonus)
            if zh:
                x = (_W - w) // 2
                if not getattr(t, "kiosk", False):  # a kiosk has one "seat": the customer
                    x = max(p.seat(out.seat, 0, 19) + 4, x)
                x = p.rank(out.rank, x, 19)
                if out.bonus:
                    p.rank(out.bonus, p.text("+", x, 19), 19)
            elif not out.rank:  # nothing: no pinyin to puzzle over
                p.en_centred(L[_L_NO_PRIZE], 24)
            else:  # pinyin, then the English gloss
                x = p.rank(out.rank, (_W - w) // 2, 20)
                if out.bonus:
                    p.rank(out.bonus, p.en("+", x, 20), 20)
                p.en_centred(p.rank_en[out.rank], 29)
        elif out.dice:  # the start roll: seat 1's two dice and their total decide who begins
            total = out.dice[0] + out.dice[1]
            x = (_W - 17 - 4 - 17 - 8 - 8 - 8 - 2 * p.number_width(total)) // 2
            p.die(out.dice[0], x, 0, 17)
            p.die(out.dice[1], x + 21, 0, 17)
            x = p.big_number(total, p.en("=", x + 46, 5) + 8, 1, 2, 2)
            if zh:
                x = p.text(L[_L_START], 16, 19) + 8
                p.text(L[_L_TOTAL_B], p.number(total, p.text(L[_L_TOTAL_A], x, 19), 23), 19)
            else:
                p.number(total, p.en(L[_L_TOTAL_A], p.en(L[_L_START], 16, 24) + 8, 24) + 8, 24)
        else:
            # no dice: a spill (the roll is void), time up, or a start
            if out.kind == EV_SPILL:
                title, sub = L[_L_SPILL], L[_L_VOID]
            elif out.kind == EV_TIMEUP:  # RULES.md §6: the round is played out
                title, sub = L[_L_TIME_UP], L[_L_LAST_ROUND]
            else:
                title, sub = L[_L_START], ""
            if zh:
                fb.fill_rect(0, 0, _W, 17, 1)
                p.text_centred(title, 1, 0)
                if sub:  # a spill names the seat whose roll is void
                    x = p.seat(out.seat, 0, 19) + 4 if out.kind == EV_SPILL else 0
                    p.text(sub, max(x, (_W - p.text_width(sub)) // 2), 19)
            else:
                fb.fill_rect(0, 0, _W, 17, 1)
                p.en_centred(title, 5, 0)
                if sub:
                    if out.kind == EV_SPILL:
                        p.en(sub, p.seat(out.seat, 0, 24) + 8, 24)
                    else:
                        p.en_centred(sub, 24)
        n = self._messages(t, out, page, unverified)
        if n > 1:  # which page: a dot per page, the current one filled
            x = (_W - 6 * n) // 2
            for i in range(n):
                if i == page % n:
                    fb.fill_rect(x + 6 * i, 60, 4, 4, 1)
                else:
                    fb.rect(x + 6 * i, 60, 4, 4, 1)

    def result_pages(self, t, out, unverified=False):
        return self._messages(t, out, -1, unverified)

    def _messages(self, t, out, page, unverified=False):
        """Count result messages; draw the one numbered page % count (page >= 0)."""
        n = 0
        k = -1
        total = self._messages(t, out, -1, unverified) if page >= 0 else 0
        if total:
            k = page % total
        won = out.won
        # prizes, identical (class, from) pairs grouped
        i = 0
        while i < len(won):
            j = i + 1
            while j < len(won) and won[j] == won[i]:
                j += 1
            if n == k:
                self._msg_won(t, 0 if getattr(t, "kiosk", False) else out.seat, won[i][0], won[i][1], j - i)
            n += 1
            i = j
        zy = rules.is_zhuangyuan(out.rank) if out.kind == EV_ROLL else False
        if out.holder_after != out.holder_before and out.holder_after:
            if n == k:
                self._msg_seat(_L_ZY_TO, out.holder_after, False)
            n += 1
        elif zy and out.holder_after:
            if n == k:
                self._msg_seat(_L_ZY_STAYS, out.holder_after, False)
            n += 1
            if out.holder_after != out.seat and out.kind == EV_ROLL:
                if n == k:  # why not: an exact tie (the earlier stands), or a smaller 状元
                    if out.rank == t.holder_rank and t.profile.options["zhuangyuan_tiebreak"] == "off":
                        self._msg_line(self._l[_L_TIE])
                    else:
                        self._msg_seat(_L_NOT_ABOVE, out.holder_after, False)
                n += 1
        elif not won and out.kind == EV_ROLL and out.rank and not zy:
            if n == k:  # why: that class has run out, or this profile pays nothing for the rank
                cls = t.class_of(out.rank) if hasattr(t, "class_of") else None
                if cls is not None and not t.pool[cls]:
                    self._msg_cls(t, cls, _L_ALL_WON)
                elif cls is None and hasattr(t, "class_of"):
                    self._msg_line(self._l[_L_NOT_PAID])
                else:
                    self._msg_line(self._l[_L_NO_PRIZE])
            n += 1
        for s in out.skipped:
            if n == k:
                self._msg_seat(_L_SITS_OUT, s, True)
            n += 1
        if out.ended:
            if n == k:
                self._msg_line(self._l[_L_GAME_OVER])
            n += 1
        elif getattr(t, "kiosk", False):
            if n == k:
                if t.shakes_left:
                    self._msg_shakes(t.shakes_left)
                else:
                    self._msg_line(self._l[_L_THANKS])
            n += 1
        elif t.turn and t.seats > 1:
            if n == k:
                if out.kind == EV_ROLL or out.kind == EV_SPILL or out.kind == EV_TIMEUP:
                    self._msg_seat(_L_NEXT, t.turn, False)
                else:  # a start: "4号先摇" / "Seat 4 starts"
                    self._msg_seat(_L_FIRST, t.turn, True)
            n += 1
        if unverified:
            if n == k:  # "骰子未验证" / "Unverified: / no desk value"
                if self.paint.zh:
                    self._msg_line(self._l[_L_UNVERIFIED_A])
                else:
                    self.paint.en_centred(self._l[_L_UNVERIFIED_A], 40)
                    self.paint.en_centred(self._l[_L_UNVERIFIED_B], 49)
            n += 1
        return n

    def mark_unverified(self, right, y):
        """"未验证" / "unverified" ending at x = right, its top at y: a turn of a fair
        kiosk rolled with the bowl's own dice (no desk value came in time: verify-fair,
        the desk's page and the claim link show its rolls unverified, and so does the
        bowl). -> its left x."""
        p = self.paint
        s = self._l[_L_UNVERIFIED]
        if p.zh:
            x = right - p.text_width(s)
            p.text(s, x, y)
        else:
            x = right - 8 * len(s)
            p.en(s, x, y)
        return x

    def _msg_cls(self, t, cls, label):
        p = self.paint
        # "三红已派完" / "San Hong all won"
        s = self._l[label]
        if p.zh:
            x = (_W - p.prize_width(t, cls) - p.text_width(s)) // 2
            p.text(s, p.prize(t, cls, x, 39), 39)
        else:
            p.en_centred(self._l[_L_NO_PRIZE], 40)
            x = (_W - p.prize_width(t, cls) - 8 - 8 * len(s)) // 2
            p.en(s, p.prize(t, cls, x, 49) + 8, 49)

    def _msg_line(self, s):
        p = self.paint
        if p.zh:
            p.text_centred(s, 39)
        else:
            p.en_centred(s, 44)

    def _msg_won(self, t, seat, cls, src, count):
        p = self.paint
        # zh: "得对堂" / "得对堂×2" / "追5号对堂"
        if p.zh:
            w = p.prize_width(t, cls) + (p.seat_width(src) + 16 if src else 16)
            if count > 1:
                w += 8 + p.number_width(count)
            x = (_W - w) // 2
            if src:
                x = p.seat(src, p.text(self._l[_L_CHASE], x, 39), 39)
            else:
                x = p.text(self._l[_L_WINS], x, 39)
            x = p.prize(t, cls, x, 39)
            if count > 1:
                p.number(count, p.text(self._l[_L_TIMES], x, 39), 43)
            return
        # en: "Seat 8 takes" (a kiosk's customer: "You win") / "Dui Tang x2" or "Dui Tang from 5"
        if seat:
            w = p.seat_width(seat) + 8 + 8 * len(self._l[_L_WINS])
            p.en(self._l[_L_WINS], p.seat(seat, (_W - w) // 2, 40) + 8, 40)
        else:
            p.en_centred(self._l[_L_YOU_WIN], 40)
        w = p.prize_width(t, cls)
        if count > 1:
            w += 16 + p.number_width(count)
        if src:
            w += 8 + 8 * len(self._l[_L_CHASE]) + 8 + p.number_width(src)
        x = p.prize(t, cls, (_W - w) // 2, 49)
        if count > 1:
            x = p.number(count, p.en(self._l[_L_TIMES], x, 49), 49)
        if src:
            p.number(src, p.en(self._l[_L_CHASE], x + 8, 49) + 8, 49)

    def _msg_seat(self, label, seat, seat_first):
        p = self.paint
        # zh one line, "状元归3号" / "3号停一轮"; en the label and "Seat 3" on two
        # lines, but "Next: Seat 4" on one
        if p.zh:
            s = self._l[label]
            x = (_W - p.text_width(s) - p.seat_width(seat)) // 2
            if seat_first:
                p.text(s, p.seat(seat, x, 39), 39)
            else:
                p.seat(seat, p.text(s, x, 39), 39)
            return
        s = self._l[label]
        if label == _L_NEXT:
            x = (_W - 8 * len(s) - 8 - p.seat_width(seat)) // 2
            p.seat(seat, p.en(s, x, 44) + 8, 44)
            return
        if label == _L_FIRST:  # "Seat 4 starts"
            x = (_W - p.seat_width(seat) - 8 - 8 * len(s)) // 2
            p.en(s, p.seat(seat, x, 44) + 8, 44)
            return
        p.en_centred(s, 49 if seat_first else 40)
        p.seat(seat, (_W - p.seat_width(seat)) // 2, 40 if seat_first else 49)

    def _msg_shakes(self, n):
        p = self.paint
        # "还有2次" / "Shakes left 2"
        if p.zh:
            a = self._l[_L_SHAKES_A]
            b = self._l[_L_SHAKES_B]
            x = (_W - p.text_width(a) - p.number_width(n) - p.text_width(b)) // 2
            p.text(b, p.number(n, p.text(a, x, 39), 43), 39)
        else:
            a = self._l[_L_SHAKES_A]
            p.number(n, p.en(a, (_W - 8 * len(a) - 8 - p.number_width(n)) // 2, 44) + 8, 44)

    def pool(self, t, page=0):
        """Prizes left in each class (and, for visitors, of how many); pool_pages()
        says how many pages."""
        p = self.paint
        fb = self.fb
        fb.fill(0)
        zh = p.zh
        rows, cols = self._pool_layout(t)
        per = rows * cols
        n = len(t.classes)
        pages = (n + per - 1) // per
        first = (page % pages) * per
        if not zh:  # title bar "Prizes 40/63"
            left = 0
            total = 0
            for cls in t.classes:
                left += t.pool[cls]
                total += t.initial[cls]
            fb.fill_rect(0, 0, _W, 9, 1)
            p.en(self._l[_L_PRIZES], 2, 1, 0)
            self._frac(left, total, _W - 2, 1, 0)
        elif cols == 2:
            fb.vline(64, 0, _H, 1)
        last = min(n, first + per)
        if cols == 2:  # balance the two columns
            rows = (last - first + 1) // 2
        for i in range(first, last):
            cls = t.classes[i]
            r = (i - first) % rows
            if zh:  # three 16-pixel lines with room between them
                y = 2 + 22 * r
                if cols == 1:
                    p.prize(t, cls, 0, y)
                    self._bar(52, y + 4, 34, t.pool[cls], t.initial[cls])
                    self._frac(t.pool[cls], t.initial[cls], _W, y + 4)
                else:
                    x0 = 67 * ((i - first) // rows)
                    p.prize(t, cls, x0, y)
                    p.number(t.pool[cls], x0 + 61 - p.number_width(t.pool[cls]), y + 4)
            else:
                y = 11 + 9 * r
                p.prize(t, cls, 0, y)
                self._frac(t.pool[cls], t.initial[cls], _W, y)
        if pages > 1:  # which page: a mark per page down the right edge
            for i in range(pages):
                fb.fill_rect(_W - 3, 20 + 6 * i, 3, 3 if i == page % pages else 1, 1)

    def pool_pages(self, t):
        rows, cols = self._pool_layout(t)
        return (len(t.classes) + rows * cols - 1) // (rows * cols)

    def _pool_layout(self, t):
        p = self.paint
        # (rows, columns) a page: Chinese has 3 lines, two columns when names and
        # counts fit side by side; English has 6 lines under its title
        if not p.zh:
            return 6, 1
        if len(t.classes) <= 3:
            return 3, 1
        for cls in t.classes:
            if p.prize_width(t, cls) + 4 + p.number_width(t.initial[cls]) > 61:
                return 3, 1
        return 3, 2

    def _bar(self, x, y, w, n, of):
        self.fb.rect(x, y, w, 8, 1)
        if of:
            self.fb.fill_rect(x + 1, y + 1, (w - 2) * n // of, 6, 1)

    def _frac(self, n, of, right, y, c=1):
        p = self.paint
        x = right - p.number_width(n) - 8 - p.number_width(of)
        p.number(of, p.en("/", p.number(n, x, y, c), y, c), y, c)

    def game_over(self, t, frame=0):
        """The end: the 状元 ceremony (the holder, his dice and rank, a marching
        border and twinkling stars; one call per frame), or the grab, or a game
        that ended without a 状元. Every 40 frames the rank line shows the reason."""
        p = self.paint
        fb = self.fb
        fb.fill(0)
        zh = p.zh
        L = self._l
        p.ants(frame)
        why = (frame // 40) & 1
        if t.holder:
            for k in range(4):
                p.star(_STARS[2 * k], _STARS[2 * k + 1], (frame + 5 * k) % 12)
            if zh and p.name_of(t.holder) is not None:  # "状元 奶奶"
                w = 32 + 4 + p.seat_width(t.holder)
                p.seat(t.holder, p.text(L[_L_ZY], (_W - w) // 2, 3) + 4, 3)
            elif zh:
                w = 32 + 4 + p.number_width(t.holder) * 2 + 16
                x = p.text(L[_L_ZY], (_W - w) // 2, 3) + 4
                x = p.big_number(t.holder, x, 3, 2, 2)
                p.text(L[_L_HAO], x, 3)
            else:
                p.en_centred(L[_L_ZY], 3)
                p.seat(t.holder, (_W - p.seat_width(t.holder)) // 2, 12)
            if t.holder_dice:
                p.dice_row(t.holder_dice, 22, 15, 3)
            if why:
                self._reason(t.reason, 41)
            elif zh:
                p.text_centred(p.rank_names[t.holder_rank], 41)
            else:
                p.en_centred(p.rank_names[t.holder_rank], 41)
                p.en_centred(p.rank_en[t.holder_rank], 50)
            return
        if t.reason == "heiliubo_grab":
            # lights off: a dark screen with the call to grab blinking
            fb.fill_rect(2, 2, _W - 4, _H - 4, 0)
            if (frame // 6) & 1 == 0:
                if zh:
                    fb.fill_rect(16, 14, 96, 20, 1)
                    p.text_centred(L[_L_GRAB], 16, 0)
                else:
                    fb.fill_rect(16, 12, 96, 22, 1)
                    p.en_centred(L[_L_GRAB], 14, 0)
                    p.en_centred(L[_L_GRAB_B], 24, 0)
            if zh:
                p.text_centred(p.rank_names[rules.HEILIUBO], 42)
            else:
                p.en_centred(p.rank_names[rules.HEILIUBO], 42)
            return
        if zh:
            p.text_centred(L[_L_GAME_OVER], 6)
            p.text_centred(L[_L_NO_ZY], 24)
        else:
            p.en_centred(L[_L_GAME_OVER], 10)
            p.en_centred(L[_L_NO_ZY], 24)
        self._reason(t.reason, 42)

    def _reason(self, reason, y):
        p = self.paint
        for i in range(len(REASONS)):
            if REASONS[i] == reason:
                if p.zh:
                    p.text_centred(self._why[i], y)
                else:
                    p.en_centred(self._why[i], y + 4)
                return
        if p.zh:
            p.text_centred(self._l[_L_GAME_OVER], y)
        else:
            p.en_centred(self._l[_L_GAME_OVER], y + 4)

# where the ceremony's stars twinkle (x, y pairs)
_STARS = (8, 8, 119, 8, 5, 29, 122, 29)


def _tri(p, span):
    """A triangle wave over 0..span: how a bouncing die moves."""
    p %= 2 * span
    return p if p < span else 2 * span - p
