# The bowl's _boot.py, frozen in place of the port's (ports/esp32/modules/_boot.py), which main.c
# runs first at every reset (pyexec_frozen_module("_boot.py")). The port's mounts the vfs
# partition and on any failure calls inisetup.setup(), whose check_bootsec() sends every flash
# that is not blank to fs_corrupted(): a message printed every 3 s for ever, before the watchdog
# and before main.py. Here board.mount() formats a blank flash as the port does and leaves a
# damaged one unmounted; main.py (frozen as well: pyexec_file_if_exists looks for a frozen
# main.py first, shared/runtime/pyexec.c) then shows the bowl's repair screen (bowl/repair.py).
import gc

import board

board.mount()
gc.collect()
