# The bowl starts here. Hold MENU while the bowl powers up (or while pressing
# RESET) for maintenance mode: no app and no watchdog, so that mpremote can
# copy files without the watchdog rebooting the board under it.
import board

maintenance = board.menu_held_at_boot()
if maintenance:
    print("maintenance mode: the app is not started (release MENU and reset to play)")
else:
    from bowl import app

    app.main(board.bring_up())
