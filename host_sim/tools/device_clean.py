# Runs ON the bowl (`mpremote run host_sim/tools/device_clean.py`, from `make deploy` and
# `make flash`): finds which firmware the bowl runs and removes what would shadow it. The games
# and settings in /data are kept, and so are boot.py and main.py.
#
# MicroPython's ESP32 port searches sys.path = ['', '.frozen', '/lib'] in order (mp_init sets the
# first two, ports/esp32/main.c appends '/lib'; py/builtinimport.c tries the path in order), and
# name.py before name.mpy within one entry. So:
# - frozen image (the bowl built into the firmware, hardware/README.md step 3): a copy of a frozen
#   module in / (.py or .mpy) runs instead of the firmware's, from the heap: removed. Copies in
#   /lib never run (the frozen one is found first); they are removed too, as flash they waste.
#   Prints "firmware: frozen".
# - stock image (route 4): the .mpy files are the app; only .py files that would shadow them
#   go. Prints "firmware: stock".
import os
import sys

MODULES = ("board", "bobing", "bowl", "ssd1306", "umqtt.simple")  # what the bowl's manifest freezes


def frozen(name):
    """True when the firmware has `name` frozen in: it imports with only '.frozen' on the path
    (that entry finds frozen modules only, py/builtinimport.c). Its __file__ cannot tell: a
    frozen module's is its name without the '.frozen/' prefix, as a file in / would have."""
    saved = list(sys.path)
    had = list(sys.modules)
    while sys.path:
        sys.path.pop()
    sys.path.append(".frozen")
    try:
        __import__(name)
        return True
    except ImportError:
        return False
    finally:
        while sys.path:
            sys.path.pop()
        for p in saved:
            sys.path.append(p)
        for m in list(sys.modules):
            if m not in had:
                sys.modules.pop(m)


def _isdir(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def _rm(path):
    try:
        os.remove(path)
        print("removed", path)
    except OSError:
        pass


def _rmtree(path, only_py):
    """Remove path's module files (.py only when only_py); the folder too once it is empty."""
    for name in os.listdir(path):
        p = path + "/" + name
        if _isdir(p):
            _rmtree(p, only_py)
        elif name.endswith(".py") or not only_py and name.endswith(".mpy"):
            _rm(p)
    if not os.listdir(path):
        os.rmdir(path)
        print("removed", path + "/")


def clean(root=""):
    """-> "frozen" or "stock", after removing what shadows that firmware under root."""
    is_frozen = frozen("bobing")
    for base in (root, root + "lib/" if root else "lib/"):
        for name in MODULES:
            if is_frozen and not frozen(name):
                continue  # not in this image: a copy on the filesystem is no shadow
            path = base + name.replace(".", "/")
            if _isdir(path):
                _rmtree(path, not is_frozen)
            _rm(path + ".py")
            if is_frozen:
                _rm(path + ".mpy")
    return "frozen" if is_frozen else "stock"


print("firmware:", clean())
