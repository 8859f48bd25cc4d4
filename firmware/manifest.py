# Freeze the bowl's firmware into a custom MicroPython build (README: "For developers"):
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/firmware/manifest.py
# boot.py and main.py stay on the filesystem, where MicroPython looks for them.
include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (neopixel, ...)
require("ssd1306")  # micropython-lib display driver
module("board.py")
package("bobing")
package("bowl")
