# firmware/board.py's bring-up on host_sim/portable/fakes/esp32.py's simulated ESP32: pads in
# their reset state (ESP32 datasheet IO_MUX table), MicroPython's Pin rules
# (ports/esp32/machine_pin.c), the board's own resistors (hardware/wiring.md),
# and what the bowl does with them.
import sys

import pytest

import board
from bobing import console as C
from bobing import vocab
from bobing import leds
from host_sim.portable.fakes import battery as fake_battery
from host_sim.portable.fakes import bowl as hal
from host_sim.portable.fakes import esp32 as fake_esp32
from host_sim.portable.fakes import parts as fake_parts
from bowlkit import battery_at, new_sim, press, roll


def esp():
    return hal.SimBoard.__new__(hal.SimBoard)  # a bare board: only the chip below is used


def chip():
    return fake_esp32.FakeESP32(esp())


def test_pads_start_in_their_reset_state():
    e = chip()
    assert e.Pin(0, e.Pin.IN).value() == 1  # GPIO0: weak pull-up at reset
    assert e.Pin(2, e.Pin.IN).value() == 0  # GPIO2: weak pull-down
    assert e.Pin(15, e.Pin.IN).value() == 1
    assert e.undefined == {}
    e.Pin(27, e.Pin.IN).value()  # no pull, nothing wired: floating
    assert e.undefined == {27: None}


def test_pin_changes_the_pull_only_when_pull_is_given():
    e = chip()
    p = e.Pin(4, e.Pin.IN)  # GPIO4's reset pull-down stays on (the OK button sat at ~1 V on it once)
    assert p.pd and not p.pu and p.value() == 0
    p = e.Pin(4, e.Pin.IN, pull=None)
    assert not p.pd and not p.pu and p.mv() is None  # nothing wired to it as an input: floating
    p = e.Pin(4, e.Pin.IN, e.Pin.PULL_UP)
    assert p.pu and not p.pd and p.value() == 1
    p = e.Pin(4, e.Pin.IN)
    assert p.pu, "Pin(id, mode) without pull= must keep the pull as it is"
    p = e.Pin(board.PIN_BTN_OK, e.Pin.IN, pull=None)  # OK: its external 100k pull-up alone holds it high
    assert not p.pd and not p.pu and p.mv() == fake_esp32.VDD_MV and p.value() == 1
    with pytest.raises(ValueError):
        e.Pin(34, e.Pin.OUT)  # input-only pad
    with pytest.raises(ValueError):
        e.Pin(24)  # no such GPIO


def test_every_readme_route_has_the_bowls_pins(tmp_path):
    # hardware/README.md's routes: the bowl frozen into ESP32_GENERIC (the BOM's board), and the
    # stock ESP32_GENERIC-SPIRAM image on a PSRAM board, which has no GPIO16/17 (machine_pin.h)
    from conftest import ROOT
    with open(ROOT + "/hardware/README.md", encoding="utf-8") as f:
        readme = f.read()
    routes = {"ESP32_GENERIC": "BOARD_DIR=/path/to/this/repo/firmware/boards/BOBING_ESP32\n",  # no PSRAM
              "ESP32_GENERIC-SPIRAM": "ESP32_GENERIC-SPIRAM-v1.28.0.bin"}
    assert set(routes) == set(fake_esp32.BUILDS)
    for build, says in routes.items():
        assert says in readme, build
    spiram = fake_esp32.FakeESP32(esp(), "ESP32_GENERIC-SPIRAM")
    with pytest.raises(ValueError):
        spiram.Pin(16)  # as the port refuses it: the pin map of old held MENU there
    for build in fake_esp32.BUILDS:
        sim = hal.Sim(str(tmp_path / build), build=build)
        assert sim.board.errors == [], (build, sim.board.errors)
        assert sim.board.esp.run(board.menu_held_at_boot) is False  # raised ValueError on SPIRAM
        sim.board.pins[0].value(0)  # MENU held at power-up: maintenance mode
        assert sim.board.esp.run(board.menu_held_at_boot) is True
        sim.board.pins[0].value(1)
        sim.step(1500)
        assert sim.console is not None and sim.resets == [], build
        press(sim, "menu")  # the menu opens on either build
        assert sim.console.view == C.V_MENU, build


def test_every_button_reads_released_at_a_valid_level_and_pressed_when_held(tmp_path):
    sim = new_sim(tmp_path)
    for b in sim.board.pins:
        assert b.pad.mv() >= fake_esp32.VIH_MV, "GPIO%d at %s mV when released" % (b.pad.n, b.pad.mv())
        assert b.value() == 1
    assert sim.board.esp.undefined == {}, "pins read without a valid level: %r" % sim.board.esp.undefined
    for b in sim.board.pins:
        b.value(0)
        assert b.value() == 0 and b.pad.mv() == 0
        b.value(1)


def test_ok_chooses_in_the_menu(tmp_path):
    sim = new_sim(tmp_path)
    press(sim, "menu")
    assert sim.console.view == C.V_MENU and sim.console.arg[0] == "main"
    press(sim, "ok")  # the first item: 新游戏 new game
    assert (sim.console.view, sim.console.arg and sim.console.arg[0]) != (C.V_MENU, "main"), "OK did nothing"


def test_deep_sleep_lasts_until_ok_is_pressed(tmp_path):
    sim = new_sim(tmp_path)
    sim.console.settings.idle_min = 1
    sim.step(61000)
    assert sim.asleep and sim.resets == []
    sim.step(30000)
    assert sim.asleep and sim.resets == [], "woke without a shake or a press: %r" % sim.resets
    sim.press("ok")
    sim.step(50)
    assert not sim.asleep and sim.resets == ["button"]


def test_the_ring_is_dark_while_its_switch_pin_is_at_reset(tmp_path):
    sim = new_sim(tmp_path)
    assert sim.board.led_power_pin.value() == 1 and any(sim.leds)
    sim.board.esp.chip_reset("reset")  # GPIO26 back to its reset state: the 100k pull-down holds the FET off
    assert sim.board.led_power_pin.value() == 0


@pytest.mark.parametrize("who", [0x70, 0x98])
def test_a_gy521_with_a_clone_chip_plays_and_wakes_on_a_shake(tmp_path, who):
    # 0x70: an MPU-6500 (its own wake-on-motion registers); 0x98: a clone with the MPU6050's map
    sim = new_sim(tmp_path, accel_id=who)
    assert sim.board.errors == [] and sim.board.accel is not None, sim.board.errors
    roll(sim)
    assert sim.console.table.events == 1
    sim.console.settings.idle_min = 1
    sim.step(61000)
    assert sim.asleep and sim.board.armed is None, sim.board.armed
    sim.step(5000)
    assert sim.asleep
    sim.shake()
    sim.step(300)
    assert not sim.asleep and sim.resets == ["shake"]


def test_a_bus_glitch_costs_a_sample_or_a_frame_and_nothing_is_lost(tmp_path):
    sim = new_sim(tmp_path)
    for _ in range(3):
        sim.board.bus.glitches = 1  # one transfer times out (ETIMEDOUT), then the bus works again
        sim.step(30)
        sim.board.bus.glitches = 2
        sim.press("next")  # a new frame to show while the bus glitches
        sim.step(200)
    assert sim.board.accel is not None and sim.board.display is not None
    assert sim.console.has_sensor and sim.console.has_display
    assert not [ln for ln in sim.log() if "lost" in ln]
    shows = sim.board.disp.shows
    roll(sim)
    assert sim.console.table.events == 1 and sim.board.disp.shows > shows


def test_a_part_is_lost_only_when_it_stays_lost_and_comes_back(tmp_path):
    sim = new_sim(tmp_path)
    sim.board.chip.present = False  # the accelerometer's wire is loose for half a second
    sim.step(500)
    sim.board.chip.present = True
    sim.step(100)
    assert sim.console.has_sensor and sim.board.accel is not None
    sim.board.chip.present = False  # now for good
    sim.step(1500)
    assert not sim.console.has_sensor and sim.board.accel is None
    assert sim.console.view == C.V_NOTICE and sim.console.arg[0] == C.N_SENSOR
    assert [ln for ln in sim.log() if "accelerometer lost" in ln]
    sim.board.chip.present = True  # plugged back in: found at the next look, set up again
    sim.step(2500)
    assert sim.console.has_sensor and sim.board.accel is not None
    press(sim, "ok")  # the notice away
    roll(sim)
    assert sim.console.table.events == 1


def test_a_display_that_stays_lost_is_reported_and_taken_back(tmp_path):
    sim = new_sim(tmp_path)
    sim.board.disp.present = False
    press(sim, "next")  # something to show on a screen that does not answer
    sim.step(300)
    assert sim.console.has_display  # not yet: it may be a glitch
    sim.step(1500)
    assert not sim.console.has_display and sim.board.display is None
    sim.board.disp.present = True
    shows = sim.board.disp.shows
    sim.step(2500)
    assert sim.console.has_display and sim.board.disp.shows > shows


def test_the_panel_takes_the_ssd1306_command_stream_as_the_datasheet_says():
    p = fake_parts.FakeSSD1306()
    assert (p.on, p.mode, p.contrast) == (False, fake_parts.PAGE, 0x7F)  # the reset values (table 9-1)
    p.write(b"\x80\xaf")  # Co=1: one command, then a control byte again
    p.write(b"\x80\x81")
    p.write(b"\x80\x40")  # contrast's argument in a transfer of its own, as the driver's write_cmd sends it
    assert p.on and p.contrast == 0x40
    p.write(b"\x00\x20\x01\x21\x0a\x0b\x22\x02\x03")  # Co=0: commands to the end: vertical mode, a 2x2 window
    p.write(b"\x40\x01\x02\x03\x04\x05")  # down the page first, then the next column; then from the start
    ram = p.ram
    assert [ram[2 * 128 + 10], ram[3 * 128 + 10], ram[2 * 128 + 11], ram[3 * 128 + 11]] == [5, 2, 3, 4]
    p.write(b"\x00\x20\x02\xb5\x03\x12")  # page mode: page 5, column 0x23 in two nibbles
    p.write(b"\x40\xaa\xbb")
    p.write(b"\xc0\xcc\x80\xae")  # Co=1 D/C#=1: one data byte; then a command (display off)
    assert bytes(ram[5 * 128 + 0x23:5 * 128 + 0x26]) == b"\xaa\xbb\xcc"
    assert not p.on and not p.lit(0x23, 40) and p.bad == []
    p.write(b"\x01\x00")  # no such control byte
    p.write(b"\x00\x20\x03")  # no such addressing mode
    assert len(p.bad) == 2 and p.mode == fake_parts.PAGE


def test_a_stock_bowl_without_the_display_driver_says_how_to_install_it(tmp_path, monkeypatch):
    import bowl
    monkeypatch.setitem(sys.modules, "bowl.oled", None)  # `from bowl import oled` fails, as without ssd1306
    monkeypatch.delattr(bowl, "oled", raising=False)
    sim = hal.Sim(str(tmp_path))
    sim.step(100)
    assert ("display", "OSError no ssd1306 driver: mpremote mip install ssd1306") in sim.board.errors
    assert sim.board.display is None and not sim.console.has_display and sim.board.disp.shows == 0


def test_the_simulator_without_micropython_lib_says_how_to_fetch_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ssd1306", None)
    with pytest.raises(ImportError, match="make mplib"):
        hal.Sim(str(tmp_path))


def kiosk_secret(root):
    sim = hal.Sim(str(root))  # no random source given: the simulated ESP32's os.urandom
    sim.step(100)
    return sim, sim.console.settings.secret


def test_the_claim_secret_comes_from_real_entropy_not_the_radio_off_stream(tmp_path):
    # two bowls fresh from the box draw their claim secrets at first boot
    sim_a, a = kiosk_secret(tmp_path / "a")
    sim_b, b = kiosk_secret(tmp_path / "b")
    assert len(a) == 32 and a != b, "two bowls made the same claim secret: it came from the radio-off stream"
    assert not sim_a.board.esp.radio  # the radio is off again after the draw
    # what the radio-off stream gives is the same on both bowls (so the dice lean on the shake)
    assert sim_a.board.esp.urandom(16) == sim_b.board.esp.urandom(16)


def test_a_new_secret_from_the_menu_is_drawn_with_the_radio_on(tmp_path):
    sim = new_sim(tmp_path)
    drawn = []
    real = sim.board.urandom  # the ESP32's os.urandom

    def urandom(n):
        drawn.append(sim.board.esp.radio)
        return real(n)

    sim.board.urandom = urandom
    sim.console.entropy(16)
    assert drawn == [True]


def test_secret_bytes_refuses_a_stuck_source():
    from bobing import dice
    with pytest.raises(dice.EntropyError):
        dice.secret_bytes(16, lambda n: bytes(n))
    with pytest.raises(ValueError):
        dice.secret_bytes(33, lambda n: bytes(range(n)))
    assert dice.secret_bytes(16, lambda n: bytes(range(n))) != dice.secret_bytes(16, lambda n: bytes(range(1, n + 1)))


def test_the_battery_falls_with_charge_and_sags_under_the_ring():
    sim = hal.Sim.__new__(hal.Sim)
    b = hal.SimBoard.__new__(hal.SimBoard)
    b.asleep = False
    b.ring = fake_parts.FakeNeoPixel(12)
    b.led_power_pin = type("P", (), {"value": lambda self: 1})()
    b.esp = fake_esp32.FakeESP32(b)
    bat = fake_battery.Battery(b)
    full = bat.mv()
    bat.uah = 600000
    half = bat.mv()
    b.ring.fill((64, 64, 64))
    b.ring.write()
    lit = bat.mv()
    assert full > half > lit and 25 <= half - lit <= 40, (full, half, lit)  # 12 x 3 x 3 mA x 0.25 ohm
    bat.uah = 0
    # flat: the rail is under the module's 3.0 V rating but over the brown-out detector's 2.43 V
    assert fake_battery.Battery.BROWNOUT_MV < bat.rail_low_mv() < 3000
    del sim


def test_low_battery_warns_on_the_screen_and_the_ring_and_play_goes_on(tmp_path):
    sim = new_sim(tmp_path)
    battery_at(sim, 3500)
    sim.step(5100)  # the app reads the battery every 5 s
    c = sim.console
    assert c.view == C.V_NOTICE and c.arg[0] == C.N_BATTERY, vocab.VIEW_IDS[c.view]
    assert c.led == leds.P_BATTERY
    assert [ln for ln in sim.log() if "battery low" in ln]
    press(sim, "ok")
    roll(sim)
    assert c.table.events == 1 and not c.flat


def test_an_empty_battery_sleeps_before_a_brown_out_and_starts_no_roll(tmp_path):
    sim = new_sim(tmp_path)
    roll(sim)
    sim.board.battery.capacity = 12  # a small cell, so that it runs out in a few minutes
    battery_at(sim, 3430)  # a few rolls left
    events = sim.console.table.events
    for _ in range(400):  # keep shaking as the charge runs out
        if sim.asleep:
            break
        sim.shake()
        sim.run_until(lambda s: s.asleep or "brownout" in s.resets or s.console.view in (C.V_RESULT, C.V_NOTICE),
                      15000)
        while not sim.asleep and sim.console.view in (C.V_RESULT, C.V_NOTICE):
            press(sim, "ok")
        assert "brownout" not in sim.resets, sim.resets
    assert sim.asleep and "brownout" not in sim.resets
    assert sim.board.battery.mv() >= fake_battery.Battery.BROWNOUT_MV + fake_battery.Battery.DROPOUT_MV
    # every roll that started was written to flash before it was shown
    assert sim.console.table.events == sim.console.j.count and sim.console.table.events >= events
    rolled = sim.console.table.events
    bat = sim.board.battery  # back to the real cell's size, at the same charge (a wake costs it little)
    bat.uah = bat.uah * 100
    bat.capacity = 1200
    sim._queue = []  # the player has stopped shaking
    sim.step(20000)
    assert sim.asleep
    sim.shake()  # woken by a shake: it says so and sleeps again, no roll
    sim.step(300)
    assert sim.resets[-1] == "shake" and sim.console.flat
    sim.step(20000)  # (the shake may wake it again while it goes on: each time the same)
    assert sim.asleep and sim.console.table.events == rolled and "brownout" not in sim.resets, \
        (sim.resets[-5:], vocab.VIEW_IDS[sim.console.view], sim.log()[-5:])


def test_every_text_notice_has_a_title():
    # the low-battery notice was drawn under a "?" title: panels had no label for it
    from bobing import panels
    kinds = [getattr(vocab, n) for n in dir(vocab) if n.startswith("N_")]
    text = [k for k in kinds if k not in panels.ERRORS and k != C.N_DISPLAY]  # N_DISPLAY: LEDs only
    assert C.N_BATTERY in text
    for k in text:
        for lang in ("zh", "en"):
            assert panels.label(panels.NOTICE_TITLES[k], lang), (k, lang)
