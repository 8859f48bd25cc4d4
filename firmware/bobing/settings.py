# The bowl's own files besides the journal, each small, each written
# power-safely (a new file renamed over the old one: atomic on littlefs):
#   settings.txt  key=value lines (console.Settings): mode, presets, seats,
#                 language, the PIN's salted hash, bowl id, kiosk stock, sleep,
#                 sound (on, quiet, off), the seats' names (names=Yeye,,Baba: vocab.TITLES)
#   claim.key     the kiosk's claim secret in hex (16-64 bytes), apart from the
#                 settings so a settings dump does not show it with the PIN
#   pin.txt       wrong PINs since the last right one (bobing/menu.py's lockout)
# The bowl never crashes on them: every value has bounds, a bad one keeps its
# default, a damaged file is copied aside (NAME.bad, .bad2 ...: never over an
# older one) before the good values are written back, and a notice says so
# once. An older firmware's settings.txt held the PIN in digits and the secret:
# both are moved on at boot (claim.key written first, so a power cut in between
# loses neither). Loaded at boot (console.py drops it again) and by the menus.
#
# settings.txt ends with crc=XXXX (CRC-16 of the lines before it, as the journal
# checks its records), so damage that still parses (a flipped hex digit of the
# PIN's hash) is seen and said. Damage falls back to the SAFE side, never the
# open one: a mode that cannot be read is a kiosk's unless the game on flash is
# a family table's (console.py decides after the journal's recovery); a PIN
# record that is damaged is never replaced by the default 1234: the PIN is
# lost (said). Only a new bowl gets the defaults: on a bowl that was set up
# (claim.key or a kiosk game's journal on flash, `played`) a settings.txt that
# is missing, empty, cut (a last line not whole, no checksum line) or without
# a pin line is damage too. A lost PIN is set again only by the recovery
# (`set_pin`, run by `make pin` in maintenance mode: the case opened by tool
# for USB and RESET, and a computer), never by the attendant's key. A missing or
# damaged claim.key is said: codes made with a new secret fail at the counter
# until the counter has it. A new bowl writes pin.txt (0 wrong PINs) at once,
# so a missing one later is a lock, not a fresh count (menu.py).
from micropython import const

import binascii
import os

from bobing import game, profiles, store
from bobing.vocab import LANGS, MODES, N_SETTINGS, TITLES, presets_for

SETTINGS_FILE = "settings.txt"
SECRET_FILE = "claim.key"
PIN_FILE = "pin.txt"
MAX_FILE = const(2048)  # bytes: a longer settings file is not one the bowl wrote
STOCK_MAX = const(999)  # prizes of a class in stock (the menu enters 3 digits)
IDLE_MAX_MIN = const(240)
SECRET_BYTES = const(16)  # a new claim secret: 128 bits
MIN_SECRET = const(16)  # claim.MIN_SECRET (tests/test_settings.py holds them equal; claim is not loaded at boot)
MAX_SECRET = const(64)
DEFAULT_PIN = "1234"
SOUNDS = ("on", "quiet", "off")  # sound.LEVELS (settings does not load the sound's tunes)


def number(v, lo, hi):
    """A whole number in ASCII digits (no sign, no spaces), lo..hi; ValueError saying so."""
    if not v or len(v) > 6 or not _digits(v) or not lo <= int(v) <= hi:
        raise ValueError("must be a whole number %d..%d" % (lo, hi))
    return int(v)


def _digits(v):
    for ch in v:
        if not "0" <= ch <= "9":
            return False
    return True


def _crc(data):
    from bobing import journal  # loaded already: the game lives in it
    return journal.crc16(data)


def text(s):
    """Settings s as the lines of settings.txt, the checksum last."""
    st = ",".join(["%s=%d" % (k, s.stock[k]) for k in sorted(s.stock)])
    body = ("mode=%s\nprofile=%s\nkiosk_profile=%s\nseats=%d\nlang=%s\npin=%s\nbowl_id=%s\n"
            "stock=%s\nidle_min=%d\nsound=%s\n" % (s.mode, s.profile, s.kiosk_profile, s.seats, s.lang, s.pin,
                                                   s.bowl_id, st, s.idle_min, s.sound))
    if any(s.names):  # (a bowl without names writes the file it always wrote)
        body += "names=%s\n" % ",".join([TITLES[k - 1] if k else "" for k in s.names])
    return body + "crc=%04x\n" % _crc(body.encode())


def check_crc(data):
    """-> None when settings.txt bytes have no crc= line (an older firmware's
    file), else whether the checksum holds."""
    i = data.rfind(b"crc=")
    if i < 0 or (i > 0 and data[i - 1] != 10):
        return None
    try:
        return int(data[i + 4:].strip(), 16) == _crc(data[:i])
    except ValueError:
        return False


def parse(s, data):
    """Read key=value lines (bytes) into Settings s; a bad line or value is
    skipped (the default stays) -> ([problem, ...], [old PIN in digits or None,
    old secret or None, a pin line was there, a mode was read])."""
    bad = []
    old = [None, None, False, False]  # old PIN, old secret, a pin line seen, a mode read
    for raw in data.split(b"\n"):
        try:
            line = raw.decode().strip()
        except UnicodeError:  # (CPython raises a subclass)
            bad.append("a line is not UTF-8 text")
            continue
        if not line:
            continue
        if "=" not in line:
            bad.append("%r: not key=value" % line[:20])
            continue
        k, v = line.split("=", 1)
        k = k.strip()
        if k == "crc":
            continue  # (check_crc)
        try:
            _set(s, k, v.strip(), old)
        except ValueError as e:
            bad.append("%s: %s" % (k[:20], e))
    # the stock's classes are the kiosk preset's, whichever line came first
    if s.stock:
        classes = [c[0] for c in profiles.Profile(s.kiosk_profile).prizes["classes"]]
        for c in s.stock:
            if c not in classes:
                bad.append("stock: %s is not a class of %s" % (c, s.kiosk_profile))
                s.stock = {}
                break
    return bad, old


def _set(s, k, v, old):
    if k == "mode":
        if v not in MODES:
            raise ValueError("mode must be family or kiosk")
        s.mode = v
        old[3] = True
    elif k == "profile" or k == "kiosk_profile":
        want = "family" if k == "profile" else "kiosk"
        if v not in profiles.preset_names() or \
                (profiles.Profile(v).options["mode"] == "kiosk") != (want == "kiosk"):
            raise ValueError("must be a %s preset: %s" % (want, " ".join(presets_for(want))))
        setattr(s, k, v)
    elif k == "seats":
        s.seats = number(v, 2, game.MAX_SEATS)
    elif k == "lang":
        if v not in LANGS:
            raise ValueError("lang must be zh or en")
        s.lang = v
    elif k == "pin":
        old[2] = True  # a PIN line was there (damaged or not: a damaged one is lost, never 1234)
        if not v:
            return  # lost before (and said then): the attendant's key sets a new one
        if _digits(v):  # in digits: an older firmware's file, or a PIN reset by hand
            check_pin(v)
            old[0] = v
        else:
            pin_parse(v)
            s.pin = v
            old[0] = None
    elif k == "bowl_id":
        if not v or len(v) > 8 or not _digits(v):
            raise ValueError("1 to 8 digits")
        s.bowl_id = v
    elif k == "secret":  # an older firmware's file: the secret now lives in claim.key
        old[1] = secret_hex(v)
    elif k == "stock":
        st = {}
        for part in v.split(","):
            if part:
                cn = part.split("=")
                if len(cn) != 2 or not cn[0].strip():
                    raise ValueError("CLASS=N,CLASS=N,... expected")
                st[cn[0].strip()] = number(cn[1].strip(), 0, STOCK_MAX)
        s.stock = st
    elif k == "idle_min":
        s.idle_min = number(v, 0, IDLE_MAX_MIN)
    elif k == "sound":
        if v not in SOUNDS:
            raise ValueError("sound must be on, quiet or off")
        s.sound = v
    elif k == "names":
        s.names[:] = parse_names(v)
    else:
        raise ValueError("no such setting")


def parse_names(v):
    """names=Yeye,Nainai,,Baba (seat 1, 2, ...; empty: no name, the seat's number) ->
    bytearray(MAX_SEATS) of 1 + vocab.TITLES index; ValueError naming the bad one."""
    parts = v.split(",")
    if len(parts) > game.MAX_SEATS:
        raise ValueError("at most %d names, one a seat" % game.MAX_SEATS)
    out = bytearray(game.MAX_SEATS)
    for i in range(len(parts)):
        n = parts[i].strip()
        if n:
            if n not in TITLES:
                raise ValueError("seat %d: %r is none of %s" % (i + 1, n[:12], " ".join(TITLES)))
            out[i] = TITLES.index(n) + 1
    return out


# The PIN (the kiosk's menu, a family bowl's admin items) is kept only as a
# salted hash, "pbkdf2-sha256:<digits>:<rounds>:<salt hex>:<hash hex>" (PBKDF2
# with HMAC-SHA256, RFC 8018; the number of digits tells the entry screen how
# many to ask for). A 4-digit PIN has only 10^4 values: someone holding the
# flash can still try them all off the bowl. The hash keeps the PIN out of a
# settings dump; the growing lockout (bobing/menu.py) guards it on the bowl.
# 1000 rounds take 8 ms on the 64-bit unix port (a fraction of a second on
# the bowl, once per PIN entered). claim.py (the HMAC) is imported only to hash.
PIN_SCHEME = "pbkdf2-sha256"
PIN_ROUNDS = const(1000)
# A new bowl's record of DEFAULT_PIN, hashed once here rather than at its first boot (the
# rounds cost the ESP32 a few hundred ms, and the first power-on has 1 s to its first screen):
# the same scheme and rounds as pin_record's, checked by pin_check as any other. Its salt is
# fixed (16 bytes), not random: the PIN it hides is the one printed in the manual, so the
# record gives away nothing; a PIN set in the menu gets a random salt as before.
# tests/test_settings.py recomputes it with CPython's hashlib.pbkdf2_hmac.
DEFAULT_PIN_RECORD = ("pbkdf2-sha256:4:1000:99e26b12a5b8a41a728a83849a306faa:"
                      "40bd067f46f75007ad2d4616f715b6576553a966969cde847c4ce02e7f51b885")


def check_pin(pin):
    """ValueError unless `pin` is 4 to 8 digits."""
    if not isinstance(pin, str) or not 4 <= len(pin) <= 8 or not _digits(pin):
        raise ValueError("a PIN is 4 to 8 digits 0-9")


def pin_record(pin, salt, rounds=PIN_ROUNDS):
    """The text kept for `pin`, hashed with `salt` (random bytes)."""
    check_pin(pin)
    from bobing import claim
    h = claim.pbkdf2_sha256(pin, salt, rounds)
    return "%s:%d:%d:%s:%s" % (PIN_SCHEME, len(pin), rounds, binascii.hexlify(salt).decode(),
                               binascii.hexlify(h).decode())


def pin_parse(record):
    """-> (digits, rounds, salt, hash) of a pin_record; ValueError if it is not one."""
    p = record.split(":")
    if len(p) != 5 or p[0] != PIN_SCHEME:
        raise ValueError("a PIN record is %s:DIGITS:ROUNDS:SALT:HASH" % PIN_SCHEME)
    n, rounds = number(p[1], 4, 8), number(p[2], 1, 100000)
    try:
        salt, h = binascii.unhexlify(p[3]), binascii.unhexlify(p[4])
    except ValueError:
        raise ValueError("a PIN record's salt and hash are hex")
    if len(salt) < 8 or len(h) != 32:
        raise ValueError("a PIN record has a salt of 8+ bytes and a 32-byte hash")
    return n, rounds, salt, h


def pin_check(record, pin):
    """True if `pin` is the PIN of `record` (compared in constant time)."""
    n, rounds, salt, want = pin_parse(record)
    from bobing import claim
    got = claim.pbkdf2_sha256(pin, salt, rounds)
    diff = len(pin) ^ n
    for i in range(32):
        diff |= got[i] ^ want[i]
    return diff == 0


def secret_hex(v):
    """A claim secret as hex text, checked: 16..64 bytes (128..512 bits)."""
    try:
        b = binascii.unhexlify(v)
    except ValueError:  # (binascii.Error is one)
        raise ValueError("hex digits 0-9 a-f, two a byte")
    if not MIN_SECRET <= len(b) <= MAX_SECRET:
        raise ValueError("%d..%d bytes (at least 128 bits), got %d" % (MIN_SECRET, MAX_SECRET, len(b)))
    return v.lower()


def new_secret(c):
    """A new claim secret (hex) from console c's source of real entropy (the
    board's strong_random: bobing.dice's threat model)."""
    return binascii.hexlify(c.entropy(SECRET_BYTES)).decode()


def read(root, name):
    """A small file's bytes, or None if there is none; a file longer than
    MAX_FILE is not read (ValueError): its size is asked first, so no buffer
    larger than the file is needed (a 2 KB block is hard to find in the heap)."""
    path = store.join(root, name)
    try:
        size = os.stat(path)[6]
    except OSError:
        return None
    if size > MAX_FILE:
        raise ValueError("%s is %d bytes, longer than a bowl writes (%d)" % (name, size, MAX_FILE))
    f = open(path, "rb")
    try:
        return f.read()
    finally:
        f.close()


def write(root, name, data):
    """Power-safe: a new file, then renamed over the old one."""
    path = store.join(root, name)
    store.write_whole(path, path + ".new", (data.encode(),))


def keep_aside(root, name):
    """A copy of a bad file as NAME.bad (then .bad2 ...) -> the name used. Copied,
    not renamed: the file is replaced only after this, so a power cut in between
    leaves it as it was."""
    have = os.listdir(root)
    for i in range(1, 100):
        aside = name + (".bad" if i == 1 else ".bad%d" % i)
        if aside not in have:
            break
    store.copy(store.join(root, name), store.join(root, aside))
    return aside


def journal_on(root):
    """-> True when some game file is on the flash."""
    from bobing import journal
    return journal.inventory(root)[1] > 0


def played(root):
    """-> True when the flash shows a bowl that has been set up: claim.key is there
    (written at the first boot, after settings.txt) or a kiosk game's journal (its
    header names the bowl). Asked only when settings.txt is missing or cut."""
    try:
        os.stat(store.join(root, SECRET_FILE))
        return True
    except OSError:
        pass
    from bobing import journal
    for gid in journal.inventory(root)[0]:
        if journal.bowl_of(journal.path_of(root, gid)):
            return True
    return False


def boot(c):
    """Console c's boot: settings.txt, claim.key and the PIN into c.settings.
    Sets c.settings' mode_lost (the mode could not be read: a kiosk's until the journal
    says otherwise), pin_doubt (damage may have touched the PIN's record) and pin_lost."""
    s = c.settings
    root = c.root
    bad = []
    old = [None, None, False, False]
    data = None
    try:
        data = read(root, SETTINGS_FILE)
    except (OSError, ValueError) as e:
        bad.append("%s: %s" % (SETTINGS_FILE, e))
        data = b""  # (kept aside below)
    crc = None
    if data:
        crc = check_crc(data)
        body = data
        if crc is None and data[-1] != 10:
            body = data[:data.rfind(b"\n") + 1]  # a cut last line is never read (a PIN cut short)
        bad, old = parse(s, body)
        if body is not data:
            bad.append("%s: cut: its last line is not whole" % SETTINGS_FILE)
        if crc is False:
            bad.append("crc: the checksum does not match: a value may be wrong")
            s.pin_doubt = True
    if not bad and (crc is None or not old[2]) and played(root):
        # missing, empty or cut at a line's end on a bowl that was set up: damaged, never a
        # new bowl's defaults (family, PIN 1234). Only an older firmware's file (its PIN in
        # digits: before checksums) is taken without one; the bowl always writes a pin line.
        if not data:
            bad.append("%s: %s on a bowl that was set up" % (SETTINGS_FILE, "missing" if data is None else "empty"))
        elif crc is None and old[0] is None:
            bad.append("%s: cut (no checksum line)" % SETTINGS_FILE)
        elif not old[2]:
            bad.append("pin: no pin line")
    old_pin, old_secret = old[0], old[1]
    damaged = bool(bad)
    if damaged and not old[3]:
        s.mode = "kiosk"  # the safe side: the journal's game may say it was a family table's
        s.mode_lost = True
    dirty = bad or old_pin or old_secret or not s.pin and not old[2]
    if bad and data is not None:
        _aside(c, SETTINGS_FILE)
    key = None
    try:
        key = read(root, SECRET_FILE)
        if key is not None:
            s.secret = secret_hex(key.decode().strip())
        elif data and not old_secret and journal_on(root):  # a bowl that played had its key
            bad.append("%s: missing (a new secret is made: tell the counter)" % SECRET_FILE)
    except (OSError, ValueError) as e:  # (UnicodeError is a ValueError)
        bad.append("%s: %s (a new secret is made: tell the counter)" % (SECRET_FILE, e))
        _aside(c, SECRET_FILE)
        key = None
    if old_pin:
        s.pin = pin_record(old_pin, c.urandom(16))
    elif not s.pin and (old[2] or damaged):
        s.pin_lost = True  # never the default: the recovery in maintenance mode sets a new one
        if damaged:
            bad.append("pin: lost: set a new one in maintenance mode (make pin)")
    elif not s.pin:
        s.pin = DEFAULT_PIN_RECORD  # a new bowl
        try:  # its count of wrong PINs from the start: a missing count later is a lock (menu.py)
            os.stat(store.join(root, PIN_FILE))
        except OSError:
            try:
                write(root, PIN_FILE, "0\n")
            except OSError as e:
                c.say("PIN tries not saved: %s" % e)
    if bad:
        for line in bad:
            c.say("settings: %s (default kept)" % line)
        names = " ".join([line.split(":")[0] for line in bad])  # which ones; the log says why
        c.notify(N_SETTINGS, names[:32])
    if key is None:  # an older firmware's secret goes to claim.key before its settings.txt loses it
        s.secret = old_secret or new_secret(c)
        if old_secret:
            save_secret(c)
    if dirty:
        save(c)
    if key is None and not old_secret:
        save_secret(c)  # after settings.txt: a bowl cut between them is still a new bowl


def _aside(c, name):
    try:
        c.say("%s kept as %s" % (name, keep_aside(c.root, name)))
    except OSError as e:
        c.say("%s could not be kept aside: %s" % (name, e))


def save(c):
    try:
        write(c.root, SETTINGS_FILE, text(c.settings))
    except OSError as e:
        c.say("settings not saved: %s" % e)


def save_secret(c):
    try:
        write(c.root, SECRET_FILE, c.settings.secret)
    except OSError as e:
        c.say("claim secret not saved: %s" % e)


def set_pin(root, pin, s):
    """The recovery of a lost PIN, in maintenance mode (`make pin`): `pin` into the
    settings.txt the bowl's last boot wrote back whole (read into `s`, a fresh
    console.Settings: the console imports this module, never the other way), the wrong
    PINs back to 0. -> the line to print (a refusal says why and what is allowed; nothing raises)."""
    try:
        check_pin(pin)
        if pin == DEFAULT_PIN:
            raise ValueError("not the default %s" % DEFAULT_PIN)
    except ValueError as e:
        return "PIN not set: %s (4 to 8 digits 0-9, not %s)" % (e, DEFAULT_PIN)
    try:
        data = read(root, SETTINGS_FILE)
    except (OSError, ValueError):
        data = None
    if not data or check_crc(data) is not True:
        return "PIN not set: %s is missing or damaged: let the bowl boot once (it writes it back), then again" \
            % SETTINGS_FILE
    bad, _old = parse(s, data)
    if bad:
        return "PIN not set: %s: %s" % (SETTINGS_FILE, bad[0])
    s.pin = pin_record(pin, os.urandom(16))  # (the ESP32's hardware random source)
    try:
        write(root, SETTINGS_FILE, text(s))
        write(root, PIN_FILE, "0\n")
    except OSError as e:
        return "PIN not set: flash write failed: %s" % e
    return "PIN set (%s mode): reset the bowl to play" % s.mode
