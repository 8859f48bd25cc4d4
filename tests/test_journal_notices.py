# The journal's notices say what happened, read off the bowl's screen in both
# languages: "recovered, bad tail set aside" only when a bad tail was set aside.
# Damage found after the boot (the game goes on, nothing moved), a final too
# large for the memory free at a boot (kept on flash as it is), a damaged final
# (set aside as final.bad, or left where it is when that fails), a recovery that
# failed (the game kept as it is, a new one started) each have their
# own words.
import os

from bobing import console as C
from bobing import final_play as F
from bobing import journal, panels, vocab
from host_sim.sim import player
from outboxkit import BOWL, kiosk_events, write_game
from ramflash import fresh_root

N = 300  # events of the kiosk game
CK = 260  # its checkpoint covers records 0..CK-1: a boot does not read record 10
SET_ASIDE = ("已另存", "记录已恢复", "set aside", "recovered")


def _said(c):
    """The notice on show, as a person reads it: (Chinese, English)."""
    assert c.view == C.V_NOTICE, vocab.VIEW_IDS[c.view]
    out = []
    for lang in ("zh", "en"):
        ts = player._TextScreen(player._TextFrame(), lang)
        panels.draw(ts, c)
        out.append(" ".join(player.screen_lines(ts.fb.items)))
    return out


def _console(root):
    """The kiosk whose game is on flash, booted with the settings it wrote (a kiosk
    journal beside no settings.txt would be a damaged kiosk: test_settings_cuts.py)."""
    from bobing import settings
    s = C.Settings()
    s.mode = "kiosk"
    s.pin = settings.pin_record("2468", b"salt of 16 bytes")
    with open(root + "/" + settings.SETTINGS_FILE, "w") as f:
        f.write(settings.text(s))
    with open(root + "/" + settings.SECRET_FILE, "w") as f:
        f.write("00112233445566778899aabbccddeeff")
    return C.Console(root, 1000, os.urandom, has_sensor=False)


def test_damage_found_after_the_boot_says_the_game_goes_on_and_nothing_was_set_aside():
    root = fresh_root(blocks=24)
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(7, N), ck_at=CK)
    path = journal.path_of(root, 1)
    with open(path, "rb") as f:
        b = bytearray(f.read())
    b[len(b) - N * journal.RECORD + 10 * journal.RECORD + 3] ^= 0x30  # two bits: not mended, reported
    with open(path, "wb") as f:
        f.write(b)
    c = _console(root)
    assert c.view != C.V_NOTICE  # the boot read only the records after the checkpoint
    for k in range(300):  # the roll before the power cut shows again, then the notice (30 s at most)
        c.tick(1000 + 100 * k)
        if c.view == C.V_NOTICE:
            break
    assert [line for line in c.log if "record 10" in line], c.log
    zh, en = _said(c)
    assert "记录有损坏" in zh and "未另存" in zh and "游戏继续" in zh, zh
    assert "Journal damaged; none moved: game on" in en, en
    assert not [w for w in SET_ASIDE if w in zh or w in en], (zh, en)
    c.press(C.B_OK, C.PRESS, c.now * 1000)
    assert c.view != C.V_NOTICE and c.j is not None and c.j.game_id == 1  # the game goes on
    assert os.path.exists(path) and not [n for n in os.listdir(root) if n.endswith(".bad")]


def _final(root):
    os.makedirs(root, exist_ok=True)
    F.FinalPlay(root, 1234, 3, "xiamen").save()


def test_a_final_too_large_for_the_memory_now_says_it_waits_on_flash_for_a_later_boot(monkeypatch):
    root = fresh_root("data")
    _final(root)

    def short(*a):
        raise MemoryError("memory allocation failed")
    monkeypatch.setattr(F, "read", short)  # the heap has no room for it at this boot
    c = _console(root)
    assert c.final is None and c.arg == (C.N_JOURNAL, vocab.J_FINAL_KEPT)
    zh, en = _said(c)
    assert "王中王暂停" in zh and "内存不足" in zh and "下次开机再试" in zh, zh
    assert "Final paused too big for RAM retried at boot" in en, en
    assert not [w for w in SET_ASIDE if w in zh or w in en], (zh, en)
    assert F.FILE in os.listdir(root)


def _damaged_final(root):
    _final(root)
    with open(os.path.join(root, F.FILE), "rb") as f:
        data = bytearray(f.read())
    data[data.find(b"players 3") + 8] = ord("4")  # its CRC no longer matches
    with open(os.path.join(root, F.FILE), "wb") as f:
        f.write(data)


def test_a_damaged_final_says_it_was_set_aside_and_the_table_game_goes_on():
    root = fresh_root("data")
    _damaged_final(root)
    c = _console(root)
    assert c.final is None and c.arg == (C.N_JOURNAL, vocab.J_FINAL_BAD)
    assert "final.bad" in os.listdir(root) and F.FILE not in os.listdir(root)
    zh, en = _said(c)
    assert "王中王损坏" in zh and "已另存" in zh and "游戏继续" in zh and "final.bad" in zh, zh
    assert "Final damaged; set aside: game on final.bad" in en, en


def test_a_damaged_final_that_cannot_be_set_aside_does_not_say_it_was(monkeypatch):
    root = fresh_root("data")
    _damaged_final(root)

    real = os.rename

    def refuse(a, b):
        if b.endswith("final.bad"):
            raise OSError(28, "no room")
        real(a, b)
    monkeypatch.setattr(os, "rename", refuse)
    c = _console(root)
    monkeypatch.undo()
    assert c.final is None and c.arg == (C.N_JOURNAL, vocab.J_FINAL_LEFT)
    assert F.FILE in os.listdir(root)
    zh, en = _said(c)
    assert "王中王损坏" in zh and "未另存" in zh, zh
    assert "Final damaged; none moved: game on" in en, en
    assert not [w for w in SET_ASIDE if w in zh or w in en], (zh, en)


def test_a_bad_tail_set_aside_at_boot_still_says_so():
    c = C.Console.__new__(C.Console)  # only what panels.draw reads of a console
    c.view, c.arg, c.settings = C.V_NOTICE, (C.N_JOURNAL, journal.TRUNCATED), C.Settings()  # (its lang: zh)
    zh, en = _said(c)
    assert "记录已恢复" in zh and "损坏部分已另存" in zh and "recovered; bad tail set aside" in en, (zh, en)


def test_a_recovery_that_fails_keeps_the_game_says_so_and_a_new_game_starts(monkeypatch):
    root = fresh_root(blocks=24)
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(7, 40))
    path = journal.path_of(root, 1)

    def trips(*a, **k):  # a fault of recovery's own, not of what is on flash
        raise RuntimeError("a bug")
    monkeypatch.setattr(journal, "scan", trips)
    c = _console(root)
    monkeypatch.undo()
    assert [line for line in c.log if "recovery failed: RuntimeError a bug" in line], c.log
    assert c.view == C.V_NOTICE and c.arg == (C.N_JOURNAL, journal.NOT_RECOVERED)
    zh, en = _said(c)
    assert "记录有损坏" in zh and "未另存" in zh and "新游戏开始" in zh, zh
    assert "Journal damaged; none moved: new game" in en, en
    assert not [w for w in SET_ASIDE if w in zh or w in en], (zh, en)
    assert os.path.exists(path) and c.j is not None and c.j.game_id == 2  # kept as it was; a new game
