"""rank: read rolls from stdin (444411, '4 4 4 4 1 1' or '4,4,4,4,1,1'), one per
line, and print one JSON object per line: {"dice", "rank", "bonus", "order"}.
`order` compares lexicographically: a higher list is a better roll under the
profile. A bad line prints {"error": ...}; the exit status is then 1."""
import json
import sys

from bobing import rules
from host_sim.options import add_profile_arguments, profile_from


def add_arguments(p):
    p.description = __doc__
    add_profile_arguments(p)


def run(args):
    try:
        r = rules.Rules(profile_from(args))
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    bad = False
    for n, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            out = r.describe(rules.parse_roll(line))
        except ValueError as e:
            out = {"error": "line %d: %s" % (n, e)}
            bad = True
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 1 if bad else 0
