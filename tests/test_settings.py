# micropython: yes
# The bowl never crashes on its own files: damaged settings.txt,
# claim.key and pin.txt probes, each booted into a real Console over a real
# folder. Every probe must boot, keep the good values, fall back to the
# default for the bad ones, say so once (a notice at this boot, none at the
# next), keep the bad file aside byte for byte, and still play a roll.
# Runs on CPython and on the unix port (UTF-8 and number parsing differ there).
import os

from bobing import claim
from bobing import console as C
from bobing import vocab
from bobing import settings as S

_n = [0]


def new_root():
    _n[0] += 1
    # a random name: the unix port has no getpid, and its two builds may run this at once (make test)
    root = "/tmp/bobing-settings-%d-%d" % (int.from_bytes(os.urandom(4), "little"), _n[0])
    try:
        os.mkdir(root)
    except OSError:
        pass
    for f in os.listdir(root):
        os.remove(root + "/" + f)
    return root


def write(root, name, data):
    f = open(root + "/" + name, "wb")
    f.write(data)
    f.close()


def read(root, name):
    f = open(root + "/" + name, "rb")
    try:
        return f.read()
    finally:
        f.close()


def boot(root, t=0):
    return C.Console(root, t, os.urandom, has_sensor=False)


def notices(c):
    """The notices of this boot (the one on show and those queued)."""
    out = [a[0] for a in c._notices]
    if c.view == C.V_NOTICE:
        out.insert(0, c.arg[0])
    return out


def plays(c):
    """Past the notices, a roll can be made (OK rolls: no sensor)."""
    for _ in range(10):
        if c.view != C.V_NOTICE:
            break
        c.press(C.B_OK, C.PRESS)
    t = c.table
    if t.kiosk and not t.shakes_left:
        c.press(C.B_KEY, C.PRESS)  # the attendant's key: the next customer
        if c.view == C.V_NOTICE and c.arg[0] == vocab.N_PIN_DEFAULT:  # a kiosk with 1234 lets nobody in
            assert S.pin_check(c.settings.pin, S.DEFAULT_PIN)
            c.settings.pin = S.pin_record("2468", b"salt of 16 bytes")  # (as admin > PIN does)
            c.settings.pin_plain = None
            c.press(C.B_OK, C.PRESS)
            c.press(C.B_KEY, C.PRESS)
    assert c.view == C.V_TURN, vocab.VIEW_IDS[c.view]
    before = t.events
    c.press(C.B_OK, C.PRESS)
    return c.table.events == before + 1


def sealed(data):
    """A probe's lines with the checksum line the bowl writes after them (the probes
    test each value; a file without a checksum on a bowl that was set up is
    test_every_cut_and_deletion_of_a_kiosk_s_settings_is_a_damaged_kiosk's)."""
    if not data or data[-1] != 10:
        return data  # not lines: bad whatever follows
    return data + ("crc=%04x\n" % S._crc(data)).encode()


PIN_4321 = S.pin_record("4321", b"salt of 16 bytes").encode()
DEFAULTS = {"mode": "family", "profile": "xiamen", "kiosk_profile": "kiosk", "seats": 10, "lang": "zh",
            "bowl_id": "0001", "stock": {}, "idle_min": 5, "names": bytearray(12)}
SECRET = "00112233445566778899aabbccddeeff"

# (settings.txt bytes, the values expected after boot, is it bad?)
SETTINGS = [
    (b"", {}, False),  # a new bowl's (no claim.key, no game yet: test_every_cut... for a bowl set up)
    (b"mode=kiosk\nseats=4\nlang=en\nbowl_id=0042\nstock=yixiu=5,erju=0\nidle_min=0\n",
     {"mode": "kiosk", "seats": 4, "lang": "en", "bowl_id": "0042", "stock": {"yixiu": 5, "erju": 0},
      "idle_min": 0}, False),
    (b"\xff\xfe\x00\x81garbage", {}, True),
    (b"mode=kiosk\n\xff\xff=1\nseats=4\n", {"mode": "kiosk", "seats": 4}, True),
    (b"seats=\xe4\xb8\n", {}, True),  # a cut UTF-8 sequence
    (b"\x00" * 64, {}, True),
    (b"a" * 3000, {}, True),
    (b"mode=kiosk\nstock=yixiu=-5\n", {"mode": "kiosk"}, True),
    (b"mode=kiosk\nstock=yixiu=100000\n", {"mode": "kiosk"}, True),
    (b"stock=yixiu=1000\n", {}, True),
    (b"stock=nosuch=3\n", {}, True),
    (b"stock=yixiu\n", {}, True),
    (b"stock=yixiu=5=6\n", {}, True),
    (b"stock==5\n", {}, True),
    (b"stock=yixiu=5\nkiosk_profile=capped_classes\n", {"kiosk_profile": "capped_classes"}, True),
    (b"idle_min=-5\n", {}, True),
    (b"idle_min=100000\n", {}, True),
    (b"idle_min=abc\n", {}, True),
    (b"idle_min=\xc2\xb2\n", {}, True),  # a superscript 2: str.isdigit() says yes
    (b"idle_min=\n", {}, True),
    (b"seats=1\n", {}, True),
    (b"seats=13\n", {}, True),
    (b"seats=99999999999999999999\n", {}, True),
    (b"seats=\xd9\xa3\n", {}, True),  # an Arabic-Indic 3: int() takes it on CPython
    (b"seats= 4\n", {"seats": 4}, False),
    (b"mode=xx\n", {}, True),
    (b"lang=fr\n", {}, True),
    (b"profile=kiosk\n", {}, True),  # a kiosk preset as the family table's: a kiosk without its PIN
    (b"profile=nosuch\n", {}, True),
    (b"kiosk_profile=xiamen\n", {}, True),
    (b"pin=12a4\n", {}, True),
    (b"pin=123\n", {}, True),
    (b"pin=123456789\n", {}, True),
    (b"pin=pbkdf2-sha256:4:1000:zz:zz\n", {}, True),
    (b"pin=pbkdf2-sha256:4:0:00112233445566778899aabbccddeeff:" + b"00" * 32 + b"\n", {}, True),
    (b"pin=\n", {}, False),  # a PIN lost at an earlier boot (said then): still lost, not said again
    (b"bowl_id=\n", {}, True),
    (b"bowl_id=123456789\n", {}, True),
    (b"bowl_id=a|b\n", {}, True),
    (b"secret=00\n", {}, True),  # 8 bits: refused (128 at least)
    (b"secret=zz\n", {}, True),
    (b"secret=\n", {}, True),
    (b"secret=" + b"ab" * 65 + b"\n", {}, True),
    (b"names=Yeye,Nainai,,Mama\n", {"names": bytearray(b"\x01\x02\x00\x06" + bytes(8))}, False),
    (b"names=\n", {}, False),
    (b"names=Yeye,Laowang\n", {}, True),  # not a name the bowl has
    (b"names=" + b"Yeye," * 12 + b"Yeye\n", {}, True),  # 13 seats
    (b"names=\xe7\x88\xb7\xe7\x88\xb7\n", {}, True),  # the Chinese: settings.txt keeps the pinyin
    (b"unknown=1\n", {}, True),
    (b"no equals sign here\n", {}, True),
    (b"=5\n", {}, True),
]

# (claim.key bytes, is it bad?)
KEYS = [
    (SECRET.encode(), False),
    (SECRET.encode() + b"\n", False),
    (b"", True),
    (b"00", True),
    (b"zz" * 16, True),
    (b"\xff" * 32, True),
    (b"ab" * 65, True),
]

# pin.txt bytes: each damaged count locks the PIN (a lost count must not unlock it)
PIN_FILES = [b"", b"abc", b"\xff\xfe", b"-1", b"1e9", b"99999999999"]


def _check(root, name, data, bad, c):
    seen = notices(c)
    if bad:
        assert seen == [vocab.N_SETTINGS], (data, seen)
        assert name + ".bad" in os.listdir(root), (data, os.listdir(root))
        assert read(root, name + ".bad") == data
    else:
        assert seen == [], (data, seen)
        assert name + ".bad" not in os.listdir(root), data
    assert plays(c), data
    c.j.close()
    again = boot(root, 5000)  # the next boot: the file written back is good, nothing more to say
    assert notices(again) == [], (data, notices(again), again.log)
    assert name + ".bad2" not in os.listdir(root)
    again.j.close()
    return again


def test_damaged_settings_files_boot_with_defaults_said_once():
    for probe, want, bad in SETTINGS:
        root = new_root()
        data = sealed(probe)
        write(root, S.SETTINGS_FILE, data)  # a new bowl's (no claim.key yet: made at this boot, silently)
        c = boot(root)
        s = c.settings
        for k in DEFAULTS:
            v = want[k] if k in want else DEFAULTS[k]
            if k == "mode" and bad and "mode" not in want:
                v = "kiosk"  # a mode that cannot be read is a kiosk's (no game on flash says otherwise)
            assert getattr(s, k) == v, (data, k, getattr(s, k), v)
        if bad or probe == b"pin=\n":  # damage never resets the PIN to the default: it is lost
            assert s.pin == "" and c.settings.pin_lost, data
        else:
            assert S.pin_check(s.pin, "1234"), data  # the default PIN, hashed
        _check(root, S.SETTINGS_FILE, data, bad, c)
    assert len(SETTINGS) >= 40


def test_damaged_claim_keys_make_a_new_secret_and_keep_the_old_file():
    for data, bad in KEYS:
        root = new_root()
        write(root, S.SECRET_FILE, data)
        write(root, S.SETTINGS_FILE, sealed(b"seats=4\npin=" + PIN_4321 + b"\n"))  # good settings beside it
        c = boot(root)
        assert c.settings.seats == 4
        s = c.settings.secret
        assert len(s) >= 32 and claim.check_secret(bytes(bytearray.fromhex(s)))
        assert (s == SECRET) == (not bad), data
        assert read(root, S.SECRET_FILE).strip() == s.encode()
        assert S.SETTINGS_FILE + ".bad" not in os.listdir(root)  # (the settings were good)
        _check(root, S.SECRET_FILE, data, bad, c)


def test_a_missing_claim_key_is_said_and_a_damaged_pin_is_never_1234():
    # a bowl that has its settings lost its claim.key: the new secret is said (codes made with
    # it fail at the counter until the counter has it); a PIN record with a flipped hex digit
    # fails the file's checksum: said (the PIN in doubt; the key does not set one)
    root = new_root()
    c = boot(root)
    c.j.close()
    os.remove(root + "/" + S.SECRET_FILE)
    c = boot(root, 1000)
    assert notices(c) == [vocab.N_SETTINGS] and S.SECRET_FILE in c.arg[1]
    c.j.close()
    data = read(root, S.SETTINGS_FILE)
    i = data.index(b"pin=") + 60
    flipped = data[:i] + (b"0" if data[i:i + 1] != b"0" else b"1") + data[i + 1:]
    write(root, S.SETTINGS_FILE, flipped)
    c = boot(root, 2000)
    assert notices(c) == [vocab.N_SETTINGS] and "crc" in c.arg[1] and c.settings.pin_doubt
    assert not S.pin_check(c.settings.pin, "1234")  # the damaged record, kept (and in doubt)
    c.press(C.B_OK, C.PRESS)
    c.press(C.B_KEY, C.PRESS)  # the attendant's key never sets a PIN (it opened a list that did)
    assert c.view == C.V_TURN
    c.j.close()
    # "mode=kiosk" with one bit flipped: never a family bowl (the game on flash is a kiosk's)
    root = new_root()
    write(root, S.SETTINGS_FILE, b"mode=kiosk\nseats=4\n")
    c = boot(root)
    assert c.table.kiosk
    c.j.close()
    write(root, S.SETTINGS_FILE, b"mode=kiosc\nseats=4\n")
    c = boot(root, 1000)
    assert c.settings.mode == "kiosk" and c.table.kiosk and c.settings.pin == ""
    c.j.close()
    # the same flip on a family bowl: its game on flash is a table's, so a family bowl it stays
    root = new_root()
    write(root, S.SETTINGS_FILE, b"mode=family\nseats=4\n")
    boot(root).j.close()
    write(root, S.SETTINGS_FILE, b"mode=famjly\nseats=4\n")
    c = boot(root, 1000)
    assert c.settings.mode == "family" and not c.table.kiosk
    c.j.close()


def test_damaged_pin_counts_lock_the_pin():
    for data in PIN_FILES:
        root = new_root()
        write(root, S.PIN_FILE, data)
        c = boot(root)
        assert notices(c) == []
        c.press(C.B_MENU, C.PRESS)  # family: the menu opens; admin asks for the PIN
        assert c.view == C.V_MENU
        items = c.arg[1]
        for _ in range(items.index("admin")):
            c.press(C.B_NEXT, C.PRESS)
        c.press(C.B_OK, C.PRESS)
        assert c.view == C.V_NOTICE and c.arg[0] == C.N_LOCKED, (data, vocab.VIEW_IDS[c.view])
        c.j.close()


def test_the_secret_bounds_are_the_claim_codes():
    assert S.MIN_SECRET == claim.MIN_SECRET and S.SECRET_BYTES >= claim.MIN_SECRET


def test_pin_records():
    salt = b"0123456789abcdef"
    r = S.pin_record("1234", salt)
    assert r.startswith("pbkdf2-sha256:4:%d:" % S.PIN_ROUNDS) and "1234" not in r[20:]
    assert S.pin_check(r, "1234") and not S.pin_check(r, "1235") and not S.pin_check(r, "12340")
    assert S.pin_record("1234", b"another salt....") != r
    assert S.pin_parse(r) == (4, S.PIN_ROUNDS, salt, claim.pbkdf2_sha256("1234", salt, S.PIN_ROUNDS))
    for bad in ("123", "123456789", "12a4", "", "１２３４"):
        try:
            S.pin_record(bad, salt)
        except ValueError:
            pass
        else:
            raise AssertionError("PIN %r accepted" % bad)


def test_the_default_pin_record_is_the_default_pin_hashed_as_any_other():
    n, rounds, salt, h = S.pin_parse(S.DEFAULT_PIN_RECORD)
    assert (n, rounds, len(salt)) == (len(S.DEFAULT_PIN), S.PIN_ROUNDS, 16)
    assert h == claim.pbkdf2_sha256(S.DEFAULT_PIN, salt, S.PIN_ROUNDS)  # (claim's: checked against CPython's)
    assert S.pin_check(S.DEFAULT_PIN_RECORD, "1234")
    for wrong in ("1235", "0000", "12340", "4321"):
        assert not S.pin_check(S.DEFAULT_PIN_RECORD, wrong), wrong


def test_a_new_bowl_hashes_no_pin_at_its_first_boot():
    # the rounds of PBKDF2 are the first power-on's costliest work: a new bowl takes the
    # record made in advance; the PIN is hashed when one is entered or set, not at boot
    calls = []
    real = claim.pbkdf2_sha256

    def counted(*a):
        calls.append(a)
        return real(*a)
    claim.pbkdf2_sha256 = counted

    def loaded():  # the console drops claim after its boot: this one is what an import finds
        import sys
        import bobing
        sys.modules["bobing.claim"] = claim
        bobing.claim = claim
    try:
        root = new_root()
        loaded()
        c = boot(root)
        assert calls == [], calls
        assert c.settings.pin == S.DEFAULT_PIN_RECORD and not c.settings.pin_lost
        c.j.close()
        loaded()
        again = boot(root, 5000)  # as saved: the same record, still the default PIN
        assert again.settings.pin == S.DEFAULT_PIN_RECORD and calls == []
        again.j.close()
        loaded()
        assert S.pin_check(again.settings.pin, S.DEFAULT_PIN) and len(calls) == 1  # (the count sees a hash)
    finally:
        claim.pbkdf2_sha256 = real


def test_a_second_bad_file_does_not_overwrite_the_first():
    root = new_root()
    write(root, S.SETTINGS_FILE, b"seats=1\n")
    boot(root).j.close()
    write(root, S.SETTINGS_FILE, b"seats=0\n")
    boot(root).j.close()
    assert read(root, "settings.txt.bad") == b"seats=1\n"
    assert read(root, "settings.txt.bad2") == b"seats=0\n"


def test_an_old_file_with_a_plain_pin_and_secret_is_moved_on_without_loss():
    # the settings.txt of older firmware: PIN and secret in plain text
    old = ("mode=kiosk\nprofile=xiamen\nkiosk_profile=kiosk\nseats=10\nlang=zh\npin=4321\nbowl_id=0042\n"
           "secret=%s\nstock=yixiu=5\nidle_min=5\n" % SECRET).encode()
    for cut in (False, True):
        root = new_root()
        write(root, S.SETTINGS_FILE, old)
        if cut:  # a power cut after claim.key was written, before settings.txt was
            write(root, S.SECRET_FILE, SECRET.encode())
        c = boot(root)
        s = c.settings
        assert notices(c) == [] and S.SETTINGS_FILE + ".bad" not in os.listdir(root)
        assert (s.mode, s.bowl_id, s.stock, s.secret) == ("kiosk", "0042", {"yixiu": 5}, SECRET)
        assert S.pin_check(s.pin, "4321") and not S.pin_check(s.pin, "1234")
        text = read(root, S.SETTINGS_FILE)
        # the plain PIN is no line of it (the hash's hex may well hold "4321")
        assert b"\npin=4321\n" not in b"\n" + text and SECRET.encode() not in text and b"secret" not in text
        assert read(root, S.SECRET_FILE).strip() == SECRET.encode()
        c.j.close()
