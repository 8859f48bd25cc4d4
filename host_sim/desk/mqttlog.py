"""The MQTT side's log of refused messages, cheap under a flood: a refusal is
kept in memory (refuse()) and written by flush() at most once a second, one
Import row (source "mqtt") per topic with its first reason and how many times
it came (`repeats`); the log gets at most LOG_PER_S lines a second and then one line
saying how many more were refused. A flood of invalid messages therefore costs
no database write each, and real awards behind it are stored within a second or
two (bench/desk_flood.py). A refusal lost in a crash before its flush loses no
award: the message was refused anyway. The MQTT page (view below) shows these
rows and the accepted awards' rows; the Import page shows the journals."""
import logging
import threading
import time

from django.utils import timezone
from django.utils.translation import gettext_noop

from .models import Import, render_parts

log = logging.getLogger("desk")
LOG_PER_S = 5  # refusal lines a second in the log; the rest are counted
MAX_ROWS = 50  # distinct (topic, reason) rows one flush writes; more are counted in the last

_lock = threading.Lock()
_pending = {}  # topic -> [first seen, count, first reason as parts]

# the kinds of message a bowl publishes, as a refusal names them
LEAF = {"award": gettext_noop("award message"), "status": gettext_noop("status message"),
        "ask": gettext_noop("stock request"), "champion": gettext_noop("champion message"),
        "final": gettext_noop("final message"), "finalroll": gettext_noop("final's roll message"),
        "shaken": gettext_noop("answer to a shake grant"),
        "commit": gettext_noop("fair dice commitment"), "reveal": gettext_noop("fair dice reveal"),
        "key": gettext_noop("message of a customer the key let in")}
OTHER = gettext_noop("message of an unknown kind")
BAD_MESSAGE = gettext_noop("not a valid %(leaf)s%(detail)s")


def bad_message(topic, error):
    """refuse() a message the firmware's decoder refused (error: its ValueError, English,
    shown on English pages as the detail)."""
    leaf = str(topic).rsplit("/", 1)[-1]
    return refuse(topic, BAD_MESSAGE, leaf=[LEAF.get(leaf, OTHER)],
                  detail={"en": ": " + str(error)})
_said = [0, 0, 0]  # [second, lines logged in it, refusals not logged]


def refuse(topic, msgid, **args):
    """Record one refused message (written at the next flush(): per topic, its first
    reason and how many came) -> "refused". msgid: the reason's English, marked with
    gettext_noop where it is written, with %(name)s for args (models.render_parts)."""
    key = str(topic)[:200]
    now = time.time()
    parts = [[msgid, args]]
    text = render_parts(parts, str)
    with _lock:
        row = _pending.get(key)
        if row is None:
            _pending[key] = [timezone.now(), 1, parts]
        else:
            row[1] += 1
        sec = int(now)
        if _said[0] != sec:
            if _said[2]:
                log.warning("mqtt: %d more messages refused in that second (the MQTT page lists them)", _said[2])
            _said[:] = [sec, 0, 0]
        if _said[1] < LOG_PER_S:
            _said[1] += 1
            log.warning("mqtt: refused %s: %s", key[:80], text)
        else:
            _said[2] += 1
    return "refused"


def flush():
    """Write what was refused since the last flush (one transaction) -> rows written."""
    with _lock:
        if not _pending:
            return 0
        items = sorted(_pending.items(), key=lambda kv: kv[1][0])
        _pending.clear()
    if len(items) > MAX_ROWS:
        more = sum(n for _k, (_at, n, _t) in items[MAX_ROWS - 1:])
        items = items[:MAX_ROWS - 1] + [("(various)", [items[MAX_ROWS - 1][1][0], more, [
            [gettext_noop("%(n)d more messages refused on other topics"), {"n": more}]]])]
    rows = []
    for topic, (at, n, parts) in items:
        if n > 1:
            parts = parts + [[gettext_noop("(and %(n)d more like it)"), {"n": n - 1}]]
        rows.append(Import(at=at, source="mqtt", name=topic, repeats=n, parts=parts,
                           message=render_parts(parts, str)[:2000]))
    Import.objects.bulk_create(rows)
    return len(rows)
