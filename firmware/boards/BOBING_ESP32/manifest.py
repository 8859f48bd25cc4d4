# The bowl's ESP32 firmware: the port's own frozen modules (asyncio, neopixel, ...) and the
# bowl's. make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=<this file> MPY_LIB_DIR=...
include("$(PORT_DIR)/boards/manifest.py")
include("../../manifest.py")
