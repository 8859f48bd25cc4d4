# MPU6050 accelerometer driver, in the style of the micropython-lib drivers:
# handed a ready I2C bus and an address (never pin numbers), registers as
# const(), scratch buffers allocated once, samples read into a buffer the
# caller owns, in milli-g. Only the accelerometer is used: the gyroscopes and
# the temperature sensor are kept in standby (about 0.5 mA instead of 3.9).
#
# Register map: InvenSense RM-MPU-6000A rev 4.2, plus the motion-detection
# registers of the earlier revisions that the MPU6050 silicon still has
# (MOT_THR, MOT_DUR, MOT_DETECT_CTRL, INT_ENABLE.MOT_EN, ACCEL_CONFIG.ACCEL_HPF;
# Adafruit's and i2cdevlib's drivers use them the same way).
# GY-521 boards on the market often carry an MPU-6500 instead (WHO_AM_I 0x70;
# the MPU-9250 / 9255 answer 0x71 / 0x73 with the same accelerometer): same
# data registers, but its own accelerometer filter (ACCEL_CONFIG2) and its own
# wake-on-motion (RM-MPU-6500A rev 2.1, PS-MPU-6500A "Wake-on-Motion
# Interrupt": WOM_THR, ACCEL_INTEL_CTRL, LP_ACCEL_ODR; no MOT_DUR, no HPF
# hold). The driver reads WHO_AM_I and uses the family's own registers; the
# 0x98 clones keep the MPU6050's map (github.com/ElectronicCats/mpu6050/issues/21).
# host_sim/portable/fakes/mpu6050.py checks every write this driver makes against the
# map of the chip it simulates.
"""MPU6050 on an I2C bus: range, sample rate, samples in milli-g, wake on a shake.

    mpu = MPU6050(i2c)                  # i2c: machine.I2C / SoftI2C, already set up
    buf = array.array("h", (0, 0, 0))
    mpu.read_into(buf)                  # buf = [ax, ay, az] in milli-g

Deep sleep until a shake (how board.py and the app wire it):
  * board: the module's INT pin goes to an RTC-capable GPIO (ESP32: 0, 2, 4,
    12-15, 25-27, 32-39; board.PIN_MPU_INT), no pull resistor needed: the
    driver makes INT push-pull, active high.
  * before sleeping the app calls `mpu.arm_wake()`, then
        esp32.wake_on_ext0(Pin(board.PIN_MPU_INT, Pin.IN), esp32.WAKEUP_ANY_HIGH)
        machine.deepsleep()
    arm_wake() puts the chip in low-power cycle mode (accelerometer only,
    sampling at wake_hz) with the motion interrupt latched: INT stays high
    from the first motion until INT_STATUS is read, so the ESP32 cannot miss it.
  * after waking (machine.reset_cause() == machine.DEEPSLEEP_RESET and
    machine.wake_reason() == machine.EXT0_WAKE) the app creates the driver
    again: init() resets the chip out of cycle mode and clears the latch.
"""
import time

from micropython import const

_SMPLRT_DIV = const(0x19)
_CONFIG = const(0x1A)
_ACCEL_CONFIG = const(0x1C)
_MOT_THR = const(0x1F)
_MOT_DUR = const(0x20)
_INT_PIN_CFG = const(0x37)
_INT_ENABLE = const(0x38)
_INT_STATUS = const(0x3A)
_ACCEL_XOUT_H = const(0x3B)
_SIGNAL_PATH_RESET = const(0x68)
_MOT_DETECT_CTRL = const(0x69)
_PWR_MGMT_1 = const(0x6B)
_PWR_MGMT_2 = const(0x6C)
_WHO_AM_I = const(0x75)

_ACCEL_CONFIG2 = const(0x1D)  # MPU-6500 family only
_LP_ACCEL_ODR = const(0x1E)
_WOM_THR = const(0x1F)  # MOT_THR's address, 4 mg a step
_ACCEL_INTEL_CTRL = const(0x69)  # MOT_DETECT_CTRL's address
_INTEL_EN_MODE = const(0xC0)  # ACCEL_INTEL_EN | ACCEL_INTEL_MODE (compare with the previous sample)
_FCHOICE_B = const(0x08)  # ACCEL_CONFIG2: low-power accelerometer mode
_IDS_6050 = b"\x68\x98"  # MPU-6050; 0x98: clones with its register map
_IDS_6500 = b"\x70\x71\x73"  # MPU-6500, MPU-9250, MPU-9255
_DEVICE_RESET = const(0x80)
_SLEEP = const(0x40)
_CYCLE = const(0x20)
_TEMP_DIS = const(0x08)
_STBY_GYROS = const(0x07)  # PWR_MGMT_2: STBY_XG | STBY_YG | STBY_ZG
_LATCH_INT_EN = const(0x20)
_MOT_EN = const(0x40)
_MOT_INT = const(0x40)
_DATA_RDY = const(0x01)
_HPF_RESET = const(0)
_HPF_HOLD = const(7)  # motion is measured against the reading held at arming
_RESET_POLLS = const(100)  # ms; the chip takes a few

RANGES = (2, 4, 8, 16)  # +-g; AFS_SEL is the index
_DLPF = ((184, 1), (94, 2), (44, 3), (21, 4), (10, 5), (5, 6))  # (bandwidth Hz, DLPF_CFG)
WAKE_HZ = (1, 5, 20, 40)  # cycle-mode rates (1 = 1.25 Hz); LP_WAKE_CTRL is the index
_LP_ODR = b"\x03\x05\x07\x08"  # MPU-6500 LP_ACCEL_ODR for them: 1.95, 7.81, 31.25, 62.5 Hz (the next rate up)


class MPU6050:
    def __init__(self, i2c, address=0x68, range_g=16, rate_hz=100):
        self._i2c = i2c
        self._addr = address
        self._b1 = bytearray(1)
        self._raw = bytearray(6)
        self._lsb = 2048  # LSB per g at the current range
        self.family = 6050  # or 6500, from WHO_AM_I in init()
        self.init(range_g, rate_hz)

    def _w(self, reg, value):
        self._b1[0] = value
        self._i2c.writeto_mem(self._addr, reg, self._b1)

    def _r(self, reg):
        self._i2c.readfrom_mem_into(self._addr, reg, self._b1)
        return self._b1[0]

    def init(self, range_g=16, rate_hz=100):
        """Reset the chip, wake it (accelerometer only), set range and rate.
        OSError if nothing answers or the chip is not one this driver knows."""
        who = self._r(_WHO_AM_I)
        if who in _IDS_6500:
            self.family = 6500
        elif who in _IDS_6050:
            self.family = 6050
        else:
            raise OSError("I2C 0x%02x: WHO_AM_I is 0x%02x: neither an MPU-6050 (0x68, clones 0x98) nor an "
                          "MPU-6500 family chip (0x70, 0x71, 0x73)" % (self._addr, who))
        self.who_am_i = who
        self._w(_PWR_MGMT_1, _DEVICE_RESET)
        for _ in range(_RESET_POLLS):
            time.sleep_ms(1)
            if not self._r(_PWR_MGMT_1) & _DEVICE_RESET:
                break
        else:
            raise OSError("MPU6050 at 0x%02x: device reset did not finish" % self._addr)
        self._w(_SIGNAL_PATH_RESET, 0x07)  # gyro, accel, temp signal paths
        # Awake, internal 8 MHz clock (the gyro PLLs are in standby), no thermometer.
        self._w(_PWR_MGMT_1, _TEMP_DIS)
        self._w(_PWR_MGMT_2, _STBY_GYROS)
        self._w(_INT_ENABLE, 0)
        self.range(range_g)
        self.rate(rate_hz)

    def range(self, g):
        """Full scale +-g: 2, 4, 8 or 16 (a bowl needs 16 to tell a spill)."""
        if g not in RANGES:
            raise ValueError("MPU6050 range %r: must be one of %s g" % (g, RANGES))
        afs = RANGES.index(g)
        self._w(_ACCEL_CONFIG, (self._r(_ACCEL_CONFIG) & 0x07) | (afs << 3))  # keep ACCEL_HPF
        self._lsb = 16384 >> afs
        self.range_g = g

    def rate(self, hz):
        """Samples per second, 4..1000: 1 kHz / (1 + SMPLRT_DIV), with the
        low-pass filter at no more than half the rate (no aliasing)."""
        if not isinstance(hz, int) or not 4 <= hz <= 1000:
            raise ValueError("MPU6050 rate %r: must be a whole number of Hz from 4 to 1000" % (hz,))
        cfg = _DLPF[-1][1]
        for bw, c in _DLPF:
            if 2 * bw <= hz:
                cfg = c
                break
        self._w(_CONFIG, cfg)  # DLPF on: the sample clock is 1 kHz
        if self.family == 6500:
            self._w(_ACCEL_CONFIG2, cfg)  # its accelerometer has a filter of its own: nearly the same bandwidths
        div = 1000 // hz - 1
        self._w(_SMPLRT_DIV, div)
        self.rate_hz = 1000 // (div + 1)

    def read_into(self, buf, i=0):
        """One sample: buf[i], buf[i+1], buf[i+2] = ax, ay, az in milli-g
        (rounded). Allocates nothing; OSError if the bus fails."""
        r = self._raw
        self._i2c.readfrom_mem_into(self._addr, _ACCEL_XOUT_H, r)
        lsb = self._lsb
        half = lsb >> 1
        for k in range(3):
            v = (r[2 * k] << 8) | r[2 * k + 1]
            if v & 0x8000:
                v -= 0x10000
            buf[i + k] = (v * 1000 + half) // lsb
        return buf

    def data_ready(self):
        """True once a new sample is in (reading INT_STATUS clears it)."""
        return bool(self._r(_INT_STATUS) & _DATA_RDY)

    def arm_wake(self, threshold_mg=64, duration_ms=2, wake_hz=5):
        """Low-power cycle mode with a latched motion interrupt on INT: the
        chip samples at wake_hz and raises INT when any axis moves more than
        threshold_mg from the reading held now. See the module doc for wiring.
        MOT_THR counts 2 mg per step in the register map; tune on the bowl."""
        if not 2 <= threshold_mg <= 510:
            raise ValueError("wake threshold %r mg: must be 2..510" % (threshold_mg,))
        if not 1 <= duration_ms <= 255:
            raise ValueError("wake duration %r ms: must be 1..255" % (duration_ms,))
        if wake_hz not in WAKE_HZ:
            raise ValueError("wake rate %r Hz: must be one of %s (1 means 1.25 Hz)" % (wake_hz, WAKE_HZ))
        if self.family == 6500:
            self._arm_wake_6500(threshold_mg, wake_hz)
            return
        self._w(_PWR_MGMT_1, _TEMP_DIS)  # awake and sampling while we set up
        self._w(_ACCEL_CONFIG, self._r(_ACCEL_CONFIG) & 0xF8 | _HPF_RESET)
        self._w(_MOT_THR, threshold_mg >> 1)
        self._w(_MOT_DUR, duration_ms)
        self._w(_MOT_DETECT_CTRL, 0x15)  # ACCEL_ON_DELAY 1 ms, FF_COUNT 1, MOT_COUNT 1
        self._w(_INT_PIN_CFG, _LATCH_INT_EN)  # active high, push-pull, latched, cleared by INT_STATUS
        self._w(_INT_ENABLE, _MOT_EN)
        time.sleep_ms(1000 // self.rate_hz + 1)  # one sample through the filter, then hold it
        self._w(_ACCEL_CONFIG, self._r(_ACCEL_CONFIG) & 0xF8 | _HPF_HOLD)
        self._r(_INT_STATUS)  # clear anything pending before the ESP32 sleeps
        self._w(_PWR_MGMT_2, (WAKE_HZ.index(wake_hz) << 6) | _STBY_GYROS)
        self._w(_PWR_MGMT_1, _CYCLE | _TEMP_DIS)

    def _arm_wake_6500(self, threshold_mg, wake_hz):
        # PS-MPU-6500A, "Wake-on-Motion Interrupt": awake with the accelerometer
        # only, low-power accelerometer mode, motion logic against the previous
        # sample, threshold, wake rate, then cycle mode
        if threshold_mg < 4:
            raise ValueError("wake threshold %r mg: an MPU-6500 counts 4 mg a step, must be 4..510" % (threshold_mg,))
        self._w(_PWR_MGMT_1, _TEMP_DIS)
        self._w(_PWR_MGMT_2, _STBY_GYROS)
        self._w(_ACCEL_CONFIG2, _FCHOICE_B | 1)
        self._w(_INT_PIN_CFG, _LATCH_INT_EN)
        self._w(_INT_ENABLE, _MOT_EN)  # WOM_EN: the same bit
        self._w(_ACCEL_INTEL_CTRL, _INTEL_EN_MODE)
        self._w(_WOM_THR, threshold_mg >> 2)
        self._w(_LP_ACCEL_ODR, _LP_ODR[WAKE_HZ.index(wake_hz)])
        self._r(_INT_STATUS)
        self._w(_PWR_MGMT_1, _CYCLE | _TEMP_DIS)

    def motion(self):
        """True if the motion interrupt fired; reading it clears the latch."""
        return bool(self._r(_INT_STATUS) & _MOT_INT)

    def sleep(self):
        """Full sleep (about 5 uA): no samples, no wake on motion."""
        self._w(_PWR_MGMT_1, _SLEEP | _TEMP_DIS)
