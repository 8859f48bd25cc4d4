# BOARD_VARIANT=SPIRAM: the bowl frozen into an image for a module with PSRAM (as ESP32_GENERIC's
# variant of the same name).
set(SDKCONFIG_DEFAULTS
    ${SDKCONFIG_DEFAULTS}
    boards/sdkconfig.spiram
)

list(APPEND MICROPY_DEF_BOARD
    MICROPY_HW_BOARD_NAME="Bo Bing bowl (ESP32 with SPIRAM)"
)
