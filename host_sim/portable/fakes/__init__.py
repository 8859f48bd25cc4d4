# The simulated parts the bowl's code runs on, here and on the MicroPython unix
# port (frozen into the 32-bit test build): bowl (the simulated board and its
# driver), over chiptime (what each step costs the chip), esp32 (the chip: pads,
# machine, esp32, deep sleep, watchdog), parts (display, ring, buzzer, buttons)
# and battery (the cell and the gauge's divider); mpu6050 (a register-checked
# MPU6050 on a fake I2C bus), wlan (the radio and an in-memory broker). One
# import name on both interpreters, the package's own path (`from
# host_sim.portable.fakes import bowl`; frozen so on the unix test build).
# Empty on purpose: importing a fake loads only what it uses.
