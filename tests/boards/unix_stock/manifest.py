# The 32-bit unix build without the bowl frozen: the "stock firmware" route, where the bowl's
# modules are .mpy files loaded into the heap. Only what the ESP32 port freezes that the firmware
# uses (asyncio), as a stock ESP32 image has it.
include("$(MPY_DIR)/extmod/asyncio")
