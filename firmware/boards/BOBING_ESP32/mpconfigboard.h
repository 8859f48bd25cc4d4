// The bowl's ESP32 board (ports/esp32 includes this from mpconfigport.h). A variant's
// cmake may set the name first, as ESP32_GENERIC's do.
#ifndef MICROPY_HW_BOARD_NAME
#define MICROPY_HW_BOARD_NAME "Bo Bing bowl (FireBeetle 2 ESP32-E)"
#endif

#ifndef MICROPY_HW_MCU_NAME
#define MICROPY_HW_MCU_NAME "ESP32"
#endif
