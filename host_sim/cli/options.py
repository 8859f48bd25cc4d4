"""What every command's arguments share: --profile / --set, and argument types
that refuse a bad value at once, saying what is allowed.

The one mechanism for bad command lines: a type below raises
argparse.ArgumentTypeError, so argparse prints `usage ... error: argument
--x: WHAT IS WRONG; WHAT IS ALLOWED` and exits with status 2 before anything
runs or is written. Bad input found later (a file's content, stdin) raises
InputError, which host_sim/cli/__init__.py prints as `error: ...` with status 2.
"""
import argparse
import math
import os
import stat

# Only what every command's start needs is imported here: verify-claim at the counter
# answers before the game engine (bobing.game) or tempfile would have loaded. Types that
# need the rules import them when they run.
from bobing import profiles


class InputError(Exception):
    """Bad input found after the arguments were parsed (a file's content, a
    folder that cannot be written): host_sim/cli/__init__.py prints `error: `
    and the message and exits with `status`. Commands raise it rather than
    print an error themselves: one path, one form, never a traceback."""
    status = 2


class SourceFailed(InputError):
    """The dice's entropy failed a health test: not the command line's fault,
    so a status of its own (what was printed before it stands)."""
    status = 1


class Parser(argparse.ArgumentParser):
    """argparse, refusing any argument that is not UTF-8 text: bytes the locale
    could not decode reach Python as lone surrogates, and would make a
    traceback wherever they are encoded again (a seed, a secret, a path)."""

    def _get_value(self, action, arg_string):
        try:
            if not isinstance(action, argparse._SubParsersAction):  # (its parser checks its own)
                arg_string.encode("utf-8")
        except UnicodeEncodeError:
            raise argparse.ArgumentError(action, "not UTF-8 text (%s): give it in UTF-8" % ascii(arg_string))
        return argparse.ArgumentParser._get_value(self, action, arg_string)


def _bad(msg):
    raise argparse.ArgumentTypeError(msg)


def _show(s):
    """A value in a message: quoted, and not 5000 characters of it."""
    return repr(s) if len(s) <= 40 else repr(s[:40]) + "..."


def text(max_len=256, empty=False):
    """Any UTF-8 text of at most max_len characters (empty only if allowed)."""
    def parse(s):  # (Parser has refused arguments that are not UTF-8)
        if not s and not empty:
            _bad("must not be empty")
        if "\0" in s:  # (no real command line has one; a caller of main() might)
            _bad("%s holds a NUL character" % _show(s))
        if len(s) > max_len:
            _bad("%d characters: at most %d allowed" % (len(s), max_len))
        return s
    parse.__name__ = "text"
    return parse


def whole(lo, hi):
    """A whole number lo..hi written in ASCII digits (int() would also take
    '٣', '1_000' and ' 5')."""
    def parse(s):
        d = s[1:] if s[:1] == "-" else s
        if not (d.isascii() and d.isdigit()) or len(d) > 30:
            _bad("%s is not a whole number: give one from %d to %d" % (_show(s), lo, hi))
        v = int(s)
        if not lo <= v <= hi:
            _bad("%d is out of range: give a whole number from %d to %d" % (v, lo, hi))
        return v
    parse.__name__ = "whole number"
    return parse


def number(lo, hi, open_lo=False, open_hi=False):
    """A finite decimal number within [lo, hi] (either end open if asked):
    never NaN or infinity."""
    allowed = "a number %s %g and %s %g" % (">" if open_lo else ">=", lo, "<" if open_hi else "<=", hi)

    def parse(s):
        try:
            v = float(s) if s.isascii() else None
        except ValueError:
            v = None
        if v is None or not math.isfinite(v):
            _bad("%s is not a number: give %s" % (_show(s), allowed))
        if v < lo or v > hi or (open_lo and v == lo) or (open_hi and v == hi):
            _bad("%s is out of range: give %s" % (_show(s), allowed))
        return v
    parse.__name__ = "number"
    return parse


MIN_SEATS = 2  # a table on the bowl (settings: seats 2 to game.MAX_SEATS)


def seats(s):
    """A seat number, or the seats of a recorded game (a kiosk's: 1)."""
    from bobing import game
    return whole(1, game.MAX_SEATS)(s)


def table_seats(s):
    """Players at a table, as the bowl allows them."""
    from bobing import game
    return whole(MIN_SEATS, game.MAX_SEATS)(s)


def seat_names(s):
    """The seats' names, seat 1 first, comma-separated: the bowl's own titles (爷爷 or its
    pinyin Yeye, bobing.vocab.TITLES_ZH / TITLES); an empty one keeps that seat's
    number -> bytearray(MAX_SEATS) as the bowl keeps them (Settings.names)."""
    from bobing import game, vocab
    parts = s.replace("，", ",").split(",")
    if len(parts) > game.MAX_SEATS:
        _bad("%d names: at most %d, one a seat (seat 1 first)" % (len(parts), game.MAX_SEATS))
    out = bytearray(game.MAX_SEATS)
    for i, n in enumerate(parts):
        n = n.strip()
        if not n or n == "%d号" % (i + 1):
            continue
        if n in vocab.TITLES_ZH:
            out[i] = vocab.TITLES_ZH.index(n) + 1
        elif n.capitalize() in vocab.TITLES:
            out[i] = vocab.TITLES.index(n.capitalize()) + 1
        else:
            _bad("seat %d: %s 不是碗上的名字 is not a name the bowl has: %s (or their pinyin %s; "
                 "empty for the seat's number)" % (i + 1, _show(n), " ".join(vocab.TITLES_ZH),
                                                   " ".join(vocab.TITLES)))
    return out


# A turn (shake, look, pass the bowl) takes seconds, not microseconds or days:
# the bounds keep the planner's roll counts finite and small.
seconds_per_roll = number(1, 3600)


def profile_name(s):
    if s not in profiles.preset_names():  # membership, not a lookup: '' or 'a b' must not reach the table
        _bad("unknown profile %s; profiles are: %s" % (_show(s), ", ".join(sorted(profiles.preset_names()))))
    return s


def setting(s):
    """'OPTION=VALUE' -> (option, value), both checked against profiles.options()."""
    name, sep, value = s.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name:
        _bad("%s: write it as OPTION=VALUE, e.g. combined=off" % _show(s))
    if name not in profiles.option_names():
        _bad("unknown option %s; options are: %s" % (_show(name), ", ".join(sorted(profiles.option_names()))))
    try:
        return name, profiles.check_option(name, value)
    except ValueError as e:
        _bad(str(e))


MAX_PRIZES = 1000  # of one class: a table's evening, or a kiosk's day of stock


def prize_count(s):
    """'CLASS=N' -> (class, N); the class is checked against the profile later."""
    k, sep, v = s.partition("=")
    k = k.strip()
    if not sep or not k:
        _bad("%s: write it as CLASS=N, e.g. duitang=1" % _show(s))
    return k, whole(0, MAX_PRIZES)(v.strip())



def prize_counts(s):
    """'CLASS=N,CLASS=N' -> {class: N}."""
    return dict(prize_count(part) for part in s.split(","))


def in_file(s):
    """A file to read: '-' (stdin) or an existing regular file."""
    if s == "-":
        return s
    text()(s)
    if not os.path.exists(s):
        _bad("%s: no such file" % s)
    if not stat.S_ISREG(os.stat(s).st_mode):
        _bad("%s: not a regular file (a folder or a device?): give a file" % s)
    if not os.access(s, os.R_OK):
        _bad("%s: not readable" % s)
    return s


def read_plain(path, what, limit):
    """The bytes of a plain file of at most `limit` bytes; InputError saying what is wrong
    otherwise. Opened without blocking, so a FIFO named here never hangs the command, and
    never read past the limit (a device such as /dev/zero reports no size). what: "a receipt",
    "the desk's export"..."""
    the = "the " + what.split(" ", 1)[1] if what.split(" ", 1)[0] in ("a", "an") else what
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise InputError("cannot read %s %s: %s" % (the, path, e.strerror or e))
    except ValueError:  # a NUL in it
        raise InputError("%r is not a file name: give %s as a file" % (path[:80], what))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError("%s: not a plain file (a folder, a device or a pipe): give %s as a file"
                             % (path, what))
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError("cannot read %s %s: %s" % (the, path, e.strerror or e))
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError("%s: more than %d bytes: not %s" % (path, limit, what))
    return data


def read_json(path, what, limit):
    """read_plain's bytes as JSON; InputError for text that is not JSON or nests too deep."""
    import json
    data = read_plain(path, what, limit)
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeError) as e:
        raise InputError("%s is not %s (JSON): %s" % (path, what, e))
    except RecursionError:
        raise InputError("%s is not %s: its JSON nests too deep" % (path, what))


def _writable_parent(path):
    """The nearest existing folder above path (or path itself) must be writable."""
    p = os.path.abspath(path)
    while not os.path.exists(p):
        p = os.path.dirname(p)
    if not os.path.isdir(p):
        _bad("%s: %s is a file, not a folder" % (path, p))
    if not os.access(p, os.W_OK | os.X_OK):
        _bad("%s: cannot write in %s (permission denied)" % (path, p))
    if p != os.path.abspath(path):  # a folder to be made: try (root passes access() on /proc)
        import tempfile
        try:
            os.rmdir(tempfile.mkdtemp(prefix=".write-test-", dir=p))
        except OSError as e:
            _bad("%s: cannot make a folder in %s (%s)" % (path, p, e.strerror or e))


def out_dir(s):
    """A folder to write into: an existing writable folder, or one that can be made."""
    text()(s)
    if os.path.exists(s) and not os.path.isdir(s):
        _bad("%s exists and is not a folder: give a folder (it is made if missing)" % s)
    _writable_parent(s)
    return s


def out_file(s):
    """A file to write: not a folder, in a folder that exists and is writable."""
    text()(s)
    if os.path.isdir(s):
        _bad("%s is a folder: give a file name" % s)
    if not os.path.isdir(os.path.dirname(os.path.abspath(s))):
        _bad("%s: the folder %s does not exist" % (s, os.path.dirname(os.path.abspath(s))))
    _writable_parent(os.path.dirname(os.path.abspath(s)))
    return s


def write_files(folder, files):
    """Write {name: bytes or fn(path)} into folder (made if missing), all or
    nothing: each goes to a hidden temporary name first and is renamed into
    place only once every one is written. InputError if the folder cannot
    take them (full, read-only)."""
    done = []
    try:
        os.makedirs(folder, exist_ok=True)
        for name, content in files.items():
            tmp = os.path.join(folder, ".tmp-" + name)  # same extension: writers pick the format by it
            done.append((tmp, os.path.join(folder, name)))
            if callable(content):
                content(tmp)
            else:
                with open(tmp, "wb") as f:
                    f.write(content)
        for tmp, path in done:
            os.replace(tmp, path)
        done = []
    except OSError as e:
        raise InputError("cannot write to %s: %s" % (folder, e.strerror or e))
    finally:
        for tmp, _ in done:
            if os.path.exists(tmp):
                os.remove(tmp)


MAX_FILE = 16 << 20  # an event file or a script is text of a few kB; refuse to read a disk image


def read_lines(path, stdin=None):
    """The lines of a UTF-8 text file ('-': stdin), read whole before anything
    is done with them; InputError naming the line of a NUL or a byte that is
    not UTF-8 (a binary file, a journal, a file in another encoding)."""
    try:
        if path == "-":
            data = (stdin.buffer if hasattr(stdin, "buffer") else stdin).read(MAX_FILE + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_FILE + 1)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e))
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > MAX_FILE:
        raise InputError("%s: more than %d MB: not a text file of commands or events" % (path, MAX_FILE >> 20))
    if b"\0" in data:
        raise InputError("%s: line %d: a NUL byte: a binary file, not text (give a UTF-8 text file)"
                         % (path, data.count(b"\n", 0, data.index(b"\0")) + 1))
    try:
        return decode_line(data).splitlines(True)
    except ValueError as e:
        raise InputError("%s: %s" % (path, e))


def decode_line(raw):
    """Bytes -> text; ValueError naming the line (if more than one) and the
    column of the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start)
        col = e.start - raw.rfind(b"\n", 0, e.start)
        raise ValueError("%sbyte 0x%02x at column %d is not UTF-8 (give UTF-8 text)"
                         % ("line %d: " % (line + 1) if line else "", raw[e.start], col))


MAX_LINE = 1 << 16


def binary_lines(stream):
    """Iterate a text stream's underlying bytes line by line (strict decoding is
    the caller's, line by line, so one bad line does not end the stream)."""
    read = (stream.buffer if hasattr(stream, "buffer") else stream).readline
    return iter(lambda: read(MAX_LINE), b"")  # bounded: /dev/zero has no newline


def options_help():
    lines = ["options (--set OPTION=VALUE), default first:"]
    for name, (default, allowed) in profiles.options().items():
        if allowed[0] == "+":
            vals = "'+'-joined set of " + ", ".join(allowed[1])
        elif allowed[0] == "int":
            vals = "whole number %d..%d" % (allowed[1], allowed[2])
        else:
            vals = " | ".join(allowed)
        lines.append("  %-19s %s  (default %s)" % (name, vals, default))
    lines.append("profiles (--profile): " + ", ".join(sorted(profiles.presets())))
    return "\n".join(lines)


def add_profile_arguments(parser):
    parser.add_argument("--profile", default=profiles.DEFAULT_PRESET, type=profile_name,
                        help="preset name (default %(default)s)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", type=setting,
                        help="override one option; may be repeated")
    parser.epilog = (parser.epilog or "") + options_help()


def profile_from(args):
    """-> profiles.Profile, or raise ValueError with what is allowed."""
    return profiles.Profile(args.profile, dict(args.set))
