# Out of memory never stops the bowl: a MemoryError in a round of the app is
# said in the log and the bowl restarts into the same game (machine.reset(): the journal
# holds it); a frame that finds no memory is drawn again; the network that cannot start for
# memory leaves the game offline, not stopped; the random source read short of memory is read
# again at the next roll, not refused for the rest of the game. Journeys on the simulated
# bowl (host_sim/portable/fakes/bowl.py); tests/test_oom_heaps.py plays a game on the unix
# port at heap sizes from the smallest that boots upward.
from bobing import console as C
from bobing import journal
from bobing import screen as scr
from host_sim.portable.fakes import wlan as fake_wlan
from host_sim.portable.fakes import bowl as hal
from bowlkit import new_sim, roll
from bowlrun import Stream


def _once(real, after=0):
    """real, but its call after+1 finds no memory."""
    calls = [0]

    def short(*a, **k):
        calls[0] += 1
        if calls[0] == after + 1:
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        return real(*a, **k)
    return short


def test_out_of_memory_mid_roll_restarts_into_the_same_game(tmp_path, monkeypatch):
    sim = new_sim(tmp_path)
    for _ in range(3):
        roll(sim)
    events, game = sim.console.table.events, sim.console.j.path
    monkeypatch.setattr(journal.Journal, "append", _once(journal.Journal.append))
    sim.shake()  # the roll's record finds no memory: nothing recorded, the bowl restarts
    sim.run_until(lambda s: s.resets, 15000)
    assert sim.resets == ["reset"]
    log = sim.log()
    assert [line for line in log if line.startswith("out of memory in") and "restarting into the same game" in line]
    assert "resumed game 1 at event %d" % events in log
    c = sim.console
    assert c.j.path == game and c.table.events == events
    while c.view == C.V_RESULT:  # the last roll before the restart, shown again
        sim.press("ok")
        sim.step(150)
    assert c.view == C.V_TURN
    out = roll(sim)  # and the same game goes on, from the same turn
    assert sim.console.table.events == events + 1 and out.dice and sim.resets == ["reset"]


def test_a_frame_without_memory_is_drawn_again(tmp_path, monkeypatch):
    sim = new_sim(tmp_path)
    shown = sim.app.shown
    monkeypatch.setattr(scr.Screen, "idle", _once(scr.Screen.idle))
    sim.console.redraw()
    sim.step(100)
    assert "screen: out of memory drawing a frame; drawn again" in sim.log()
    assert sim.app.shown > shown and sim.resets == []  # the next round drew it
    roll(sim)


def test_a_network_that_cannot_start_for_memory_leaves_the_game_offline(tmp_path, monkeypatch):
    from bobing import outbox
    (tmp_path / "net.txt").write_text("ssid=mall\npassword=secret123\ntls=off\nbroker=10.0.0.2\nevent=e\n"
                                      "stock=bowl\n")
    air = fake_wlan.Air({"mall": "secret123"}, broker=fake_wlan.FakeBroker())
    sim = hal.Sim(str(tmp_path), urandom=Stream(1), air=air)
    monkeypatch.setattr(outbox, "Outbox", _once(outbox.Outbox))
    sim.power_cut()  # this boot reads net.txt for its game, then its network start finds no memory
    sim.step(100)
    assert sim.net is None
    assert "net: out of memory starting the network; playing offline (the next boot tries again)" in sim.log()
    roll(sim)
    assert sim.console.table.events == 1 and sim.resets == ["power"]


def test_the_random_source_short_of_memory_at_boot_is_read_again_at_the_first_roll(tmp_path):
    sim = new_sim(tmp_path)
    roll(sim)
    sim.urandom = _once(Stream(2))  # at the next boot os.urandom finds no memory, once
    sim.power_cut()
    sim.step(100)
    assert "dice: out of memory reading the random source" in sim.log()
    c = sim.console
    while c.view == C.V_RESULT:
        sim.press("ok")
        sim.step(150)
    assert c.view == C.V_TURN and c.dice is None  # no "RNG failure, no rolls" notice: no test failed
    out = roll(sim)
    assert out.dice and c.dice is not None and c.table.events == 2 and sim.resets == ["power"]


def test_out_of_memory_escaping_the_network_task_restarts_the_task_not_the_game(tmp_path, monkeypatch):
    from bowl import net
    (tmp_path / "net.txt").write_text("ssid=mall\npassword=secret123\ntls=off\nbroker=10.0.0.2\nevent=e\nstock=bowl\n")
    br = fake_wlan.FakeBroker()
    br.retain("bobing/e/desk/status", b'{"v":2,"on":1}')
    air = fake_wlan.Air({"mall": "secret123"}, broker=br)
    sim = hal.Sim(str(tmp_path), urandom=Stream(1), air=air)
    sim.step(5000)
    assert any(line.startswith("net: connected") for line in sim.log())
    # a round of the task, and then its own handler, find no memory: it escapes net.run
    monkeypatch.setattr(net.Net, "take_in", _once(net.Net.take_in))
    monkeypatch.setattr(net.Net, "_why", _once(net.Net._why))
    sim.step(2000)
    log = sim.log()
    assert "net: out of memory in the network task; it starts again in 5 s" in log, log
    roll(sim)  # the game went on meanwhile, in the same boot
    sim.step(8000)
    assert any(line.startswith("net: connected") for line in sim.log())  # and the network is back
    assert sim.resets == [] and sim.console.table.events == 1


def test_a_reset_lets_the_old_network_task_go_before_the_new_boot(tmp_path, monkeypatch):
    # a reset wipes the RAM: the simulated bowl drops the old app's network task (its Net, which
    # holds the old console and outbox) before booting the new app, not after it, so a restart
    # short of memory finds the old app's heap free, as the bowl's would be
    import gc
    import weakref

    from bowl import app as bowl_app
    (tmp_path / "net.txt").write_text("ssid=mall\npassword=secret123\ntls=off\nbroker=10.0.0.2\nevent=e\nstock=bowl\n")
    br = fake_wlan.FakeBroker()
    br.retain("bobing/e/desk/status", b'{"v":2,"on":1}')
    sim = hal.Sim(str(tmp_path), urandom=Stream(1), air=fake_wlan.Air({"mall": "secret123"}, broker=br))
    sim.step(5000)
    old = [weakref.ref(sim.net), weakref.ref(sim.console)]
    alive = []
    real = bowl_app.boot

    def boot(hw, urandom=None):
        gc.collect()
        alive.append([r() is not None for r in old])
        return real(hw, urandom)
    monkeypatch.setattr(bowl_app, "boot", boot)
    sim.power_cut()
    assert alive == [[False, False]]  # neither the old Net nor the old console lived into the boot
    sim.step(5000)
    assert sim.net is not None and any(line.startswith("net: connected") for line in sim.log())
