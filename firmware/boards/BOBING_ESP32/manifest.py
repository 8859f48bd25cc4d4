# The bowl's ESP32 firmware: the port's own frozen modules (asyncio, neopixel, ...) and the
# bowl's. mpconfigboard.cmake names this file: make -C ports/esp32 BOARD_DIR=<this folder>
include("$(PORT_DIR)/boards/manifest.py")
include("../../manifest.py")
