# A fake I2C bus with an MPU6050 behind it, for what cannot exist here: the
# chip. It runs on CPython and on the MicroPython unix port (no CPython-only
# modules), so the same fake drives the driver tests, the app on the unix port
# and the simulator (`from fakes import mpu6050` on both: host_sim/portable is
# on sys.path, put there by host_sim's shim on CPython and by the runner on the unix port).
#
# What it checks, as the chip and its register map would (RM-MPU-6000A rev
# 4.2 plus the motion-detection registers of earlier revisions):
#   * an address with no device raises OSError(ENODEV), as machine.I2C does
#     on the ESP32 when nobody acknowledges; `present = False` unplugs it;
#     `glitches = N` makes the next N transfers raise OSError(ETIMEDOUT), as a
#     disturbed bus does once and then works again (ports/esp32/machine_i2c.c);
#   * a write to an address not in the register map, to a read-only
#     register, or setting a reserved bit or a reserved field value raises
#     RegisterMapError (a driver bug, named precisely);
#   * reads of undefined addresses raise RegisterMapError as well;
#   * WHO_AM_I answers 0x68 (or what `who_am_i=` says: 0x70 / 0x71 / 0x73
#     make it an MPU-6500 with that family's own register map, below; other
#     clones, e.g. 0x98, keep the MPU6050's);
#   * power-up state is asleep (PWR_MGMT_1 = 0x40): the data registers stay
#     frozen (zero after power-up or reset) until the driver wakes the chip;
#     DEVICE_RESET restores every register and reads back 1 for a couple of
#     polls; any other write before it reads 0 raises RegisterMapError.
# Data: each burst read starting at ACCEL_XOUT_H latches the next sample of
# the replayed trace (t_ms, ax, ay, az in milli-g), converted to raw counts at
# the configured range and clipped at +-32768 as the chip does; the last
# sample holds when the trace ends. `t_ms` is the time of the latched sample.
# Motion interrupt (modelled, not cycle-exact): with MOT_EN set and ACCEL_HPF
# in hold mode, a sample that differs from the held reading by more than
# MOT_THR * 2 mg on any axis, for MOT_DUR samples in a row, sets MOT_INT in
# INT_STATUS and drives `int_pin` (latched or for that one sample).
import errno


class RegisterMapError(Exception):
    """The driver did something the MPU6050 register map does not allow."""


# The register map: one line per register (or run of registers), hex fields
#   address  name  access  reset value  writable bits
# "49-60 EXT_SENS_DATA" is a run: EXT_SENS_DATA_00 .. EXT_SENS_DATA_23. It is
# kept as text (a table of tuples would cost some 14 KB of the unix port's
# heap in the e2e game); the checks use the three 128-byte tables built from
# it at import, and a register's name is looked up in it only for an error.
_MAP = """\
0D SELF_TEST_X rw 00 FF
0E SELF_TEST_Y rw 00 FF
0F SELF_TEST_Z rw 00 FF
10 SELF_TEST_A rw 00 3F
19 SMPLRT_DIV rw 00 FF
1A CONFIG rw 00 3F
1B GYRO_CONFIG rw 00 F8
1C ACCEL_CONFIG rw 00 FF
1F MOT_THR rw 00 FF
20 MOT_DUR rw 00 FF
23 FIFO_EN rw 00 FF
24 I2C_MST_CTRL rw 00 FF
25 I2C_SLV0_ADDR rw 00 FF
26 I2C_SLV0_REG rw 00 FF
27 I2C_SLV0_CTRL rw 00 FF
28 I2C_SLV1_ADDR rw 00 FF
29 I2C_SLV1_REG rw 00 FF
2A I2C_SLV1_CTRL rw 00 FF
2B I2C_SLV2_ADDR rw 00 FF
2C I2C_SLV2_REG rw 00 FF
2D I2C_SLV2_CTRL rw 00 FF
2E I2C_SLV3_ADDR rw 00 FF
2F I2C_SLV3_REG rw 00 FF
30 I2C_SLV3_CTRL rw 00 FF
31 I2C_SLV4_ADDR rw 00 FF
32 I2C_SLV4_REG rw 00 FF
33 I2C_SLV4_DO rw 00 FF
34 I2C_SLV4_CTRL rw 00 FF
35 I2C_SLV4_DI r 00 00
36 I2C_MST_STATUS r 00 00
37 INT_PIN_CFG rw 00 FE
38 INT_ENABLE rw 00 59
3A INT_STATUS r 00 00
3B ACCEL_XOUT_H r 00 00
3C ACCEL_XOUT_L r 00 00
3D ACCEL_YOUT_H r 00 00
3E ACCEL_YOUT_L r 00 00
3F ACCEL_ZOUT_H r 00 00
40 ACCEL_ZOUT_L r 00 00
41 TEMP_OUT_H r 00 00
42 TEMP_OUT_L r 00 00
43 GYRO_XOUT_H r 00 00
44 GYRO_XOUT_L r 00 00
45 GYRO_YOUT_H r 00 00
46 GYRO_YOUT_L r 00 00
47 GYRO_ZOUT_H r 00 00
48 GYRO_ZOUT_L r 00 00
49-60 EXT_SENS_DATA r 00 00
61 MOT_DETECT_STATUS r 00 00
63 I2C_SLV0_DO rw 00 FF
64 I2C_SLV1_DO rw 00 FF
65 I2C_SLV2_DO rw 00 FF
66 I2C_SLV3_DO rw 00 FF
67 I2C_MST_DELAY_CTRL rw 00 FF
68 SIGNAL_PATH_RESET w 00 07
69 MOT_DETECT_CTRL rw 00 3F
6A USER_CTRL rw 00 77
6B PWR_MGMT_1 rw 40 EF
6C PWR_MGMT_2 rw 00 FF
72 FIFO_COUNTH r 00 00
73 FIFO_COUNTL r 00 00
74 FIFO_R_W rw 00 FF
75 WHO_AM_I r 68 00
"""
# The MPU-6500 family (WHO_AM_I 0x70; the MPU-9250's 0x71 and MPU-9255's 0x73
# carry the same accelerometer), as differences from the map above (register
# map RM-MPU-6500A-00 rev 2.1): an accelerometer low-pass filter of its own
# (ACCEL_CONFIG2), no ACCEL_HPF (ACCEL_CONFIG[2:0] reserved), no MOT_DUR, no
# LP_WAKE_CTRL (PWR_MGMT_2[7:6] reserved): wake-on-motion is WOM_THR (4 mg a
# step, against the previous sample), ACCEL_INTEL_CTRL and LP_ACCEL_ODR; it
# powers up awake (PWR_MGMT_1 = 0x01). "-" removes a register.
_MAP6500 = """\
10 - - 00 00
1A CONFIG rw 00 7F
1C ACCEL_CONFIG rw 00 F8
1D ACCEL_CONFIG2 rw 00 0F
1E LP_ACCEL_ODR rw 00 0F
1F WOM_THR rw 00 FF
20 - - 00 00
61 - - 00 00
69 ACCEL_INTEL_CTRL rw 00 C0
6B PWR_MGMT_1 rw 01 FF
6C PWR_MGMT_2 rw 00 3F
75 WHO_AM_I r 70 00
"""
# Bit fields of the writable masks: CONFIG EXT_SYNC_SET[5:3] DLPF_CFG[2:0];
# GYRO_CONFIG XG_ST YG_ST ZG_ST FS_SEL[4:3]; ACCEL_CONFIG XA_ST YA_ST ZA_ST
# AFS_SEL[4:3] ACCEL_HPF[2:0]; INT_PIN_CFG INT_LEVEL INT_OPEN LATCH_INT_EN
# INT_RD_CLEAR FSYNC_INT_LEVEL FSYNC_INT_EN I2C_BYPASS_EN; INT_ENABLE MOT_EN
# FIFO_OFLOW_EN I2C_MST_INT_EN DATA_RDY_EN; SIGNAL_PATH_RESET GYRO_RESET
# ACCEL_RESET TEMP_RESET; MOT_DETECT_CTRL ACCEL_ON_DELAY[5:4] FF_COUNT[3:2]
# MOT_COUNT[1:0]; PWR_MGMT_1 DEVICE_RESET SLEEP CYCLE - TEMP_DIS CLKSEL[2:0];
# PWR_MGMT_2 LP_WAKE_CTRL[7:6] STBY_XA..STBY_ZG.
_R = 1  # access bits in _ACCESS (0: no register at that address)
_W = 2


def _lines(text):
    # -> (first, last, name, access bits, reset, mask) per line of a map
    for line in text.split("\n"):
        if line:
            a, name, acc, reset, mask = line.split()
            lo, _, hi = a.partition("-") if len(a) > 2 else (a, "", "")
            yield (int(lo, 16), int(hi or lo, 16), name, (_R if "r" in acc else 0) | (_W if "w" in acc else 0),
                   int(reset, 16), int(mask, 16))


def _tables(*maps):
    # (access, reset, mask): three 128-byte tables, later maps overriding earlier ones
    acc_t, reset_t, mask_t = bytearray(128), bytearray(128), bytearray(128)
    for text in maps:
        for lo, hi, _name, acc, reset, mask in _lines(text):
            for a in range(lo, hi + 1):
                acc_t[a] = acc
                reset_t[a] = reset
                mask_t[a] = mask
    return acc_t, reset_t, mask_t


_TABLES = {6050: _tables(_MAP)}  # the MPU-6500's are made when one is first simulated
_ACCESS, _RESET, _MASK = _TABLES[6050]
MPU6500_IDS = (0x70, 0x71, 0x73)


def register_name(reg, family=6050):
    """The register map's name of address `reg`, or None if there is none."""
    for text in ((_MAP6500, _MAP) if family == 6500 else (_MAP,)):
        for lo, hi, name, _acc, _reset, _mask in _lines(text):
            if lo <= reg <= hi:
                if name == "-":
                    return None
                return name if lo == hi else "%s_%02d" % (name, reg - lo)
    return None


SMPLRT_DIV = 0x19
CONFIG = 0x1A
ACCEL_CONFIG = 0x1C
MOT_THR = 0x1F
MOT_DUR = 0x20
INT_PIN_CFG = 0x37
INT_ENABLE = 0x38
INT_STATUS = 0x3A
ACCEL_XOUT_H = 0x3B
SIGNAL_PATH_RESET = 0x68
ACCEL_CONFIG2 = 0x1D  # MPU-6500 only
LP_ACCEL_ODR = 0x1E
WOM_THR = 0x1F
ACCEL_INTEL_CTRL = 0x69
PWR_MGMT_1 = 0x6B
PWR_MGMT_2 = 0x6C
WHO_AM_I = 0x75

_RESET_POLLS = 2  # PWR_MGMT_1 reads that still show DEVICE_RESET


def load_trace(path):
    """A trace file (t_ms,ax,ay,az per line; '#' comments, one header) -> [(t, ax, ay, az)]."""
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] == "#" or line[0] == "t":
                continue
            p = line.split(",")
            rows.append((int(p[0]), int(p[1]), int(p[2]), int(p[3])))
    return rows


class FakeI2C:
    """machine.I2C's methods over fake devices {address: device}.

    Time: every transfer is handed to `clock` (an object with i2c_us(us) and sampled(addr), or None)
    with what it costs on the wire at `freq`: 9 clocks a byte (8 bits and the
    acknowledge) for the address byte(s), the register pointer and the data,
    plus start/stop, plus DRIVER_US for the ESP32 driver's own work (the legacy
    driver builds a command link and waits on its interrupt for each transfer,
    ports/esp32/machine_i2c.c: an assumption, not measured on a board).
    `stuck = True` holds the bus (a part holding SDA or SCL low): the legacy
    driver then waits its whole time-out, 100 ms x (1 + data bytes)
    (machine_i2c.c: i2c_master_cmd_begin(..., 100 * (1 + data_len) /
    portTICK_PERIOD_MS)), and raises OSError(ETIMEDOUT); `stuck_at` (clock us)
    makes it stick at that moment, in the transfer under way then."""
    DRIVER_US = 60

    def __init__(self, devices=None):
        self.devices = devices or {}
        self.log = []  # ("w" | "r", address, register, bytes) of every mem transfer
        self.glitches = 0  # the next N transfers time out (a disturbance on the bus), then all is well
        self.freq = 400000
        self.stuck = False
        self.stuck_at = None  # clock us at which the bus sticks (mid-transfer, if one is under way)
        self.clock = None
        self.transfers = 0

    def _cost(self, addr_bytes, data_len):
        """Charge one transfer: addr_bytes address bytes (with R/W) and data_len
        data bytes (register pointers included, as the driver counts them)."""
        self.transfers += 1
        c = self.clock
        wire = self.DRIVER_US + (9 * (addr_bytes + data_len) + 2) * 1000000 // self.freq
        if self.stuck_at is not None and c is not None and c.now_us() + wire > self.stuck_at:
            self.stuck = True  # it sticks during this transfer
        if self.stuck:
            if c is not None:
                c.i2c_us(100000 * (1 + data_len))
            raise OSError(errno.ETIMEDOUT)
        if c is not None:
            c.i2c_us(wire)

    def _done(self):
        if self.clock is not None:
            self.clock.io_end()  # the fake's own work is not the bowl's

    def _dev(self, addr):
        if self.glitches:
            self.glitches -= 1
            raise OSError(errno.ETIMEDOUT)  # as machine.I2C on the ESP32 when a transfer times out
        d = self.devices.get(addr)
        if d is None or not d.present:
            raise OSError(errno.ENODEV)
        return d

    def scan(self):
        for a in range(0x08, 0x78):  # the port probes each address with an empty write
            self._cost(1, 0)
        found = sorted(a for a in self.devices if self.devices[a].present)
        self._done()
        return found

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        if addrsize != 8:
            raise ValueError("addrsize %r: the MPU6050 has 8-bit register addresses" % (addrsize,))
        self._cost(1, 1 + len(buf))
        d = self._dev(addr)
        self.log.append(("w", addr, memaddr, bytes(buf)))
        d.mem_write(memaddr, buf)
        self._done()

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        if addrsize != 8:
            raise ValueError("addrsize %r: the MPU6050 has 8-bit register addresses" % (addrsize,))
        self._cost(2, 1 + len(buf))  # write the pointer, repeated start, read
        d = self._dev(addr)
        if self.clock is not None and len(buf) >= 6:
            self.clock.sampled(addr)
        d.mem_read_into(memaddr, buf)
        self.log.append(("r", addr, memaddr, bytes(buf)))
        self._done()

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize)
        return bytes(buf)

    def writeto(self, addr, buf, stop=True):
        """Plain write: the first byte is the register pointer, the rest data."""
        self._cost(1, len(buf))
        d = self._dev(addr)
        d.write(buf)
        self._done()
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        """The buffers one after another in one transfer, none copied: extmod/machine_i2c.c's
        writevto hands the port the caller's buffers (their list on the C stack, mp_local_alloc),
        so a frame's 1,024 bytes cost the bowl's heap nothing; the device takes them in turn."""
        n = 0
        for b in vector:
            n += len(b)
        self._cost(1, n)
        d = self._dev(addr)
        d.writev(vector)
        self._done()
        return n

    def readfrom_into(self, addr, buf, stop=True):
        self._cost(1, len(buf))
        self._dev(addr).read_into(buf)
        self._done()

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)


class _IntPin:
    """The MPU6050's INT line as a Pin-like input (value() only)."""

    def __init__(self, chip):
        self._chip = chip

    def value(self):
        return self._chip.int_level()

    def __call__(self):
        return self.value()


class FakeMPU6050:
    def __init__(self, trace=None, who_am_i=0x68):
        self.present = True
        self.who_am_i = who_am_i
        # an MPU-6500 (or a 9250/9255) has its own map; any other id (0x68, the
        # 0x98 clones sold on GY-521 boards) answers with the MPU6050's
        self.family = 6500 if who_am_i in MPU6500_IDS else 6050
        self.name = "MPU6500" if self.family == 6500 else "MPU6050"
        if self.family not in _TABLES:
            _TABLES[self.family] = _tables(_MAP, _MAP6500)
        self._acc_t, self._reset_t, self._mask_t = _TABLES[self.family]
        self.trace = list(trace or ())
        self.pos = 0  # next trace sample
        self.t_ms = self.trace[0][0] if self.trace else 0
        self.int_pin = _IntPin(self)
        self.resets = 0
        self.samples_read = 0
        self._ptr = 0
        self._power_up()

    def _power_up(self):
        self.regs = bytearray(self._reset_t)
        self.regs[WHO_AM_I] = self.who_am_i
        self._data = [0, 0, 0]  # raw accel counts held in the output registers
        self._resetting = 0
        self._status = 0
        self._ref = None  # the high-pass filter's held reading (MPU6050) or the previous sample (MPU6500), milli-g
        self._mot_run = 0
        self._int_now = False

    # --- state a test can look at ---
    def asleep(self):
        return bool(self.regs[PWR_MGMT_1] & 0x40) or (self.regs[PWR_MGMT_1] & 7) == 7

    def cycling(self):
        return not self.asleep() and bool(self.regs[PWR_MGMT_1] & 0x20)

    def range_g(self):
        return 2 << ((self.regs[ACCEL_CONFIG] >> 3) & 3)

    def rate_hz(self):
        dlpf = self.regs[CONFIG] & 7
        base = 8000 if dlpf in (0, 7) else 1000
        return base // (1 + self.regs[SMPLRT_DIV])

    def wake_armed(self):
        """None if a shake would raise INT while the ESP32 sleeps, else why not."""
        r = self.regs
        if self.asleep():
            return "the chip sleeps (PWR_MGMT_1 SLEEP or clock stopped): nothing is sampled"
        if r[PWR_MGMT_2] & 0x38:
            return "an accelerometer axis is in standby"
        if not r[INT_ENABLE] & 0x40:
            return "MOT_EN / WOM_EN is off in INT_ENABLE"
        if r[MOT_THR] == 0:
            return "MOT_THR / WOM_THR is 0"
        if self.family == 6500:
            # PS-MPU-6500A-01, wake-on-motion: ACCEL_INTEL_EN and ACCEL_INTEL_MODE, low-power
            # accelerometer mode (ACCEL_FCHOICE_B = 1) cycling at LP_ACCEL_ODR
            if r[ACCEL_INTEL_CTRL] != 0xC0:
                return "ACCEL_INTEL_CTRL is not 0xC0 (ACCEL_INTEL_EN, ACCEL_INTEL_MODE): no motion logic"
            if not r[ACCEL_CONFIG2] & 0x08:
                return "ACCEL_CONFIG2 ACCEL_FCHOICE_B is 0: not the low-power accelerometer mode"
            if not r[PWR_MGMT_1] & 0x20:
                return "PWR_MGMT_1 CYCLE is off: the chip does not sample on its own"
        elif r[ACCEL_CONFIG] & 7 != 7:
            return "ACCEL_HPF is not in hold mode: no reference to measure motion against"
        if not r[INT_PIN_CFG] & 0x20:
            return "INT is not latched: a 50 us pulse can be missed"
        return None

    def int_level(self):
        active = self._int_now or (bool(self.regs[INT_PIN_CFG] & 0x20) and bool(self._status & self.regs[INT_ENABLE]))
        if self.regs[INT_PIN_CFG] & 0x80:  # INT_LEVEL: active low
            return 0 if active else 1
        return 1 if active else 0

    # --- the bus side ---
    def mem_write(self, reg, buf):
        for k in range(len(buf)):
            self._write(reg + k, buf[k])

    def mem_read_into(self, reg, buf):
        if reg == ACCEL_XOUT_H:
            self._sample()
        clear = False
        for k in range(len(buf)):
            r = reg + k
            buf[k] = self._read(r)
            if r == INT_STATUS or self.regs[INT_PIN_CFG] & 0x10:  # INT_RD_CLEAR: any read
                clear = True
        if clear:
            self._status = 0
            self._int_now = False

    def writev(self, vector):
        self.write(b"".join(vector))  # a register write is a few bytes

    def write(self, buf):
        if len(buf) == 0:
            return
        self._ptr = buf[0]
        self.mem_write(buf[0], buf[1:])
        self._ptr = buf[0] + len(buf) - 1

    def read_into(self, buf):
        self.mem_read_into(self._ptr, buf)
        self._ptr += len(buf)

    def _access(self, reg):
        a = self._acc_t[reg] if 0 <= reg < 128 else 0
        if not a:
            raise RegisterMapError("%s register 0x%02x does not exist (register map)" % (self.name, reg))
        return a

    def _write(self, reg, v):
        if not self._access(reg) & _W:
            raise RegisterMapError("%s %s (0x%02x) is read-only; wrote 0x%02x"
                                   % (self.name, register_name(reg, self.family), reg, v))
        if self._resetting and reg != PWR_MGMT_1:
            raise RegisterMapError("%s write to %s during DEVICE_RESET: poll PWR_MGMT_1 "
                                   "until bit 7 reads 0 first" % (self.name, register_name(reg, self.family)))
        mask = self._mask_t[reg]
        if v & ~mask & 0xFF:
            raise RegisterMapError("%s %s = 0x%02x sets reserved bits 0x%02x (writable: 0x%02x)"
                                   % (self.name, register_name(reg, self.family), v, v & ~mask & 0xFF, mask))
        if self.family == 6050:
            if reg == CONFIG and v & 7 == 7:
                raise RegisterMapError("MPU6050 CONFIG DLPF_CFG = 7 is reserved")
            if reg == ACCEL_CONFIG and v & 7 == 5:
                raise RegisterMapError("MPU6050 ACCEL_CONFIG ACCEL_HPF = 5 is reserved")
            if reg == PWR_MGMT_1 and v & 7 == 6:
                raise RegisterMapError("MPU6050 PWR_MGMT_1 CLKSEL = 6 is reserved")
        if reg == PWR_MGMT_1 and v & 0x80:
            self.resets += 1
            self._power_up()
            self._resetting = _RESET_POLLS
            return
        if reg == SIGNAL_PATH_RESET:
            if v & 2:
                self._data = [0, 0, 0]
            return  # a strobe: nothing is stored
        if reg == ACCEL_CONFIG and self.family == 6050:
            hpf = v & 7
            if hpf == 7 and self.regs[reg] & 7 != 7:
                self._ref = self._current_mg()  # hold: motion is measured against this
            elif hpf != 7:
                self._ref = None
        self.regs[reg] = v

    def _read(self, reg):
        if not self._access(reg) & _R:
            return 0  # a write-only strobe reads 0
        if reg == PWR_MGMT_1 and self._resetting:
            self._resetting -= 1
            return self.regs[reg] | 0x80
        if ACCEL_XOUT_H <= reg <= ACCEL_XOUT_H + 5:
            v = self._data[(reg - ACCEL_XOUT_H) >> 1] & 0xFFFF
            return v >> 8 if (reg - ACCEL_XOUT_H) & 1 == 0 else v & 0xFF
        if reg == INT_STATUS:
            return self._status
        return self.regs[reg]

    # --- the physical side ---
    def _current_mg(self):
        if not self.trace:
            return (0, 0, 1000)
        s = self.trace[self.pos - 1] if self.pos else self.trace[0]
        return (s[1], s[2], s[3])

    def _sample(self):
        """The chip takes the next reading into its output registers (if awake)."""
        if self.asleep() or self._resetting:
            return
        if self.pos < len(self.trace):
            self.t_ms = self.trace[self.pos][0]
            self.pos += 1
        mg = self._current_mg()
        lsb = 16384 >> ((self.regs[ACCEL_CONFIG] >> 3) & 3)
        for i in range(3):
            raw = (abs(mg[i]) * lsb + 500) // 1000  # rounded half away from zero
            if mg[i] < 0:
                raw = -raw
            self._data[i] = max(-32768, min(32767, raw))
        self.samples_read += 1
        self._status |= 0x01  # DATA_RDY
        self._motion(mg)

    def step(self):
        """The chip samples on its own (cycle mode, between reads). False at the trace end."""
        more = self.pos < len(self.trace)
        self._sample()
        return more

    def _motion(self, mg):
        self._int_now = False
        r = self.regs
        if self.family == 6500:  # wake-on-motion: against the previous sample, 4 mg a step, no duration
            ref = self._ref
            self._ref = mg
            if not r[INT_ENABLE] & 0x40 or r[MOT_THR] == 0 or r[ACCEL_INTEL_CTRL] != 0xC0 or ref is None:
                return
            thr = r[MOT_THR] * 4
            if abs(mg[0] - ref[0]) > thr or abs(mg[1] - ref[1]) > thr or abs(mg[2] - ref[2]) > thr:
                self._status |= 0x40  # WOM_INT
                self._int_now = True
            return
        if not r[INT_ENABLE] & 0x40 or r[MOT_THR] == 0 or self._ref is None:
            self._mot_run = 0
            return
        thr = r[MOT_THR] * 2
        ref = self._ref
        if abs(mg[0] - ref[0]) > thr or abs(mg[1] - ref[1]) > thr or abs(mg[2] - ref[2]) > thr:
            self._mot_run += 1
        else:
            self._mot_run = 0
        if self._mot_run >= max(1, r[MOT_DUR]):
            self._status |= 0x40  # MOT_INT
            self._int_now = True
