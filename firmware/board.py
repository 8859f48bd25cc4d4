# THE wiring file of the bowl (in the spirit of nano-gui's color_setup.py):
# every pin, bus, address and count lives here and nowhere else. `bring_up()`
# creates the ready objects and hands them out in a bowl.hw.Hardware; every
# other module receives objects, never pin numbers.
#
# Board: DFRobot FireBeetle 2 ESP32-E (DFR0654), ESP32-WROOM-32E, 4 MB flash,
# on-board LiPo charger (PH2.0 battery socket), ~23 uA deep sleep once its
# "low power" pad to the on-board RGB LED is cut (hardware/power.md).
#
# Wiring table (hardware/wiring.md says the same; tests/test_hardware.py checks it)
# part              part pin   board pin   GPIO  constant        why this pin
# ----------------  ---------  ----------  ----  --------------  ----------------------------------
# SSD1306 + MPU6050 SDA        SDA         21    PIN_SDA         the board's I2C pins (4.7k pull-ups on the OLED)
# SSD1306 + MPU6050 SCL        SCL         22    PIN_SCL
# MPU6050 (GY-521)  INT        A0          36    PIN_MPU_INT     RTC_GPIO0, input only: ext0 wake on a shake
#                                                                (the MPU's INT is push-pull: no pull needed)
# button OK         leg 1      A1          39    PIN_BTN_OK      RTC_GPIO3, input only: ext1 wake; 100k pull-up
#                                                                to 3V3
# MAX98357A amp     BCLK       D2          25    PIN_AMP_BCLK    I2S bit clock (I2S_ID's sck)
# MAX98357A amp     LRC        D12         4     PIN_AMP_LRC     I2S word select (ws)
# MAX98357A amp     DIN        D6          14    PIN_AMP_DIN     I2S data out (sd); its boot-time PWM burst
#                                                                finds no LRC clock: the amp ignores it
# button MENU       leg 1      SCK         18    PIN_BTN_MENU    plain input, internal pull-up
# button NEXT       leg 1      MISO        19    PIN_BTN_NEXT    plain input, internal pull-up
# WS2812 ring       DIN        D7          13    PIN_LED_DATA    through 330 R
# ring supply FET   2N7002 G   D3          26    PIN_LED_POWER   high = ring powered; 100k pull-down: off in sleep
# piezo buzzer      +          MOSI        23    PIN_BUZZER      PWM; the other leg to GND
# key switch        NO         A3          35    PIN_KEY         RTC_GPIO5, input only (no internal pull): 100k pull-up
#                                                                to 3V3; its key turned in the lock closes it to GND
# battery sense     -          A2          34    PIN_VBAT        on-board divider, VBAT / 2
# No strapping pin (0, 2, 5, 12, 15) and no flash pin (6-11) is used, nor 16/17: SPIRAM
# builds of MicroPython have no GPIO16/17 (ports/esp32/machine_pin.h), WROVER modules wire
# their PSRAM there. Every pin here exists on ESP32_GENERIC and ESP32_GENERIC-SPIRAM alike.
# The three I2S lines need outputs, and the FireBeetle brings out one free one (14): the two
# wake inputs moved to the input-only RTC pins 36 and 39, giving the I2S 25 and 4.
# Buses and counts: I2C bus 0 at 400 kHz; SSD1306 at 0x3C, MPU6050 at 0x68
# (AD0 low); 12 LEDs; display 128x64. I2S peripheral 0 (the ESP32 has 0 and 1), 16-bit
# mono at the voice's 8 kHz (bobing/voice.py), fed from the ring's switched supply (wiring.md).
# AMP: a MAX98357A is fitted. It is a receive-only I2S part (no register, no acknowledge:
# nothing the bowl could probe), so this file says so; a bowl built without one sets it False
# and the piezo says everything, as it also does when machine.I2S fails or the flash holds
# no voice clips (bowl/app.py).
from micropython import const

I2C_ID = const(0)
I2C_FREQ = const(400000)
PIN_SDA = const(21)
PIN_SCL = const(22)
ADDR_OLED = const(0x3C)
ADDR_MPU = const(0x68)
OLED_WIDTH = const(128)
OLED_HEIGHT = const(64)

PIN_MPU_INT = const(36)
PIN_BTN_OK = const(39)
PIN_AMP_BCLK = const(25)
PIN_AMP_LRC = const(4)
PIN_AMP_DIN = const(14)
I2S_ID = const(0)
AMP = True  # a MAX98357A on the I2S pins (see the header)
PIN_BTN_MENU = const(18)
PIN_BTN_NEXT = const(19)
PIN_LED_DATA = const(13)
PIN_LED_POWER = const(26)
PIN_BUZZER = const(23)
PIN_KEY = const(35)  # the attendant's key: a momentary keylock switch (reads 0 while the key is turned)
PIN_VBAT = const(34)
VBAT_DIVIDER = const(2)  # the on-board 1M + 1M divider, nominally
# The gauge: VBAT_SAMPLES readings, the lowest and highest dropped, the rest averaged (the ESP32's
# ADC is noisy: ESP-IDF's ADC guide recommends multisampling). Per-bowl calibration: GAUGE_FILE
# holds the divider's measured ratio in 1/10000 (`make vbat-cal`), within VBAT_RATIO_MIN..MAX;
# the ADC input loads the 1M divider, and owners have measured 1.4 V on the pin for a 4.2 V cell
# (a ratio of 3.0) where 2.0 was drawn.
VBAT_SAMPLES = const(10)
VBAT_RATIO_NOMINAL = const(20000)
VBAT_RATIO_MIN = const(15000)
VBAT_RATIO_MAX = const(40000)
GAUGE_FILE = "vbat.cal"
VBAT_PLAUSIBLE_MV = const(3000)  # an uncalibrated reading under this says the ratio is off, not the cell

LED_COUNT = const(12)
WDT_MS = const(8000)  # a hung bowl reboots into the same game (journal) after 8 s
SLEEP_RETRY_MS = const(600000)  # deep sleep on a timer when wake on shake could not be armed
CPU_HZ = const(160000000)  # hardware/power.md assumes this clock while playing
BOOT_HZ = const(240000000)  # the boot (journal replay, first screen) runs at full speed, then CPU_HZ
DATA_DIR = "/data"
MOUNT = None  # (block device, why) when mount() found a filesystem that does not mount, else None

from bowl.hw import Hardware, attach_i2c  # noqa: E402


class Board(Hardware):
    """Hardware with the ESP32's deep sleep and battery gauge."""

    def __init__(self):
        Hardware.__init__(self)
        self.root = DATA_DIR
        self._int = None
        self._ok = None
        self._vbat = None
        self._vbat_ratio = VBAT_RATIO_NOMINAL
        self._vbat_cal = False  # True once a calibration from GAUGE_FILE is in use
        self._vbat_said = False
        self._watchdog = True

    has_amp = AMP

    def open_amp(self, rate, ibuf):
        """The amplifier's I2S (TX, 16-bit mono at rate, ibuf bytes of DMA) -> it, or None
        without one. Made when the app has clips to say (bowl/app.py), not at bring-up: a
        bowl without them spends no DMA memory. Raises what machine.I2S raises."""
        if not AMP:
            return None
        from machine import I2S, Pin
        self.amp = I2S(I2S_ID, sck=Pin(PIN_AMP_BCLK), ws=Pin(PIN_AMP_LRC), sd=Pin(PIN_AMP_DIN), mode=I2S.TX,
                       bits=16, format=I2S.MONO, rate=rate, ibuf=ibuf)
        return self.amp

    def start_watchdog(self):
        if self._watchdog and self.wdt is None:
            import machine
            self.wdt = machine.WDT(timeout=WDT_MS)

    def battery_pin_uv(self):
        """The divider's output in uV: VBAT_SAMPLES readings less the lowest and the highest,
        averaged (small ints only: no heap). read_uv() is calibrated by the chip's eFuse
        (ports/esp32/adc.c: adc_cali_raw_to_voltage)."""
        adc = self._vbat
        lo = hi = adc.read_uv()
        total = lo
        for _ in range(VBAT_SAMPLES - 1):
            v = adc.read_uv()
            total += v
            if v < lo:
                lo = v
            elif v > hi:
                hi = v
        return (total - lo - hi) // (VBAT_SAMPLES - 2)

    def booted(self):
        import machine
        machine.freq(CPU_HZ)

    def restart(self):
        import machine
        machine.reset()  # esp_restart(): reset_cause() is then HARD_RESET (ports/esp32/modmachine.c)

    def battery_mv(self):
        """The cell's voltage in mV, or None when the board cannot tell (no ADC, or an
        uncalibrated divider reading below any cell that still runs the bowl)."""
        if self._vbat is None:
            return None
        mv = self.battery_pin_uv() // 1000 * self._vbat_ratio // 10000  # < 2**30: a small int, no heap
        if not self._vbat_cal and mv < VBAT_PLAUSIBLE_MV:
            if not self._vbat_said:
                self._vbat_said = True
                self.say("battery gauge reads %d mV: divider not calibrated (make vbat-cal)" % mv)
            return None  # a full cell behind a divider of ratio 3 reads ~2.8 V: not "empty"
        return mv

    def load_vbat_cal(self):
        """The divider's calibrated ratio from GAUGE_FILE, if there is a good one."""
        try:
            with open(self.root + "/" + GAUGE_FILE) as f:
                text = f.read(32)
        except OSError:
            return  # not calibrated: the nominal ratio
        try:
            r = int(text.strip())
        except ValueError:
            r = 0
        if VBAT_RATIO_MIN <= r <= VBAT_RATIO_MAX:
            self._vbat_ratio = r
            self._vbat_cal = True
        else:
            self.say("%s: %r is no divider ratio (%d-%d): using %d" % (GAUGE_FILE, text[:12], VBAT_RATIO_MIN,
                                                                      VBAT_RATIO_MAX, VBAT_RATIO_NOMINAL))

    def strong_random(self, n):
        """n bytes for a secret: os.urandom while the Wi-Fi radio runs (ESP-IDF,
        esp_random(): a true RNG only while Wi-Fi or Bluetooth is on; with the
        radio off it is pseudo-random), hashed with measured ADC noise
        (bobing.dice's threat model). The radio goes off again afterwards."""
        import time
        import network
        from bobing import dice
        wlan = network.WLAN(network.STA_IF)
        was_on = wlan.active()
        try:
            wlan.active(True)
        except OSError as e:
            self.say("radio did not start (%s): the secret rests on ADC noise" % e)
        try:
            time.sleep_ms(20)  # let RF noise reach the RNG
            noise = bytearray(64)
            for i in range(64):
                v = self._vbat.read_uv() if self._vbat is not None else 0
                noise[i] = (v ^ time.ticks_us()) & 0xFF
            return dice.secret_bytes(n, self.urandom, noise)
        finally:
            if not was_on:
                wlan.active(False)

    def deepsleep(self):
        import esp32
        import machine
        if self.display is not None:
            try:
                self.display.poweroff()  # SSD1306 sleep: ~10 uA
            except OSError:
                pass
        if self.pixels is not None:
            self.pixels.fill((0, 0, 0))
            self.pixels.write()
        if self.led_power is not None:
            self.led_power.value(0)  # the ring's LEDs draw ~1 mA each even when dark
        if self.buzzer is not None:
            self.buzzer.duty_u16(0)
        if self.amp is not None:
            self.amp.deinit()  # its DMA stops; the amp loses its supply with the ring's
        timed = 0
        if self.accel is not None:
            try:
                self.accel.arm_wake()  # motion interrupt in low-power cycle mode
                esp32.wake_on_ext0(self._int, esp32.WAKEUP_ANY_HIGH)
            except OSError as e:  # the bus failed while arming: sleep on a timer, try again then
                self.say("wake on shake not armed (%s): waking in %d s to try again" % (e, SLEEP_RETRY_MS // 1000))
                timed = SLEEP_RETRY_MS
        esp32.wake_on_ext1((self._ok,), esp32.WAKEUP_ALL_LOW)
        if timed:
            machine.deepsleep(timed)
        else:
            machine.deepsleep()  # no argument, no timer: deepsleep(0) would arm one that wakes at once


def mount(at="/"):
    """The frozen _boot.py's first step (firmware/boards/BOBING_ESP32/modules/_boot.py, in place of
    the port's): the vfs partition (the port's flashbdev.bdev) mounted at `at`, a blank one
    formatted; one that does not mount is left so, and said on the screen (bowl/repair.py)."""
    global MOUNT
    MOUNT = None
    from flashbdev import bdev
    if not bdev:
        return
    import vfs
    from bowl import storage
    why = storage.mount(bdev, vfs, at)
    if why is not None:
        print("the filesystem does not mount (%s): the bowl shows how to repair it" % why)
        MOUNT = (bdev, why)


def menu_held_at_boot():
    """MENU held down during power-up asks for maintenance mode (main.py)."""
    from machine import Pin
    return Pin(PIN_BTN_MENU, Pin.IN, Pin.PULL_UP).value() == 0


def _woke_by(machine):
    cause = machine.reset_cause()
    if cause == machine.DEEPSLEEP_RESET:
        why = machine.wake_reason()
        if why == getattr(machine, "EXT0_WAKE", 2):
            return "shake"
        if why == getattr(machine, "EXT1_WAKE", 3):
            return "button"
        return "reset"
    if cause == machine.WDT_RESET:
        return "watchdog"
    if cause == machine.PWRON_RESET:
        return "power"
    return "reset"


def bring_up(watchdog=True, hw=None):
    """Bring up every part; a part that fails is reported and left None.
    hw: the Board to fill (host_sim/portable/fakes/bowl.py passes its simulated one)."""
    import machine
    from machine import I2C, PWM, Pin

    if hw is None:
        hw = Board()
    # ESP-IDF starts the ESP32 at 160 MHz (the port's ESP32_GENERIC does not take sdkconfig.240mhz):
    # the boot's replay and first frame run at 240, play at CPU_HZ (Board.booted)
    machine.freq(BOOT_HZ)
    hw.woke_by = _woke_by(machine)
    hw.storage = MOUNT
    # pull=None: the OK pin has only its external 100k pull-up, awake and in deep sleep
    # (GPIO39 has no weak pulls; on GPIO4, where it was, Pin(id, mode) kept the reset
    # pull-down, machine_pin.c, and OK sat at ~1 V).
    hw._ok = Pin(PIN_BTN_OK, Pin.IN, pull=None)
    hw.buttons = (Pin(PIN_BTN_MENU, Pin.IN, Pin.PULL_UP), Pin(PIN_BTN_NEXT, Pin.IN, Pin.PULL_UP), hw._ok)
    hw._int = Pin(PIN_MPU_INT, Pin.IN)
    # GPIO35 has no pull resistors (datasheet, IO_MUX): the board's 100k pull-up holds it high
    hw.key = Pin(PIN_KEY, Pin.IN)
    hw._watchdog = watchdog  # started by the app once it has booted (bowl/app.py)

    try:
        import os
        os.mkdir(hw.root)
    except OSError:
        pass  # already there

    try:
        i2c = I2C(I2C_ID, scl=Pin(PIN_SCL), sda=Pin(PIN_SDA), freq=I2C_FREQ)
    except Exception as e:
        i2c = None
        hw.report("i2c", e)
    if i2c is not None:
        try:
            from bowl import oled  # over micropython-lib's ssd1306: frozen, or mpremote mip install ssd1306
        except ImportError:
            oled = None

        def display():  # also called later to set the display up again (bowl.hw.reattach)
            if oled is None:
                raise OSError("no ssd1306 driver: mpremote mip install ssd1306")
            return oled.Oled(OLED_WIDTH, OLED_HEIGHT, i2c, ADDR_OLED)
        attach_i2c(hw, i2c, ADDR_OLED, ADDR_MPU, display)

    try:
        import neopixel
        # the data pin driven low before the ring is powered: GPIO13 comes out of reset as an
        # input, floating (machine_pin.c leaves it so until Pin(...) sets a mode), and a WS2812
        # powered with a floating DIN can latch noise as colours
        data = Pin(PIN_LED_DATA, Pin.OUT, value=0)
        hw.pixels = neopixel.NeoPixel(data, LED_COUNT)
        hw.led_power = Pin(PIN_LED_POWER, Pin.OUT, value=1)
    except Exception as e:
        hw.report("leds", e)

    try:
        hw.buzzer = PWM(Pin(PIN_BUZZER), freq=2000, duty_u16=0)
    except Exception as e:
        hw.report("buzzer", e)

    try:
        from machine import ADC
        hw._vbat = ADC(Pin(PIN_VBAT), atten=ADC.ATTN_11DB)
    except Exception as e:
        hw.report("battery", e)
    hw.load_vbat_cal()
    return hw


def calibrate_vbat(cell_mv, root=DATA_DIR):
    """Run on the bowl (`make vbat-cal PORT=... MV=...`): cell_mv is the cell's voltage on a
    multimeter at this moment; writes the divider's ratio to root/GAUGE_FILE and returns it."""
    import os
    from machine import ADC, Pin
    if not isinstance(cell_mv, int) or not 3000 <= cell_mv <= 4300:
        raise ValueError("cell voltage %r: give the multimeter's reading in mV, 3000-4300" % (cell_mv,))
    hw = Board()
    hw._vbat = ADC(Pin(PIN_VBAT), atten=ADC.ATTN_11DB)
    uv = hw.battery_pin_uv()
    if uv <= 0:
        raise ValueError("the ADC reads 0 V on GPIO%d: is the cell plugged in?" % PIN_VBAT)
    r = cell_mv * 10000000 // uv
    if not VBAT_RATIO_MIN <= r <= VBAT_RATIO_MAX:
        raise ValueError("ratio %d.%04d (cell %d mV, pin %d mV) is outside %d.%04d-%d.%04d: check the wiring"
                         % (r // 10000, r % 10000, cell_mv, uv // 1000, VBAT_RATIO_MIN // 10000,
                            VBAT_RATIO_MIN % 10000, VBAT_RATIO_MAX // 10000, VBAT_RATIO_MAX % 10000))
    try:
        os.mkdir(root)
    except OSError:
        pass
    tmp = root + "/" + GAUGE_FILE + ".new"
    with open(tmp, "w") as f:
        f.write("%d\n" % r)
    os.rename(tmp, root + "/" + GAUGE_FILE)  # whole or not at all: a power cut keeps the old one
    return r
