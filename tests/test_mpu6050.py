# micropython: yes
# bowl.mpu6050 against host_sim/portable/fakes/mpu6050 (a fake I2C bus that checks every
# register write against the MPU6050 register map, and replays a trace).
import array
import errno

from bowl import mpu6050

from hostmods import TRACES
from hostmods import fake_mpu6050 as fk


def bus(trace="model_normal_shake", **kw):
    chip = fk.FakeMPU6050(fk.load_trace(TRACES + trace + ".csv") if trace else None, **kw)
    return fk.FakeI2C({0x68: chip}), chip


def raises(exc, f, *args, **kw):
    try:
        f(*args, **kw)
    except exc as e:
        return e
    raise AssertionError("%s not raised" % exc.__name__)


def test_init_resets_wakes_and_configures_accelerometer_only():
    i2c, chip = bus()
    assert chip.asleep()  # power-up state
    mpu = mpu6050.MPU6050(i2c)
    assert chip.resets == 1
    assert not chip.asleep() and not chip.cycling()
    assert chip.range_g() == 16 and mpu.range_g == 16
    assert chip.rate_hz() == 100 == mpu.rate_hz
    assert chip.regs[fk.CONFIG] & 7 == 3  # 44 Hz low-pass for 100 Hz sampling
    assert chip.regs[fk.PWR_MGMT_2] == 0x07  # gyros in standby, accelerometer on
    assert chip.regs[fk.PWR_MGMT_1] & 0x08  # thermometer off
    # the sequence: identify, reset, poll until done, then configure
    first = [(op, reg) for op, _a, reg, _b in i2c.log[:3]]
    assert first == [("r", fk.WHO_AM_I), ("w", fk.PWR_MGMT_1), ("r", fk.PWR_MGMT_1)]
    assert i2c.log[1][3] == b"\x80"


def test_samples_come_back_in_milli_g_within_one_lsb():
    trace = fk.load_trace(TRACES + "model_normal_shake.csv")
    i2c, chip = bus()
    mpu = mpu6050.MPU6050(i2c)
    buf = array.array("h", [0, 0, 0])
    for t, ax, ay, az in trace[:300]:
        mpu.read_into(buf)
        assert chip.t_ms == t
        assert abs(buf[0] - ax) <= 1 and abs(buf[1] - ay) <= 1 and abs(buf[2] - az) <= 1, (t, list(buf))
    # into a bigger caller-owned buffer, at an offset
    big = [0] * 9
    mpu.read_into(big, 3)
    assert big[:3] == [0, 0, 0] and big[6:] == [0, 0, 0] and big[5] != 0


def test_range_clips_like_the_chip():
    i2c, chip = bus("model_violent_shake")
    mpu = mpu6050.MPU6050(i2c, range_g=2)
    assert chip.range_g() == 2
    buf = [0, 0, 0]
    top = 0
    for _ in range(len(chip.trace)):
        mpu.read_into(buf)
        top = max(top, max(abs(v) for v in buf))
    assert top == 2000  # +-32767 counts at 16384 per g
    for g in (4, 8, 16):
        mpu.range(g)
        assert chip.range_g() == g
    e = raises(ValueError, mpu.range, 3)
    assert "2, 4, 8, 16" in str(e)


def test_sample_rate_and_low_pass():
    i2c, chip = bus()
    mpu = mpu6050.MPU6050(i2c)
    for hz, dlpf in ((1000, 1), (200, 2), (100, 3), (50, 4), (20, 5), (10, 6), (4, 6)):
        mpu.rate(hz)
        assert chip.rate_hz() == mpu.rate_hz
        assert abs(mpu.rate_hz - hz) <= hz // 10, (hz, mpu.rate_hz)
        assert chip.regs[fk.CONFIG] & 7 == dlpf, hz
    for bad in (3, 1001, "100", 100.0):
        raises(ValueError, mpu.rate, bad)


def test_absent_or_unplugged_chip_raises_enodev():
    e = raises(OSError, mpu6050.MPU6050, fk.FakeI2C({}))
    assert e.args[0] == errno.ENODEV
    i2c, chip = bus()
    assert i2c.scan() == [0x68]
    mpu = mpu6050.MPU6050(i2c)
    chip.present = False
    assert i2c.scan() == []
    e = raises(OSError, mpu.read_into, [0, 0, 0])
    assert e.args[0] == errno.ENODEV
    e = raises(OSError, mpu6050.MPU6050, i2c, 0x69)  # AD0 high: nobody there
    assert e.args[0] == errno.ENODEV


def test_a_different_chip_is_refused_by_who_am_i():
    i2c, chip = bus(who_am_i=0x12)  # not a chip of either family
    e = raises(OSError, mpu6050.MPU6050, i2c)
    assert "0x12" in str(e) and "0x68" in str(e) and "0x70" in str(e)
    assert chip.resets == 0  # nothing written to a chip we do not know


def test_mpu6500_family_is_detected_and_configured_with_its_own_registers():
    for who in (0x70, 0x71, 0x73):  # MPU-6500, MPU-9250, MPU-9255 on "GY-521" boards
        i2c, chip = bus(who_am_i=who)
        assert chip.family == 6500
        mpu = mpu6050.MPU6050(i2c)
        assert mpu.family == 6500 and mpu.who_am_i == who
        assert chip.range_g() == 16 and chip.rate_hz() == 100
        assert chip.regs[fk.ACCEL_CONFIG2] & 0x0F == 3  # its own accelerometer low-pass: 44.8 Hz
        buf = [0, 0, 0]
        mpu.read_into(buf)
        assert abs(buf[2] - chip.trace[0][3]) <= 1


def test_a_0x98_clone_works_with_the_mpu6050_map():
    i2c, chip = bus(who_am_i=0x98)
    mpu = mpu6050.MPU6050(i2c)
    assert mpu.family == 6050 and chip.family == 6050
    mpu.arm_wake()
    assert chip.wake_armed() is None


def test_the_mpu6050_wake_sequence_is_refused_by_an_mpu6500():
    # what the driver did before it knew the family: MOT_DUR does not exist on the MPU-6500
    i2c, chip = bus(who_am_i=0x70)
    mpu = mpu6050.MPU6050(i2c)
    mpu.family = 6050
    e = raises(fk.RegisterMapError, mpu.arm_wake)
    assert "MPU6500" in str(e)


def test_mpu6500_wake_on_motion_raises_a_latched_int_on_a_shake():
    i2c, chip = bus("model_rest_noise", who_am_i=0x70)
    mpu = mpu6050.MPU6050(i2c)
    mpu.arm_wake()
    assert chip.wake_armed() is None, chip.wake_armed()
    assert chip.cycling() and chip.regs[fk.WOM_THR] == 16  # 64 mg at 4 mg a step
    assert chip.regs[fk.ACCEL_INTEL_CTRL] == 0xC0 and chip.regs[fk.LP_ACCEL_ODR] == 5
    for _ in range(390):  # lying still: noise only
        chip.step()
    assert chip.int_pin.value() == 0

    i2c, chip = bus("model_normal_shake", who_am_i=0x70)
    mpu = mpu6050.MPU6050(i2c)
    mpu.arm_wake()
    n = 0
    while chip.int_pin.value() == 0 and chip.step():
        n += 1
    assert chip.int_pin.value() == 1 and 95 <= n <= 130, n
    for _ in range(50):
        chip.step()
    assert chip.int_pin.value() == 1  # latched
    assert mpu.motion() is True and chip.int_pin.value() == 0
    raises(ValueError, mpu.arm_wake, threshold_mg=3)  # below its 4 mg step


def test_fake_checks_the_register_map():
    i2c, chip = bus()
    w = i2c.writeto_mem
    e = raises(fk.RegisterMapError, w, 0x68, 0x75, b"\x68")
    assert "WHO_AM_I" in str(e) and "read-only" in str(e)
    e = raises(fk.RegisterMapError, w, 0x68, 0x50, b"\x00")
    assert "read-only" in str(e)  # EXT_SENS_DATA
    e = raises(fk.RegisterMapError, w, 0x68, 0x02, b"\x00")
    assert "does not exist" in str(e)
    e = raises(fk.RegisterMapError, w, 0x68, fk.PWR_MGMT_1, b"\x10")
    assert "reserved bits 0x10" in str(e)
    e = raises(fk.RegisterMapError, w, 0x68, fk.INT_ENABLE, b"\x02")
    assert "reserved" in str(e)
    raises(fk.RegisterMapError, w, 0x68, fk.CONFIG, b"\x07")  # DLPF_CFG 7
    raises(fk.RegisterMapError, w, 0x68, fk.ACCEL_CONFIG, b"\x05")  # ACCEL_HPF 5
    raises(fk.RegisterMapError, i2c.readfrom_mem, 0x68, 0x7F, 1)
    # a burst write runs on into the next registers and is checked there too
    e = raises(fk.RegisterMapError, w, 0x68, fk.MOT_DUR, b"\x01\x00\x00\x00")
    assert "FIFO_EN" not in str(e)  # 0x21 does not exist
    # writes during DEVICE_RESET are refused until PWR_MGMT_1 reads back 0 in bit 7
    w(0x68, fk.PWR_MGMT_1, b"\x80")
    e = raises(fk.RegisterMapError, w, 0x68, fk.SMPLRT_DIV, b"\x09")
    assert "DEVICE_RESET" in str(e)
    while i2c.readfrom_mem(0x68, fk.PWR_MGMT_1, 1)[0] & 0x80:
        pass
    w(0x68, fk.SMPLRT_DIV, b"\x09")


def test_asleep_the_chip_freezes_its_data():
    i2c, chip = bus()
    assert i2c.readfrom_mem(0x68, fk.ACCEL_XOUT_H, 6) == bytes(6)
    assert chip.pos == 0  # nothing sampled
    mpu = mpu6050.MPU6050(i2c)
    buf = [0, 0, 0]
    mpu.read_into(buf)
    assert chip.pos == 1 and abs(buf[2] - chip.trace[0][3]) <= 1
    mpu.sleep()
    assert chip.asleep()
    mpu.read_into(buf)
    assert chip.pos == 1  # frozen at the last sample


def test_arm_wake_raises_a_latched_int_on_motion_not_on_noise():
    i2c, chip = bus("model_rest_noise")
    mpu = mpu6050.MPU6050(i2c)
    mpu.arm_wake()
    assert chip.wake_armed() is None, chip.wake_armed()
    assert chip.cycling()
    for _ in range(390):  # the first 4 s: the bowl lies still, sensor noise only
        chip.step()
    assert chip.int_pin.value() == 0
    n = 0
    while chip.int_pin.value() == 0 and chip.step():  # then someone tips it 25 degrees
        n += 1
    assert chip.int_pin.value() == 1 and n < 150, n

    i2c, chip = bus("model_normal_shake")
    mpu = mpu6050.MPU6050(i2c)
    mpu.arm_wake()
    n = 0
    while chip.int_pin.value() == 0 and chip.step():
        n += 1
    assert chip.int_pin.value() == 1
    assert 95 <= n <= 115, n  # the shake starts at 1 s
    for _ in range(50):
        chip.step()
    assert chip.int_pin.value() == 1  # latched: still high for a slow ESP32
    # after waking, the app brings the driver up again: out of cycle mode, INT clear
    mpu = mpu6050.MPU6050(i2c)
    assert not chip.cycling() and chip.int_pin.value() == 0


def test_motion_reads_and_clears_the_latch():
    i2c, chip = bus("model_normal_shake")
    mpu = mpu6050.MPU6050(i2c)
    mpu.arm_wake()
    for _ in range(150):
        chip.step()
    assert chip.int_pin.value() == 1
    assert mpu.motion() is True
    assert chip.int_pin.value() == 0
    while chip.t_ms < 3500:  # the shake and the rattle to rest
        chip.step()
    assert mpu.motion() is True
    while chip.step():  # at rest where it was armed: nothing more
        pass
    assert chip.int_pin.value() == 0
    assert mpu.motion() is False


def test_arm_wake_arguments_are_checked():
    i2c, chip = bus()
    mpu = mpu6050.MPU6050(i2c)
    raises(ValueError, mpu.arm_wake, threshold_mg=1)
    raises(ValueError, mpu.arm_wake, duration_ms=0)
    raises(ValueError, mpu.arm_wake, wake_hz=10)
    mpu.arm_wake(threshold_mg=200, duration_ms=3, wake_hz=40)
    assert chip.regs[fk.MOT_THR] == 100
    assert chip.regs[fk.PWR_MGMT_2] >> 6 == 3
