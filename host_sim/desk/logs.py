"""The desk's log lines: one line per record, whatever a user typed into it. A
user name, a file name or a code is the user's text; a newline in it would
start a line of the attacker's own ("... redeemed: bowl 0001 ... by amy"), so
every character that is not printable (newlines, carriage returns, escapes,
U+2028) is written as its escape. A traceback after the message stays as it is
(it is the desk's own text)."""
import logging
import sys


SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape(text):
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else SHORT.get(c) or (
        "\\x%02x" % ord(c) if ord(c) < 0x100 else "\\u%04x" % ord(c)) for c in text)


class OneLine(logging.Formatter):
    def formatMessage(self, record):
        record.message = escape(record.message)
        return super().formatMessage(record)


class Stderr(logging.StreamHandler):
    """To whatever sys.stderr is when a line is written (Django configures logging at
    every setup; a handler holding an older stderr would write to a closed file)."""

    def __init__(self):
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass
