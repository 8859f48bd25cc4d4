"""The script `make pin` runs on a bowl in maintenance mode to set a new PIN: the
recovery when the PIN is lost (a damaged or missing settings.txt on a kiosk:
the bowl says 密码遗失 / PIN lost). It needs the case opened by tool (USB and
RESET are inside), MENU held at RESET and a computer: more than the
attendant's key, which never sets a PIN.

    python host_sim/tools/make_pin_script.py --out FILE

The PIN never goes on the command line (a process list shows it): it comes from
$PIN, or is asked for twice when stdin is a terminal. It is checked here as the
bowl checks it (4 to 8 digits, not the default); the bowl hashes it with its own
salt (bobing/settings.py set_pin). Exit status 2 with a message otherwise."""
import argparse
import getpass
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from bobing import settings  # noqa: E402
from host_sim.cli import guarded  # noqa: E402
from host_sim.cli.options import InputError  # noqa: E402


def _pin():
    v = os.environ.get("PIN")
    if v is None:
        if not sys.stdin.isatty():
            raise InputError("no PIN: set $PIN or run it at a terminal (it asks twice)")
        v = getpass.getpass("新密码 new PIN (4-8 digits): ")
        if getpass.getpass("再输一次 again: ") != v:
            raise InputError("the two PINs differ: nothing written")
    return v


def main(argv=None):
    return guarded(lambda: _main(argv))


def _main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--root", default="/data", help="the bowl's data folder (board.DATA_DIR)")
    a = ap.parse_args(argv)
    pin = _pin()
    try:
        settings.check_pin(pin)
    except ValueError as e:
        raise InputError("PIN: %s" % e)
    if pin == settings.DEFAULT_PIN:
        raise InputError("PIN: not the default %s (a kiosk refuses to play with it)" % settings.DEFAULT_PIN)
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("from bobing import console, settings\nprint(settings.set_pin(%r, %r, console.Settings()))\n"
                % (a.root, pin))
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
