# The bowl's ESP32 board for MicroPython v1.28.0's ports/esp32, modelled on its
# boards/ESP32_GENERIC (a WROOM module, no PSRAM: the BOM's FireBeetle 2 ESP32-E):
#   make -C ports/esp32 BOARD_DIR=/path/to/this/repo/firmware/boards/BOBING_ESP32
# BOARD_VARIANT=SPIRAM builds the same for a board with PSRAM (WROVER, FireBeetle N16R2).
# SDKCONFIG_DEFAULTS paths are relative to ports/esp32 (its CMakeLists reads them there).
set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    boards/sdkconfig.ble
)

# The bowl's own partition table (partitions.csv here: a larger app partition). ESP-IDF reads
# CONFIG_PARTITION_TABLE_CUSTOM_FILENAME relative to ports/esp32 unless it is absolute, and the
# port copies the fragments without expanding variables: so a fragment naming this folder's file
# is written into the build folder, after sdkconfig.base's own partition table.
file(WRITE ${CMAKE_BINARY_DIR}/sdkconfig.bobing_partitions
    "CONFIG_PARTITION_TABLE_CUSTOM=y\nCONFIG_PARTITION_TABLE_CUSTOM_FILENAME=\"${MICROPY_BOARD_DIR}/partitions.csv\"\n")
list(APPEND SDKCONFIG_DEFAULTS ${CMAKE_BINARY_DIR}/sdkconfig.bobing_partitions)

set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
