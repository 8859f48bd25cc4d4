# Runs first on every reset. Kept tiny: the bowl starts in main.py.
import esp

esp.osdebug(None)  # no ROM debug chatter on the REPL's serial port
