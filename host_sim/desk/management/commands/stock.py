"""stock --event NAME [CLASS=N ...] [--step CLASS=N ...]: set the event's prize
stock (its total of each class) and how much a bowl is granted at a time; with
no CLASS=N, print it. A total can be raised at any time, and lowered only down
to what the bowls were already granted (a grant is never taken back)."""
from django.core.management.base import BaseCommand

from bobing import outbox

from host_sim.desk import allot, inputs
from host_sim.desk.models import Event


def _pairs(what, items, lo):
    out = {}
    for item in items:
        c, sep, n = item.partition("=")
        try:
            if not sep or not c:
                raise inputs.Bad(item)
            n = inputs.whole(n, c, lo, 100000)
        except inputs.Bad:
            raise inputs.refuse("%s %r: 写成 write CLASS=N, N a whole number %d..100000 (e.g. duitang=200)"
                               % (what, item, lo))
        if c in out:
            raise inputs.refuse("%s: 奖项 class %s 给了两次 given twice" % (what, c))
        out[c] = n
    return out


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("--event", required=True, help="the event name the bowls were provisioned with")
        p.add_argument("totals", nargs="*", metavar="CLASS=N", help="the event's total of a prize class")
        p.add_argument("--step", action="append", default=[], metavar="CLASS=N",
                       help="grant a bowl N of CLASS at a time (0: ceil(total / (2 * bowls)))")

    def handle(self, *args, event, totals, step, **kw):
        try:
            outbox.check_name("event", event)
        except ValueError as e:
            raise inputs.refuse("--event: 活动名不可用 event name not allowed: %s" % e)
        totals, step = _pairs("total", totals, 0), _pairs("--step", step, 0)
        if totals or step:
            try:
                ev = allot.set_stock(event, totals, step)
            except allot.StockError as e:
                raise inputs.refuse("%s. 未作任何更改 Nothing was changed." % e)
        else:
            ev = Event.objects.filter(name=event).first()
            if ev is None:
                raise inputs.refuse("活动 event %s 还没有库存 has no stock yet: give it CLASS=N ..." % event)
        self.stdout.write("event %s (since %s)" % (ev.name, ev.started.isoformat(timespec="seconds")))
        self.stdout.write("%-12s %8s %6s %8s %12s" % ("class", "total", "step", "granted", "not granted"))
        for r in allot.overview(ev):
            self.stdout.write("%-12s %8d %6d %8d %12d" % (r["cls"], r["total"], r["step"], r["granted"],
                                                          r["not_granted"]))
