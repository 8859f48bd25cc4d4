# The 32-bit unix test build (make mp): the bowl's modules frozen as on the ESP32, with what the
# ESP32 port freezes that the firmware uses (asyncio), and the portable simulated hardware the
# tests run the bowl on (host_sim/portable/fakes: the board, its chip and parts, the MPU6050, the
# radio), so that code costs no heap either.
include("$(MPY_DIR)/extmod/asyncio")
include("../../../firmware/manifest.py")
package("host_sim/portable/fakes", base_path="../../..")
