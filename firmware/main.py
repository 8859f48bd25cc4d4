# The bowl starts here. Hold MENU while the bowl powers up (or while pressing
# RESET) for maintenance mode: no app and no watchdog, so that mpremote can
# copy files without the watchdog rebooting the board under it.
# Frozen into the firmware (firmware/boards/BOBING_ESP32/manifest.py), as is boot.py: the port
# runs a frozen main.py before one on the filesystem, so a damaged filesystem cannot take it away.
import board

maintenance = board.menu_held_at_boot()
if maintenance:
    print("maintenance mode: the app is not started (release MENU and reset to play)")
else:
    from bowl import app

    app.main(board.bring_up())
