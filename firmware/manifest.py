# The bowl's own modules, for MicroPython's tools/makemanifest.py. Board manifests include
# this file (as MicroPython's boards include their port's): firmware/boards/BOBING_ESP32/manifest.py for
# the bowl, tests/boards/unix_frozen/manifest.py for the 32-bit test build (hardware/README.md).
# boot.py and main.py stay on the filesystem, where MicroPython looks for them.
require("ssd1306")  # micropython-lib display driver (needs MPY_LIB_DIR)
require("umqtt.simple")  # the event network (bowl/net.py); the ESP32 port freezes it too
module("board.py")
package("bobing")
package("bowl")
