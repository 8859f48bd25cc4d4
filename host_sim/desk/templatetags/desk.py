from django import template

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
