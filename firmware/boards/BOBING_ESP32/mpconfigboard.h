// The bowl's ESP32 board (ports/esp32 includes this from mpconfigport.h). A variant's
// cmake may set the name first, as ESP32_GENERIC's do.
#ifndef MICROPY_HW_BOARD_NAME
#define MICROPY_HW_BOARD_NAME "Bo Bing bowl (FireBeetle 2 ESP32-E)"
#endif

#ifndef MICROPY_HW_MCU_NAME
#define MICROPY_HW_MCU_NAME "ESP32"
#endif

// No Bluetooth (no boards/sdkconfig.ble in mpconfigboard.cmake): the port's mpconfigport.h
// turns the bluetooth module on unless a board says otherwise (as its LOLIN_S2_MINI does).
#define MICROPY_PY_BLUETOOTH (0)
