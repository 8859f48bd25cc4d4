# The bowl's power as the gauge sees it: the LiPo cell and the board's 3V3 regulator
# (Battery: drains, sags while the ring is lit or the radio is on, and resets the chip
# at ESP-IDF's brown-out level) and the battery gauge's divider and ADC (Divider: read
# through the board's divider and a noisy, miscalibrated ADC). Runs on the MicroPython
# unix port and on CPython.
from host_sim.portable.fakes.esp32 import VDD_MV, FakeESP32


class Divider:
    """The battery gauge's analogue side on the FireBeetle: the cell through R1 (top) and R2
    (bottom), 1 MOhm each, to GPIO34, read by the ESP32's ADC1 at 11 dB. What makes a reading
    differ from the cell / 2, per bowl:
    - the resistors' tolerance (TOL_PPM each, the board's 1 % 0402 parts: an assumption);
    - r_in: the ADC pin's effective load on the 1M divider. None on a board that reads true;
      owners measured 1.4 V on the pin for a 4.2 V cell (DFRobot forum), an r_in of ~1 MOhm;
    - offset_mv: ESP-IDF's line-fitting calibration from the chip's eFuse Vref leaves up to
      +-60 mV at 11 dB over 150-2450 mV (ESP32 datasheet, "ADC calibration results"): a fixed
      error of each chip, at the pin;
    - noise: every sample off by up to +-NOISE_MV (ESP-IDF's ADC guide: single readings scatter,
      multisample them; the figure is an assumption of a few tens of LSB at 11 dB)."""
    R = 1000000
    TOL_PPM = 10000
    OFFSET_MAX_MV = 60
    NOISE_MV = 20
    RANGE_MV = (150, 2450)  # 11 dB: the calibrated range; beyond it the reading clips

    def __init__(self, r1=R, r2=R, r_in=None, offset_mv=0, noise_mv=NOISE_MV, seed=7):
        self.r1 = r1
        self.r2 = r2
        self.r_in = r_in
        self.offset_mv = offset_mv
        self.noise_mv = noise_mv
        self._n = seed

    def pin_mv(self, cell_mv):
        """The voltage the divider puts on GPIO34 (no reading error)."""
        r1, r2 = self.r1 // 1000, self.r2 // 1000  # in kOhm: small ints, no heap on MicroPython
        low = r2 if self.r_in is None else r2 * (self.r_in // 1000) // (r2 + self.r_in // 1000)
        return cell_mv * low // (r1 + low)

    def read_mv(self, cell_mv):
        """One ADC sample, in whole mV as adc_cali_raw_to_voltage() gives it."""
        self._n = (self._n * 75 + 74) % 65537  # small ints only: no heap on MicroPython
        noise = self._n % (2 * self.noise_mv + 1) - self.noise_mv if self.noise_mv else 0
        v = self.pin_mv(cell_mv) + self.offset_mv + noise
        return min(max(v, 0), 3100)


class Battery:
    """The LiPo cell (hardware/bom.md: 1200 mAh) and the board's 3V3 regulator.
    mv() is the cell's voltage under the bowl's load: its open-circuit voltage
    (a typical LiPo discharge curve) less load x internal resistance, so it
    falls as the charge runs out and sags while the ring is lit or the radio
    sends. The 3V3 rail follows the cell less the LDO's dropout once the cell is
    that low. The ESP32 resets when the rail falls under BROWNOUT_MV: ESP-IDF's
    brown-out detector at its default level 0, ~2.43 V (Kconfig ESP_BROWNOUT_DET_LVL_SEL_0;
    the port's sdkconfig keeps it); that is below the module's 3.0 V rating
    (WROOM-32E datasheet), so a flat cell does not stop the chip: the gauge must."""
    CURVE = ((0, 3200), (2, 3400), (5, 3520), (10, 3620), (20, 3690), (30, 3730), (40, 3760),
             (50, 3790), (60, 3840), (70, 3900), (80, 3970), (90, 4060), (100, 4180))  # (% charge, mV)
    R_MOHM = 250  # cell, protection FETs and lead: an assumption for a cell in its second season
    DROPOUT_MV = 250  # the board's LDO at the bowl's currents (assumption: measure yours)
    BROWNOUT_MV = 2430
    AWAKE_UA = 53000  # hardware/power.md: the ESP32, the OLED, the accelerometer, the buzzer (the ring on top)
    ASLEEP_UA = 60
    LED_UA = 12000  # a WS2812B channel at full (255); 0.8 mA each dark, while powered
    LED_DARK_UA = 800
    # Wi-Fi on top of the awake ESP32 while the radio is on (ESP32 datasheet and Espressif's
    # power figures for a station associated to an AP): ~45 mA on average with the default
    # modem sleep (WLAN.PM_PERFORMANCE / PM_POWERSAVE), ~129 mA with PM_NONE (receiver always
    # on), and peaks of ~240 mA while transmitting (802.11b at full power): the rail sags by those.
    RADIO_PS_UA = 45000
    RADIO_UA = 129000
    RADIO_TX_UA = 240000

    def __init__(self, board, mah=1200, percent=100):
        self.board = board
        self.capacity = mah
        self.uah = mah * 10 * percent  # the charge left, in uAh (small ints: no heap on MicroPython)
        self._rem = 0  # uA x ms not yet a whole uAh

    def ocv_mv(self):
        full = self.capacity * 1000
        c = self.CURVE
        for i in range(1, len(c)):
            lo = full * c[i - 1][0] // 100
            hi = full * c[i][0] // 100
            if self.uah <= hi:
                if self.uah <= lo:
                    return c[i - 1][1]
                return c[i - 1][1] + (c[i][1] - c[i - 1][1]) * (self.uah - lo) // (hi - lo)
        return c[-1][1]

    def load_ua(self):
        b = self.board
        if b.asleep:
            return self.ASLEEP_UA
        ua = self.AWAKE_UA + self.radio_ua()
        ring = b.ring
        if ring is not None and b.led_power_pin.value():
            lit = 0
            for rgb in ring.shown:
                lit += rgb[0] + rgb[1] + rgb[2]
            ua += ring.n * self.LED_DARK_UA + lit * self.LED_UA // 255
        return ua

    def _net(self):
        # the network task's radio (Sim(air=...): a fake_wlan.WLAN in SimBoard.wlan), if it is on
        w = getattr(self.board, "wlan", None)
        return w if w is not None and w.active() else None

    def radio_on(self):
        """The radio is on: for a secret (FakeESP32.active) or for the network."""
        return self.board.esp.radio or self._net() is not None

    def radio_ua(self):
        """The Wi-Fi radio's average current now (0 while it is off)."""
        if not self.radio_on():
            return 0
        w = self._net()
        pm = w.air.pm if w is not None else self.board.esp.pm  # WLAN.config(pm=): one radio setting
        return self.RADIO_UA if pm == FakeESP32.PM_NONE else self.RADIO_PS_UA

    def mv(self):
        return self.ocv_mv() - self.load_ua() * self.R_MOHM // 1000000

    def rail_mv(self):
        return min(VDD_MV, self.mv() - self.DROPOUT_MV)

    def rail_low_mv(self):
        """The rail at its lowest now: during a transmit burst while the radio is on."""
        burst = self.RADIO_TX_UA - self.radio_ua() if self.radio_on() else 0
        return min(VDD_MV, self.mv() - burst * self.R_MOHM // 1000000 - self.DROPOUT_MV)

    def drain(self, ms):
        self._rem += self.load_ua() * ms
        if self._rem >= 3600000:
            self.uah = max(0, self.uah - self._rem // 3600000)
            self._rem %= 3600000
