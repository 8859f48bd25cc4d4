# hardware/ says what firmware/board.py says: the wiring table, the pin map, the
# board file's own header table, the schematic's labels, and the power budget's
# generated block. Also the pin choices an ESP32 needs (no strapping or flash pin,
# wake pins on RTC GPIOs, outputs not on input-only pins).
import csv
import os
import re
import xml.etree.ElementTree as ET

import board

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hardware")
from hardware import power_budget  # noqa: E402

STRAPPING = {0, 2, 5, 12, 15}
FLASH = set(range(6, 12))
RTC_GPIO = {0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39}
INPUT_ONLY = {34, 35, 36, 37, 38, 39}
OUTPUTS = ("PIN_SDA", "PIN_SCL", "PIN_LED_DATA", "PIN_LED_POWER", "PIN_BUZZER", "PIN_AMP_BCLK", "PIN_AMP_LRC",
           "PIN_AMP_DIN")
WAKE = ("PIN_MPU_INT", "PIN_BTN_OK")


def board_constants():
    return {k: getattr(board, k) for k in dir(board) if re.match(r"^(PIN|ADDR|I2C|I2S|OLED|LED|VBAT)_[A-Z_]+$", k)}


def pins():
    return {k: v for k, v in board_constants().items() if k.startswith("PIN_")}


def _int(text):
    text = text.strip()
    return int(text, 16) if text.lower().startswith("0x") else int(text)


def wiring_md_constants():
    """{constant: value} from every table row of wiring.md that names a constant."""
    found = {}
    with open(os.path.join(HW, "wiring.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2 or not line.startswith("|"):
                continue
            if len(cells) >= 6 and re.match(r"^[A-Z][A-Z0-9_]+$", cells[4]):  # connections table
                name, value = cells[4], cells[3]
            elif re.match(r"^[A-Z][A-Z0-9_]+$", cells[0]):  # buses and counts table
                name, value = cells[0], cells[1]
            else:
                continue
            if name in found:
                assert found[name] == _int(value), "wiring.md gives %s twice, differently" % name
            found[name] = _int(value)
    return found


def test_wiring_md_equals_board():
    assert wiring_md_constants() == board_constants()


def test_pinmap_csv_equals_board():
    with open(os.path.join(HW, "pinmap.csv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    used = {r["constant"]: int(r["gpio"]) for r in rows if r["constant"]}
    assert used == pins()
    gpios = [int(r["gpio"]) for r in rows]
    assert len(gpios) == len(set(gpios)), "a GPIO listed twice in pinmap.csv"
    for r in rows:
        g = int(r["gpio"])
        assert (r["rtc_gpio"] == "yes") == (g in RTC_GPIO), "rtc_gpio column wrong for GPIO%d" % g
        assert (r["input_only"] == "yes") == (g in INPUT_ONLY), "input_only column wrong for GPIO%d" % g
        if g in STRAPPING or g in (1, 3):
            assert r["use"].startswith("avoid") and not r["constant"], "GPIO%d must be left alone" % g


def test_board_pins_are_safe_choices():
    p = pins()
    values = list(p.values())
    assert len(values) == len(set(values)), "two constants share a pin: %s" % p
    for name, g in p.items():
        assert g not in STRAPPING, "%s on strapping pin GPIO%d" % (name, g)
        assert g not in FLASH, "%s on flash pin GPIO%d" % (name, g)
    for name in WAKE:
        assert p[name] in RTC_GPIO, "%s must be an RTC GPIO to wake the ESP32" % name
    for name in OUTPUTS:
        assert p[name] not in INPUT_ONLY, "%s drives a line; GPIO%d is input only" % (name, p[name])
    # every route of hardware/README.md: GPIO16/17 do not exist on SPIRAM builds (ports/esp32/machine_pin.h)
    from host_sim.portable.fakes import esp32 as fake_esp32
    for build, gpios in fake_esp32.BUILDS.items():
        for name, g in p.items():
            assert g in gpios, "%s on GPIO%d, which %s does not have" % (name, g, build)
    # the button on an input-only pin would lack its internal pull-up: only the sensed lines may be
    assert p["PIN_BTN_MENU"] not in INPUT_ONLY and p["PIN_BTN_NEXT"] not in INPUT_ONLY


def test_board_header_table_equals_constants():
    with open(os.path.join(ROOT, "firmware", "board.py"), encoding="utf-8") as f:
        head = [ln for ln in f if ln.startswith("#")]
    rows = {}
    for ln in head:
        m = re.search(r"\s(\d+)\s+(PIN_[A-Z_]+)\s", ln)
        if m:
            rows[m.group(2)] = int(m.group(1))
    assert rows == pins()
    text = "".join(head)
    assert "0x%02X" % board.ADDR_OLED in text and "0x%02X" % board.ADDR_MPU in text
    assert "%d LEDs" % board.LED_COUNT in text
    assert "%d kHz" % (board.I2C_FREQ // 1000) in text


def test_schematic_svg_labels_every_pin():
    tree = ET.parse(os.path.join(HW, "schematic.svg"))  # well-formed XML or this raises
    ns = "{http://www.w3.org/2000/svg}"
    assert tree.getroot().tag == ns + "svg"
    texts = " ".join((t.text or "") for t in tree.iter(ns + "text"))
    for name, g in pins().items():
        assert "GPIO%d" % g in texts, "schematic.svg lacks GPIO%d (%s)" % (g, name)
    labels = set(re.findall(r"GPIO(\d+)", texts))
    assert labels == {str(g) for g in pins().values()}, "schematic.svg names a GPIO board.py does not use"
    assert "0x%02x" % board.ADDR_OLED in texts.lower() and "0x%02x" % board.ADDR_MPU in texts.lower()
    assert "%d LEDs" % board.LED_COUNT in texts


def test_power_md_is_what_the_script_prints():
    with open(os.path.join(HW, "power.md"), encoding="utf-8") as f:
        block = power_budget.generated_block(f.read())
    assert block is not None, "power.md lost its generated block markers"
    assert block == power_budget.render(), "power.md is stale: run python hardware/power_budget.py --write"


def test_power_arithmetic():
    f = power_budget.figures()
    assert abs(f["play_hours"] * f["active_ma"] - f["usable_mah"]) < 1e-6
    assert abs(f["standby_days"] * 24 * f["sleep_ma"] - f["usable_mah"]) < 1e-6
    # the design's point: sleep is under 0.1 mA, so a charge outlasts the festival season
    assert f["sleep_ma"] < 0.1 and f["standby_days_sd"] > 180
    assert f["play_hours"] > 8


def _read(name):
    with open(os.path.join(HW, name), encoding="utf-8") as f:
        return f.read()


def _svg_texts():
    ns = "{http://www.w3.org/2000/svg}"
    return " ".join((t.text or "") for t in ET.parse(os.path.join(HW, "schematic.svg")).iter(ns + "text"))


def test_power_budget_uses_the_firmwares_led_brightness():
    from bowl import app
    assert power_budget.LED_BRIGHTNESS == app.LED_BRIGHTNESS, "power_budget.py assumes another brightness"
    assert "%d/255 brightness" % app.LED_BRIGHTNESS in _read("power.md")


def test_ring_data_level_shifter_and_soft_start_in_every_document():
    wiring, bom, svg = _read("wiring.md"), _read("bom.md"), _svg_texts()
    for doc, text in (("wiring.md", wiring), ("bom.md", bom), ("schematic.svg", svg)):
        assert "SN74LV1T125" in text, "%s lacks the WS2812B data line's level shifter" % doc
    assert "soft start" in wiring and "soft start" in bom and "soft start" in svg
    # the soft start is a gate-drain (Miller) capacitor with its series resistor, fed through R_G
    for part in ("68k", "220 nF", "1k"):
        assert part in wiring and part in svg, part
    assert "68 kΩ" in bom and "220 nF" in bom and "1 kΩ" in bom and "gate to drain" in bom
    assert "gate to source" not in bom, "a gate-source capacitor only delays turn-on"
    assert power_budget.SS_R_G == 68e3 and power_budget.SS_C_GD == 220e-9 and power_budget.SS_R_S == 1e3
    for _name, v in power_budget.SS_SUPPLIES:
        _i, _slew, ramp, inrush, vgs = power_budget.soft_start(v)
        assert inrush < 0.2 and ramp > 0.010 and vgs >= 2.5  # R_DS(on) is specified from |V_GS| 2.5 V
    # the level shifter's supply is bypassed
    assert "0.1 µF" in wiring and "0.1 µF" in bom and "0.1 µF" in svg and "bypass" in bom


def test_the_simulated_board_has_the_documented_resistors():
    from host_sim.portable.fakes import esp32 as fake_esp32
    rows = {}
    for line in _read("wiring.md").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 6 and cells[4].startswith("PIN_"):
            rows[cells[4]] = cells[5]
    assert "100k pull-up" in rows["PIN_BTN_OK"] and fake_esp32.EXTERNAL[board.PIN_BTN_OK] == (100000, 0)
    assert "100k gate pull-down" in rows["PIN_LED_POWER"] and fake_esp32.EXTERNAL[board.PIN_LED_POWER] == (0, 100000)
    assert "100k pull-up" in rows["PIN_KEY"] and fake_esp32.EXTERNAL[board.PIN_KEY] == (100000, 0)
    assert set(fake_esp32.EXTERNAL) == {board.PIN_BTN_OK, board.PIN_LED_POWER, board.PIN_KEY}


def test_the_attendant_key_is_a_keylock_switch_on_a_free_rtc_input():
    # the waiting kiosk's only way to the next customer's shakes: not a strapping pin, not
    # GPIO16/17 (the PSRAM's on WROVER modules), an RTC GPIO; read as the app reads the buttons.
    # A keylock, not the reed switch any magnet closed: no doc names a magnet as the key
    p = pins()
    assert p["PIN_KEY"] in RTC_GPIO and p["PIN_KEY"] not in STRAPPING and p["PIN_KEY"] not in (16, 17)
    bom = _read("bom.md")
    assert "keylock switch" in bom and "momentary" in bom and "PIN_KEY" in _read("wiring.md")
    for doc in ("bom.md", "wiring.md", "pinmap.csv", "schematic.svg"):
        text = _read(doc).lower()
        assert "reed switch" not in text.replace("the reed switch and magnet it replaces", ""), doc


def test_every_part_in_the_bom_is_one_board_py_builds():
    # the SW-420 was listed as an option, but board.py never built it
    with open(os.path.join(ROOT, "firmware", "board.py"), encoding="utf-8") as f:
        board_src = f.read()
    rows = [ln for ln in _read("bom.md").splitlines() if ln.startswith("|")]
    if any("SW-420" in r for r in rows):
        assert "sw420" in board_src, "bom.md lists a SW-420 that board.py never builds"
    assert any("MPU-6050" in r and "genuine" in r for r in rows), "bom.md names no genuine accelerometer"
