"""python -m host_sim COMMAND ... : the one command line of the host tools.

Each command lives in its own module host_sim/cmd_<name>.py with
`add_arguments(parser)` and `run(args) -> exit status`.
"""
import argparse
import importlib
import sys

import host_sim  # noqa: F401  (installs the shim)

# name: (module, one-line help)
COMMANDS = {
    "rank": ("host_sim.cmd_rank", "rank rolls read from stdin, one JSON line each"),
    "play": ("host_sim.cmd_play", "the bowl in the simulator: terminal, --window (pygame) or --script"),
    "plan": ("host_sim.cmd_plan", "exact distribution of a game's length (rolls, rounds, minutes)"),
    "stats": ("host_sim.cmd_stats", "Monte Carlo of whole games: ranks, lengths, prizes per seat, PNG plots"),
    "dice": ("host_sim.cmd_dice", "print N faces from the bowl's dice path, for audit"),
    "fairness": ("host_sim.cmd_fairness", "chi-square of faces and rank frequencies vs exact odds, as JSON"),
    "screens": ("host_sim.cmd_screens", "write a PNG of every screen the bowl can show"),
    "replay": ("host_sim.cmd_replay", "replay a written record of a game, print the result as JSON"),
    "verify-claim": ("host_sim.cmd_verify_claim", "check a kiosk claim code (exit 0 valid, 1 invalid)"),
}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_sim", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (mod, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(_module=mod)
        importlib.import_module(mod).add_arguments(p)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    return importlib.import_module(args._module).run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
