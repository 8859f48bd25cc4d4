# The bowl on the ESP32's terms (host_sim/portable/fakes/bowl.py's clock pays the chip's time:
# I2C at 400 kHz, the LED ring, the network's waits; fake_wlan fails as the
# ESP32 port fails). Every check is on the simulator's clock: the CPU is free
# here (cpu_factor 0), so nothing depends on the host's load; bench/budget.py
# adds the CPU's time.
import errno

from bobing import console as C
from bobing import outbox
from host_sim.portable.fakes import wlan as fake_wlan
from host_sim.portable.fakes import bowl as hal
from bowlkit import roll, to_kiosk
from bowlrun import Stream

EVENT = "midautumn"
NET = "ssid=mall\npassword=secret123\ntls=off\nbroker=%s\nevent=midautumn\nstock=bowl\n"
DESK = "bobing/midautumn/desk/status"


def event_sim(tmp_path, broker="10.0.0.2", names=None, networks=None, **kw):
    (tmp_path / "net.txt").write_text(NET % broker)
    br = fake_wlan.FakeBroker()
    br.retain(DESK, b'{"v":2,"on":1}')
    air = fake_wlan.Air(networks or {"mall": "secret123"}, broker=br, names=names)
    sim = hal.Sim(str(tmp_path), urandom=Stream(1), air=air, **kw)
    sim.step(100)
    return sim, air, br


def play_awards(sim, n, max_rolls=60):
    """Kiosk customers until the game has made n awards."""
    to_kiosk(sim)
    c = sim.console
    for _ in range(max_rolls):
        if c.table.award_no >= n:
            return
        if c.view != C.V_TURN:
            c.next_customer()  # the attendant starts the next customer (the key's menu)
            sim.step(100)
        roll(sim)
    raise AssertionError("only %d awards in %d rolls" % (c.table.award_no, max_rolls))


def awards_published(br):
    return [t for t, _p, _r in br.published if t.endswith("/award")]


# ---- the display and the sensor

def test_sampling_keeps_its_rate_while_frames_are_drawn_and_sent(tmp_path):
    sim = hal.Sim(str(tmp_path), urandom=Stream(3))
    sim.step(200)
    b = sim.board
    shows = b.disp.shows
    for _ in range(3):
        roll(sim)
    assert b.disp.shows > shows + 6, "frames were not sent while playing"
    # a whole frame in one transfer (1,044 bytes at 400 kHz, >= 23.5 ms) would leave a gap of 24+ ms
    assert 0 < b.gap_shaking_us <= 20000, b.gap_shaking_us
    assert sim.resets == []


def test_the_panel_shows_what_the_chunked_transfer_sent(tmp_path):
    from bowl import oled
    from host_sim.portable.fakes import parts
    sim = hal.Sim(str(tmp_path), urandom=Stream(3))
    sim.step(200)
    d = sim.board.disp  # the SSD1306 controller on the bus; board.py's driver is hw.display
    assert isinstance(sim.board.display, oled.Oled)
    assert bytes(d.shown) == bytes(sim.board.display.buffer) and any(d.shown)
    # the driver's set-up as the controller took it: horizontal addressing, on, full contrast
    assert (d.mode, d.on, d.contrast, d.bad) == (parts.HORIZONTAL, True, 0xFF, [])
    assert sim.board.disp.text_rows() != ["." * 128] * 64


# ---- parts on a failing bus

def test_a_stuck_bus_is_reported_lost_not_a_watchdog_reset(tmp_path):
    sim = hal.Sim(str(tmp_path), urandom=Stream(4))
    sim.step(200)
    sim.log()
    sim.board.bus.stuck = True  # a part holds SDA low: the legacy driver waits 100 ms a byte
    sim.step(20000)
    lines = sim.log()
    assert sim.resets == [], (sim.resets, lines)
    assert any("display lost" in line for line in lines), lines
    assert any("accelerometer lost" in line for line in lines), lines
    assert not sim.console.has_display and not sim.console.has_sensor
    sim.board.bus.stuck = False  # freed: both come back within a probe period
    sim.step(5000)
    assert sim.console.has_display and sim.console.has_sensor and sim.resets == []


def test_parts_missing_at_boot_are_looked_for_again(tmp_path):
    sim = hal.Sim(str(tmp_path), display=False, accel=False, urandom=Stream(5))
    sim.step(3000)
    c = sim.console
    assert not c.has_display and not c.has_sensor and sim.board.disp.shows == 0
    sim.board.disp.present = True  # plugged back in (a loose connector)
    sim.board.chip.present = True
    sim.step(3000)
    assert c.has_display and c.has_sensor and sim.board.disp.shows >= 1
    assert sim.board.accel is not None and sim.resets == []


def test_a_failure_arming_wake_on_motion_sleeps_on_a_timer(tmp_path):
    sim = hal.Sim(str(tmp_path), urandom=Stream(6))
    sim.step(200)
    accel = sim.board.accel

    def arm_wake(*a, **kw):
        raise OSError(errno.ETIMEDOUT)
    accel.arm_wake = arm_wake
    sim.console.sleep = True  # the console asks for deep sleep (idle, or an empty cell)
    sim.step(20)
    assert sim.asleep and sim.resets == [], sim.resets
    assert any("wake on shake not armed" in line for line in sim.log())
    sim.step(hal.board.SLEEP_RETRY_MS + 100)
    assert sim.resets == ["timer"] and not sim.asleep


# ---- the network task on the ESP32's sockets

def test_a_broker_silent_mid_burst_costs_a_timeout_not_a_hang(tmp_path):
    sim, air, br = event_sim(tmp_path)
    air.up = False  # the awards wait in the journal, then go as a burst
    play_awards(sim, 4)
    br.acks_left = 2  # the status and the first award are acknowledged, then the broker says nothing
    air.up = True
    sim.step(30000)
    assert sim.hangs == 0 and sim.resets == [], (sim.hangs, sim.resets)
    assert outbox.read_cursor(str(tmp_path))[1] == 1
    assert any("no PUBACK" in line or "ETIMEDOUT" in line or "110" in line for line in sim.board.lines), \
        sim.board.lines[-8:]
    br.silent = False  # the broker answers again: the rest goes after a reconnect
    br.acks_left = None
    sim.step(120000)
    assert outbox.read_cursor(str(tmp_path))[1] == sim.console.table.award_no
    assert sim.hangs == 0 and sim.resets == []


def test_the_strict_socket_waits_for_ever_after_setblocking_true():
    br = fake_wlan.FakeBroker()
    br.silent = True
    air = fake_wlan.Air({}, clock=fake_wlan.Clock(), broker=br)
    s = fake_wlan._SocketModule(air, None).socket()
    s.connect(("10.0.0.2", 1883))
    s.settimeout(2)
    try:
        s.read(1)
        raise AssertionError("a silent broker answered")
    except OSError as e:
        assert e.args[0] == fake_wlan.ETIMEDOUT and air.clock.now() >= 2000
    s.setblocking(True)  # on the ESP32 port: no timeout any more (modsocket.c)
    try:
        s.read(1)
        raise AssertionError("a silent broker answered")
    except fake_wlan.Hang:
        pass


def test_awards_do_not_hold_the_game_loop_and_power_save_goes_off(tmp_path):
    sim, air, br = event_sim(tmp_path)
    play_awards(sim, 3)
    b = sim.board
    b.gap_max_us = 0
    sim.step(5000)
    assert air.pm == fake_wlan.PM_NONE
    assert len(awards_published(br)) == sim.console.table.award_no >= 3
    assert b.gap_max_us <= 20000, b.gap_max_us  # a PUBACK waited for on power save: 100-600 ms


def test_a_name_lookup_never_holds_the_game_loop(tmp_path):
    # nobody answers desk.local: mDNS waits 5 s, then DNS 10 s (a reset on the game's loop)
    sim, air, br = event_sim(tmp_path, broker="desk.local")
    b = sim.board
    b.gap_max_us = 0
    sim.step(40000)
    assert sim.resets == [] and air.lookups >= 1, sim.resets
    assert b.gap_max_us <= 20000, b.gap_max_us
    assert any("cannot find the broker 'desk.local'" in line for line in b.lines), b.lines[-5:]
    lookups = air.lookups
    sim.step(20000)
    assert air.lookups <= lookups + 1, "lookups are not backing off"


def test_a_found_name_is_kept_and_the_awards_go(tmp_path):
    sim, air, br = event_sim(tmp_path, broker="desk.local", names={"desk.local": "10.0.0.2"})
    play_awards(sim, 2)
    sim.step(3000)
    assert len(awards_published(br)) == sim.console.table.award_no and air.lookups == 1
    assert sim.resets == []


def test_a_wrong_wifi_password_says_wrong_password(tmp_path):
    # a wrong WPA2 passphrase ends in reason 15 (4-way handshake timeout), not 202
    sim, air, br = event_sim(tmp_path, networks={"mall": "other-pass"})
    assert air.wrong_reason == 15
    sim.step(30000)
    assert any("wrong password?" in line for line in sim.board.lines), sim.board.lines[-5:]
    assert sim.resets == []


def test_a_wrong_wifi_password_is_said_even_when_each_handshake_takes_its_longest(tmp_path, monkeypatch):
    # the port says the reason only after reconnects + 1 disconnects (network_wlan.c); at 6 s a
    # handshake timeout, three reconnects (24 s) outlasted the bowl's 20 s wait, which then said
    # only "no connection"
    monkeypatch.setattr(fake_wlan, "HANDSHAKE_MS", 6000)
    sim, air, br = event_sim(tmp_path, networks={"mall": "other-pass"})
    sim.step(30000)
    lines = sim.board.lines
    assert any("wrong password?" in line for line in lines), lines[-5:]
    assert not any("no connection after" in line for line in lines), lines[-5:]


def test_no_access_point_of_a_usable_security_or_signal_is_said_as_such(tmp_path):
    for reason, said in ((210, "not with a security the bowl supports"), (212, "signal is too weak here")):
        root = tmp_path / str(reason)
        root.mkdir()
        sim, air, br = event_sim(root, networks={"other": "x" * 8})
        air.no_ap_reason = reason  # network_wlan.c passes 210-212 through at once
        sim.step(10000)
        assert any(said in line for line in sim.board.lines), (reason, sim.board.lines[-5:])


def test_a_socket_wait_is_polled_in_100_ms_steps_as_on_the_port():
    # modsocket.c: retries = timeout / SOCKET_POLL_US, then `for (i = 0; i <= retries; i++)` selects
    assert [fake_wlan.waited_ms(t) for t in (0.4, 2, 0.05)] == [500, 2100, 100]


def test_a_bus_stuck_in_the_middle_of_a_frame_is_no_watchdog_reset(tmp_path):
    sim = hal.Sim(str(tmp_path), urandom=Stream(7))
    sim.step(200)
    b = sim.board
    bus = b.bus
    real = bus.writeto

    def writeto(addr, buf, stop=True):
        # the bus sticks 2 ms into the next frame's data (a part: [0x40, 32 bytes], bowl/oled.py),
        # whatever is on the wire then
        if addr == hal.ADDR_OLED and buf[0] == 0x40 and bus.stuck_at is None:
            bus.stuck_at = b.now_us() + 2000
        return real(addr, buf, stop)
    bus.writeto = writeto
    sim.shake()  # new screens to send
    sim.step(20000)
    assert bus.stuck and sim.resets == [], sim.resets
    assert any("display lost" in line for line in sim.log())


# ---- the boot's clock

def test_the_boot_replays_at_240_mhz_and_plays_at_the_boards_clock(tmp_path, monkeypatch):
    from bobing import journal
    sim = hal.Sim(str(tmp_path), urandom=Stream(8))
    sim.step(200)
    roll(sim)
    seen = []
    real = journal.recover

    def recover(*a, **kw):
        seen.append(sim.board.esp.hz)
        return real(*a, **kw)
    monkeypatch.setattr(journal, "recover", recover)
    sim.power_cut()
    assert seen == [240000000], seen  # ESP-IDF starts the ESP32 at 160 MHz: board.py sets 240 first
    assert sim.board.esp.hz == hal.board.CPU_HZ == 160000000


# ---- the CPU counted (bench/budget.py's mode)

_COUNTED = """
import sys
sys.path[:0] = ["tests", "."]
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from host_sim.portable.fakes import bowl as hal
from host_sim.portable.fakes import chiptime
from bowlkit import roll
from bowlrun import Stream
chiptime.count_work(sys.argv[2] == "1")
sim = hal.Sim(sys.argv[1], urandom=Stream(4), cpu_factor=int(sys.argv[2]), draw_factor=int(sys.argv[2]))
sim.step(200)
roll(sim)
print(sim.boot_done_ms, sim.board.ms, sim.board._us)
"""


def test_counted_cpu_gives_the_same_clock_at_every_run(tmp_path):
    # the firmware's lines and calls at fixed costs (chiptime.count_work), not the host's time: two
    # runs of the same boot and roll land on the same simulated microsecond (as bench/budget.py
    # runs: a process each, PYTHONHASHSEED 0), and the CPU counts
    import os
    import subprocess
    import sys
    out = []
    for k, counted in enumerate("110"):
        d = tmp_path / ("run%d" % k)
        d.mkdir()
        p = subprocess.run([sys.executable, "-c", _COUNTED, str(d), counted], capture_output=True, text=True,
                           timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           env=dict(os.environ, PYTHONHASHSEED="0"))
        assert p.returncode == 0, p.stderr[-2000:]
        out.append([int(x) for x in p.stdout.split()[-3:]])
    assert out[0] == out[1] and out[0][0] > out[2][0], out


def test_reconnecting_to_a_silent_broker_holds_no_round_long(tmp_path):
    # the broker takes the connection and never answers (CONNACK never comes): each attempt's
    # wait is bounded short, so the game's rounds go on between the attempts
    sim, air, br = event_sim(tmp_path)
    sim.step(3000)
    air.up = False  # the connection drops; when the radio is back the broker is silent
    sim.step(3000)
    br.silent = True
    air.up = True
    worst = [0]

    def rnd(t0, t1):
        worst[0] = max(worst[0], t1 - t0)
    sim.on_round = rnd
    sim.step(40000)
    assert any("net:" in line for line in sim.board.lines[-20:]), sim.board.lines[-8:]
    assert sim.resets == [] and sim.hangs == 0
    assert worst[0] <= 1000000, worst[0]  # us: no round over a second (the watchdog allows 8)


def test_a_broker_answering_a_malformed_puback_moves_no_cursor_and_loses_nothing(tmp_path):
    # an award's PUBACK of the wrong length (MQTT 3.1.1 section 3.4: remaining length 2): the bowl
    # says so, drops the connection without moving its cursor, and sends everything again after
    sim, air, br = event_sim(tmp_path)
    air.up = False
    play_awards(sim, 3)
    real = fake_wlan._MemSocket._answer
    bad = [True]

    def answer(sock, data):
        if bad[0] and data[:2] == b"\x40\x02":
            data = b"\x40\x03" + data[2:] + b"\x00"
        real(sock, data)
    fake_wlan._MemSocket._answer = answer
    try:
        air.up = True
        sim.step(30000)
        assert any("a PUBACK that is not one" in line for line in sim.board.lines), sim.board.lines[-12:]
        assert outbox.read_cursor(str(tmp_path)) == (0, 0)
        bad[0] = False
        sim.step(60000)
    finally:
        fake_wlan._MemSocket._answer = real
    assert outbox.read_cursor(str(tmp_path))[1] == sim.console.table.award_no
    assert sim.hangs == 0 and sim.resets == []
