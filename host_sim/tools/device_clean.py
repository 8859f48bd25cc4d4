# Runs ON the bowl (`mpremote run host_sim/tools/device_clean.py`, from `make deploy`):
# removes firmware .py files that would shadow the freshly copied .mpy files
# (MicroPython imports name.py before name.mpy). The journal in /data is kept.
import os


def _rm(path):
    try:
        os.remove(path)
        print("removed", path)
    except OSError:
        pass


_rm("board.py")
for d in ("bobing", "bowl"):
    try:
        names = os.listdir(d)
    except OSError:
        continue
    for name in names:
        if name.endswith(".py"):
            _rm(d + "/" + name)
