# 状元王中王 on the bowl (RULES.md §7): the final between the table champions,
# played on one bowl. final.Final decides (bobing/final.py); this module is the
# console's final mode, driven by bobing/console.py like bobing/menu.py is: the
# console shows view V_FINAL while c.final holds a FinalPlay, and hands it the
# shakes, the presses and the ticks of that view. The admin menu starts a final
# (number of champions 2..64, entered digit by digit) and ends one.
#
# Commit before reveal, as a table game: every roll or spill is applied to the
# Final, then the whole final is written to ROOT/final.txt with
# store.write_whole (tmp, flush to flash, rename: the old file or the new one
# after a power cut) and only then shown. A boot finds final.txt and replays it
# (resume), so a power cut loses no roll already shown. The file (text):
#   BBF 1
#   id 4711            the final's identity (random, 1..16777215), for the desk
#   players 8          champions 1..8, in the drawn order (the desk's page says who is who)
#   profile xiamen     the rules that rank the 状元 rolls
#   r 444412           a roll: six faces
#   s                  a spill: void, the same champion rolls again
#   crc 1a2b           CRC-16 (journal.crc16) of every byte before this line
# A file that fails its checks is set aside as final.bad (never deleted here),
# said on the log and the screen, and the bowl goes back to its table game.
# Ending a final keeps its file as final.old (the last one) for the record.
import time

from micropython import const

from bobing import game, journal, rules, shake, store
from bobing.final import Final
from bobing.vocab import (B_OK, J_FINAL_BAD, J_FINAL_KEPT, J_FINAL_LEFT, N_FLASH, N_JOURNAL, V_FINAL, V_OVER, V_RESULT,
                          V_SHAKING, V_TURN)

FILE = "final.txt"
_TMP = "final.tmp"
_OLD = "final.old"
_BAD = "final.bad"
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(64)
MAX_EVENTS = const(4000)  # a sanity bound on a file read back, far above any final
RESULT_MS = const(3500)  # a roll stays on the screen (OK skips)

# phases of the V_FINAL view: the console's views they are (its ring, detector and
# rattle follow them as they follow those views: Console.show, Console.stage)
P_TURN = V_TURN  # whose turn: shake
P_SHAKING = V_SHAKING
P_RESULT = V_RESULT  # the roll just made
P_OVER = V_OVER  # the winner, until the final is ended from the menu (or OK)

# what happened at the last roll (for the result's message line)
M_NEXT = const(0)  # the next champion rolls
M_NO_ZY = const(1)  # a round without a 状元: everyone again
M_TIE = const(2)  # an exact tie for the best: the tied again
M_WIN = const(3)

# labels, zh then en, a tuple per language (constant: on a frozen build it stays in flash);
# glyphs.py holds every character (tests/test_glyphs.py checks)
_ZH = (
    "状元王中王", "轮到", "号", "第", "轮", "摇碗中", "下一位", "无状元 重摇", "同分重摇", "骰子出碗", "本次作废",
    "王中王", "", "",
)
_EN = (
    "Champion final", "Turn of", "No.", "Round", "", "shaking...", "Next:", "No Zhuangyuan", "Tie: roll again",
    "Dice out of bowl", "roll void", "Champion", "All roll again", "Final",
)
_L_TITLE = const(0)
_L_TURN = const(1)
_L_HAO = const(2)
_L_ROUND_A = const(3)
_L_ROUND_B = const(4)
_L_SHAKING = const(5)
_L_NEXT = const(6)
_L_NO_ZY = const(7)
_L_TIE = const(8)
_L_SPILL = const(9)
_L_VOID = const(10)
_L_WINNER = const(11)
_L_ALL_AGAIN = const(12)
_L_FINAL = const(13)


def chunks(fid, players, profile, events):
    """The final's file (see the module comment) as small pieces, each written
    before the next is made (a line buffer reused): never the whole file in RAM,
    which a final of many champions would not find room for on the bowl."""
    b = ("BBF 1\nid %d\nplayers %d\nprofile %s\n" % (fid, players, profile)).encode()
    crc = journal.crc16(b)
    yield b
    line = bytearray(9)  # "r 444412\n" or "s\n"
    mv = memoryview(line)
    for kind, dice in events:
        if kind == game.EV_ROLL:
            line[0] = 114  # r
            line[1] = 32
            for i in range(6):
                line[2 + i] = 48 + dice[i]
            line[8] = 10
            n = 9
        else:
            line[0] = 115  # s
            line[1] = 10
            n = 2
        crc = journal.crc16(line, 0, n, crc)
        yield mv[:n]
    yield ("crc %04x\n" % crc).encode()


def encode(fid, players, profile, events):
    """The final's file as bytes (host tools and tests; the bowl writes chunks())."""
    return b"".join([bytes(p) for p in chunks(fid, players, profile, events)])


def read(f, on_event=None):
    """Read a final's file line by line from stream f -> (fid, players, profile,
    events); with on_event(kind, dice) each event goes there as it is read
    instead (events is then []), so a boot never holds the file nor a list of
    it. ValueError saying what is wrong (the checksum is checked at the end: a
    caller that applied events throws them away with the error)."""
    crc = 0xFFFF
    head = []
    events = []
    n = 0
    while True:
        line = f.readline()
        if not line:
            raise ValueError("no crc line")
        if line[:4] == b"crc ":
            try:
                want = int(line[4:].strip(), 16)
            except ValueError:
                raise ValueError("crc line %r is not hex" % (bytes(line[:12]),))
            if want != crc or f.read(1):
                raise ValueError("crc does not match: the file is damaged")
            break
        crc = journal.crc16(line, 0, len(line), crc)
        if line[-1] != 10:
            raise ValueError("the last event line has no end")
        if len(head) < 4:
            head.append(line[:-1].decode())
            if len(head) == 4:
                fid, players, profile = _head(head)
            continue
        if line == b"s\n":
            ev = (game.EV_SPILL, None)
        elif len(line) == 9 and line[:2] == b"r " and line[2:8].isdigit():
            ev = (game.EV_ROLL, tuple([ch - 48 for ch in line[2:8]]))
        else:
            raise ValueError("event %d: %r is neither 'r' and six faces nor 's'" % (n + 1, bytes(line[:20])))
        n += 1
        if n > MAX_EVENTS:
            raise ValueError("more than %d events" % MAX_EVENTS)
        if on_event is not None:
            if n == 1:
                on_event(None, (fid, players, profile))
            on_event(*ev)
        else:
            events.append(ev)
    if len(head) < 4:
        raise ValueError("not a final of format 1 (%d header lines)" % len(head))
    return fid, players, profile, events


def _head(lines):
    if lines[0] != "BBF 1":
        raise ValueError("not a final of format 1 (first line %r)" % (lines[0][:20],))
    h = {}
    for line in lines[1:4]:
        k, _, v = line.partition(" ")
        h[k] = v
    try:
        fid = int(h.get("id", ""))
        players = int(h.get("players", ""))
    except ValueError:
        raise ValueError("id and players must be numbers: %r" % (lines[1:3],))
    if not 1 <= fid <= 0xFFFFFF or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("id %d (1..16777215) or players %d (%d..%d) out of range"
                         % (fid, players, MIN_PLAYERS, MAX_PLAYERS))
    return fid, players, h.get("profile", "")


def decode(data):
    """final.txt's bytes -> (fid, players, profile, events). ValueError saying what is wrong."""
    import io
    return read(io.BytesIO(data))


class FinalPlay:
    """A final on this bowl: final.Final plus its events as written, the phase of
    the V_FINAL view and the last outcome. Made by start() (the menu) or load() (a boot)."""

    def __init__(self, root, fid, players, profile):
        self.root = root
        self.fid = fid
        self.players = players
        self.profile = profile
        self.final = Final(profile, players)  # ValueError for bad players or profile
        self.events = []
        self.log = []  # per event: (champion, round, dice or None for a spill, rank code)
        self.out = None
        self.msg = M_NEXT
        self.phase = P_TURN

    def home(self):
        """The phase between rolls: the winner once the final has ended, else whose turn."""
        return P_OVER if self.final.ended else P_TURN

    def apply(self, kind, dice):
        """Apply one event to the Final (not yet written) -> Outcome."""
        f = self.final
        rnd = f.round
        out = f.apply(kind, dice)
        self.events.append((kind, dice))
        self.log.append((out.seat, out.round, out.dice, out.rank))
        self.out = out
        if f.ended:
            self.msg = M_WIN
        elif f.round != rnd:  # a round without a winner: a tie if it had a 状元 at all
            self.msg = M_NO_ZY
            for r in self.log:
                if r[1] == rnd and rules.is_zhuangyuan(r[3]):
                    self.msg = M_TIE
        else:
            self.msg = M_NEXT
        return out

    def data(self):
        return encode(self.fid, self.players, self.profile, self.events)

    def save(self):
        store.write_whole(store.join(self.root, FILE), store.join(self.root, _TMP),
                            chunks(self.fid, self.players, self.profile, self.events))


class _Replay:
    """read()'s on_event at boot: the FinalPlay made at the first event, each
    event applied to it as it is read."""

    def __init__(self, root):
        self.root = root
        self.fp = None

    def __call__(self, kind, dice):
        if kind is None:
            self.fp = FinalPlay(self.root, dice[0], dice[1], dice[2])
        else:
            self.fp.apply(kind, dice)  # ValueError: an event the Final refuses (a roll after the end)


def load(root):
    """ROOT/final.txt -> FinalPlay replayed to where it stood; None when there is none.
    ValueError for a damaged file (the caller sets it aside). Read and applied a
    line at a time (read()): the file is never whole in RAM."""
    try:
        fh = open(store.join(root, FILE), "rb")
    except OSError:
        return None
    r = _Replay(root)
    try:
        fid, players, profile, _ = read(fh, r)
    finally:
        fh.close()
    fp = r.fp or FinalPlay(root, fid, players, profile)
    fp.phase = fp.home()
    return fp


# ---- the console's final mode -------------------------------------------------------

def resume(c):
    """At boot, when ROOT/final.txt exists: play on where the final stood."""
    try:
        fp = load(c.root)
    except MemoryError:
        fp = None
        import gc
        gc.collect()
        c.say("final: %s is too large for the memory free now; it stays on flash as it is (the bowl plays "
               "its table game; the final resumes at a boot with more room)" % FILE)
        c.notify(N_JOURNAL, J_FINAL_KEPT)
        return
    except (ValueError, UnicodeError) as e:
        c.say("final: %s is damaged (%s); set aside as %s" % (FILE, e, _BAD))
        said = J_FINAL_BAD
        try:
            import os
            os.rename(store.join(c.root, FILE), store.join(c.root, _BAD))
        except OSError as e2:
            c.say("final: cannot set it aside: %s" % e2)
            said = J_FINAL_LEFT  # still final.txt: the screen must not say it was set aside
        c.notify(N_JOURNAL, said)
        return
    if fp is None:
        return
    _enter(c, fp)
    c.say("resumed the final %d: %d champions, %d events" % (fp.fid, fp.players, len(fp.events)))


def _enter(c, fp):
    c.set_final(fp, shake.Detector(c.dice, rules_option(fp, "spill_detect")) if c.has_sensor else None)


def rules_option(fp, name):
    return fp.final.profile.options.get(name, "off")


def start(c, players):
    """Start a new final of `players` champions (from the admin menu): written
    before it is shown. -> True, or False when flash would not take it."""
    s = c.settings
    fid = 0
    while not fid:
        b = c.urandom(3)
        fid = b[0] | b[1] << 8 | b[2] << 16
    fp = FinalPlay(c.root, fid, players, s.profile)
    try:
        fp.save()
    except OSError as e:
        c.say("final: cannot write %s: %s" % (FILE, e))
        c.notify(N_FLASH, str(e))
        c.next_notice_or(c.home())
        return False
    _enter(c, fp)
    c.say("final %d started: %d champions, rules %s" % (fid, players, s.profile))
    c.show(V_FINAL)
    return True


def end(c):
    """End the final (admin menu, or OK on the winner): its file is kept as final.old;
    the bowl goes back to its table game."""
    import os
    try:
        try:
            os.remove(store.join(c.root, _OLD))
        except OSError:
            pass
        os.rename(store.join(c.root, FILE), store.join(c.root, _OLD))
    except OSError as e:
        c.say("final: cannot close %s: %s" % (FILE, e))
        c.notify(N_FLASH, str(e))
        c.next_notice_or(c.home())
        return
    c.say("final %d ended" % c.final.fid)
    c.set_final(None)
    if c.table is not None and c.has_sensor:
        c.make_detector()
    c.show(c.home())


def _phase(c, phase):
    c.final.phase = phase
    c.show(V_FINAL)  # the console's own view change: the ring, detector and rattle follow the phase


def _event(c, kind, dice):
    """Apply, write, then show one event; a failed write shows nothing and the
    final is read back from flash."""
    fp = c.final
    try:
        out = fp.apply(kind, dice)
        fp.save()
    except OSError as e:
        c.say("final: write failed: %s; resuming from flash" % e)
        c.notify(N_FLASH, str(e))
        c.set_final(None)
        resume(c)
        c.next_notice_or(c.home())
        return
    _phase(c, P_RESULT)
    if not fp.final.ended:
        c.rearm()  # the next champion may shake while the roll shows, as at the table: it counts
    # the table's show and sounds: a 状元 roll has the fanfare, the winner the end's tune
    c.announce(out, kind == game.EV_ROLL and rules.is_zhuangyuan(out.rank), fp.msg == M_WIN)


def _draw(c):
    d = c.draw_dice()
    if d is not None:
        _event(c, game.EV_ROLL, (d[0], d[1], d[2], d[3], d[4], d[5]))


def shake_event(c, ev):
    """A shake detector event while V_FINAL is on show."""
    fp = c.final
    if fp.phase == P_OVER or fp.phase == P_RESULT and fp.final.ended:
        if ev == shake.EV_ROLLED or ev == shake.EV_SPILL:
            c.detector.rearm()  # a shake once the final is won counts for nothing
        return
    if fp.phase == P_RESULT and ev == shake.EV_JOLT:
        return  # a knock while the roll shows: it stays
    if ev == shake.EV_SHAKE:
        _phase(c, P_SHAKING)
    elif ev == shake.EV_JOLT:
        _phase(c, P_TURN)
    elif ev == shake.EV_ROLLED:
        _draw(c)
    elif ev == shake.EV_SPILL:
        _event(c, game.EV_SPILL, None)


def press(c, b, t_us):
    """NEXT or OK while V_FINAL is on show (MENU opens the menu, as in a game)."""
    fp = c.final
    if fp.phase == P_RESULT and b == B_OK:
        _phase(c, fp.home())
    elif fp.phase == P_OVER and b == B_OK:
        c.confirm("end_final", "final_end")
    elif fp.phase == P_TURN and c.ok_rolls(b, t_us):
        _draw(c)


def tick(c, t_ms):
    """Time passes while V_FINAL is on show (the console animates and rattles by the phase)."""
    fp = c.final
    if fp.phase == P_RESULT and time.ticks_diff(t_ms, c.since) >= RESULT_MS:
        _phase(c, fp.home())


# ---- drawing (screen.Screen's text machinery; the app calls draw for V_FINAL) --------------

def _label(s, i):
    return (_ZH if s.paint.zh else _EN)[i]


def _who(s, n, y):
    """'3号' (zh) or 'No. 3' (en), centred on row y."""
    p = s.paint
    if p.zh:
        x = (128 - p.number_width(n) - 16) // 2
        p.text(_label(s, _L_HAO), p.number(n, x, y + 4), y)
    else:
        w = 8 * len(_label(s, _L_HAO)) + 8 + p.number_width(n)
        p.number(n, p.en(_label(s, _L_HAO), (128 - w) // 2, y) + 8, y)


def draw(s, c):
    """The V_FINAL view of console c."""
    draw_final(s, c.final, c.frame)


def draw_final(s, fp, frame):
    """The final `fp` in its phase (frame: the animation's; allocates nothing once warm)."""
    p = s.paint
    f = fp.final
    fb = s.fb
    fb.fill(0)
    zh = p.zh
    if fp.phase == P_OVER:
        _draw_over(s, fp, frame)
        return
    if fp.phase == P_RESULT and fp.out is not None:
        _draw_result(s, fp)
        return
    # title bar: the final and its round
    fb.fill_rect(0, 0, 128, 17, 1)
    if zh:
        x = p.text(_label(s, _L_TITLE), 0, 0, 0) + 4
        p.text(_label(s, _L_ROUND_B), p.number(f.round, p.text(_label(s, _L_ROUND_A), x, 0, 0), 4, 0), 0, 0)
    else:  # "Final" and the round
        p.en(_label(s, _L_FINAL), 2, 4, 0)
        p.number(f.round, p.en(_label(s, _L_ROUND_A), 126 - 56 - p.number_width(f.round), 4, 0) + 8, 4, 0)
    if fp.phase == P_SHAKING:
        if zh:
            p.text_centred(_label(s, _L_SHAKING), 24)
        else:
            p.en_centred(_label(s, _L_SHAKING), 28)
        p.corners()
        _who(s, f.turn, 44)
        return
    # whose turn, big
    w = 3 * p.number_width(f.turn)
    if zh:
        lw = p.text_width(_label(s, _L_TURN))
        x = p.text(_label(s, _L_TURN), (128 - lw - 4 - w - 4 - 16) // 2, 30) + 4
        p.text(_label(s, _L_HAO), p.big_number(f.turn, x, 24, 3, 3) + 4, 30)
    else:
        p.en_centred(_label(s, _L_TURN), 22)
        p.big_number(f.turn, (128 - w) // 2, 34, 3, 3)


def _draw_result(s, fp):
    p = s.paint
    out = fp.out
    zh = p.zh
    if out.kind == game.EV_SPILL:
        s.fb.fill_rect(0, 0, 128, 17, 1)
        if zh:
            p.text_centred(_label(s, _L_SPILL), 1, 0)
            p.text_centred(_label(s, _L_VOID), 20)
        else:
            p.en_centred(_label(s, _L_SPILL), 5, 0)
            p.en_centred(_label(s, _L_VOID), 24)
        _who(s, out.seat, 40)
        return
    p.dice_row(out.dice, 0, 17, 4)
    # "3号 状元插金花" / "No. 3" then the rank
    if zh:
        x = p.number(out.seat, 0, 23)
        x = p.text(_label(s, _L_HAO), x, 19) + 4
        p.rank(out.rank, x, 19)
    else:
        p.number(out.seat, p.en(_label(s, _L_HAO), 0, 20) + 8, 20)
        p.rank(out.rank, 48, 20)
        p.en_centred(p.rank_en[out.rank], 29)
    m = fp.msg
    y = 40 if zh else 44
    if m == M_WIN:
        w = fp.final.winner
        if zh:
            x = p.text(_label(s, _L_WINNER), (128 - 48 - 4 - p.number_width(w) - 16) // 2, y) + 4
            p.text(_label(s, _L_HAO), p.number(w, x, y + 4), y)
        else:
            p.en_centred(_label(s, _L_WINNER), 40)
            _who(s, w, 50)
    elif m == M_NEXT:
        if zh:
            x = p.text(_label(s, _L_NEXT), (128 - 48 - 4 - p.number_width(fp.final.turn) - 16) // 2, y) + 4
            p.text(_label(s, _L_HAO), p.number(fp.final.turn, x, y + 4), y)
        else:
            w = 8 * len(_label(s, _L_NEXT)) + 8 + 8 * len(_label(s, _L_HAO)) + 8 + p.number_width(fp.final.turn)
            x = p.en(_label(s, _L_HAO), p.en(_label(s, _L_NEXT), (128 - w) // 2, y) + 8, y) + 8
            p.number(fp.final.turn, x, y)
    elif zh:
        p.text_centred(_label(s, _L_NO_ZY if m == M_NO_ZY else _L_TIE), y)
    elif m == M_NO_ZY:
        p.en_centred(_label(s, _L_NO_ZY), 40)
        p.en_centred(_label(s, _L_ALL_AGAIN), 50)
    else:
        p.en_centred(_label(s, _L_TIE), y)


_STARS = (8, 8, 119, 8, 5, 29, 122, 29)  # where the winner's stars twinkle (x, y pairs)


def _draw_over(s, fp, frame):
    p = s.paint
    f = fp.final
    p.ants(frame)
    for k in range(4):
        p.star(_STARS[2 * k], _STARS[2 * k + 1], (frame + 5 * k) % 12)
    if p.zh:
        p.text_centred(_label(s, _L_TITLE), 2)
    else:
        p.en_centred(_label(s, _L_TITLE), 4)
    _who(s, f.winner, 18 if p.zh else 14)
    if f.winner_dice:
        p.dice_row(f.winner_dice, 36 if p.zh else 25, 15, 3)
    if not p.zh:
        p.en_centred(p.rank_names[f.winner_rank], 44)
        p.en_centred(p.rank_en[f.winner_rank], 53)
