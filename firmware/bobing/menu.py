# The console's menus (bobing/console.py): the main list, choices (seats,
# rules, mode, language), number entry (PIN, stock, bowl id), confirmations,
# and the kiosk's PIN-protected admin items. Imported when MENU is first
# pressed (or a finished game asks whether to start a new one), so a game that
# never opens a menu never loads this code. The functions are the Console's
# own, taking it as `c`: they change the menus' state (c.menu, a MenuState) and
# the settings (c.settings), the Console itself only through its methods; the
# list, digits and confirm views' arguments are as console.py documents them;
# their text is panels.py's.
import time

from micropython import const

from bobing import game, journal, settings
from bobing.panels import stock_classes, stock_of
from bobing.vocab import (B_MENU, B_NEXT, B_OK, LANGS, LONG, MODES, N_DONE, N_FLASH, N_LOCKED, N_PIN,
                          N_PIN_DEFAULT, N_PIN_DIFF, N_PIN_LOST, N_SETTINGS, PIN_LOCK_MS, PIN_TRIES, V_CLAIM,
                          V_DIGITS, V_MENU, V_SECRET, TITLES, presets_for)

_ADMIN = ("stock", "bowl_id", "secret", "pin", "final", "back")
CODES = const(20)  # the last claim codes the attendant can show again


class MenuState:
    """What the menus have open and the PIN's lockout: Console.menu, made when the first
    menu opens. Defaults on the class: an instance holds only what was set."""
    list = None  # the current list: [id, items, cursor] (V_MENU's argument)
    edit = None  # what the digit entry or confirmation edits
    then = None  # after a menu's notice: where the menus go on (after_notice), not the game
    authed = False  # the PIN or the attendant's key opened the menus now on show
    pin_fails = None  # wrong PINs in a row as on flash; None: not read yet
    pin_since = 0  # when the current lock started (a lock read from flash: at boot)


def key(c, b, kind=1):
    """A press of button b while a menu view (list, digits, confirm, secret, a code
    shown again) is on show."""
    v = c.view
    if v == V_MENU:
        _menu_key(c, b)
    elif v == V_DIGITS:
        _digits_key(c, b, kind)
    elif v == V_CLAIM:  # a code shown again: back to the list of codes
        _codes(c, c.menu.list[2] if c.menu.list is not None and c.menu.list[0] == "codes" else 0)
    else:
        _confirm_key(c, b)


def main_items(c):
    """The main list: the same settings in both modes, the admin items behind the PIN
    (a kiosk's whole menu is behind it; its attendant items first)."""
    if c.settings.mode == "kiosk":
        t = c.table
        first = ("customer", "codes") if t is not None and t.kiosk and not t.ended and not t.shakes_left \
            else ("codes",)
        return first + ("new", "profile", "mode", "lang", "sound", "admin", "back")
    return ("new", "seats", "profile", "mode", "lang", "sound", "admin", "back")


def open_menu(c):
    """MENU pressed while playing: the main list (kiosk: after the PIN)."""
    if c.settings.mode == "kiosk":
        ask_pin(c, "menu")
    else:
        _list(c, "main", main_items(c), 0)


def attendant(c):
    """The attendant's key (the lock-and-key switch through the case wall, turned):
    on a kiosk waiting for its next customer, that customer's shakes (journaled as
    the key's, with the game's minute). Nothing else, ever: the codes, the admin
    items and a new PIN are the PIN's menu's (a lost PIN: maintenance mode's
    `make pin`), so a key lost or copied starts customers and nothing more."""
    t = c.table
    if c.settings.mode != "kiosk" or t is None or not t.kiosk or t.ended or t.shakes_left:
        c.say("attendant's key: nothing to start (it lets the next kiosk customer in, and nothing else)")
        return
    c.next_customer(who=journal.BY_KEY)


def ask_new_game(c):
    """OK on the game-over screen: confirm a new game (kiosk: after the PIN, as
    from the menu: a new kiosk game is restocked from the settings)."""
    if c.settings.mode == "kiosk":
        ask_pin(c, "new")
    else:
        c.confirm("confirm_new", "new")


def _list(c, mid, items, cursor):
    c.menu.list = [mid, items, cursor]
    c.show(V_MENU, c.menu.list)


def _menu_key(c, b):
    m = c.menu.list
    mid, items, cur = m[0], m[1], m[2]
    if b == B_NEXT:
        m[2] = (cur + 1) % len(items)
        c.redraw()
        return
    if b == B_MENU:
        _close_menu(c, mid)
        return
    item = items[cur]
    s = c.settings
    if mid == "codes":
        if item == "back":
            _close_menu(c, mid)
        else:
            c.menu.edit = "codes"
            c.show(V_CLAIM, item)
        return
    if item == "customer":
        c.next_customer()
        return
    if item == "codes":
        _codes(c, 0)
        return
    if mid == "main":
        if item == "back":
            c.show(c.home())
        elif item == "new":
            c.confirm("confirm_new", "new")
        elif item == "seats":
            _list(c, "seats", tuple(["%d" % n for n in range(2, game.MAX_SEATS + 1)]), s.seats - 2)
        elif item == "profile":
            names = presets_for(s.mode)
            cur = names.index(s.active_profile()) if s.active_profile() in names else 0
            _list(c, "profile", tuple(names), cur)
        elif item == "mode":
            _list(c, "mode", MODES, MODES.index(s.mode))
        elif item == "lang":
            _list(c, "lang", LANGS, LANGS.index(s.lang))
        elif item == "sound":
            _list(c, "sound", settings.SOUNDS, settings.SOUNDS.index(s.sound))
        elif item == "admin":
            ask_pin(c, "admin")
    elif mid == "admin":
        if item == "back":
            _main(c, "admin")
        else:
            _admin_item(c, item)
    elif mid == "stock":
        if item == "back":
            _close_menu(c, mid)
        else:
            _digits(c, "stock:" + item, "%03d" % min(stock_of(c, item), 999), "stock:" + item)
    elif mid == "names" or mid == "title":
        _names_key(c, mid, item, cur)
    else:  # a choice list: seats, profile, mode, lang
        if mid == "seats":
            s.seats = cur + 2
            settings.save(c)
            c.say("setting seats = %s (a new game uses it)" % item)
            _names(c, 0)  # then what each seat is called
            return
        elif mid == "profile":
            if s.mode == "kiosk":
                s.kiosk_profile = item
                s.stock = {}  # another preset, other classes
            else:
                s.profile = item
        elif mid == "mode":
            s.mode = item
        elif mid == "lang":
            s.lang = item  # (the console's lang: at once)
        elif mid == "sound":
            s.sound = item
        settings.save(c)
        c.say("setting %s = %s (a new game uses it)" % (mid, item))
        _main(c, mid)


def _names(c, cursor):
    """The seats' names: a row a seat of the next game ("3号 奶奶"), then back."""
    _list(c, "names", tuple(["%d" % n for n in range(1, c.settings.seats + 1)]) + ("back",), cursor)


def _names_key(c, mid, item, cur):
    """OK in the names list (a seat: choose its name) or the title list (that name)."""
    s = c.settings
    if mid == "names":
        if item == "back":
            _main(c, "seats")
        else:
            seat = int(item)
            _list(c, "title", ("none",) + TITLES, s.names[seat - 1])
            c.menu.list.append(seat)  # (whose name it is: panels.title_of)
        return
    seat = c.menu.list[3]
    s.names[seat - 1] = cur  # 0: none (the seat's number), else 1 + the TITLES index
    settings.save(c)
    c.say("setting names: seat %d = %s" % (seat, item))
    _names(c, seat - 1)


def _main(c, item):
    """Back to the main list, its cursor on `item` (a list keeps its place)."""
    items = main_items(c)
    _list(c, "main", items, items.index(item) if item in items else 0)


def recent_codes(c, n=CODES):
    """The last n claim codes of this bowl's kiosk games, newest first, read back
    from the journal (outbox.replay numbers them as the console did): [(class,
    code, game no, award no, "game-award")]."""
    from bobing import claim, journal, outbox
    out = []
    ids, _top = journal.inventory(c.root)
    secret = c.secret()
    for gid in reversed(ids):
        s, t, awards = outbox.replay(journal.path_of(c.root, gid), gid)
        if t is None or not t.kiosk or s.config is None:
            continue
        bowl = s.config.bowl_id
        for k in range(len(awards) - 1, -1, -1):
            num, cls, _customer = awards[k]
            out.append((cls, claim.code(secret, bowl, gid, num, cls), gid, num, "%d-%d" % (gid, num), bowl))
            if len(out) >= n:
                return out
    return out


def _codes(c, cursor):
    """The attendant's list of the last codes (OK shows one again, as it was)."""
    c.menu.edit = None
    items = tuple(recent_codes(c)) + ("back",)
    _list(c, "codes", items, min(cursor, len(items) - 1))


def _admin_item(c, item):
    """OK on an admin item: stock, bowl id, claim secret or PIN."""
    s = c.settings
    if item == "stock":
        _list(c, "stock", _stock_items(c), 0)
    elif item == "bowl_id":
        _digits(c, "bowl_id", s.bowl_id, "bowl_id")
    elif item == "secret":
        c.show(V_SECRET, s.secret)
    elif item == "pin":  # the old PIN, then the new one twice
        ask_pin(c, "pin_new")
    elif item == "final":  # 状元王中王 (bobing/final_play.py): start one, or end the one on
        if c.final is not None:
            c.confirm("end_final", "final_end")
        else:
            _digits(c, "champions", "02", "final")


def _close_menu(c, mid):
    """MENU (back) from list `mid`."""
    if mid == "main":
        c.show(c.home())
    elif mid == "codes":
        _main(c, "codes")
    elif mid == "stock":
        _back_to_admin(c, "stock")
    elif mid == "title":
        _names(c, c.menu.list[3] - 1)
    else:
        _main(c, "seats" if mid == "names" else mid)


def _back_to_admin(c, item="back"):
    """The admin list, its cursor on `item` (where the attendant was)."""
    _list(c, "admin", _ADMIN, _ADMIN.index(item) if item in _ADMIN else 0)


def _stock_items(c):
    items = [k[0] for k in stock_classes(c)]
    items.append("back")
    return tuple(items)


# The PIN's lockout: every PIN_TRIES wrong PINs in a row lock the PIN for
# PIN_LOCK_MS, doubled at each lock (1, 2, 4 ... 1024 minutes, then 1024 each
# time). The count of wrong PINs is on flash (PIN_FILE), and a try is counted
# there BEFORE the PIN is checked, so pulling the plug at any moment of a try
# cannot hide a wrong one; a lock read at boot starts afresh from the boot
# (the bowl has no clock that runs while it is off).
_LOCK_DOUBLINGS = const(10)


def _fails(c):
    """The wrong PINs so far (c.menu.pin_fails, read from flash once: an unreadable
    count is a lock, counted from the boot)."""
    if c.menu.pin_fails is None:
        n = 0
        try:
            data = settings.read(c.root, settings.PIN_FILE)
            if data is not None:
                n = settings.number(data.decode().strip(), 0, 999999)
            elif settings.played(c.root):  # a bowl set up writes its count first: deleted, not new
                raise OSError("missing")
        except (OSError, ValueError) as e:
            c.say("%s unreadable (%s): the PIN is locked" % (settings.PIN_FILE, e))
            n = PIN_TRIES
        c.menu.pin_fails = n
        c.menu.pin_since = c.boot_t
    return c.menu.pin_fails


def locked_for(c):
    """ms left of the PIN's lock, 0 if it is not locked."""
    n = _fails(c)
    if not n or n % PIN_TRIES:
        return 0
    left = (PIN_LOCK_MS << min(n // PIN_TRIES - 1, _LOCK_DOUBLINGS)) - time.ticks_diff(c.now, c.menu.pin_since)
    return left if left > 0 else 0


def _locked(c, left):
    """The lock's notice: it carries when the lock ends (the screen counts down to it)."""
    c.notify(N_LOCKED, time.ticks_add(c.now, left))
    c.next_notice_or(c.home())


def _count_try(c, fails):
    """Write the count of wrong PINs; -> False if flash would not take it."""
    try:
        settings.write(c.root, settings.PIN_FILE, "%d\n" % fails)
    except OSError as e:
        c.say("PIN tries not saved: %s" % e)
        return False
    c.menu.pin_fails = fails
    return True


def ask_pin(c, then):
    """The PIN entry, then `then` ("menu", "admin", "new", "pin_new"); in menus the
    PIN opened, the admin items go on without asking again."""
    if c.menu.authed and then != "pin_new":  # (a new PIN always asks the old one)
        _then(c, then)
        return
    if not c.settings.pin:
        c.notify(N_PIN_LOST, "")
        c.next_notice_or(c.home())
        return
    left = locked_for(c)
    if left:
        _locked(c, left)
        return
    n = settings.pin_parse(c.settings.pin)[0]
    _digits(c, "old_pin" if then == "pin_new" else "enter_pin", "0" * n, "check_pin:" + then)


def after_notice(c, then):
    """A menu's notice was read: the admin list again, or the PIN entry again."""
    if then == "list:admin":
        _back_to_admin(c, "pin")
    else:
        ask_pin(c, then)


def _then(c, then):
    if then == "admin":
        _back_to_admin(c, "stock")
    elif then == "new":
        c.confirm("confirm_new", "new")
    elif then == "pin_new":
        _digits(c, "new_pin", "0000", "pin_new")
    else:
        _list(c, "main", main_items(c), 0)


def _check_pin(c, value, then):
    fails = _fails(c) + 1
    if not _count_try(c, fails):  # a try that cannot be counted is not made
        c.notify(N_FLASH, "PIN not checked")
        c.next_notice_or(c.home())
        return
    if settings.pin_check(c.settings.pin, value):
        _count_try(c, 0)
        c.menu.authed = True
        _then(c, then)
        return
    c.say("wrong PIN (%d in a row)" % fails)
    if fails % PIN_TRIES == 0:
        c.menu.pin_since = c.now
        _locked(c, locked_for(c))
        return
    c.notify(N_PIN, "%d" % (PIN_TRIES - fails % PIN_TRIES))  # tries left before the next lock
    c.menu.then = then  # after the notice: the PIN entry again (then `then`), not the game under it
    c.next_notice_or(c.home())


def _digits(c, title, start, target):
    c.menu.edit = target
    c.show(V_DIGITS, [title, bytearray(start.encode()), 0])


def _digits_key(c, b, kind=1):
    a = c.arg
    digits = a[1]
    if b == B_MENU:
        if a[2] > 0:  # back one digit
            a[2] -= 1
            c.redraw()
            return
        target = c.menu.edit  # on the first digit: cancel
        c.menu.edit = None
        if target.startswith("check_pin:"):
            c.show(c.home())
        elif target.startswith("stock:"):
            _list(c, "stock", _stock_items(c), _stock_items(c).index(target[6:]))
        else:
            _back_to_admin(c, "pin" if target.startswith("pin") else target if target in _ADMIN else "back")
        return
    if b == B_NEXT:  # a press counts up, a long press down
        d = digits[a[2]] - 48
        digits[a[2]] = 48 + (d + (9 if kind == LONG else 1)) % 10
        c.redraw()
        return
    if b != B_OK:
        return
    a[2] += 1
    c.redraw()
    if a[2] < len(digits):
        return
    _digits_done(c, bytes(digits).decode())


def _digits_done(c, value):
    target = c.menu.edit
    c.menu.edit = None
    s = c.settings
    if target.startswith("check_pin:"):
        _check_pin(c, value, target[10:])
        return
    if target == "final":
        n = int(value)
        if not 2 <= n <= 64:
            c.notify(N_SETTINGS, "2..64 champions")
            c.next_notice_or(c.home())
        else:
            c.confirm("start_final", "final:%d" % n)
        return
    if target == "pin_new":
        _digits(c, "new_pin2", "0000", "pin_new2:" + value)
        return
    if target.startswith("pin_new2:"):
        if value == settings.DEFAULT_PIN:  # a kiosk plays only once it is changed from it
            c.notify(N_PIN_DEFAULT, "")
            c.menu.then = "list:admin" if c.menu.authed else None
            c.next_notice_or(c.home())
            return
        if value != target[9:]:
            c.notify(N_PIN_DIFF, "")
            c.menu.then = "list:admin" if c.menu.authed else None
            c.next_notice_or(c.home())
            return
        s.pin = settings.pin_record(value, c.urandom(16))
        s.pin_lost = s.pin_doubt = s.pin_plain = False  # (never the default: refused above)
        settings.save(c)
        _count_try(c, 0)
        c.say("PIN changed")
        c.notify(N_DONE, "pin")
        c.menu.then = "list:admin" if c.menu.authed else None
        c.next_notice_or(c.home())
        return
    if target == "bowl_id":
        s.bowl_id = value
    elif target.startswith("stock:"):
        s.stock[target[6:]] = int(value)
    settings.save(c)
    c.say("setting %s changed (a new game uses it)" % target)
    if target.startswith("stock:"):
        items = _stock_items(c)
        _list(c, "stock", items, items.index(target[6:]))
    else:
        _back_to_admin(c, target)


def _confirm_key(c, b):
    """A press on a confirmation (Console.confirm): OK does its action ("new" game,
    new "secret", "final:N" or "final_end")."""
    if c.view == V_SECRET:
        if b == B_OK:
            c.confirm("new_secret", "secret")
        else:
            _back_to_admin(c, "secret")
        return
    action = c.menu.edit
    c.menu.edit = None
    if b != B_OK:
        if action == "secret":
            _back_to_admin(c, "secret")
        else:
            c.show(c.home())
        return
    if action == "new":
        c.new_game()
        c.next_notice_or(c.home())  # a full flash says so
    elif action.startswith("final"):
        from bobing import final_play
        if action == "final_end":
            final_play.end(c)
        else:
            final_play.start(c, int(action[6:]))
    elif action == "secret":
        c.settings.secret = settings.new_secret(c)
        settings.save_secret(c)
        c.say("new claim secret made")
        c.show(V_SECRET, c.settings.secret)
