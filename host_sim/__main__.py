"""python -m host_sim COMMAND ...: the command line lives in host_sim/cli/."""
import sys

from host_sim import compat

compat.install()  # this entry point's one set-up: the MicroPython shim, firmware/ importable

from host_sim.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
