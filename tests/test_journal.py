# micropython: yes
# The journal on flash (bobing/journal.py): encoding, resume, and bad data.
# On CPython the games live in a temporary folder; on the MicroPython unix
# port in a real littlefs (vfs.VfsLfs2) on a RAM block device.
import os
import sys

from bobing import game, jformat, journal
from journal_probes import CODES, check, checkpoint_probes, log_lines, probes
from journal_probes import read_file as _read
from journal_probes import write_file as _write
from ramflash import fresh_root

MP = sys.implementation.name == "micropython"


def _root():
    """A fresh, empty folder (the previous one goes)."""
    return fresh_root("games")


def _path(root, name):
    return root + "/" + name


ROLLS = [(4, 4, 4, 4, 1, 1), (1, 2, 3, 4, 5, 6), (2, 2, 3, 5, 6, 6), (4, 4, 1, 2, 3, 5), (3, 3, 3, 3, 4, 6),
         (4, 1, 1, 2, 5, 6), (6, 6, 6, 6, 6, 5), (4, 4, 4, 2, 2, 1)]


def _events(n):
    evs = [(game.EV_START_TOTAL, 5)]
    for i in range(n - 1):
        if i % 9 == 8:
            evs.append((game.EV_SPILL, None))
        else:
            evs.append((game.EV_ROLL, ROLLS[i % len(ROLLS)]))
    return evs


def _game(root, n=20, **kw):
    """A game of n events on flash (closed) -> (path, events, header bytes)."""
    kw.setdefault("seats", 6)
    j = journal.start(root, **kw)
    evs = _events(n)
    for ev in evs:
        j.play(*ev)
    j.close()
    return j.path, evs, len(j.config.encode())


def _state(t):
    aw = []
    for s in range(1, t.seats + 1):
        aw.append(sorted(t.awards[s].items()))
    return (t.events, t.turn, t.round, t.ended, t.reason, t.holder, t.holder_dice,
            sorted(t.pool.items()), sorted(t.grabbed.items()), aw)


def _replayed(evs, seats=6):
    t = game.Table(journal.Config().make_profile(), seats)
    for ev in evs:
        t.apply(*ev)
    return t


def _new_game_starts(root, above):
    j = journal.start(root, seats=4)
    gid = j.game_id
    j.play(game.EV_START_SEAT, 2)
    j.close()
    assert gid > above, (gid, above)
    r = journal.recover(root)
    assert not r.problems and r.journal.game_id == gid and r.journal.count == 1
    r.journal.close()


# --- encoding -----------------------------------------------------------------

def test_crc16_is_ccitt():
    # CRC-16/CCITT-FALSE check value (also binascii.crc_hqx(b"123456789", 0xFFFF))
    assert journal.crc16(b"123456789") == 0x29B1
    assert journal.crc16(b"") == 0xFFFF
    a = journal.crc16(b"1234")
    assert journal.crc16(b"123456789", 4, -1, a) == 0x29B1
    # every entry of its table (a constant in the source) against the CRC bit by bit
    for x in range(256):
        c = 0xFFFF ^ (x << 8)
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        assert journal.crc16(bytes([x])) == c, x


def test_record_is_at_most_16_bytes_and_round_trips_every_kind():
    assert journal.RECORD <= 16
    cases = [(game.EV_START_SEAT, 3), (game.EV_START_TOTAL, 12), (game.EV_ROLL, (6, 5, 4, 3, 2, 1)),
             (game.EV_ROLL, (1, 1, 1, 1, 1, 1)), (game.EV_SPILL, None), (game.EV_TIMEUP, None),
             (game.EV_CUSTOMER, None)]
    for kind, arg in cases:
        v = journal.arg_code(kind, arg)
        assert 0 <= v < 1 << 24
        assert journal.arg_value(kind, v) == arg, (kind, arg)
    # a list or bytes roll is stored the same as a tuple
    assert journal.arg_code(game.EV_ROLL, [6, 5, 4, 3, 2, 1]) == \
        journal.arg_code(game.EV_ROLL, bytes([6, 5, 4, 3, 2, 1]))


def test_bad_events_are_refused_before_writing():
    root = _root()
    j = journal.start(root, seats=4)
    size = os.stat(j.path)[6]
    for kind, arg in [(game.EV_ROLL, (1, 2, 3)), (game.EV_ROLL, (0, 1, 2, 3, 4, 5)), (game.EV_ROLL, None),
                      (game.EV_SPILL, 3), (game.EV_START_SEAT, 0), (game.EV_START_SEAT, None), (9, None)]:
        try:
            j.append(kind, arg)
            raise AssertionError("stored %r %r" % (kind, arg))
        except ValueError:
            pass
    # the engine refuses a roll before the start: nothing is written either
    try:
        j.play(game.EV_ROLL, (1, 2, 3, 4, 5, 6))
        raise AssertionError("a roll before the start was played")
    except ValueError:
        pass
    assert j.count == 0 and os.stat(j.path)[6] == size
    j.close()


def test_settings_round_trip():
    root = _root()
    j = journal.start(root, "kiosk", {"kiosk_shakes": 2, "combined": "off"}, seats=1,
                      counts={"yixiu": 7, "duitang": 1}, bowl_id="万达-3")
    j.play(game.EV_CUSTOMER, None)
    j.play(game.EV_ROLL, (4, 4, 4, 2, 3, 5))
    j.close()
    r = journal.recover(root)
    c = r.journal.config
    assert not r.problems
    # format 1: a game without an event's stock
    assert (c.profile, c.seats, c.bowl_id, c.game_id, c.version) == ("kiosk", 1, "万达-3", 1, 1)
    assert c.overrides == {"kiosk_shakes": 2, "combined": "off"} and c.counts == {"yixiu": 7, "duitang": 1}
    t = r.journal.table
    assert t.initial["yixiu"] == 7 and t.kiosk and t.bowl_id == "万达-3"
    assert t.events == 2 and r.journal.count == 2
    r.journal.close()


def test_bad_settings_are_refused_at_start():
    root = _root()
    for kw in [{"profile": "nope"}, {"overrides": {"combined": "maybe"}}, {"seats": 13},
               {"counts": {"nope": 1}}, {"bowl_id": "two\nlines"}]:
        try:
            journal.start(root, **kw)
            raise AssertionError("started with %r" % (kw,))
        except ValueError:
            pass
    assert journal.inventory(root) == ([], 0)


# --- resume ---------------------------------------------------------------------

def test_resume_gives_the_same_table():
    root = _root()
    path, evs, _ = _game(root, 30)
    r = journal.recover(root)
    assert not r.problems and r.journal.count == 30
    assert _state(r.journal.table) == _state(_replayed(evs))
    # the last roll stands and is shown again after the reboot
    assert evs[-1][0] == game.EV_ROLL and r.journal.last.dice == evs[-1][1]
    got = []
    s = journal.scan(path, 1, keep=got)
    assert got == evs and s.problem is None
    # play on from where it stopped
    r.journal.play(game.EV_ROLL, (4, 4, 4, 4, 1, 1))
    r.journal.close()
    r2 = journal.recover(root)
    assert r2.journal.count == 31
    assert _state(r2.journal.table) == _state(_replayed(evs + [(game.EV_ROLL, (4, 4, 4, 4, 1, 1))]))
    r2.journal.close()


def test_empty_or_missing_folder_has_no_game():
    root = _root()
    r = journal.recover(root)  # the folder does not exist yet: it is made
    assert r.journal is None and not r.problems
    assert os.listdir(root) == []
    _new_game_starts(root, 0)


# --- bad data: the good prefix stays, the tail is set aside, a new game starts ----

def _recover_one(root):
    r = journal.recover(root)
    assert len(r.problems) == 1, log_lines(r)
    return r, r.problems[0]


def test_truncated_record():
    root = _root()
    path, evs, head = _game(root, 20)
    data = _read(path)
    _write(path, data[:-2])
    r, p = _recover_one(root)
    assert p.code == journal.TRUNCATED and p.record == 19 and p.moved_to == "g00000001.bad"
    assert "record 19 is cut short (4 of 6 bytes)" in p.text and "g00000001.bad" in p.text
    assert r.journal.count == 19
    assert _state(r.journal.table) == _state(_replayed(evs[:19]))
    assert _read(path) == data[:head + 19 * journal.RECORD]
    assert _read(_path(root, "g00000001.bad")) == data[head + 19 * journal.RECORD:-2]
    r.journal.close()
    r2 = journal.recover(root)  # the kept prefix is clean now
    assert not r2.problems and r2.journal.count == 19
    r2.journal.close()
    _new_game_starts(root, 1)


def test_bad_checksum_keeps_the_records_before_it():
    root = _root()
    path, evs, head = _game(root, 20)
    data = bytearray(_read(path))
    at = head + 7 * journal.RECORD + 2
    data[at] ^= 0x10  # one flipped bit in record 7
    _write(path, data)
    r, p = _recover_one(root)
    assert p.code == journal.BAD_CHECKSUM and p.record == 7, p.text
    assert "record 7 fails its checksum" in p.text
    assert r.journal.count == 7 and _state(r.journal.table) == _state(_replayed(evs[:7]))
    assert _read(_path(root, p.moved_to)) == bytes(data[head + 7 * journal.RECORD:])
    # the game goes on from the good prefix
    r.journal.play(*evs[7])
    r.journal.close()
    r2 = journal.recover(root)
    assert not r2.problems and r2.journal.count == 8
    r2.journal.close()
    _new_game_starts(root, 1)


def test_a_record_from_another_game_fails_its_checksum():
    root = _root()
    p1, evs, head = _game(root, 10)
    p2, _, _ = _game(root, 10)
    a = _read(p1)
    b = bytearray(_read(p2))
    at = head + 4 * journal.RECORD
    b[at:at + journal.RECORD] = a[at:at + journal.RECORD]  # same event, but game 1's record
    assert b[at] == a[at]
    _write(p2, b)
    r, p = _recover_one(root)
    assert p.code == journal.BAD_CHECKSUM and p.game_id == 2 and p.record == 4
    assert r.journal.count == 4
    r.journal.close()


def test_a_swapped_record_fails_its_checksum():
    root = _root()
    path, evs, head = _game(root, 10)
    d = bytearray(_read(path))
    x = head + 2 * journal.RECORD
    y = head + 3 * journal.RECORD
    d[x:y], d[y:y + journal.RECORD] = d[y:y + journal.RECORD], d[x:y]
    _write(path, d)
    r, p = _recover_one(root)
    assert p.code == journal.BAD_CHECKSUM and p.record == 2 and r.journal.count == 2
    r.journal.close()


def _whole_file_set_aside(root, path, code, words):
    original = _read(path)
    r, p = _recover_one(root)
    assert p.code == code, p.text
    assert p.record == -1 and p.moved_to == "g00000001.bad"
    for w in words:
        assert w in p.text, (w, p.text)
    assert "start a new game" in p.text
    assert r.journal is None
    assert "g00000001.bbj" not in os.listdir(root)
    assert _read(_path(root, "g00000001.bad")) == original  # nothing is lost
    r2 = journal.recover(root)  # the set-aside game is never resumed
    assert r2.journal is None and not r2.problems
    _new_game_starts(root, 1)


def test_truncated_header():
    root = _root()
    path, _, _ = _game(root, 5)
    _write(path, _read(path)[:7])
    _whole_file_set_aside(root, path, journal.TRUNCATED, ["game 1", "header is cut short"])


def test_empty_file():
    root = _root()
    path, _, _ = _game(root, 5)
    _write(path, b"")
    _whole_file_set_aside(root, path, journal.TRUNCATED, ["header is cut short (0 bytes)"])


def test_bad_header_checksum():
    root = _root()
    path, _, _ = _game(root, 5)
    d = bytearray(_read(path))
    d[12] ^= 1  # a letter of the profile name
    _write(path, d)
    _whole_file_set_aside(root, path, journal.BAD_CHECKSUM, ["header", "checksum"])


def test_damaged_header_length():
    root = _root()
    path, _, _ = _game(root, 5)
    d = bytearray(_read(path))
    d[9] = d[10] = 0xFF  # the settings' length field: no 64 KB read on the bowl
    _write(path, d)
    _whole_file_set_aside(root, path, journal.BAD_CHECKSUM, ["header is damaged", "65535"])


def test_newer_format_version():
    root = _root()
    path, _, _ = _game(root, 5)
    d = bytearray(_read(path))
    d[3] = journal.FORMAT + 1
    _write(path, d)
    _whole_file_set_aside(root, path, journal.NEWER_VERSION,
                          ["newer firmware", "format %d" % (journal.FORMAT + 1)])


def test_a_journal_of_another_game():
    root = _root()
    path7, _, _ = _game(root, 5, game_id=7)
    path = _path(root, "g00000001.bbj")
    os.rename(path7, path)  # game 7's file under game 1's name
    _whole_file_set_aside(root, path, journal.OTHER_GAME, ["holds game 7, not game 1"])


def test_not_a_journal():
    root = _root()
    os.mkdir(root)
    path = _path(root, "g00000001.bbj")
    _write(path, b"hello, world")
    _whole_file_set_aside(root, path, journal.BAD_CONFIG, ["not a Bo Bing journal"])


def test_settings_this_firmware_cannot_play():
    root = _root()
    os.mkdir(root)
    c = journal.Config("no_such_preset", seats=6, game_id=1)  # valid checksum, unknown preset
    path = _path(root, "g00000001.bbj")
    _write(path, c.encode())
    _whole_file_set_aside(root, path, journal.BAD_CONFIG, ["cannot play its settings", "no_such_preset"])


def test_an_event_the_engine_refuses():
    root = _root()
    j = journal.start(root, seats=6)
    for ev in _events(5):
        j.play(*ev)
    j.append(game.EV_START_SEAT, 2)  # checksum fine, but the game has already started
    j.append(game.EV_ROLL, (1, 1, 2, 2, 3, 3))
    j.close()
    r, p = _recover_one(root)
    assert p.code == journal.BAD_EVENT and p.record == 5
    assert "record 5" in p.text and "refused by the game" in p.text and "already started" in p.text
    assert r.journal.count == 5
    assert _read(_path(root, p.moved_to))[:1] == bytes([game.EV_START_SEAT])
    assert os.stat(_path(root, p.moved_to))[6] == 2 * journal.RECORD
    r.journal.close()


def test_an_unknown_event_kind():
    root = _root()
    path, _, head = _game(root, 6)
    # a record of kind 9 with a valid checksum, as a newer firmware might write
    w = bytearray(12)
    w[0] = 1  # game id 1
    w[4] = 6  # record index 6
    w[8] = 9
    c = journal.crc16(w)
    f = open(path, "ab")
    f.write(bytes(w[8:12]) + bytes([c & 255, c >> 8]))
    f.close()
    r, p = _recover_one(root)
    assert p.code == journal.BAD_EVENT and p.record == 6 and "unknown event kind 9" in p.text
    assert r.journal.count == 6
    r.journal.close()


def test_set_aside_files_are_never_overwritten():
    root = _root()
    path, _, head = _game(root, 10)
    _write(path, _read(path)[:-1])
    journal.recover(root).journal.close()
    _write(path, _read(path)[:-3])
    r, p = _recover_one(root)
    assert p.moved_to == "g00000001-2.bad"
    r.journal.close()
    names = os.listdir(root)
    assert "g00000001.bad" in names and "g00000001-2.bad" in names
    assert os.stat(_path(root, "g00000001.bad"))[6] == 5
    assert os.stat(_path(root, "g00000001-2.bad"))[6] == 3


def test_half_written_tmp_files_are_removed():
    root = _root()
    path, evs, _ = _game(root, 5)
    _write(_path(root, "g00000002.tmp"), b"BBJ")  # a cut while game 2 was being created
    r = journal.recover(root)
    assert r.removed == ["g00000002.tmp"] and not r.problems
    assert r.journal.game_id == 1 and r.journal.count == 5
    r.journal.close()
    assert sorted(os.listdir(root)) == ["g00000001.bbj"]


def test_recovery_never_raises_on_garbage():
    x = 12345
    for i in range(40):
        root = _root() if i % 10 == 0 else root  # noqa: F821 (bound at i == 0)
        path, _, head = _game(root, 8)
        d = bytearray(_read(path))
        for _ in range(1 + i % 4):  # scribble over a few bytes, maybe cut the file
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            d[x % len(d)] = (x >> 8) & 255
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if i % 3 == 0:
            d = d[:x % len(d)]
        _write(path, d)
        r = journal.recover(root)
        if r.journal is not None:
            assert r.journal.count <= 8
            r.journal.close()
        for p in r.problems:
            assert p.code in CODES and p.moved_to, p.text


# --- wear: a file per game, finished games pruned oldest first --------------------

def test_finished_games_are_pruned_oldest_first():
    root = _root()
    sizes = []
    for n in (10, 20, 30, 40):
        path, _, _ = _game(root, n)
        sizes.append(os.stat(path)[6])
    _write(_path(root, "g00000002.bad"), b"evidence")
    # a budget that holds games 3 and 4 but not 2 as well
    j = journal.start(root, seats=4, keep_bytes=sizes[2] + sizes[3])
    assert j.game_id == 5
    j.close()
    names = sorted(os.listdir(root))
    assert names == ["g00000002.bad", "g00000003.bbj", "g00000004.bbj", "g00000005.bbj"], names
    # budget 0 keeps only the game being started
    journal.start(root, seats=4, keep_bytes=0).close()
    assert journal.inventory(root) == ([6], 6)
    assert "g00000002.bad" in os.listdir(root)  # set-aside data is never pruned


def test_a_family_bowl_starting_games_never_loads_the_outbox():
    """Only a bowl provisioned for an event (net.txt) has awards waiting for a
    broker: pruning on any other keeps the outbox (and claim) out of the heap."""
    root = _root()
    _game(root, 10)
    import bobing
    # unloaded, also from the package (CPython's `from bobing import outbox` takes the
    # package's attribute without importing again)
    saved = sys.modules.pop("bobing.outbox", None)
    attr = bobing.__dict__.pop("outbox", None)
    from bobing import console  # (the journal is told what to keep: console._unsent asks the outbox)
    try:
        journal.start(root, seats=4, keep_bytes=0, unsent=console._unsent(root)).close()
        assert "bobing.outbox" not in sys.modules
        _write(_path(root, "net.txt"), b"ssid=x\n")
        journal.start(root, seats=4, keep_bytes=0).close()
        assert "bobing.outbox" not in sys.modules  # the journal itself never imports it
        journal.start(root, seats=4, keep_bytes=0, unsent=console._unsent(root)).close()
        assert "bobing.outbox" in sys.modules  # provisioned: the cursor decides what stays
    finally:
        if saved is not None:
            sys.modules["bobing.outbox"] = saved
        if attr is not None:
            bobing.outbox = attr


def test_game_ids_are_never_reused():
    root = _root()
    _game(root, 3)
    _game(root, 3)
    os.rename(_path(root, "g00000002.bbj"), _path(root, "g00000002.bad"))
    j = journal.start(root, seats=4)
    assert j.game_id == 3
    j.close()
    try:
        journal.start(root, seats=4, game_id=2)
        raise AssertionError("game id 2 reused")
    except ValueError as e:
        assert "taken" in str(e)


# --- checkpoints: a boot replays at most CHECKPOINT_EVERY + 1 events --------------

SECRET = bytes(range(16))
def _vars(t):
    """Every attribute of a table but its (immutable) rules objects and secret."""
    d = t.__dict__
    return [(k, d[k]) for k in sorted(d) if k not in ("profile", "rules", "_secret")]


def _random_game(profile, seats, seed, n, counts=None):
    """A valid game of at most n events (fewer if it ends) -> events."""
    from game_check import SPECIAL, Lcg
    rng = Lcg(seed)
    t = game.Table(journal.Config(profile).make_profile(), seats, counts=counts)
    evs = []
    while not t.ended and len(evs) < n:
        if t.kiosk and not t.shakes_left:
            ev = (game.EV_CUSTOMER, None)
        elif not t.started:
            ev = (game.EV_START_TOTAL, 2 + rng(11))
        elif rng(25) == 0:
            ev = (game.EV_SPILL, None)
        elif t.time_limit and rng(60) == 0:
            ev = (game.EV_TIMEUP, None)
        elif rng(4) == 0:
            ev = (game.EV_ROLL, SPECIAL[rng(len(SPECIAL))])
        else:
            ev = (game.EV_ROLL, tuple([1 + rng(6) for _ in range(6)]))
        t.apply(*ev)
        evs.append(ev)
    return evs


KIOSK_STOCK = {"yixiu": 20000, "erju": 9000, "sijin": 5000, "sanhong": 2000, "duitang": 500, "zhuangyuan": 300}
GAMES = (("xiamen", 10, None, {}), ("friendly", 6, None, {}), ("zhangzhou", 4, None, {}),
         ("capped_classes", 1, None, {}), ("kiosk", 1, KIOSK_STOCK, {}),
         ("xiamen", 8, None, {"time_limit": 20, "heiliubo_effect": "grab"}))


def test_checkpoint_state_round_trips_after_every_event():
    for profile, seats, counts, ov in GAMES:
        cfg = journal.Config(profile, ov, seats, counts or {}, "", 1)
        cfg.check()
        t = journal.new_table(cfg, SECRET)
        evs = _random_game(profile, seats, 11, 400, counts)
        for i in range(len(evs) + 1):
            b = t.snapshot()
            u = journal.new_table(cfg, SECRET)
            u.restore(b, 0, len(b), t.events)
            assert _vars(u) == _vars(t), (profile, i)
            if i < len(evs):
                t.apply(*evs[i])
    assert t.ended or t.events == 400


def _kiosk_game(root, n):
    j = journal.start(root, "kiosk", seats=1, counts=KIOSK_STOCK, secret=SECRET)
    evs = _random_game("kiosk", 1, 5, n, KIOSK_STOCK)
    for ev in evs:
        j.play(*ev)
    j.close()
    return j, evs


def _full(path, gid):
    evs = []
    s = journal.scan(path, gid, SECRET, keep=evs)
    assert s.problem is None and s.base == 0
    return s, evs


def test_boot_replays_at_most_a_checkpoint_interval():
    root = _root()
    n = 300 if MP else 700  # several checkpoint intervals (the 32-bit unix port has a small heap)
    j, evs = _kiosk_game(root, n)
    assert len(evs) == n and j.ck > n - journal.CHECKPOINT_EVERY - 2
    assert sorted(os.listdir(root)) == ["g00000001.bbc", "g00000001.bbj"]
    r0 = journal.replayed()
    r = journal.recover(root, SECRET)
    replayed = journal.replayed() - r0
    assert not r.problems and not r.notes and r.journal.count == j.count  # its records: events and seals
    assert 1 <= replayed <= journal.CHECKPOINT_EVERY + 1, replayed
    full, kept = _full(j.path, 1)
    assert kept == evs and _vars(r.journal.table) == _vars(full.table)
    assert r.journal.last.kind == evs[-1][0] and r.journal.last.claims == full.last.claims
    # and it plays on: a checkpoint falls due and the next boot is still short
    for ev in _random_game("kiosk", 1, 5, n + 2 * journal.CHECKPOINT_EVERY, KIOSK_STOCK)[n:]:
        r.journal.play(*ev)
    r.journal.close()
    r0 = journal.replayed()
    r2 = journal.recover(root, SECRET)
    assert journal.replayed() - r0 <= journal.CHECKPOINT_EVERY + 1
    assert _vars(r2.journal.table) == _vars(_full(j.path, 1)[0].table)
    r2.journal.close()


def test_a_game_without_a_checkpoint_is_replayed_whole_then_gets_one():
    # a journal from firmware before checkpoints: the same .bbj, no .bbc
    root = _root()
    j, evs = _kiosk_game(root, 300)
    os.remove(_path(root, "g00000001.bbc"))
    r0 = journal.replayed()
    r = journal.recover(root, SECRET)
    assert not r.problems and not r.notes and journal.replayed() - r0 == 300
    c0 = r.journal.count  # the records on flash: 300 events and their seals
    for ev in _random_game("kiosk", 1, 5, 302, KIOSK_STOCK)[300:]:
        r.journal.play(*ev)
    assert r.journal.ck == c0  # the state before event 300 (record c0), written as event 301 was played
    c1 = r.journal.count
    r.journal.close()
    r0 = journal.replayed()
    r = journal.recover(root, SECRET)
    assert journal.replayed() - r0 == 2 and r.journal.count == c1
    r.journal.close()


def _crafted_checkpoint(data, n=None, gid=None, state=None, version=None, rec=None):
    """A checkpoint with the given fields changed and a valid checksum."""
    m = data[18] | (data[19] << 8)
    old_state = data[20:20 + m]
    b = journal.checkpoint_bytes(journal.get32(data, 4) if gid is None else gid,
                                 journal.get32(data, 8) if n is None else n,
                                 data[12:18] if rec is None else rec,
                                 old_state if state is None else state)
    if version is not None:
        b[3] = version
        jformat.put_crc(b)
    return b


def test_an_unusable_checkpoint_is_not_used_and_nothing_is_lost():
    root = _root()
    j, evs = _kiosk_game(root, 200)
    ck = _path(root, "g00000001.bbc")
    good = _read(ck)
    n = journal.get32(good, 8)
    full = _vars(_full(j.path, 1)[0].table)
    flipped = bytearray(good)
    flipped[25] ^= 4
    st = bytearray(good[20:-2])
    st[-1] += 1  # one more prize of the last class than there ever was
    over = journal.new_table(j.config, SECRET)  # a game over at the checkpoint: the events after it are refused
    over.restore(good, 20, len(good) - 2, journal.state_events(good, 20, len(good) - 2, n, j.config.version))
    over.ended = True
    over.reason = "stock_out"
    cases = [("refused", _crafted_checkpoint(good, state=over.snapshot())),
             ("checksum", flipped), ("length field", good[:30]), ("length field", good + b"x"),
             ("game 2's", _crafted_checkpoint(good, gid=2)),
             ("no record", _crafted_checkpoint(good, n=len(evs) + 5)),
             ("no record", _crafted_checkpoint(good, n=n - 1)),
             ("no record", _crafted_checkpoint(good, rec=b"\0" * 6)),
             ("format 2", _crafted_checkpoint(good, version=2)),
             ("do not add up", _crafted_checkpoint(good, state=st)),
             ("not after", _crafted_checkpoint(good, state=journal.new_table(j.config).snapshot())),
             ("not a checkpoint", b"BBJ" + good[3:]), ("not a checkpoint", b"")]
    for words, data in cases:
        _write(ck, data)
        r0 = journal.replayed()
        r = journal.recover(root, SECRET)
        assert not r.problems and r.journal.count == j.count, words
        assert len(r.notes) == 1 and "checkpoint not used" in r.notes[0] and words in r.notes[0], (words, r.notes)
        assert journal.replayed() - r0 == len(evs) and _vars(r.journal.table) == full, words
        r.journal.close()
    _write(ck, good)
    r = journal.recover(root, SECRET)
    assert not r.notes and _vars(r.journal.table) == full
    r.journal.close()


def test_a_boot_from_a_checkpoint_holds_one_table_at_a_time():
    # the boot's largest need of heap: a second Table beside the one the header
    # made ran the frozen bowl out of its heap at the power cut (bench/app_heap.py)
    root = _root()
    j, evs = _kiosk_game(root, 200)
    full = _vars(_full(j.path, 1)[0].table)
    j = None
    made = []  # per table made: how many made before it were still alive (CPython; 0 on MicroPython)
    refs = []
    new_table = journal.new_table

    def counted(cfg, secret=None):
        made.append(0 if MP else sum([1 for w in refs if w() is not None]))
        t = new_table(cfg, secret)
        if not MP:
            import weakref
            refs.append(weakref.ref(t))
        return t

    journal.new_table = counted
    try:
        r = journal.recover(root, SECRET)
        assert not r.problems and not r.notes and len(made) == 1, made  # restored into the header's table
        assert _vars(r.journal.table) == full
        r.journal.close()
        # a checkpoint the table refuses half-way: that table goes before a fresh one is made
        ck = _path(root, "g00000001.bbc")
        good = _read(ck)
        st = bytearray(good[20:-2])
        st[-1] += 1
        _write(ck, _crafted_checkpoint(good, state=st))
        del made[:]
        del refs[:]
        r = journal.recover(root, SECRET)
        assert not r.problems and "do not add up" in r.notes[0] and made == [0, 0], made  # the half-set one went first
        assert _vars(r.journal.table) == full
        r.journal.close()
    finally:
        journal.new_table = new_table


def test_repair_keeps_a_checkpoint_only_while_its_record_stays():
    root = _root()
    j, evs = _kiosk_game(root, 200)
    head = len(j.config.encode())
    n = j.ck
    data = _read(j.path)
    # damage after the checkpoint's record: the checkpoint stays and is used
    _write(j.path, data[:head + (n + 3) * journal.RECORD + 2])
    r, p = _recover_one(root)
    assert p.code == journal.TRUNCATED and r.journal.count == n + 3 and r.journal.ck == n
    r.journal.close()
    assert "g00000001.bbc" in os.listdir(root)
    # damage at the checkpoint's record: the checkpoint goes with it
    d = bytearray(_read(j.path))
    d[head + n * journal.RECORD + 1] ^= 1
    _write(j.path, d)
    r, p = _recover_one(root)
    assert p.code == journal.BAD_CHECKSUM and r.journal.count == n and r.journal.ck == 0
    assert "g00000001.bbc" not in os.listdir(root)
    assert _vars(r.journal.table) == _vars(_full(j.path, 1)[0].table)
    r.journal.close()


# --- damaged and crafted journals (tests/journal_probes.py) -----------------------

def test_damaged_and_crafted_journals_are_set_aside():
    root = _root()
    path, evs, head = _game(root, 12)
    good = _read(path)
    os.remove(path)
    n = 0
    for name, data in probes(good, head, len(evs), stride=3 if MP else 1):
        check(root, name, data)
        n += 1
    # and the checkpoint beside a sound journal
    every = journal.CHECKPOINT_EVERY
    journal.CHECKPOINT_EVERY = 4
    try:
        path, evs, head = _game(root, 12)
    finally:
        journal.CHECKPOINT_EVERY = every
    good = _read(path)
    ck = _read(_path(root, "g00000001.bbc"))
    m = 0
    for i, (name, data, strict) in enumerate(checkpoint_probes(ck)):
        if not MP or i % 3 == 0:
            check(root, name, good, extra=(("g00000001.bbc", data),), strict=strict)
            m += 1
    print("damaged or crafted journals recovered: %d; checkpoints: %d" % (n, m))
    assert n > (80 if MP else 250) and m > 100


def _cut_with_a_tail(n):
    """A game whose last n records are only in its tail (the power went before a fold)."""
    root = _root()
    j = journal.start(root, seats=10)
    j.play(game.EV_START_TOTAL, 7)
    for i in range(n - 1):
        j.play(game.EV_ROLL, (1 + i % 6, 2, 3, 4, 5, 6))
    j._tf.close()  # the power goes: nothing more is written, nothing folded
    j._f.close()
    return root, j.path[:-4] + journal.TAIL


def test_a_boot_puts_the_tails_records_in_the_journal():
    root, tail = _cut_with_a_tail(5)
    assert os.stat(tail)[6] == 16 + 5 * journal.RECORD
    r = journal.recover(root)
    assert not r.problems and r.journal.count == 5 and r.journal.table.events == 5
    assert os.stat(tail)[6] == 0  # the game's new tail, empty
    r.journal.close()
    assert sorted(os.listdir(root)) == ["g00000001.bbj"]
    evs = []
    assert journal.scan(root + "/g00000001.bbj", 1, keep=evs).problem is None and len(evs) == 5


def test_a_damaged_tail_is_set_aside_and_its_good_records_kept():
    root, tail = _cut_with_a_tail(5)
    b = bytearray(_read(tail))
    b[16 + 3 * journal.RECORD + 1] ^= 4  # record 3's argument
    _write(tail, bytes(b))
    r = journal.recover(root)
    assert [p.code for p in r.problems] == [journal.BAD_CHECKSUM], log_lines(r)
    assert "record 3" in r.problems[0].text and r.problems[0].moved_to == "g00000001.bad"
    assert r.journal.count == 3 and r.journal.table.events == 3  # records 0..2, before the damage
    assert _read(root + "/g00000001.bad") == bytes(b)  # nothing lost: the tail as it was
    r.journal.close()
