"""python -m host_sim COMMAND ...: the command line lives in host_sim/cli/."""
import sys

from host_sim.cli import main

if __name__ == "__main__":
    sys.exit(main())
