# The bowl's ESP32 firmware: the port's own frozen modules (asyncio, neopixel, ...) and the
# bowl's. mpconfigboard.cmake names this file: make -C ports/esp32 BOARD_DIR=<this folder>
# The port's boards/manifest.py, but for its _boot.py: the bowl freezes its own (modules/_boot.py:
# a filesystem that does not mount is said on the screen, not looped over), and main.py and
# boot.py, so that they run whatever the filesystem holds (shared/runtime/pyexec.c:
# pyexec_file_if_exists runs a frozen file before one on the filesystem).
freeze("$(PORT_DIR)/modules", ("apa106.py", "espnow.py", "flashbdev.py", "inisetup.py", "machine.py"))
include("$(MPY_DIR)/extmod/asyncio")
require("bundle-networking")
require("aioespnow")
require("dht")
require("ds18x20")
require("neopixel")
require("onewire")
require("umqtt.robust")
require("umqtt.simple")
require("upysh")
freeze("modules", "_boot.py")
freeze("../..", ("main.py", "boot.py"))
include("../../manifest.py")
