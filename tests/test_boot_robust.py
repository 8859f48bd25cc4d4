# A boot never gives up a game for what is not the game's fault: out of memory
# while replaying it (the bowl reboots and tries again; nothing is abandoned, no
# restocked game starts), a checkpoint file that cannot be read (the journal is
# replayed whole instead), a net.txt that cannot be read (the bowl plays
# offline and says why). Journeys on the simulated bowl (host_sim/hal.py).
import os

import pytest

from bobing import console as C
from bobing import journal
from test_bowl import new_sim, roll


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
