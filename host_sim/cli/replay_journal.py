"""replay --journal FILE: replay a journal copied off a bowl
(`mpremote cp :/data/g00000017.bbj .`) and print the replay command's JSON.

The journal holds the game's settings (profile, overrides, seats, prize counts)
and its events, so FILE, --seats, --first, --start-roll, --prizes, --profile and
--set do not apply. `events_used` counts the events after the start, as an
event file would list them. A damaged journal (cut short, bad checksum, newer
format, unknown settings, an event the engine refuses) is reported on stderr,
with no JSON, and exit status 2."""
import binascii
import json
import os

from bobing import game, journal, profiles
from host_sim.analysis import journal_text
from host_sim.cli import replay_output
from host_sim.cli.options import InputError

_NOT_WITH = (("file", "FILE"), ("seats", "--seats"), ("first", "--first"),
             ("start_roll", "--start-roll"), ("prizes", "--prizes"))


def game_id_of(path):
    """The game id a bowl's file name promises (g00000017.bbj -> 17), else 0 (unchecked)."""
    name = os.path.basename(path)
    if len(name) == 13 and name.endswith(journal.SUFFIX):
        return journal.id_of(name)
    return 0


def _secret(args):
    if args.secret_hex is not None:
        try:
            return binascii.unhexlify(args.secret_hex.strip())
        except (binascii.Error, ValueError) as e:
            raise InputError("--secret-hex: %s (hex digits 0-9 a-f, two a byte, as the bowl's 领奖密钥 shows)" % e)
    if args.secret is not None:
        return args.secret.encode()
    return None


def load(path, secret):
    """One journal -> (config, table, events used, kiosk award log); InputError if damaged."""
    evs = []
    s = journal.scan(path, game_id_of(path), keep=evs)
    if s.problem is not None:
        raise InputError("%s: %s (%d good events before it)" % (path, journal_text.problem(s.problem), s.count))
    try:  # again from the start, with the secret, keeping each award's number and code
        table = journal.new_table(s.config, secret)
    except ValueError as e:
        raise InputError("%s: --secret/--secret-hex: %s" % (path, e))
    log = []
    used = 0
    for kind, arg in evs:
        replay_output.kiosk_awards(table, table.apply(kind, arg), log)
        if kind not in (game.EV_START_SEAT, game.EV_START_TOTAL):
            used += 1
    return s.config, table, used, log


def run(args):
    bad = [flag for attr, flag in _NOT_WITH if getattr(args, attr, None) is not None]
    if args.profile != profiles.DEFAULT_PRESET or args.set:
        bad.append("--profile/--set")
    if bad:
        raise InputError("--journal takes the settings and events from the journal; drop %s" % ", ".join(bad))
    if len(args.journal) > 1 and not args.awards:
        raise InputError("one --journal for the JSON; several go with --awards (the day's list)")
    secret = _secret(args)
    games = []
    for path in args.journal:
        if not os.path.isfile(path):
            raise InputError("--journal %s: no such file" % path)
        games.append(load(path, secret))
    if args.awards:
        print("\n".join(replay_output.award_lines([(c.bowl_id, c.game_id, t, log) for c, t, _u, log in games])))
        return 0
    _c, table, used, log = games[0]
    out = replay_output.result(table, used, log)
    if table.kiosk:  # what the claim screen shows beside each award number
        out["bowl"] = _c.bowl_id
        out["game"] = _c.game_id
    print(json.dumps(out, ensure_ascii=False))
    return 0
