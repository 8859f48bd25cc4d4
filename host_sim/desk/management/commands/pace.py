"""pace --event NAME [CLASS=N/hour | CLASS=N/day | CLASS=off ...]: the event's release schedule
(host_sim/desk/pacing.py): at most N of a class handed out by the bowls in each hour or day; the
desk grants the bowls stock by it, the dice stay as they are. Without CLASS=..., print it."""
from django.core.management.base import BaseCommand

from bobing import outbox

from host_sim.desk import inputs, pacing
from host_sim.desk.models import Event


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("--event", required=True, help="the event name the bowls were provisioned with")
        p.add_argument("schedule", nargs="*", metavar="CLASS=N/PER",
                       help="at most N of CLASS an hour (N/hour) or a day (N/day); CLASS=off: unpaced")

    def handle(self, *args, event, schedule, **kw):
        try:
            outbox.check_name("event", event)
        except ValueError as e:
            raise inputs.refuse("--event: 活动名不可用 event name not allowed: %s" % e)
        try:
            if schedule:
                ev = pacing.set_pace(event, pacing.parse(schedule))
            else:
                ev = Event.objects.filter(name=event).first()
                if ev is None:
                    raise pacing.PaceError("活动 event %s 还没有库存 has no stock yet" % event)
        except pacing.PaceError as e:
            raise inputs.refuse("%s. 未作任何更改 Nothing was changed." % e)
        rows = pacing.rows(ev)
        self.stdout.write("event %s: 发放计划 release schedule" % ev.name)
        if not rows:
            self.stdout.write("  (none: the stock is granted as the bowls ask, unpaced)")
        for r in rows:
            self.stdout.write("  %-12s at most %d %s (this period so far: %d)" % (r["cls"], r["n"], r["words"],
                                                                                r["handed"]))
