# The console's own screens (bobing/console.py): menus, choices, number
# entry, confirmations, the kiosk's claim screens and claim secret, fault
# notices (error screens) and the other notices, and the sleep screen, with
# the menus' display text (labels, preset names, the value beside an item).
# Pure drawing through the screen's painter (paint.py: Chinese from glyphs.py,
# ASCII in framebuf's 8x8 font), so it follows the language setting like
# every other screen. The app imports this module only when one of these
# views is first shown: a family game played by shakes never loads it, and a
# notice or a claim code loads neither menu.py nor settings.py.
import time

from micropython import const

from bobing import vocab as V
from bobing import profiles
from bobing.journal import FLASH_FULL, NOT_RECOVERED

_W = const(128)
_ROWS = const(3)  # list rows under the title (16 px each: the title and three rows fill the 64)

# error screens (vocab.N_SENSOR, N_RNG, N_JOURNAL are these kinds)
ERR_SENSOR = const(1)  # no accelerometer answers
ERR_RNG = const(2)  # the random source failed its health test
ERR_JOURNAL = const(3)  # the journal was recovered at boot; its bad tail was moved aside (detail: the
# damage's code); other details say what else happened, each with its own words (_JOURNAL_SAYS)
ERRORS = (ERR_SENSOR, ERR_RNG, ERR_JOURNAL)

# The panels' labels, by name (the screens' one way, as screen.py's): Chinese first, English
# for visitors; tuples of constants, which the frozen image keeps in flash (choosing a
# language allocates nothing). Error screens have three lines each (_A, _B, _C).
_P_CLAIM = const(0)
_P_SENSOR_A = const(1)
_P_SENSOR_B = const(2)
_P_SENSOR_C = const(3)
_P_RNG_A = const(4)
_P_RNG_B = const(5)
_P_RNG_C = const(6)
_P_JOURNAL_A = const(7)
_P_JOURNAL_B = const(8)
_P_JOURNAL_C = const(9)
_P_STOCK_A = const(10)
_P_STOCK_B = const(11)
_P_STOCK_C = const(12)
_P_DAMAGED = const(13)
_P_FULL_B = const(14)
_P_FULL_C = const(15)
_P_KEPT_B = const(16)
_P_KEPT_C = const(17)
_P_FINAL_KEPT_A = const(18)
_P_FINAL_KEPT_B = const(19)
_P_FINAL_KEPT_C = const(20)
_P_FINAL_BAD_A = const(21)
_P_FINAL_BAD_B = const(22)
_P_FINAL_BAD_C = const(23)
_P_NEW_GAME_C = const(24)
_P_YES = const(25)
_P_NO = const(26)
_P_GATE_A = const(27)
_P_GATE_B = const(28)
_P_GATE_C = const(29)
_P_CHECK_A = const(30)
_P_CHECK_B = const(31)
_P_CHECK_C = const(32)
_P_SEED = const(33)
_P_DESK_A = const(34)
_P_DESK_B = const(35)
_P_PRIZES = const(36)
_P_SEAT = const(37)
_P_NO_PRIZE = const(38)
_P_BOWL = const(39)
_P_AT_COUNTER_A = const(40)
_P_AT_COUNTER_B = const(41)
_P_DIGITS = const(42)
_P_NEW_SECRET = const(43)
_P_TRIES_A = const(44)
_P_TRIES_B = const(45)
_P_TRY_B = const(46)
_P_WAIT = const(47)
_P_AGAIN = const(48)
_P_UNCHANGED = const(49)
_P_RESET_A = const(50)
_P_RESET_B = const(51)
_P_RESET_C = const(52)
_P_WHERE_A = const(53)
_P_WHERE_B = const(54)
_P_SLEEP = const(55)
_P_NAME_TITLE = const(56)
_P_SEAT_N = const(57)
_P_NUMBER = const(58)  # "No." before a game (and award) number, in both languages

_ZH = (
    "凭码到柜台领奖", "传感器故障", "请按键掷骰", "摇碗不可用", "随机数故障", "自检未通过", "暂停掷骰",
    "记录已恢复", "损坏部分已另存", "游戏继续", "等待补货", "奖品已派完", "", "记录有损坏", "存储无空间",
    "未另存 暂停掷骰", "未另存", "游戏继续", "王中王暂停", "内存不足", "下次开机再试", "王中王损坏", "已另存",
    "游戏继续", "新游戏开始", "确定:是", "菜单:否", "等待服务员", "开始下一位", "", "验证", "", "", "Seed",
    "等待奖台", "", "奖品", "", "还没有奖品", "碗号", "凭码领奖", "", "下一:+1 长按:-1", "确定:换新",
    "还可试", "次", "次", "请等", "再输入密码", "密码未改", "请管理员", "重设密码", "", "菜单>管理>改密码",
    "", "z z z", "%d号 名字", "%s号", "No.",
)
_EN = (
    "Show at counter", "No sensor!", "Press the button", "to roll.", "RNG failure", "Health test",
    "failed: no rolls", "Journal", "recovered; bad", "tail set aside", "Waiting for", "All prizes out",
    "stock", "Journal", "damaged; flash", "full: no rolls", "damaged; none", "moved: game on", "Final paused",
    "too big for RAM", "retried at boot", "Final", "damaged; set", "aside: game on", "moved: new game",
    "OK: yes", "MENU: no", "Waiting for the", "attendant to let", "the next one in", "Check", "your", "dice",
    "Seed", "Waiting for the", "prize desk", "prizes", "Seat", "no prize yet", "Bowl", "Show at", "counter",
    "NEXT +1  hold -1", "id %s  OK: new", "", " tries left", " try left", "wait", "then try again",
    "PIN not changed", "Open the case:", "make pin", "(maintenance)", "Menu > Admin >", "Change PIN", "z z z",
    "Seat %d name", "Seat %s", "No.",
)
# each error kind's three lines start at
_ERROR_LINES = (0, _P_SENSOR_A, _P_RNG_A, _P_JOURNAL_A)
# ERR_JOURNAL's details with words of their own -> the labels of their three lines
_JOURNAL_SAYS = (
    (FLASH_FULL, _P_DAMAGED, _P_FULL_B, _P_FULL_C),  # the flash had no room to set the bad tail aside: no rolls
    (V.J_IN_PLAY, _P_DAMAGED, _P_KEPT_B, _P_KEPT_C),  # found after the boot (Journal.check_step): the game goes on
    (NOT_RECOVERED, _P_DAMAGED, _P_KEPT_B, _P_NEW_GAME_C),  # the boot's recovery failed: kept, a new game starts
    (V.J_FINAL_KEPT, _P_FINAL_KEPT_A, _P_FINAL_KEPT_B, _P_FINAL_KEPT_C),  # too large for the memory free now
    (V.J_FINAL_BAD, _P_FINAL_BAD_A, _P_FINAL_BAD_B, _P_FINAL_BAD_C),  # damaged, set aside as final.bad: game on
    (V.J_FINAL_LEFT, _P_FINAL_BAD_A, _P_KEPT_B, _P_KEPT_C),  # the final damaged, and it could not be set aside
)


# menu items, titles and notices: id, zh, en in threes. A flat tuple of constants, not a dict:
# frozen, it stays in flash (a dict would be built in the heap at import and need one 336-byte block)
_LABELS = (
    "new", "新游戏", "New game", "seats", "人数", "Seats", "profile", "规则", "Rules",
    "mode", "模式", "Mode", "lang", "语言", "Language", "admin", "管理", "Admin", "back", "返回", "Back",
    "stock", "奖品库存", "Prize stock", "bowl_id", "碗号", "Bowl id", "secret", "领奖密钥", "Claim secret",
    "pin", "改密码", "Change PIN", "family", "家庭", "Family", "kiosk", "商场", "Kiosk",
    "zh", "中文", "Chinese", "en", "英文", "English", "enter_pin", "输入密码", "Enter PIN",
    "confirm_new", "开新局?", "Start a new game?", "new_secret", "换新密钥?", "New secret?",
    "wrong_pin", "密码错误", "Wrong PIN", "locked", "密码已锁定", "PIN locked",
    "flash", "存储失败", "Flash write failed", "main", "菜单", "Menu",
    "settings_bad", "设置有误", "Settings damaged", "battery", "电量低", "Battery low",
    "final", "王中王", "Champion final", "champions", "人数", "Champions",
    "start_final", "开始王中王?", "Start the final?", "end_final", "结束王中王?", "End the final?",
    "customer", "下一位顾客", "Next customer", "codes", "领奖码", "Claim codes",
    "attendant", "服务员", "Attendant", "old_pin", "输入旧密码", "Old PIN", "new_pin", "输入新密码", "New PIN",
    "new_pin2", "再输一次", "New PIN again", "pin_done", "密码已改", "PIN changed",
    "pin_diff", "两次不一致", "PINs differ", "pin_lost", "密码损坏", "PIN damaged",
    "no_codes", "还没有领奖码", "No codes yet", "sound", "声音", "Sound", "on", "开", "On",
    "quiet", "小声", "Quiet", "off", "关", "Off", "pin_default", "请先改密码", "Change the PIN",
    "names", "名字", "Names", "none", "只用号码", "Number only",
)
# preset names on the screen (the id itself for visitors)
PRESET_ZH = {"xiamen": "厦门", "tongan": "同安", "friendly": "友好", "zhangzhou": "漳州",
             "corporate_simple": "公司", "capped_classes": "限额", "kiosk": "商场"}


def _label_at(item):
    """Where item's id is in _LABELS, or -1."""
    for i in range(0, len(_LABELS), 3):
        if _LABELS[i] == item:
            return i
    return -1


def label(item, lang):
    i = _label_at(item)
    if i < 0:
        raise ValueError("no label %r" % (item,))
    return _LABELS[i + (1 if lang == "zh" else 2)]


def title_of(c, mid):
    """The title of list `mid` in the current language (the name list's: the seat's)."""
    if mid == "title":
        return (_ZH if c.lang == "zh" else _EN)[_P_NAME_TITLE] % c.menu.list[3]
    return label(mid if _label_at(mid) >= 0 else "main", c.lang)


def item_text(c, item, mid=None):
    """A list item as shown: a label, a preset or prize class name, or a number;
    mid: the id of the list it is in (a menu view's arg[0])."""
    if mid == "names" and item != "back":  # a seat: "3号" / "Seat 3"
        return (_ZH if c.lang == "zh" else _EN)[_P_SEAT_N] % item
    if mid == "title" and item != "none":
        return V.TITLES_ZH[V.TITLES.index(item)] if c.lang == "zh" else item
    if _label_at(item) >= 0:
        return label(item, c.lang)
    if c.lang == "zh" and item in PRESET_ZH:
        return PRESET_ZH[item]
    if mid == "codes" and isinstance(item, tuple):
        return item[4]  # "game-award" (its code on the right, value_of)
    for k in stock_classes(c):
        if k[0] == item:
            return k[1] if c.lang == "zh" else item
    return item


def value_of(c, item, mid):
    """The current value shown beside item of list `mid` (text), or ''."""
    s = c.settings
    if mid == "codes":
        return item[1] if isinstance(item, tuple) else ""
    if mid == "stock" and item != "back":
        return "%d" % stock_of(c, item)
    if item == "seats":
        return "%d" % s.seats
    if mid == "names" and item != "back":  # the seat's name, or none yet
        k = s.names[int(item) - 1]
        return "" if not k else V.TITLES_ZH[k - 1] if c.lang == "zh" else V.TITLES[k - 1]
    if item == "profile":
        return item_text(c, s.active_profile())
    if item == "mode":
        return label(s.mode, c.lang)
    if item == "lang":
        return label(s.lang, c.lang)
    if item == "bowl_id":
        return s.bowl_id
    if item == "sound":
        return label(s.sound, c.lang)
    return ""


def stock_title(c, target):
    """The digit entry's title for a class's stock ("stock:<class>"): the class's name."""
    return item_text(c, target[6:])


def stock_classes(c):
    """The kiosk preset's prize classes: (id, Chinese name, default stock), ..."""
    return profiles.Profile(c.settings.kiosk_profile).prizes["classes"]


def stock_of(c, cls):
    """The stock of class cls a new kiosk game starts with: the setting, or the preset's."""
    if cls in c.settings.stock:
        return c.settings.stock[cls]
    for k in stock_classes(c):
        if k[0] == cls:
            return k[2]
    return 0


def draw(s, c):
    """Draw console c's view (one of the views above) on screen s."""
    p = s.paint
    v = c.view
    if v == V.V_MENU:
        _menu(s, c)
    elif v == V.V_DIGITS:
        _digits(s, c)
    elif v == V.V_CONFIRM:
        _title(s, label(c.arg, c.lang))
        L = _labels(s)
        if p.zh:
            p.text(L[_P_YES], 16, 22)
            p.text(L[_P_NO], 16, 42)
        else:
            p.en_centred(L[_P_YES], 28)
            p.en_centred(L[_P_NO], 44)
    elif v == V.V_SECRET:
        _secret(s, c)
    elif v == V.V_CLAIM:
        a = c.arg
        f = getattr(c, "fair", None)  # (a screen case stands in for the console)
        claim(s, c.table, a[1], a[0], a[4], a[5] if len(a) > 5 else None, c.page, f.desk if f is not None else None,
              getattr(c, "unverified", False))
    elif v == V.V_NOTICE:
        if c.arg[0] in ERRORS:
            error(s, c.arg[0], c.arg[1])
        else:
            _notice(s, c)
    elif v == V.V_SLEEP:
        s.fb.fill(0)
        p.en_centred(_labels(s)[_P_SLEEP], 28)
    elif v == V.V_WAIT:
        wait(s, c.table)
    elif v == V.V_GATE:
        gate(s, c.table, c)
    elif v == V.V_SEED:
        seed(s, c.table)
    elif v == V.V_TABLE:
        seat_prizes(s, c.table, c.arg)


def gate(s, t, c=None):
    """A kiosk between customers: the next customer's shakes start only when
    the attendant says so (the key, or the PIN's menu); prizes left below. On a
    fair kiosk with a desk, every other page is the last customer's receipt: a QR
    of the link where his phone checks his turn (fair.receipt_link)."""
    p = s.paint
    fb = s.fb
    fb.fill(0)
    f = getattr(c, "fair", None)  # (a screen case stands in for the console)
    if f is not None and f.receipt is not None and f.desk and c.page % 2 and t is not None:
        _receipt(s, t, f)
        return
    if p.zh:
        p.text_centred(_ZH[_P_GATE_A], 2)
        p.text_centred(_ZH[_P_GATE_B], 22)
    else:
        p.en_centred(_EN[_P_GATE_A], 2)
        p.en_centred(_EN[_P_GATE_B], 14)
        p.en_centred(_EN[_P_GATE_C], 26)
    if t is not None:
        s.prizes_left(t)


# A QR drawn again and again (a page every few seconds) is encoded once: each cache keeps what
# it encoded (a claim's code, a receipt, a join), its modules, and its own lists for them, one per
# version (allocated at the first QR), because qr.encode's rows are rewritten by the next encode
_qr = [None, None, None, None]  # the claim's
_rq = [None, None, None, None]  # the receipt's
_jq = [None, None, None, None]  # the join's (its turn is the receipt's (game, customer) too)


def _qr_keep(cache, key, rows):
    """cache's copy of qr.encode's `rows` (None: no QR), kept for `key`."""
    if rows is not None:
        n = len(rows)
        k = 2 if n == 25 else 3
        own = cache[k]
        if own is None:
            own = cache[k] = [0] * n
        for i in range(n):
            own[i] = rows[i]
        rows = own
    cache[0] = key
    cache[1] = rows
    return rows


def _receipt(s, t, f):
    from bobing import fair
    rows = _rq[1]
    if _rq[0] is not f.receipt:
        from bobing import qr
        try:
            rows = qr.encode(fair.receipt_link(f.desk, t.bowl_id, f.receipt[0], f.receipt[1]))
        except ValueError:  # (a link too long for version 3: no receipt QR, the text only)
            rows = None
        rows = _qr_keep(_rq, f.receipt, rows)
    p = s.paint
    fb = s.fb
    if p.zh:  # "验证" / No.g-k on the left, the QR in the right square
        p.text(_ZH[_P_CHECK_A], 0, 0)
    else:
        p.en(_EN[_P_CHECK_A], 0, 2)
        p.en(_EN[_P_CHECK_B], 0, 14)
        p.en(_EN[_P_CHECK_C], 0, 26)
    fb.text("%d-%d" % f.receipt, 0, 52, 1)
    if rows is not None:
        fb.fill_rect(_W - 64, 0, 64, 64, 1)
        _draw_qr(fb, rows, _W - 61, 3)


def join(s, t, f):
    """A fair kiosk's turn before the first shake, every other page: the QR of the link
    where the customer's phone adds his own seed (fair.join_link), and once it came its
    first characters, so that he sees his seed reached the bowl."""
    from bobing import fair
    p = s.paint
    fb = s.fb
    fb.fill(0)
    gk = f.joinable()
    rows = _jq[1]
    if _jq[0] != gk:  # (joinable() makes a new tuple each time: its value says)
        from bobing import qr
        try:
            rows = qr.encode(fair.join_link(f.desk, t.bowl_id, gk[0], gk[1]))
        except ValueError:
            rows = None
        rows = _qr_keep(_jq, gk, rows)
    u = f.user_hex()
    if p.zh:  # "验证" over "Seed": the page of the customer's own seed
        p.text(_ZH[_P_CHECK_A], 0, 0)
        fb.text(_ZH[_P_SEED], 0, 20, 1)
    else:
        p.en(_EN[_P_SEED], 0, 2)
    if u is not None:
        fb.text(u, 0, 36, 1)
    fb.text("%d-%d" % gk, 0, 52, 1)
    if rows is not None:
        fb.fill_rect(_W - 64, 0, 64, 64, 1)
        _draw_qr(fb, rows, _W - 61, 3)


def seed(s, t):
    """A fair event kiosk: the customer's commitment went to the prize desk, whose
    own random value must come back before the shakes count (bobing/fair.py)."""
    p = s.paint
    fb = s.fb
    fb.fill(0)
    if p.zh:
        p.text_centred(_ZH[_P_DESK_A], 12)
    else:
        p.en_centred(_EN[_P_DESK_A], 8)
        p.en_centred(_EN[_P_DESK_B], 20)
    if t is not None:
        s.prizes_left(t)


def seat_prizes(s, t, seat):
    """A family game's prizes of one seat (a page a seat: NEXT goes on), the
    classes two a row in Chinese, one a row for visitors."""
    p = s.paint
    fb = s.fb
    fb.fill(0)
    zh = p.zh
    if zh:  # "7号奖品      7/10"
        p.text(_ZH[_P_PRIZES], p.seat(seat, 0, 0), 0)
        right = _W - p.number_width(t.seats) - 8
        p.number(t.seats, p.en("/", p.number(seat, right - p.number_width(seat), 4), 4), 4)
    elif p.name_of(seat) is not None:  # "Nainai prizes"
        p.en(_EN[_P_PRIZES], p.seat(seat, 0, 0) + 8, 0)
    else:  # "Seat 7/10 prizes"
        x = p.number(seat, p.en(_EN[_P_SEAT], 0, 0) + 8, 0)
        p.en(_EN[_P_PRIZES], p.number(t.seats, p.en("/", x, 0), 0) + 8, 0)
    a = t.awards[seat]
    k = 0
    for cls in t.classes:
        n = a[cls]
        if not n:
            continue
        if zh:
            x0 = 64 * (k % 2)
            y = 16 + 16 * (k // 2)
            if y > 48:
                break
            p.number(n, p.prize(t, cls, x0, y) + 2, y + 4)
        else:
            y = 10 + 9 * k
            if y > 56:
                break
            p.prize(t, cls, 0, y)
            p.number(n, _W - p.number_width(n), y)
        k += 1
    if k == 0:
        if zh:
            p.text_centred(_ZH[_P_NO_PRIZE], 28)
        else:
            p.en_centred(_EN[_P_NO_PRIZE], 32)


def wait(s, t):
    """An event kiosk out of stock: no customer starts until the prize desk's
    grant arrives (the bowl asks for it by itself); the game number below."""
    p = s.paint
    fb = s.fb
    fb.fill(0)
    if p.zh:
        p.text_centred(_ZH[_P_STOCK_B], 4)
        p.text_centred(_ZH[_P_STOCK_A], 26)
    else:
        p.en_centred(_EN[_P_STOCK_B], 4)
        p.en_centred(_EN[_P_STOCK_A], 22)
        p.en_centred(_EN[_P_STOCK_C], 34)
    if t is not None:
        fb.hline(0, 48, 128, 1)
        fb.text(_EN[_P_NUMBER], 0, 54, 1)
        p.number(t.game_no, 24, 54)  # digit by digit: drawing allocates nothing


def _labels(s):
    """The panels' labels in screen s's language."""
    return _ZH if s.paint.zh else _EN


QR_PREFIX = "BB1"  # the claim's QR text: BB1:<bowl>:<game>-<award>:<CLASS ID>:<code> (firmware/PROTOCOL.md)


def qr_text(bowl, ref, cls, code, desk=None):
    """What the claim's QR code says (the desk scans it): upper case, so that it is all
    QR alphanumeric characters. desk: "HTTP://HOST:PORT" of a fair event kiosk's desk
    (fair.Fair.desk, from net.txt): the QR is then the link to that award's fairness
    page (bobing/claim.py's link, all alphanumeric but its "#"), which a phone opens
    and the counter's scanner types in as it does the BB1 text."""
    if desk:
        from bobing import claim
        return claim.link(desk, bowl, ref, cls.upper(), code)
    return "%s:%s:%s:%s:%s" % (QR_PREFIX, bowl, ref, cls.upper(), code)


def claim(s, t, code, cls, ref, bowl=None, page=0, desk=None, unverified=False):
    """A kiosk award's claim, in two pages that take turns: the text (the bowl
    id, No.game-award, the class in Chinese and its id, the code big enough to
    read off) and a QR code of the same for the desk to scan. ref: "17-3"
    (made by the console, so drawing it allocates nothing); cls: a class id of t.
    unverified: won by a roll of the bowl's own dice on a fair kiosk (no desk
    value came in time): the text page says so (Screen.mark_unverified)."""
    p = s.paint
    n = len(code)
    if n > 16:
        raise ValueError("a claim code is at most 16 characters, got %r" % (code,))
    fb = s.fb
    fb.fill(0)
    zh = p.zh
    if bowl is None:
        bowl = t.bowl_id
    if page % 2:
        _claim_qr(s, t, code, cls, ref, bowl, desk)
        return
    if zh:  # "碗号0042   No.17-1" / "三红 sanhong" / the code, big
        x = p.text(bowl, p.text(_ZH[_P_BOWL], 0, 0), 0)
        p.en_right(ref, _W, 4)
        if x + 8 + 8 * (3 + len(ref)) <= _W:  # (a long bowl id leaves no room for "No.")
            p.en_right(_ZH[_P_NUMBER], _W - 8 * len(ref), 4)
        x = p.prize(t, cls, 0, 17)
        right = s.mark_unverified(_W, 17) if unverified else _W
        if x + 8 + 8 * len(cls) <= right - 4:  # (beside the mark a long id gives way: the name says it)
            p.en(cls, x + 8, 21)
    else:  # "Bowl 0042  No.17-1" / "sanhong" / the code, big
        x = p.en(bowl, p.en(_EN[_P_BOWL], 0, 0) + 8, 0)
        p.en_right(ref, _W, 0)
        if x + 8 + 8 * (3 + len(ref)) <= _W:
            p.en_right(_EN[_P_NUMBER], _W - 8 * len(ref), 0)
        p.en(cls, 0, 11)
    y = 36 if zh else 21 if unverified else 23
    if n <= 8:
        p.big(code, (_W - 16 * n) // 2, y, 2, 3)
    else:
        p.en_centred(code, y + 8)
    if not zh:
        if unverified:  # "unverified" under the code
            s.mark_unverified(_W - 24, 45)
        p.en_centred(_EN[_P_CLAIM], 55 if unverified else 54)


def _claim_qr(s, t, code, cls, ref, bowl, desk):
    rows = _qr[1]
    if _qr[0] is not code:  # (a new claim; its page drawn again allocates nothing)
        from bobing import qr
        try:
            rows = qr.encode(qr_text(bowl, ref, cls, code, desk))
        except ValueError:  # a link too long even for version 3: the counter's text alone
            rows = qr.encode(qr_text(bowl, ref, cls, code))
        rows = _qr_keep(_qr, code, rows)
    fb = s.fb
    if len(rows) != 25:  # version 3 (a link), 58 px: 3 px of quiet zone round it, the text first
        _claim_qr_text(s, t, code, cls, ref)  # (what runs into the QR's square is covered)
        fb.fill_rect(_W - 64, 0, 64, 64, 1)
        _draw_qr(fb, rows, _W - 61, 3)
        return
    fb.fill_rect(_W - 62, 1, 62, 62, 1)  # three light modules of quiet zone round it
    _draw_qr(fb, rows, _W - 56, 7)
    _claim_qr_text(s, t, code, cls, ref)


def _claim_qr_text(s, t, code, cls, ref):
    p = s.paint
    fb = s.fb
    fb.text(_EN[_P_NUMBER], 0, 2, 1)
    fb.text(ref, 24, 2, 1)
    if p.zh:
        p.prize(t, cls, 0, 12)
        fb.text(code, 0, 32, 1)
        p.text(_ZH[_P_AT_COUNTER_A], 0, 46)
    else:
        fb.text(cls, 0, 14, 1)
        fb.text(code, 0, 30, 1)
        fb.text(_EN[_P_AT_COUNTER_A], 0, 46, 1)
        fb.text(_EN[_P_AT_COUNTER_B], 0, 56, 1)


def _draw_qr(fb, rows, x, y):
    # qr.encode's rows (bit c = column c dark), each dark run in one rectangle
    for r in range(len(rows)):
        v = rows[r]
        c = 0
        while v:
            if v & 1:
                c0 = c
                while v & 1:
                    v >>= 1
                    c += 1
                fb.fill_rect(x + 2 * c0, y + 2 * r, 2 * (c - c0), 2, 0)
            else:
                v >>= 1
                c += 1


def error(s, kind, detail=None):
    """A fault the players must know about: ERR_SENSOR (no accelerometer:
    a button rolls), ERR_RNG (the random source failed its health test:
    no rolls), ERR_JOURNAL (the journal was recovered and its bad tail
    moved aside; the details of _JOURNAL_SAYS have their own words:
    journal.FLASH_FULL, no room to move it; journal.NOT_RECOVERED, the
    recovery failed; vocab.J_IN_PLAY, damage found after the boot;
    vocab.J_FINAL_*, the final's file). detail: a short
    ASCII line for the operator (16 characters show), or None."""
    p = s.paint
    if kind not in ERRORS:
        raise ValueError("error screen %r: must be one of ERR_SENSOR, ERR_RNG, ERR_JOURNAL" % (kind,))
    fb = s.fb
    fb.fill(0)
    a = _ERROR_LINES[kind]  # its three lines in the labels
    b = a + 1
    c = a + 2
    if kind == ERR_JOURNAL:
        for w in _JOURNAL_SAYS:  # what happened: no screen says a bad part was set aside when none was
            if detail == w[0]:
                a = w[1]
                b = w[2]
                c = w[3]
    # a warning sign
    fb.line(12, 0, 0, 21, 1)
    fb.line(12, 0, 24, 21, 1)
    fb.hline(0, 21, 25, 1)
    fb.fill_rect(11, 7, 3, 8, 1)
    fb.fill_rect(11, 17, 3, 2, 1)
    if p.zh:
        p.text(_ZH[a], 30, 2)
        p.text(_ZH[b], 0, 21)
        p.text(_ZH[c], 0, 39)
    else:
        p.en(_EN[a], 30, 8)
        p.en(_EN[b], 0, 28)
        p.en(_EN[c], 0, 38)
    if detail:  # one 8x8 line: 16 characters show, the framebuffer clips the rest
        fb.text(detail, 0, 56, 1)


def _title(s, text):
    p = s.paint
    fb = s.fb
    fb.fill(0)
    p.text(text, 0, 0)
    for x in range(0, _W, 2):  # a dotted rule on the title's last pixel row
        fb.pixel(x, 15, 1)


def _menu(s, c):
    """A list (menu or choice) with the cursor's row lit: the title and three
    whole rows."""
    p = s.paint
    mid, items, cur = c.arg[0], c.arg[1], c.arg[2]
    _title(s, title_of(c, mid))
    fb = s.fb
    first = cur - _ROWS + 1 if cur >= _ROWS else 0
    for r in range(_ROWS):
        i = first + r
        if i >= len(items):
            break
        y = 16 + 16 * r
        on = i == cur
        if on:
            fb.fill_rect(0, y, _W, 16, 1)
        col = 0 if on else 1
        p.text(item_text(c, items[i], mid), 2, y, col)
        value = value_of(c, items[i], mid)
        if value:
            p.text_right(value, _W - 3, y, col)
    if len(items) > _ROWS:  # where in the list: a thumb on the right edge
        h = max(4, 48 * _ROWS // len(items))
        fb.fill_rect(_W - 1, 16 + (48 - h) * first // max(1, len(items) - _ROWS), 1, h, 1)


def _digits(s, c):
    """Number entry: each digit in a box, the one being set lit; a PIN shows
    '*' for the digits already entered. A class's stock is titled with its name."""
    p = s.paint
    title, digits, pos = c.arg[0], c.arg[1], c.arg[2]
    if title.startswith("stock:"):
        _title(s, stock_title(c, title))
    else:
        _title(s, label(title, c.lang))
    fb = s.fb
    n = len(digits)
    w = 20
    x0 = (_W - n * w) // 2
    hide = title == "enter_pin" or title == "old_pin" or title.startswith("new_pin")
    for i in range(n):
        x = x0 + i * w
        if i == pos:
            fb.fill_rect(x, 20, w - 4, 22, 1)
        else:
            fb.rect(x, 20, w - 4, 22, 1)
        ch = "*" if hide and i < pos else chr(digits[i])
        if hide and i > pos:
            ch = "-"
        p.big(ch, x + 4, 24, 1, 2, 0 if i == pos else 1)
    if p.zh:
        p.text(_ZH[_P_DIGITS], 0, 47)
    else:
        p.en_centred(_EN[_P_DIGITS], 52)


def _secret(s, c):
    """The claim secret in hex, 16 characters a line, for the counter's
    verifier (python -m host_sim verify-claim --secret-hex ...)."""
    p = s.paint
    _title(s, label("secret", c.lang))
    h = c.arg
    for i in range(0, len(h), 16):
        p.en_centred(h[i:i + 16], 18 + 9 * (i // 16))
    if p.zh:
        s.fb.text(c.settings.bowl_id, 0, 52, 1)
        p.text_right(_ZH[_P_NEW_SECRET], _W, 48)
    else:
        p.en_centred(_EN[_P_NEW_SECRET] % c.settings.bowl_id, 55)


# the title (a menu label) of every notice drawn here; tests/test_board.py checks that each of
# console's text notices has one
NOTICE_TITLES = {V.N_PIN: "wrong_pin", V.N_LOCKED: "locked", V.N_FLASH: "flash",
                 V.N_SETTINGS: "settings_bad", V.N_BATTERY: "battery", V.N_DONE: "pin_done",
                 V.N_PIN_DIFF: "pin_diff", V.N_PIN_LOST: "pin_lost", V.N_PIN_DEFAULT: "pin_default"}


def _notice(s, c):
    """A notice screen.py has no screen for: wrong PIN (tries left), the PIN's
    lock (counting down), flash write, bad settings, low battery, PIN changed
    or not, a damaged PIN."""
    p = s.paint
    kind, detail = c.arg
    _title(s, label(NOTICE_TITLES[kind], c.lang))
    zh = p.zh
    fb = s.fb
    if kind == V.N_PIN:  # "还可试2次" / "2 tries left"
        if zh:
            x = (_W - 64 - 8) // 2
            p.text(_ZH[_P_TRIES_B], p.text(detail, p.text(_ZH[_P_TRIES_A], x, 26), 26), 26)
        else:
            p.en_centred(detail + _EN[_P_TRY_B if detail == "1" else _P_TRIES_B], 30)
        return
    if kind == V.N_LOCKED:  # "请等 0:59" / "wait 0:59", counting down
        left = time.ticks_diff(detail, c.now)  # the notice carries when the lock ends
        left = (left + 999) // 1000 if left > 0 else 0
        m = left // 60
        x = 24
        if zh:
            x = p.text(_ZH[_P_WAIT], 16, 26) + 8
        else:
            x = p.en(_EN[_P_WAIT], 24, 30) + 8
        y = 26 if zh else 22
        x = p.big_number(m, x, y, 1, 2)
        fb.text(":", x, y + 4, 1)
        p.big_number(left % 60 // 10, x + 8, y, 1, 2)
        p.big_number(left % 10, x + 16, y, 1, 2)
        if zh:
            p.text_centred(_ZH[_P_AGAIN], 46)
        else:
            p.en_centred(_EN[_P_AGAIN], 50)
        return
    if kind == V.N_PIN_DIFF:
        if zh:
            p.text_centred(_ZH[_P_UNCHANGED], 28)
        else:
            p.en_centred(_EN[_P_UNCHANGED], 30)
        return
    if kind == V.N_PIN_LOST:  # the recovery needs the case opened and a computer, not the key
        if zh:
            p.text_centred(_ZH[_P_RESET_A], 22)
            p.text_centred(_ZH[_P_RESET_B], 42)
        else:
            p.en_centred(_EN[_P_RESET_A], 26)
            p.en_centred(_EN[_P_RESET_B], 36)
            p.en_centred(_EN[_P_RESET_C], 46)
        return
    if kind == V.N_PIN_DEFAULT:  # a kiosk lets nobody in with 1234
        if zh:
            p.text_centred(_ZH[_P_WHERE_A], 28)
        else:
            p.en_centred(_EN[_P_WHERE_A], 26)
            p.en_centred(_EN[_P_WHERE_B], 38)
        return
    if detail and kind != V.N_DONE:
        fb.text(detail[:16], 0, 28, 1)
        fb.text(detail[16:32], 0, 38, 1)
