# The simulated parts the bowl's code runs on, here and on the MicroPython unix
# port (frozen into the 32-bit test build): bowl (the simulated board and its
# driver), mpu6050 (a register-checked MPU6050 on a fake I2C bus), wlan (the
# radio and an in-memory broker). One import name on both interpreters:
# host_sim/portable is on sys.path (`from fakes import bowl`). Empty on
# purpose: importing one fake loads no other.
