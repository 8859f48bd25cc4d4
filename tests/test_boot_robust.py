# A boot never gives up a game for what is not the game's fault: out of memory
# while replaying it (the bowl reboots and tries again; nothing is abandoned, no
# restocked game starts), a checkpoint file that cannot be read (the journal is
# replayed whole instead), a net.txt that cannot be read (the bowl plays
# offline and says why). Journeys on the simulated bowl (host_sim/portable/fakes/bowl.py).
import os

import pytest

from bobing import console as C
from bobing import journal
from bowlkit import new_sim, roll


def _files(root):
    return sorted(n for n in os.listdir(root) if n.endswith(journal.SUFFIX))


def test_out_of_memory_while_replaying_at_boot_keeps_the_game(tmp_path, monkeypatch):
    sim = new_sim(tmp_path)
    for _ in range(4):
        roll(sim)
    events = sim.console.table.events
    files = _files(str(tmp_path))
    real = journal.new_table
    fails = [2]  # the boot's replay runs out of heap, and the retry after a collect too

    def short_of_heap(*a, **k):
        if fails[0]:
            fails[0] -= 1
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        return real(*a, **k)
    monkeypatch.setattr(journal, "new_table", short_of_heap)
    with pytest.raises(MemoryError):  # the boot fails (bowl.app.main: the watchdog resets it)
        sim.power_cut()
    assert _files(str(tmp_path)) == files  # no new (restocked) game
    sim._start()  # the reset: the heap is there this time
    assert sim.console.table.events == events and _files(str(tmp_path)) == files
    fails[0] = 1  # once short of heap: the retry after a collect resumes the game
    sim.power_cut()
    assert sim.console.table.events == events and _files(str(tmp_path)) == files


def test_an_unreadable_checkpoint_replays_the_journal(tmp_path):
    every = journal.CHECKPOINT_EVERY
    journal.CHECKPOINT_EVERY = 4
    try:
        sim = new_sim(tmp_path)
        for _ in range(7):
            roll(sim)
        c = sim.console
        events = c.table.events
        ck = c.j.path[:-4] + journal.CKPT
        os.remove(ck)
        os.mkdir(ck)  # a checkpoint that cannot be read as a file
        sim.power_cut()
        sim.step(100)
        assert sim.console.table.events == events
        assert not [n for n in sim.console._notices if n[0] == C.N_JOURNAL]
        for _ in range(5):  # and the game goes on, checkpointed again
            roll(sim)
        assert sim.console.table.events == sim.console.j.count >= events + 4
        assert os.path.isfile(ck)
    finally:
        journal.CHECKPOINT_EVERY = every


def test_an_unreadable_net_txt_plays_offline(tmp_path):
    os.mkdir(str(tmp_path) + "/net.txt")
    sim = new_sim(tmp_path)
    assert sim.console is not None and sim.console.event == ""
    roll(sim)
    assert any("net" in line for line in sim.log())


def _flash_full(monkeypatch):
    """No room for a new file: littlefs answers ENOSPC (28) when a new game's
    header, or a repair's copy, is written."""
    def full(*a, **k):
        raise OSError(28, "no space left on the flash")
    from bobing import store
    monkeypatch.setattr(store, "write_whole", full)
    monkeypatch.setattr(store, "copy", full)


def test_menu_new_game_on_a_full_flash_says_so_and_keeps_the_game(tmp_path, monkeypatch):
    from bowlkit import goto, press
    sim = new_sim(tmp_path)
    for _ in range(3):
        roll(sim)
    c = sim.console
    events = c.table.events
    _flash_full(monkeypatch)
    press(sim, "menu")
    goto(sim, "new")
    press(sim, "ok")  # confirm: no room for it
    c = sim.console
    assert c.view == C.V_NOTICE and c.arg[0] == C.N_FLASH
    assert c.table.events == events and c.j.game_id == 1
    press(sim, "ok")
    assert c.table is not None and c.view != C.V_NOTICE
    monkeypatch.undo()
    roll(sim)  # and the game it had goes on
    assert sim.console.table.events == events + 1


def test_a_damaged_only_game_on_a_full_flash_boots_to_a_notice(tmp_path, monkeypatch):
    sim = new_sim(tmp_path)
    for _ in range(3):
        roll(sim)
    path = sim.console.j.path
    with open(path, "r+b") as f:  # its header damaged: it must go aside whole, and no new game fits
        f.seek(5)
        f.write(b"\xee")
    with open(path, "rb") as f:
        kept = f.read()
    _flash_full(monkeypatch)
    real_rename = os.rename

    def rename(a, b):
        if b.endswith(journal.BAD):
            raise OSError(28, "no space left on the flash")
        return real_rename(a, b)
    monkeypatch.setattr(os, "rename", rename)
    for _ in range(2):  # every boot: a notice, never a crash
        sim.power_cut()
        sim.step(100)
        c = sim.console
        assert c.view == C.V_NOTICE and c.table is None
        sim.press("ok")
        sim.step(200)
        assert sim.console.view == C.V_NOTICE  # nothing to play: the notice stays
        sim.shake()
        sim.step(3000)
    with open(path, "rb") as f:
        assert f.read() == kept  # nothing lost


def _screen(sim):
    """What the screen says now (the firmware's own drawing, read as text)."""
    from host_sim.sim.player import shown_lines
    return " ".join(shown_lines(sim.app, sim.console))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_damaged_tail_the_full_flash_cannot_set_aside_is_not_said_to_be_set_aside(tmp_path, monkeypatch, lang):
    sim = new_sim(tmp_path)
    sim.console.settings.lang = lang  # (the console's lang is the setting's)
    from bobing import settings
    settings.save(sim.console)
    for _ in range(3):
        roll(sim)
    path = sim.console.j.path
    with open(path, "r+b") as f:  # the last record cut short, as by a power cut mid-write
        f.truncate(os.path.getsize(path) - 3)
    with open(path, "rb") as f:
        kept = f.read()
    _flash_full(monkeypatch)  # and no room for the repair's copies
    sim.power_cut()
    sim.step(100)
    seen = []
    for _ in range(4):
        c = sim.console
        if c.view != C.V_NOTICE or c.arg[0] != C.N_JOURNAL:
            break
        seen.append((c.arg, _screen(sim)))
        sim.press("ok")
        sim.step(200)
    assert [a for a, _ in seen] == [(C.N_JOURNAL, journal.FLASH_FULL)], seen  # one notice: the outcome
    text = seen[0][1]
    if lang == "zh":
        assert "未另存" in text and "损坏部分已另存" not in text, text
    else:
        assert "flash" in text and "set aside" not in text, text
    events = sim.console.table.events
    sim.shake()
    sim.step(3000)
    assert sim.console.table.events == events  # and no rolls, as it says
    with open(path, "rb") as f:
        assert f.read() == kept  # nothing was set aside indeed
