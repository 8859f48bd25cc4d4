from django import template
from django.utils import timezone
from django.utils.translation import ngettext

from host_sim.desk.forms import class_names

register = template.Library()


@register.filter
def prize(cls):
    """A prize class id -> "状元 zhuangyuan", as the bowl's screen and the attendant say it."""
    zh = class_names().get(cls)
    return "%s %s" % (zh, cls) if zh else cls


@register.filter
def volts(mv):
    """Battery millivolts -> "3.87 V"."""
    return "%.2f V" % (mv / 1000)


@register.filter
def span(hours):
    """Hours -> a length of time as one says it: "about 40 minutes", "about 3
    hours", "about 5 days", "more than a year"."""
    if hours is None:
        return ""
    minutes = hours * 60
    if minutes < 90:
        n = max(1, int(round(minutes / 5.0)) * 5 if minutes >= 10 else int(round(minutes)) or 1)
        return ngettext("about %d minute", "about %d minutes", n) % n
    if hours < 36:
        n = int(round(hours))
        return ngettext("about %d hour", "about %d hours", n) % n
    days = hours / 24
    if days < 60:
        n = int(round(days))
        return ngettext("about %d day", "about %d days", n) % n
    if days < 365:
        n = int(round(days / 30.4))
        return ngettext("about %d month", "about %d months", n) % n
    n = int(round(days / 365.25))
    return ngettext("about %d year", "about %d years", n) % n


@register.filter
def when(at):
    """A moment -> "15:40" today, "12-03 15:40" this year, else "2028-12-03"."""
    if at is None:
        return ""
    local = timezone.localtime(at)
    if local.date() == timezone.localdate():
        return local.strftime("%H:%M")
    if local.year == timezone.localdate().year:
        return local.strftime("%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")


# Punctuation between a page's translated parts, in the page's language: Chinese text takes
# the full-width marks (，。：；), English the ASCII ones with their space.
_PUNCT = {",": ("，", ", "), ".": ("。", "."), ":": ("：", ": "), ";": ("；", "; "), "(": ("（", " ("),
          ")": ("）", ")")}


@register.simple_tag
def punct(mark):
    from django.utils.translation import get_language
    zh, en = _PUNCT[mark]
    return zh if (get_language() or "").startswith("zh") else en
