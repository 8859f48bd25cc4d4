"""replay --journal FILE: replay a journal copied off a bowl
(`mpremote cp :/data/g00000017.bbj .`) and print the replay command's JSON.

The journal holds the game's settings (profile, overrides, seats, prize counts)
and its events, so FILE, --seats, --first, --start-roll, --prizes, --profile and
--set do not apply. `events_used` counts the events after the start, as an
event file would list them. A damaged journal (cut short, bad checksum, newer
format, unknown settings, an event the engine refuses) is reported on stderr,
with no JSON, and exit status 2."""
import json
import os
import sys

from bobing import game, journal, profiles

_NOT_WITH = (("file", "FILE"), ("seats", "--seats"), ("first", "--first"),
             ("start_roll", "--start-roll"), ("prizes", "--prizes"))


def game_id_of(path):
    """The game id a bowl's file name promises (g00000017.bbj -> 17), else 0 (unchecked)."""
    name = os.path.basename(path)
    if len(name) == 13 and name.endswith(journal.SUFFIX):
        return journal.id_of(name)
    return 0


def run(args, result):
    """`result(table, events_used)` builds the JSON (cmd_replay.result)."""
    bad = [flag for attr, flag in _NOT_WITH if getattr(args, attr, None) is not None]
    if args.profile != profiles.DEFAULT_PRESET or args.set:
        bad.append("--profile/--set")
    if bad:
        print("error: --journal takes the settings and events from the journal; drop %s"
              % ", ".join(bad), file=sys.stderr)
        return 2
    path = args.journal
    if not os.path.isfile(path):
        print("error: --journal %s: no such file" % path, file=sys.stderr)
        return 2
    evs = []
    s = journal.scan(path, game_id_of(path), keep=evs)
    if s.problem is not None:
        print("error: %s: %s (%d good events before it)" % (path, s.problem.text, s.count), file=sys.stderr)
        return 2
    used = 0
    for kind, _arg in evs:
        if kind not in (game.EV_START_SEAT, game.EV_START_TOTAL):
            used += 1
    print(json.dumps(result(s.table, used), ensure_ascii=False))
    return 0
