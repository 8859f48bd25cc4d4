# The console's vocabulary (bobing/console.py): its buttons, views, notices,
# modes and languages, and the few numbers the modules it loads on demand share
# with it. The menus (menu.py), the bowl's settings (settings.py), the console's
# screens (panels.py), the final (final_play.py) and the champions' messages
# (champions.py) take these names from here, not from console.py: importing
# them loads no console code. console.py imports the ones it uses from here too;
# the host side and the tests name them vocab.X (console.X only for those).
from micropython import const

from bobing import profiles

B_MENU = const(0)
B_NEXT = const(1)
B_OK = const(2)
B_KEY = const(3)  # the attendant's key (board.PIN_KEY), fed as bit 3 of the buttons' mask
PRESS = const(1)
LONG = const(2)

# views: what the screen shows
V_NOTICE = const(0)  # a fault or recovery report (arg: (kind, detail))
V_TURN = const(1)  # whose turn (or "shake to start", or kiosk: shakes left)
V_SHAKING = const(2)
V_RESULT = const(3)  # the outcome of the last roll or spill, page by page
V_CLAIM = const(4)  # kiosk: a claim code, until OK
V_POOL = const(5)  # prizes left (a look at them, from the turn or the attendant's screen)
V_OVER = const(6)  # game over, the ceremony
V_MENU = const(7)  # a list: menu or a choice (arg: title, items, cursor)
V_DIGITS = const(8)  # number entry (arg: title, digits, position)
V_CONFIRM = const(9)  # "OK to confirm" (arg: title)
V_SECRET = const(10)  # the kiosk's claim secret, for the counter's records
V_SLEEP = const(11)
V_FINAL = const(12)  # the 状元王中王 between table champions (bobing/final_play.py draws and drives it)
V_WAIT = const(13)  # an event kiosk out of stock: waiting for the prize desk's grant (panels.py)
V_GATE = const(14)  # a kiosk between customers: waiting for the attendant (panels.py)
V_TABLE = const(15)  # a family game's prizes by seat, a page a seat (arg: seat; panels.py)
V_SEED = const(16)  # a fair event kiosk: the customer's commitment is out, the desk's value not yet (fair.py)
VIEW_IDS = ("notice", "turn", "shaking", "result", "claim", "pool", "over", "menu", "digits",
            "confirm", "secret", "sleep", "final", "wait", "gate", "table", "seed")

# notices (the first three are panels.ERR_*, error screens; the rest text panels)
N_SENSOR = const(1)
N_RNG = const(2)
N_JOURNAL = const(3)
N_DISPLAY = const(4)  # shown on the LEDs only (there is no screen)
N_FLASH = const(5)  # a journal write failed: resumed from flash
N_PIN = const(6)  # wrong PIN
N_LOCKED = const(7)  # too many wrong PINs: wait (detail: when the lock ends, ms on the console's clock)
N_SETTINGS = const(8)  # a bad setting (or file) fell back to its default
N_BATTERY = const(9)  # battery low (detail: the voltage) or empty ("empty": deep sleep follows)
N_DONE = const(10)  # a setting was changed (detail: which: "pin")
N_PIN_DIFF = const(11)  # the new PIN and its repetition differ
N_PIN_LOST = const(12)  # the PIN's record is lost: only maintenance mode's `make pin` sets a new one
N_PIN_DEFAULT = const(13)  # a kiosk's PIN is still the default: no customer until it is changed
MENU_LOCK_MS = const(120000)  # any menu closes (and locks) after this long without a button
# N_JOURNAL's details other than a boot's journal.Problem codes: each has its own words on the screen
# (panels.error), so none says a bad part was set aside when nothing was
J_IN_PLAY = "found in play"  # damage found after the boot (Journal.check_step): nothing moved, the game goes on
J_FINAL_KEPT = "final.txt kept"  # the final too large for the memory free now: on flash as it is, for a later boot
J_FINAL_BAD = "final.bad"  # the final damaged: set aside as final.bad, the table game goes on
J_FINAL_LEFT = "final.txt bad"  # the final damaged and it could not be set aside: left as it is

MODES = ("family", "kiosk")
LANGS = ("zh", "en")

# the names a family calls its seats by (Settings.names: 1 + an index here; 0 is no name:
# the seat's number), Chinese and, for the English screen and settings.txt, pinyin
TITLES_ZH = ("爷爷", "奶奶", "外公", "外婆", "爸爸", "妈妈", "叔叔", "阿姨", "舅舅", "姑姑", "伯伯", "婶婶",
             "哥哥", "姐姐", "弟弟", "妹妹")
TITLES = ("Yeye", "Nainai", "Waigong", "Waipo", "Baba", "Mama", "Shushu", "Ayi", "Jiujiu", "Gugu", "Bobo",
          "Shenshen", "Gege", "Jiejie", "Didi", "Meimei")

FRAME_MS = const(100)  # animation frame period (the console's and the final's)
PIN_TRIES = const(3)  # the PIN's lockout (menu.py): wrong PINs in a row, then a lock
PIN_LOCK_MS = const(60000)  # the first lock (each next one doubles)


def presets_for(mode):
    """Preset names whose profile plays `mode` ("family" = a table, or "kiosk")."""
    want = "kiosk" if mode == "kiosk" else "table"
    out = []
    for name in sorted(profiles.preset_names()):
        if profiles.Profile(name).options["mode"] == want:
            out.append(name)
    return out
