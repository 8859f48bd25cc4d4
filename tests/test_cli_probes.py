"""Every command-line face of `python -m host_sim` against bad input: a table
of command lines with the exit status each must give (2: refused, nothing
done; 1: a command that documents 1 for "some lines were bad"), a message
that names the bad thing, never a traceback, never a hang, and nothing
written where a refused command was pointed.

Add a row for every new command and option. Most rows run in this process
through host_sim.cli.main(argv) (fast); SUBPROCESS rows run
`python -m host_sim` for real (stdin bytes, argv bytes, exit status, pipes).

In the rows, {d} is a scratch folder holding: events.txt (a good event file),
bin.txt (binary), latin1.txt (not UTF-8), g00000001.bbj (a bowl's journal),
afile (a file), adir/ (a folder), short.csv and words.csv (broken shake
traces), flash/ (a bowl's flash for play) and other/ (a folder with a file a
bowl never writes), ex_*.json (the desk's fairness export, one field wrong
in each). U is a command-line byte that is not UTF-8 (0xff),
as Python hands it over (a lone surrogate).
"""
import argparse
import contextlib
import importlib
import io
import os
import signal
import subprocess
import sys

import pytest

from conftest import ROOT
from host_sim.cli import COMMANDS, main

U = "\udcff"
HUGE = "9" * 25  # beyond every bound, still digits
LONG = "x" * 5000

# (command line, status, what the output must name); lines are split on spaces
# after {d} is filled in, so a value with a space goes through SPLIT rows below.
PROBES = [
    # ---- --set, numbers, files, text that is not UTF-8
    ("rank --set =", 2, "OPTION=VALUE"),
    ("rank --set =x", 2, "OPTION=VALUE"),
    ("rank --set x=", 2, "unknown option"),
    ("rank --set combined", 2, "OPTION=VALUE"),
    ("rank --set combined=", 2, "combined"),
    ("replay --seats 3 --first 1 {d}/bin.txt", 2, "binary"),
    ("replay --seats 3 --first 1 {d}/latin1.txt", 2, "line 2"),
    ("replay --seats 3 --first 1 {d}/g00000001.bbj", 2, "--journal"),
    ("dice --count 5 --seed " + U, 2, "UTF-8"),
    ("dice-stats --rolls 5 --seed " + U, 2, "UTF-8"),
    ("plan --within inf", 2, "--within"),
    ("plan --within -5", 2, "--within"),
    ("plan --within 0", 2, "--within"),
    ("plan --within nan", 2, "--within"),
    ("plan --seconds-per-roll 1e-308", 2, "--seconds-per-roll"),
    ("stats --games 1 --seconds-per-roll 0", 2, "--seconds-per-roll"),
    ("stats --games 1 --seconds-per-roll -1", 2, "--seconds-per-roll"),
    ("dice-stats --rolls 5 --alpha nan", 2, "--alpha"),
    ("dice-stats --rolls 5 --alpha -1", 2, "--alpha"),
    ("dice-stats --rolls 5 --alpha 0", 2, "--alpha"),
    ("dice-stats --rolls 5 --alpha 1", 2, "--alpha"),
    ("dice-stats --rolls 5 --alpha 2", 2, "--alpha"),
    ("stats --games 1 --out {d}/afile", 2, "not a folder"),
    ("stats --games 1 --out {d}/afile/sub", 2, "not a folder"),
    ("stats --games 1 --out /proc/no/such", 2, "/proc/no/such"),
    ("screens --out {d}/afile", 2, "not a folder"),
    ("screens --out {d}/afile/sub", 2, "not a folder"),
    ("screens --out /proc/no/such --only idle", 2, "/proc/no/such"),
    ("play --root {d}/flash --script {d}/missing.txt", 2, "no such file"),
    ("play --root {d}/flash --script {d}/adir", 2, "not a regular file"),
    ("play --root {d}/flash --script {d}/bin.txt", 2, "binary"),
    ("play --root {d}/flash --script {d}/latin1.txt", 2, "not UTF-8"),
    ("play --root {d}/flash --script /dev/zero", 2, "not a regular file"),
    ("play --root {d}/afile --script {d}/empty.txt", 2, "not a folder"),
    ("play --root {d}/afile/sub --script {d}/empty.txt", 2, "not a folder"),
    ("play --root /proc/no/such --script {d}/empty.txt", 2, "/proc/no/such"),
    ("play --root {d}/flash --quiet --script {d}/wait_sup.txt", 1, "wait"),
    ("play --root {d}/flash --quiet --script {d}/wait_huge.txt", 1, "3600000"),
    ("play --root {d}/flash --quiet --script {d}/shake_huge.txt", 1, "60000"),
    ("play --root {d}/flash --quiet --script {d}/trace_short.txt", 1, "not a shake trace"),
    ("play --root {d}/flash --quiet --script {d}/trace_words.txt", 1, "not a shake trace"),
    ("play --root {d}/flash --quiet --script {d}/trace_bin.txt", 1, "not a shake trace"),
    ("play --root {d}/flash --quiet --script {d}/trace_dir.txt", 1, "no such trace"),
    # ---- every command, every option
    ("", 2, "COMMAND"),
    ("nosuch", 2, "invalid choice"),
    ("rank --profile " + U, 2, "UTF-8"),
    ("rank --profile nosuch", 2, "unknown profile"),
    ("rank --set combined=maybe", 2, "on, off"),
    ("rank --set time_limit=-1", 2, "time_limit"),
    ("rank --set time_limit=" + HUGE, 2, "time_limit"),
    ("rank --set kiosk_shakes=nan", 2, "kiosk_shakes"),
    ("rank --set chase_tiers=+", 2, "chase_tiers"),
    ("rank --set " + LONG + "=1", 2, "unknown option"),
    ("rank --set =" + U, 2, "UTF-8"),
    ("plan --seats 0", 2, "--seats"),
    ("plan --seats 13", 2, "--seats"),
    ("plan --seats -1", 2, "--seats"),
    ("plan --seats " + HUGE, 2, "--seats"),
    ("plan --seats ٣", 2, "--seats"),
    ("plan --seats 1_0", 2, "--seats"),
    ("plan --seats 3.0", 2, "--seats"),
    ("plan --seconds-per-roll inf", 2, "--seconds-per-roll"),
    ("plan --seconds-per-roll 1e400", 2, "--seconds-per-roll"),
    ("plan --seconds-per-roll 1e9", 2, "--seconds-per-roll"),
    ("plan --within 1e9", 2, "--within"),
    ("plan --count duitang", 2, "CLASS=N"),
    ("plan --count =1", 2, "CLASS=N"),
    ("plan --count duitang=-1", 2, "--count"),
    ("plan --count duitang=" + HUGE, 2, "--count"),
    ("plan --count duitang=²", 2, "--count"),
    ("plan --seats 2 --count nosuch=1", 2, "nosuch"),
    ("plan --profile nosuch", 2, "unknown profile"),
    ("plan --set time_limit=x", 2, "time_limit"),
    ("stats --games 1 --profile " + LONG, 2, "unknown profile"),
    ("stats --games 1 --set when_exhausted=never", 2, "when_exhausted"),
    ("stats --games 0", 2, "--games"),
    ("stats --games -5", 2, "--games"),
    ("stats --games " + HUGE, 2, "--games"),
    ("stats --games nan", 2, "--games"),
    ("stats --games 1 --seats 0", 2, "--seats"),
    ("stats --games 1 --seed -1", 2, "--seed"),
    ("stats --games 1 --seed " + HUGE, 2, "--seed"),
    ("stats --games 1 --seed x", 2, "--seed"),
    ("stats --games 1 --count yixiu=1001", 2, "--count"),
    ("stats --games 1 --count nosuch=1", 2, "nosuch"),
    ("stats --games 1 --out " + U, 2, "UTF-8"),
    ("dice", 2, "--count"),
    ("dice --count -1", 2, "--count"),
    ("dice --count " + HUGE, 2, "--count"),
    ("dice --count 1e3", 2, "--count"),
    ("dice --count 5 --seed " + LONG, 2, "--seed"),
    ("dice-stats --rolls 0", 2, "--rolls"),
    ("dice-stats --rolls " + HUGE, 2, "--rolls"),
    ("dice-stats --rolls 5 --alpha inf", 2, "--alpha"),
    ("dice-stats --rolls 5 --alpha 0x1", 2, "--alpha"),
    ("dice-stats --rolls 5 --profile nosuch", 2, "unknown profile"),
    ("dice-stats --rolls 5 --set nope=1", 2, "unknown option"),
    ("screens", 2, "--out"),
    ("screens --out {d}/png --scale 0", 2, "--scale"),
    ("screens --out {d}/png --scale 17", 2, "--scale"),
    ("screens --out {d}/png --scale nan", 2, "--scale"),
    ("screens --out {d}/png --only nosuchscreen", 2, "nosuchscreen"),
    ("screens --out {d}/png --only " + U, 2, "UTF-8"),
    ("replay", 2, "--seats"),
    ("replay --seats 3 --first 1", 2, "FILE"),
    ("replay --seats 3 {d}/events.txt", 2, "--first"),
    ("replay --seats 0 --first 1 {d}/events.txt", 2, "--seats"),
    ("replay --seats 13 --first 1 {d}/events.txt", 2, "--seats"),
    ("replay --seats 3 --first 4 {d}/events.txt", 2, "seat"),
    ("replay --seats 3 --first -1 {d}/events.txt", 2, "--first"),
    ("replay --seats 3 --start-roll 1 {d}/events.txt", 2, "--start-roll"),
    ("replay --seats 3 --start-roll 13 {d}/events.txt", 2, "--start-roll"),
    ("replay --seats 3 --first 1 --start-roll 5 {d}/events.txt", 2, "not allowed with"),
    ("replay --seats 3 --first 1 --prizes yixiu {d}/events.txt", 2, "CLASS=N"),
    ("replay --seats 3 --first 1 --prizes yixiu=-1 {d}/events.txt", 2, "--prizes"),
    ("replay --seats 3 --first 1 --prizes nosuch=1 {d}/events.txt", 2, "nosuch"),
    ("replay --seats 3 --first 1 --prizes yixiu=1,,erju=2 {d}/events.txt", 2, "CLASS=N"),
    ("replay --seats 3 --first 1 {d}/missing.txt", 2, "no such file"),
    ("replay --seats 3 --first 1 {d}/adir", 2, "not a regular file"),
    ("replay --seats 3 --first 1 {d}/empty.txt --profile kiosk", 2, "kiosk"),
    ("replay --seats 3 --first 1 {d}/bad_event.txt", 2, "line 2"),
    ("replay --journal {d}/missing.bbj", 2, "no such file"),
    ("replay --journal {d}/adir", 2, "not a regular file"),
    ("replay --journal {d}/events.txt", 2, "events.txt"),
    ("replay --journal {d}/bin.txt", 2, "bin.txt"),
    ("replay --journal {d}/g00000001.bbj --seats 3", 2, "--seats"),
    ("replay --journal {d}/g00000001.bbj --profile tongan", 2, "--profile"),
    ("replay --seats 3 --first 1 --profile nosuch {d}/events.txt", 2, "unknown profile"),
    ("replay --seats 3 --first 1 --set combined=maybe {d}/events.txt", 2, "combined"),
    ("play --root {d}/flash --script {d}/empty.txt --frames -1", 2, "--frames"),
    ("play --root {d}/flash --script {d}/empty.txt --frames " + HUGE, 2, "--frames"),
    ("play --root {d}/flash --script {d}/empty.txt --seed ", 2, "--seed"),
    ("play --root {d}/flash --script {d}/empty.txt --screenshot {d}/adir", 2, "folder"),
    ("play --root {d}/flash --script {d}/empty.txt --screenshot {d}/nodir/x.png", 2, "does not exist"),
    ("play --root {d}/other --fresh --script {d}/empty.txt", 2, "--fresh"),
    ("play --root {d}/flash --script {d}/empty.txt --names 爷爷,老王", 2, "不是碗上的名字"),
    ("play --root {d}/flash --script {d}/empty.txt --say-to {d}/adir", 2, "folder"),
    ("play --root {d}/flash --script {d}/empty.txt --names " + ",".join(["Yeye"] * 13), 2, "at most 12"),
    ("play --root {d}/oldflash --fresh --quiet --script {d}/good.txt", 0, "sim_ms"),  # a bowl's files only: emptied
    ("play --root " + U + " --script {d}/empty.txt", 2, "UTF-8"),
    ("play --root {d}/flash --quiet --script {d}/seats_huge.txt", 1, "seats"),
    ("play --root {d}/flash --quiet --script {d}/seats_one.txt", 1, "seats"),
    ("play --root {d}/flash --quiet --script {d}/play_huge.txt", 1, "play"),
    ("play --root {d}/flash --quiet --script {d}/shake_zero.txt", 1, "shake"),
    ("play --root {d}/flash --quiet --script {d}/unknown_cmd.txt", 1, "unknown command"),
    ("play --root {d}/flash --quiet --script {d}/expect_bad.txt", 1, "expect"),
    ("play --root {d}/flash --quiet --script {d}/profile_bad.txt", 1, "profile"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game 1 --award 1 --class yixiu", 2, "CODE"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --award 1 --class yixiu X", 2, "--game"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game -1 --award 1 --class yixiu X", 2, "game"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game nan --award 1 --class yixiu X", 2, "--game"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game 1 --award 0 --class yixiu X", 2, "award"),
    ("verify-claim --secret short --bowl 1 --game 1 --award 1 --class yixiu X", 2, "128 bits"),
    ("verify-claim --secret " + U + " --bowl 1 --game 1 --award 1 --class yixiu X", 2, "--secret"),
    ("verify-claim --secret-hex zz --bowl 1 --game 1 --award 1 --class yixiu X", 2, "--secret-hex"),
    ("verify-claim --secret x --secret-hex 00 --bowl 1 --game 1 --award 1 --class yixiu X", 2, "not allowed"),
    ("verify-claim --secret 0123456789abcdef --bowl " + U + " --game 1 --award 1 --class yixiu X", 2, "--bowl"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game 1 --award 1 --class " + U + " X", 2, "--class"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game 1 --award 1 --class yixiu " + U, 2, "CODE"),
    ("verify-claim --secret 0123456789abcdef --bowl 1 --game 1 --award 1 --class yixiu X1FZ-F78Z", 1, "invalid"),
    ("verify-fair", 2, "FOLDER"),
    ("verify-fair {d}/nothing", 2, "not a folder"),
    ("verify-fair {d}", 2, "no fair game"),
    ("verify-fair --desk {d}/nothing.json", 2, "cannot read"),
    ("verify-fair --desk {d}/events.txt", 2, "not the desk's export"),
    # special files: a FIFO hung the command, /dev/zero ran it out of memory, deep JSON a RecursionError
    ("verify-fair --desk {d}/pipe.json", 2, "not a plain file"),
    ("verify-fair --desk /dev/zero", 2, "not a plain file"),
    ("verify-fair --desk {d}/adir", 2, "not a plain file"),
    ("verify-fair --desk {d}/deep.json", 2, "nests too deep"),
    ("verify-fair --desk {d}/ex_awards.json --receipt {d}/pipe.json", 2, "not a plain file"),
    ("verify-fair {d} --desk {d}/events.txt --bowl 1", 2, "not the desk's export"),
    ("verify-fair {d} --game x", 2, "--game"),
    ("verify-fair --desk {d}/ex_bowl.json", 2, "commitment 1: bowl=1"),
    ("verify-fair --desk {d}/ex_secret.json", 2, "s=\"zz\": the revealed secret, 64 hex digits"),
    ("verify-fair --desk {d}/ex_seen.json", 2, "with its UTC offset"),
    ("verify-fair --desk {d}/ex_seen.json --receipt {d}/nothing.json", 2, "cannot read the receipt"),
    ("verify-fair --desk {d}/ex_seen.json --receipt {d}/events.txt", 2, "is not a receipt"),
    ("verify-fair {d} --receipt {d}/events.txt", 2, "is not a receipt"),
    ("verify-fair --desk {d}/ex_rolls.json", 2, "six digits 1-6"),
    ("verify-fair --desk {d}/ex_row.json", 2, "commitment 1 is not a JSON object"),
    ("verify-fair --desk {d}/ex_awards.json", 2, "award 1: seen=5"),
    ("broker --out {d}/afile --event e --bowl 1", 2, "not a folder"),
    ("event-demo --bowls 0", 2, "--bowls"),
    ("event-demo --pace-s -1", 2, "--pace-s"),
    ("event-demo --speed 99", 2, "--speed"),
    ("event-demo --port 80", 2, "--port"),
    ("event-demo --fair maybe", 2, "--fair"),
    ("event-demo --for 0", 2, "--for"),
    ("event-demo --dir {d}/afile", 2, "not a folder"),
    ("event-demo --pace zhuangyuan=1/week", 2, "CLASS=N/day"),
    ("event-demo --pace zy=1/day", 2, "not one of the firmware's classes"),
    ("broker --out {d}/br --event a/b --bowl 1", 2, "event"),
    ("broker --out {d}/br --event e --bowl desk", 2, "desk"),
    ("broker --out {d}/br --event e --bowl a:b", 2, "':'"),
    ("broker --out {d}/br --event e --bowl 1 --tls-port 0", 2, "tls-port"),
    ("broker --out {d}/br --event e --bowl " + LONG, 2, "bowl id"),
    ("broker --out {d}/br --event e --bowl 1 --renew ghost", 2, "--renew"),
    ("broker --out {d}/br --event e --bowl 1 --port 0", 2, "--port"),
    ("broker --out {d}/br --event e --bowl 1 --listen nowhere", 2, "--listen"),
    ("broker --out {d}/br --event e", 2, "--bowl"),
    # a kiosk's awards with their codes: the secret goes with a journal, in hex as the bowl shows it
    ("replay --journal {d}/g00000001.bbj --secret-hex zz", 2, "--secret-hex"),
    ("replay --seats 3 --first 1 --secret 0123456789abcdef {d}/events.txt", 2, "--journal"),
    ("replay --awards --journal {d}/g00000001.bbj --journal {d}/g00000001.bbj", 0, "seat"),
    ("rank 444411 44441x", 2, "44441x"),
    # good lines next to the bad: the checks let them through
    ("rank --set combined=off --profile tongan", 0, ""),
    ("plan --seats 2 --within 0.5 --count duitang=1", 0, "P(over within"),
    ("dice --count 3 --seed 种子", 0, ""),
    ("replay --seats 3 --first 1 --prizes yixiu=2 {d}/events.txt", 0, "ended"),
    ("replay --journal {d}/g00000001.bbj", 0, "ended"),
    ("screens --out {d}/png --only idle", 0, "wrote"),
    ("play --root {d}/flash --quiet --script {d}/good.txt", 0, "sim_ms"),
]
PROBES += [(c + " --help", 0, "usage") for c in COMMANDS] + [("--help", 0, "COMMAND")]

# rows whose words contain spaces: (argv list, status, what the output must name)
SPLIT = [
    (["rank", "--profile", ""], 2, "unknown profile"),
    (["rank", "--profile", "xiamen tongan"], 2, "unknown profile"),
    (["rank", "--set", "combined on=on"], 2, "unknown option"),
    (["rank", "--set", " = "], 2, "OPTION=VALUE"),
    (["rank", "--set", "\ncombined=on"], 0, ""),  # a name is stripped like the bowl's settings lines
    (["plan", "--within", ""], 2, "--within"),
    (["plan", "--seats", ""], 2, "--seats"),
    (["plan", "--seats", " 5"], 2, "--seats"),
    (["stats", "--games", "1", "--out", ""], 2, "--out"),
    (["screens", "--out", ""], 2, "--out"),
    (["dice", "--count", ""], 2, "--count"),
    (["dice", "--count", "5", "--seed", ""], 2, "--seed"),
    (["replay", "--seats", "3", "--first", "1", ""], 2, "FILE"),
    (["play", "--script", "", "--root", "{d}/flash"], 2, "--script"),
    (["play", "--root", "", "--script", "{d}/empty.txt"], 2, "--root"),
]

# a few for real: bytes through the OS, stdin, pipes. (argv, stdin bytes, status, what the output must name)
SUBPROCESS = [
    (["dice", "--count", "3", "--seed", b"\xff"], b"", 2, "UTF-8"),
    (["rank"], b"444411\n\xff\xfe11\n123456\n", 1, "line 2"),
    (["rank"], b"\x00\x01\x02\n", 1, "line 1"),
    (["replay", "--seats", "3", "--first", "1", "-"], b"444411\n\xff\n", 2, "line 2"),
    (["play", "--root", "{d}/flash", "--quiet"], b"state\n\xff\xfe\nstate\n", 1, "line 2"),
    (["play", "--root", "{d}/flash", "--quiet", "--script", "-"], b"wait 10\n\xc0\n", 2, "line 2"),
    ([], b"", 2, "COMMAND"),
]


# The sweep: every option of every command, given each of these values on
# top of a cheap command line that works. Whatever the value, the answer is a
# status 0, 1 or 2 (2 with an error message), in time, with no traceback.
SWEEP_VALUES = ["", "0", "-1", HUGE, "1e308", "nan", "-inf", "\u0663", "²", "种子", U, "\x00", LONG, "a=b=c", "/"]
SWEEP_BASE = {
    "rank": ["rank"],
    "play": ["play", "--root", "{d}/sweep/flash", "--script", "{d}/empty.txt", "--quiet"],
    "plan": ["plan", "--seats", "2"],
    "stats": ["stats", "--games", "1", "--seats", "2", "--profile", "capped_classes"],  # a small plan: fast
    "dice": ["dice", "--count", "3"],
    "dice-stats": ["dice-stats", "--rolls", "5"],
    "screens": ["screens", "--out", "{d}/sweep/png", "--only", "idle"],
    "replay": ["replay", "--seats", "3", "--first", "1", "{d}/events.txt"],
    "verify-claim": ["verify-claim", "--secret", "0123456789abcdef", "--bowl", "1", "--game", "1", "--award", "1",
                     "--class", "yixiu", "X"],
    "broker": ["broker", "--out", "{d}/sweep/broker", "--event", "e", "--bowl", "1"],
    # a refused --pace stops every run before anything starts (the sweep never starts a broker)
    "event-demo": ["event-demo", "--pace", "zhuangyuan=1/week"],
    "verify-fair": ["verify-fair", "{d}"],
}
SWEEP_DROP = {("replay", "--start-roll"): ["--first"], ("verify-claim", "--secret-hex"): ["--secret"],
              ("replay", "--journal"): ["--seats", "--first", "{d}/events.txt"]}


def _value_options(command):
    p = argparse.ArgumentParser()
    importlib.import_module(COMMANDS[command][0]).add_arguments(p)
    return [a.option_strings[0] for a in p._actions if a.option_strings and a.nargs != 0
            and a.option_strings[0] != "-h"]


SWEEP = [(c, o) for c in SWEEP_BASE for o in _value_options(c)]


class Hang(BaseException):
    """A probe ran past its time (BaseException: no command may catch it)."""


def _alarm(signum, frame):
    raise Hang()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    from bobing import game, journal
    root = tmp_path_factory.mktemp("probes")
    w = lambda name, data: _write(str(root / name), data)  # noqa: E731
    w("events.txt", b"412355\n665544\n")
    w("empty.txt", b"")
    w("bad_event.txt", b"412355\n1234567\n")
    w("bin.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    w("latin1.txt", "412355\n# caf\u00e9\n".encode("latin-1"))
    w("afile", b"x")
    os.mkdir(str(root / "adir"))
    os.mkfifo(str(root / "pipe.json"))  # nobody ever writes to it
    w("deep.json", b"[" * 100000)
    w("short.csv", b"t_ms,ax,ay,az\n0,1,2\n")
    w("words.csv", b"t_ms,ax,ay,az\n0,a,b,c\n")
    w("binary.csv", b"t_ms,ax,ay,az\n\xff\xfe\n")
    # the desk's export (verify-fair --desk) with one field wrong in each
    c = ('{"bowl":"1","g":1,"k":1,"q":1,"c":"%s","seen":"2026-12-01T10:00:00+00:00","d":null,"s":null,"r":[]}'
         % ("a" * 64))
    for name, row in (("ex_bowl", c.replace('"bowl":"1"', '"bowl":1')),
                      ("ex_secret", c.replace('"s":null', '"s":"zz"')), ("ex_seen", c.replace("+00:00", "")),
                      ("ex_rolls", c.replace('"r":[]', '"r":["123"]')), ("ex_row", "5")):
        w(name + ".json", ('{"v":1,"commitments":[%s]}' % row).encode())
    w("ex_awards.json", b'{"v":1,"commitments":[],"awards":[{"bowl":"1","g":1,"n":1,"k":1,"c":"yixiu","seen":5}]}')
    for name, text in (("wait_sup", "wait \u00b2"), ("wait_huge", "wait 1000000000"),
                       ("shake_huge", "shake 1000000000"), ("shake_zero", "shake 0"),
                       ("trace_short", "trace %s/short.csv" % root), ("trace_words", "trace %s/words.csv" % root),
                       ("trace_bin", "trace %s/binary.csv" % root), ("trace_dir", "trace %s/adir.csv" % root),
                       ("seats_huge", "seats " + "9" * 5000), ("seats_one", "seats 1"),
                       ("play_huge", "play " + HUGE), ("unknown_cmd", "frobnicate"),
                       ("expect_bad", "expect nosuch 1"), ("profile_bad", "profile nosuch"),
                       ("good", "shake\nexpect started yes\nstate")):
        w(name + ".txt", (text + "\n").encode())
    os.mkdir(str(root / "adir.csv"))
    os.mkdir(str(root / "other"))
    w("other/thesis.tex", b"do not delete")
    os.mkdir(str(root / "oldflash"))  # a flash from before the simulator marked its folders
    for name in ("g00000001.bbj", "g00000002.bad", "settings.txt", "settings.txt.bad", "claim.key", "pin.txt"):
        w("oldflash/" + name, b"x")
    j = journal.start(str(root), "xiamen", seats=3)
    j.play(game.EV_START_TOTAL, 5)
    j.play(game.EV_ROLL, [4, 1, 2, 3, 5, 5])
    j.close()
    return str(root)


def _snapshot(root):
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns)
    return out


def _in_process(argv, d, monkeypatch, stdin=b""):
    argv = [a.replace("{d}", d) for a in argv]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    out, err = io.StringIO(), io.StringIO()
    before = _snapshot(d)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except Hang:
        pytest.fail("hangs: %r" % argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return rc, out.getvalue(), err.getvalue(), before, _snapshot(d)


def _check(argv, rc, out, err, want_rc, names, before=None, after=None):
    assert "Traceback" not in err, (argv, err)
    assert rc == want_rc, (argv, rc, out[-500:], err[-500:])
    assert names in out + err, (argv, names, out[-500:], err[-500:])
    if want_rc == 2:
        assert "error" in err, (argv, err)  # said where errors are said, not mixed into the output
        if before is not None:
            assert after == before, (argv, "wrote", set(after.items()) ^ set(before.items()))


@pytest.mark.parametrize("line, status, names", PROBES, ids=[p[0][:60] for p in PROBES])
def test_probe(line, status, names, d, monkeypatch):
    argv = line.split(" ") if line else []
    rc, out, err, before, after = _in_process(argv, d, monkeypatch)
    _check(argv, rc, out, err, status, names, before, after)


@pytest.mark.parametrize("argv, status, names", SPLIT, ids=[repr(p[0])[:60] for p in SPLIT])
def test_probe_words(argv, status, names, d, monkeypatch):
    rc, out, err, before, after = _in_process(argv, d, monkeypatch)
    _check(argv, rc, out, err, status, names, before, after)


@pytest.mark.parametrize("argv, stdin, status, names", SUBPROCESS, ids=[repr(p[0])[:60] for p in SUBPROCESS])
def test_probe_process(argv, stdin, status, names, d):
    argv = [a.replace("{d}", d) if isinstance(a, str) else a for a in argv]
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")  # as under a UTF-8 locale, not surrogateescape
    p = subprocess.run([sys.executable, "-m", "host_sim"] + argv, input=stdin, capture_output=True,
                       cwd=ROOT, timeout=60, env=env)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    _check(argv, p.returncode, out, err, status, names)


def test_a_closed_pipe_is_no_traceback():
    # `dice --count N | head -c 10`: the reader goes away; the writer stops quietly
    sh = "%s -m host_sim dice --count 1000000 --seed p | head -c 10" % sys.executable
    p = subprocess.run(["sh", "-c", sh], capture_output=True, cwd=ROOT, timeout=60)
    assert p.stdout and len(p.stdout) == 10
    assert b"Traceback" not in p.stderr and b"Error" not in p.stderr, p.stderr



def _own_error_prints(path):
    """Lines of path that print an `error: ...` themselves (print("error...", ...))."""
    import ast
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and node.args:
            a = node.args[0]
            while isinstance(a, ast.BinOp):  # "error: %s" % x
                a = a.left
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("error"):
                out.append(node.lineno)
    return out


def test_commands_print_no_error_of_their_own():
    # bad input has one path (host_sim.cli.guarded: `error: ...`, its status, no traceback)
    host = os.path.join(ROOT, "host_sim")
    one_path = os.path.join(host, "cli", "__init__.py")
    found = []
    for dirpath, dirs, files in os.walk(host):
        dirs[:] = [d for d in dirs if d not in ("desk", "__pycache__")]  # (the desk's pages have their own)
        for fn in files:
            path = os.path.join(dirpath, fn)
            if fn.endswith(".py") and path != one_path:
                found += ["%s:%d" % (os.path.relpath(path, ROOT), n) for n in _own_error_prints(path)]
    found += ["host_sim/desk/__main__.py:%d" % n for n in _own_error_prints(os.path.join(host, "desk", "__main__.py"))]
    assert not found, "raise options.InputError instead: " + ", ".join(found)

def test_every_command_has_probes():
    probed = set(line.split(" ")[0] for line, _, _ in PROBES if line)
    missing = set(COMMANDS) - probed
    assert not missing, "add probes for %s" % sorted(missing)


def test_every_option_has_a_refused_value():
    """Each option that takes a value appears in some probe that exits 2."""
    lines = [line.split(" ") for line, status, _ in PROBES if status == 2] + \
        [argv for argv, status, _ in SPLIT if status == 2]
    for name, (mod, _) in COMMANDS.items():
        p = argparse.ArgumentParser()
        importlib.import_module(mod).add_arguments(p)
        for a in p._actions:
            if not a.option_strings or a.nargs == 0:
                continue
            flag = a.option_strings[0]
            assert any(argv and argv[0] == name and flag in argv for argv in lines), \
                "no refused value probed for %s %s" % (name, flag)



@pytest.mark.parametrize("command, option", SWEEP, ids=["%s %s" % x for x in SWEEP])
def test_sweep(command, option, d, monkeypatch):
    monkeypatch.chdir(d)  # a value taken as a relative path lands in the scratch folder
    # the plots are not what is probed here (seconds each): a file stands in for them
    monkeypatch.setattr("host_sim.cli.stats.stats_plot", lambda r, cdf, path: open(path, "wb").close())
    base = list(SWEEP_BASE[command])
    for flag in SWEEP_DROP.get((command, option), []):
        i = base.index(flag)
        del base[i:i + (1 if flag.startswith("{") else 2)]
    for value in SWEEP_VALUES:
        argv = list(base)
        if option in argv:
            argv[argv.index(option) + 1] = value
        else:
            argv[1:1] = [option, value]
        rc, out, err, _, _ = _in_process(argv, d, monkeypatch)
        assert "Traceback" not in err, (argv, err)
        assert rc in (0, 1, 2), (argv, rc, err[-300:])
        if rc == 2:
            assert "error" in err, (argv, out[-300:], err[-300:])


def test_sweep_covers_every_command():
    assert set(SWEEP_BASE) == set(COMMANDS)


# The bowl's own files under `play --root`: a damaged settings.txt (kept aside
# by the bowl as settings.txt.bad, defaults used, said once on a notice).
DAMAGED_SETTINGS = [b"seats=\xff\n", b"=x\n=\n \nseats=4\n", b"idle_min=-5\nseats=100000\n", b"\x00\x01\x02",
                    b"profile=\nmode=\n", b"seats=" + b"9" * 5000 + b"\n"]


@pytest.mark.parametrize("data", DAMAGED_SETTINGS, ids=[repr(x)[:30] for x in DAMAGED_SETTINGS])
def test_play_on_a_damaged_flash(data, tmp_path, monkeypatch):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "settings.txt").write_bytes(data)
    (tmp_path / "s.txt").write_text("expect view notice\nstate\n")
    argv = ["play", "--root", str(flash), "--quiet", "--script", str(tmp_path / "s.txt")]
    rc, out, err, _, _ = _in_process(argv, str(tmp_path), monkeypatch)
    _check(argv, rc, out, err, 0, '"view": "notice"')
    assert (flash / "settings.txt.bad").read_bytes() == data  # kept, never silently lost
