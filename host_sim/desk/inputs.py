"""What the desk takes from people, in one place: bowl ids, whole numbers and
days as typed into a page's address, a form or a command line. Each either
gives the value or raises Bad (a ValueError) saying what was wrong and what is
allowed; nothing here lets a digit of another script (², ①, ١) through, as
str.isdigit() does, nor a number too large for SQLite's 64-bit integers.

A bowl's id is what a bowl can have (firmware bobing/settings.py): 1 to 8
digits 0-9. The bowl signs its codes with its id as stored ("0001", its
factory one; the admin menu keeps the width), so the same number written
shorter or longer is the same bowl: `1` is `0001`. The desk keeps a new bowl's
id at 4 digits or more (`1` -> `0001`, `12345` stays) and finds a bowl by its
number (find())."""
import datetime
import unicodedata

MAX_BOWL_DIGITS = 8
BOWL_WIDTH = 4  # the factory id's width, 0001
# days the desk's pages take: wide enough for any event, narrow enough that a day's
# span never leaves datetime's range (0001-01-01 and 9999-12-31 overflowed)
FIRST_DAY = datetime.date(2000, 1, 1)
LAST_DAY = datetime.date(2999, 12, 31)


class Bad(ValueError):
    """Input that is not allowed: str() says what and what is allowed (bilingual)."""


def fold(text):
    """Full-width forms as a Chinese input method types them (ＡＢ１２－ -> AB12-) folded,
    outer spaces off. Only that block (U+FF00-U+FFEF): NFKC would also make ² a 2 and
    ① a 1, which nobody types for a bowl id or a number."""
    return "".join(unicodedata.normalize("NFKC", ch) if "\uff00" <= ch <= "\uffef" else ch
                   for ch in str(text)).strip()


def _digits(t):
    return bool(t) and t.isascii() and t.isdigit()


def bowl_id(text):
    """A bowl id as typed -> the desk's form of it (1 -> 0001); Bad if no bowl can have it."""
    t = fold(text)
    if not _digits(t) or len(t) > MAX_BOWL_DIGITS:
        raise Bad("碗号 bowl id %r: 碗号是1-8位数字（0-9） a bowl id is 1 to 8 digits 0-9, as the bowl's "
                  "碗号 shows it (1 is 0001)" % str(text)[:40])
    return (t.lstrip("0") or "0").rjust(BOWL_WIDTH, "0") if len(t) <= BOWL_WIDTH else t


def canonical(text):
    """The desk's form of an id (1 -> 0001), or the text itself if no bowl can have it."""
    try:
        return bowl_id(text)
    except Bad:
        return str(text)


def bowl_forms(text):
    """Every way a bowl may have stored the same number (1, 01, 001, 0001, ... in up to
    8 digits); a text that is no bowl id stays itself (a bowl the desk has under it)."""
    t = fold(text)
    if not _digits(t) or len(t) > MAX_BOWL_DIGITS:
        return [str(text)]
    short = t.lstrip("0") or "0"
    return [short.rjust(n, "0") for n in range(len(short), MAX_BOWL_DIGITS + 1)]


def find_bowl(text):
    """The Bowl a typed or heard id names (exactly, else by its number), or None."""
    from .models import Bowl
    b = Bowl.objects.filter(bowl_id=str(text)).first()
    if b is None:
        forms = bowl_forms(text)
        b = Bowl.objects.filter(bowl_id__in=forms).order_by("bowl_id").first()
    return b


def whole(text, what, lo=1, hi=99999999):
    """A whole number lo..hi in ASCII digits (after NFKC) -> int; Bad otherwise."""
    t = fold(text)
    if not _digits(t) or len(t) > 12 or not lo <= int(t) <= hi:
        raise Bad("%s %r: 须为%d到%d的整数 a whole number %d..%d" % (what, str(text)[:40], lo, hi, lo, hi))
    return int(t)


def day(text):
    """YYYY-MM-DD within FIRST_DAY..LAST_DAY -> date; Bad otherwise."""
    t = fold(text)
    try:
        d = datetime.date.fromisoformat(t) if len(t) == 10 and t.isascii() else None
    except ValueError:
        d = None
    if d is None or not FIRST_DAY <= d <= LAST_DAY:
        raise Bad("%r: 日期写成 a day as YYYY-MM-DD, %s..%s" % (str(text)[:40], FIRST_DAY, LAST_DAY))
    return d


def bad_request(request, e, back="/"):
    """A page's 400 for an address parameter that is not allowed (Bad's own words:
    Chinese first, English beside)."""
    from django.shortcuts import render
    from django.utils.translation import gettext as _
    return render(request, "desk/message.html", {"title": _("Bad request"), "text": str(e), "back": back},
                  status=400)


def refuse(text):
    """A desk command's refusal of bad input: Django prints `CommandError: <text>` (the
    text bilingual) and the command exits 2, as the project's other commands do."""
    from django.core.management.base import CommandError
    return CommandError(text, returncode=2)


def host_port(text, what, default_port=None):
    """HOST:PORT, [IPv6]:PORT, or (with a default port) HOST or a bare IPv6 address
    -> (host, port); Bad otherwise. An empty host stays empty (every address)."""
    t = fold(text)
    shape = "%s %r: 写成 write HOST:PORT%s, e.g. 127.0.0.1:8000 or [::1]:8000" % (
        what, str(text)[:60], " or HOST" if default_port else "")
    if t.startswith("["):
        host, close, rest = t[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            raise Bad(shape)
        port = rest[1:] if rest else None
    elif t.count(":") > 1:  # a bare IPv6 address: no port in it
        host, port = t, None
    else:
        host, sep, port = t.rpartition(":")
        if not sep:
            host, port = t, None
    if port is None:
        if default_port is None:
            raise Bad(shape)
        port = str(default_port)
    if any(c.isspace() or c in "/[]" for c in host) or not host.isascii():
        raise Bad(shape)
    try:
        return host, whole(port, "%s port" % what, 1, 65535)
    except Bad as e:
        raise Bad("%s (%s)" % (shape, e))
