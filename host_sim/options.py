"""--profile / --set for every command that takes rule options."""
from bobing import profiles


def options_help():
    lines = ["options (--set OPTION=VALUE), default first:"]
    for name, (default, allowed) in profiles.OPTIONS.items():
        if allowed[0] == "+":
            vals = "'+'-joined set of " + ", ".join(allowed[1])
        elif allowed[0] == "int":
            vals = "whole number %d..%d" % (allowed[1], allowed[2])
        else:
            vals = " | ".join(allowed)
        lines.append("  %-19s %s  (default %s)" % (name, vals, default))
    lines.append("profiles (--profile): " + ", ".join(sorted(profiles.PRESETS)))
    return "\n".join(lines)


def add_profile_arguments(parser):
    parser.add_argument("--profile", default=profiles.DEFAULT_PRESET,
                        help="preset name (default %(default)s)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="override one option; may be repeated")
    parser.epilog = (parser.epilog or "") + options_help()


def profile_from(args):
    """-> profiles.Profile, or raise ValueError with what is allowed."""
    overrides = {}
    for s in args.set:
        k, v = profiles.parse_setting(s)
        overrides[k] = v
    return profiles.Profile(args.profile, overrides)
