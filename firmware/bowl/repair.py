# The bowl whose filesystem did not mount at boot (bowl/storage.py): in place of the game, a screen
# that says its storage is damaged (Chinese first, English beside: the language setting is on the
# damaged flash) and offers to keep what can be read and make a fresh filesystem.
#
# What can be read without a filesystem: the folders' metadata blocks away from the damaged ones.
# rescue() reads every block as a littlefs metadata log (lfs2.c's layout: a revision count,
# then tags XORed with the one before, each commit ending in a CRC tag) and finds the newest
# commit that names settings.txt (settings.write renames a whole new copy over it: its name and
# its struct land in one commit), reads its bytes (inline, or the one block a small file takes)
# and keeps them if their crc= line (bobing/settings.py) holds. Games' journals are not kept
# (the screen says so beforehand; a kiosk's awards are at the prize desk as well).
#
# Behind the PIN on a kiosk: a kiosk's settings that were read have its PIN's record, so the
# PIN is asked (NEXT counts a digit up, OK takes it); the attendant's key opens it as well, as
# it opens the menus. After three wrong PINs only the key does. A family bowl, or a flash whose
# settings could not be read (no PIN is known), asks only for OK. Then the bowl restarts, into
# a new game with the kept settings.
# Hardware-free: hw is a bowl.hw.Hardware whose .storage is (block device, why), and the vfs
# module is passed in.
from micropython import const

from bobing import settings
from bobing.vocab import B_KEY, B_MENU, B_NEXT, B_OK

S_INFO = const(0)  # storage damaged: OK goes on
S_PIN = const(1)  # a kiosk's PIN, digit by digit
S_ASK = const(2)  # what is kept and what is lost: OK makes the fresh filesystem
S_FAIL = const(3)  # the fresh filesystem could not be made either: the flash itself fails
MAX_TRIES = const(3)
_UI_MS = const(20)
_BS = const(4096)  # read in blocks of the ESP32's flash sector
_START = b"mode="  # settings.text() writes this line first
# the screen's labels: _R_* index both tables, Chinese (_ZH) drawn above English (_EN)
_R_PIN = const(0)
_R_PIN_KEYS = const(1)
_R_MAKE_NEW = const(2)
_R_KEEP_A = const(3)
_R_KEEP_B = const(4)
_R_ALL = const(5)
_R_BACK = const(6)
_R_DAMAGED = const(7)
_R_SEND = const(8)
_R_KEY = const(9)
_R_WRONG = const(10)
_R_ASK_PIN = const(11)
_R_REPAIR = const(12)
_R_READABLE = const(13)
_R_UNREADABLE = const(14)
_ZH = (
    "输入密码", "", "确定:重建", "留设置 清牌局", "", "全部清空", "", "存储损坏", "请送修", "请用钥匙", "密码错误",
    "确定:输密码", "确定:修复", "", "",
)
_EN = (
    "Enter PIN", "NEXT +1  OK next", "OK: make new", "settings kept,", "games erased", "all erased", "MENU: back",
    "Storage damaged", "needs repair", "turn the key", "wrong PIN", "OK: PIN to repair", "OK: repair",
    "settings readable", "nothing readable",
)


def _le(d, o):
    return d[o] | d[o + 1] << 8 | d[o + 2] << 16 | d[o + 3] << 24


def _be(d, o):
    return d[o] << 24 | d[o + 1] << 16 | d[o + 2] << 8 | d[o + 3]


def _commits(d, name):
    """Block d read as a littlefs metadata log -> [(offset, inline bytes or (head, size))] of every
    committed struct of the file `name` in it (lfs2.c: lfs_dir_fetchmatch's walk)."""
    out = []
    off, ptag = 4, 0xFFFFFFFF
    want = None  # the id `name` has in the commit being read
    found = None
    while off + 4 <= len(d):
        tag = _be(d, off) ^ ptag
        if tag & 0x80000000:
            break  # not programmed yet: the log ends
        size = tag & 0x3FF
        dsize = 4 + (0 if size == 0x3FF else size)
        if off + dsize > len(d):
            break
        t3, tid = (tag >> 20) & 0x7FF, (tag >> 10) & 0x3FF
        data = d[off + 4:off + dsize]
        if t3 & 0x780 == 0x500:  # a CRC tag ends the commit
            if found is not None:
                out.append(found)
            want = found = None
            ptag = tag ^ (((tag >> 20) & 1) << 31)
        else:
            if t3 == 0x001 and data == name:  # LFS_TYPE_REG: a file's name
                want = tid
            elif want == tid and t3 == 0x201:  # LFS_TYPE_INLINESTRUCT
                found = (off, data)
            elif want == tid and t3 == 0x202 and size == 8:  # LFS_TYPE_CTZSTRUCT: head, size
                found = (off, (_le(data, 0), _le(data, 4)))
            ptag = tag
        off += dsize
    return out


def rescue(bdev):
    """-> the newest whole settings.txt found in the raw flash (bytes), or None."""
    n = bdev.ioctl(4, 0)  # the block count (extmod/vfs.h: MP_BLOCKDEV_IOCTL_BLOCK_COUNT)
    buf = bytearray(_BS)
    name = settings.SETTINGS_FILE.encode()
    found = []  # (revision, offset, struct)
    for b in range(n):
        try:
            bdev.readblocks(b, buf)
        except OSError:
            continue  # a sector that cannot be read: nothing of it is kept
        d = bytes(buf)
        for off, st in _commits(d, name):
            found.append((_le(d, 0), off, st))
    found.sort(key=lambda f: (f[0], f[1]))
    for _rev, _off, st in reversed(found):  # the newest first; an older copy if it is torn
        if isinstance(st, tuple):
            head, size = st
            if head >= n or size > settings.MAX_FILE:
                continue
            try:
                bdev.readblocks(head, buf)
            except OSError:
                continue
            st = bytes(buf[:size])  # (a file under a block: its one block, no pointers)
        if st.startswith(_START) and settings.check_crc(st) is True:
            return st
    return None


def _field(text, name):
    for line in text.split(b"\n"):
        if line.startswith(name + b"="):
            return line[len(name) + 1:].decode()
    return None


def remake(bdev, vfs, at, root, kept):
    """A fresh littlefs on bdev, mounted at `at`, with `kept` (settings.txt's bytes or None)
    written back into root."""
    import os
    try:
        vfs.umount(at)
    except OSError:
        pass  # (not mounted: the usual case)
    vfs.VfsLfs2.mkfs(bdev)
    vfs.mount(bdev, at)
    try:
        os.mkdir(root)
    except OSError:
        pass
    if kept is not None:
        settings.write(root, settings.SETTINGS_FILE, kept.decode())


class Repair:
    """The app's stand-in while the filesystem is damaged: App's step(t) and run(), no console."""
    con = None
    net = None

    def __init__(self, hw, vfs, at="/"):
        self.hw = hw
        self.vfs = vfs
        self.at = at
        self.bdev, self.why = hw.storage
        hw.say("storage damaged: the filesystem does not mount (%s)" % self.why)
        self.kept = rescue(self.bdev)
        self.record = None  # the kiosk's PIN record, when its settings were read
        if self.kept is not None and _field(self.kept, b"mode") == "kiosk":
            rec = _field(self.kept, b"pin")
            try:
                settings.pin_parse(rec)
                self.record = rec
            except (ValueError, AttributeError):
                pass  # a record that is no record: the key
        self.kiosk = self.kept is None or _field(self.kept, b"mode") == "kiosk"
        hw.say("storage: %s" % ("settings.txt can be kept" if self.kept else "nothing can be read back"))
        self.state = S_INFO
        self.digits = ""
        self.digit = 0
        self.tries = 0
        self.wrong = False
        self._last = 0  # the buttons' mask at the last round
        self._drawn = -1
        self.changed = 0
        self.running = True
        self.shown = 0
        hw.booted()
        hw.start_watchdog()

    # ------------------------------------------------------------ input
    def _mask(self):
        hw = self.hw
        m = 0
        for i in range(len(hw.buttons)):
            if hw.buttons[i].value() == 0:
                m |= 1 << i
        if hw.key is not None and hw.key.value() == 0:
            m |= 1 << B_KEY
        return m

    def _press(self, b):
        s = self.state
        if s == S_FAIL:
            return
        if b == B_KEY and self.kiosk:  # the attendant's key opens it at once
            self.state = S_ASK
        elif b == B_MENU:
            self.state = S_INFO
            self.digits = ""
        elif s == S_INFO and b == B_OK:
            if self.record is not None and self.tries < MAX_TRIES:
                self.state, self.digits, self.digit, self.wrong = S_PIN, "", 0, False
            elif not self.kiosk:
                self.state = S_ASK
        elif s == S_PIN:
            if b == B_NEXT:
                self.digit = (self.digit + 1) % 10
            elif b == B_OK:
                self.digits += "0123456789"[self.digit]
                self.digit = 0
                if len(self.digits) == settings.pin_parse(self.record)[0]:
                    if settings.pin_check(self.record, self.digits):
                        self.state = S_ASK
                    else:
                        self.tries += 1
                        self.wrong = True
                        self.state = S_INFO
                        self.hw.say("storage: wrong PIN (%d of %d)" % (self.tries, MAX_TRIES))
                    self.digits = ""
        elif s == S_ASK and b == B_OK:
            self._remake()
        self.changed += 1

    def _remake(self):
        hw = self.hw
        try:
            remake(self.bdev, self.vfs, self.at, hw.root, self.kept)
        except OSError as e:
            self.state = S_FAIL
            hw.say("storage: no fresh filesystem either (%s): the flash itself fails" % e)
            return
        hw.say("storage: a fresh filesystem made%s; restarting" % (", settings.txt kept" if self.kept else ""))
        self.running = False
        hw.restart()

    # ------------------------------------------------------------ output
    def _draw(self, s, c=None):
        p = s.paint
        fb = s.fb
        fb.fill(0)
        st = self.state
        if st == S_PIN:
            p.text_centred(_ZH[_R_PIN], 0)
            p.en_centred(_EN[_R_PIN], 18)
            shown = "*" * len(self.digits) + "0123456789"[self.digit]
            p.text_centred(shown, 30)
            p.en_centred(_EN[_R_PIN_KEYS], 54)
            return
        if st == S_ASK:
            p.text_centred(_ZH[_R_MAKE_NEW], 0)
            p.en_centred(_EN[_R_MAKE_NEW], 17)
            if self.kept:
                p.text_centred(_ZH[_R_KEEP_A], 26)
                p.en_centred(_EN[_R_KEEP_A], 44)
                p.en_centred(_EN[_R_KEEP_B], 54)
            else:
                p.text_centred(_ZH[_R_ALL], 26)
                p.en_centred(_EN[_R_ALL], 44)
                p.en_centred(_EN[_R_BACK], 54)
            return
        p.text_centred(_ZH[_R_DAMAGED], 0)
        p.en_centred(_EN[_R_DAMAGED], 17)
        if st == S_FAIL:
            p.text_centred(_ZH[_R_SEND], 30)
            p.en_centred(_EN[_R_SEND], 50)
            return
        if self.kiosk and (self.record is None or self.tries >= MAX_TRIES):
            p.text_centred(_ZH[_R_KEY], 28)
            p.en_centred(_EN[_R_KEY], 46)
        elif self.wrong:
            p.text_centred(_ZH[_R_WRONG], 28)
            p.en_centred(_EN[_R_WRONG], 46)
        elif self.record is not None:
            p.text_centred(_ZH[_R_ASK_PIN], 28)
            p.en_centred(_EN[_R_ASK_PIN], 46)
        else:
            p.text_centred(_ZH[_R_REPAIR], 28)
            p.en_centred(_EN[_R_REPAIR], 46)
        p.en_centred(_EN[_R_READABLE if self.kept else _R_UNREADABLE], 56)

    def render(self):
        d = self.hw.display
        if d is None or self._drawn == self.changed:
            return
        if getattr(self, "screen", None) is None:
            from bobing import screen
            self.screen = screen.Screen(d, "zh")
        try:
            self._draw(self.screen)
            d.show()
            self._drawn = self.changed
            self.shown += 1
        except OSError:
            pass  # drawn again at the next round

    # ------------------------------------------------------------ rounds
    def step(self, t):
        m = self._mask()
        pressed = m & ~self._last
        self._last = m
        for b in (B_KEY, B_MENU, B_NEXT, B_OK):
            if pressed & (1 << b):
                self._press(b)
                if not self.running:
                    return
        self.render()
        if self.hw.wdt is not None:
            self.hw.wdt.feed()

    def watchdog_round(self):
        pass  # (step feeds it)

    def start_net(self):
        return None

    def run(self):
        import time
        while self.running:
            self.step(time.ticks_ms())
            time.sleep_ms(_UI_MS)
