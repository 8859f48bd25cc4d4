"""The whole event as an Excel workbook (openpyxl): every award the desk knows, redeemed or not
(when, by whom), every shake grant with its receipt and attendant, the counts per bowl, per class,
per hour and per day, the release schedule and the shift hand-overs with their differences. Made
from the database alone, in one read transaction (the counts of one sheet agree with another's).
Headers Chinese first, English beside; times in the desk's time zone. Claim codes are left out: a
code in a spreadsheet is a prize anyone holding the file could collect."""
import datetime
import io

from django.db import transaction
from django.utils import timezone
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from .forms import class_names
from .models import Award, Event, Handover, HandoverCount, Redemption, ShakeGrant

SHEETS = ("说明 about", "奖品 awards", "摇奖 shake grants", "按碗 per bowl", "按奖项 per class", "按小时 per hour",
          "按天 per day", "发放计划 schedule", "交班 hand-overs")
YES, NO = "是 yes", "否 no"
EARLY = "先兑奖 redeemed first"  # the source of an award the desk knows only from its hand-over


def _local(t):
    """An aware time -> the desk's local time without zone (Excel has no time zones)."""
    return timezone.localtime(t).replace(tzinfo=None) if t is not None else None


def _sheet(wb, title, header, rows):
    ws = wb.create_sheet(title)
    ws.append(header)
    for c in ws[1]:
        c.font = Font(bold=True)
    for r in rows:
        ws.append(r)
    ws.freeze_panes = "A2"
    for i, h in enumerate(header, 1):
        dated = any(isinstance(r[i - 1], datetime.datetime) for r in rows)  # openpyxl formats them itself
        ws.column_dimensions[get_column_letter(i)].width = 20 if dated else max(10, len(h) + 4)
    return ws


def _order():
    from .allot import class_order
    pos = class_order()
    return lambda c: (pos.get(c, len(pos)), c)


def workbook():
    """-> an openpyxl Workbook of the whole event (every event's awards: the desk's)."""
    names = class_names()
    key = _order()
    with transaction.atomic():
        awards = list(Award.objects.select_related("bowl").order_by("seen", "id"))
        red = {(r.bowl_id, r.game_no, r.award_no): r for r in Redemption.objects.select_related("by", "bowl")}
        grants = list(ShakeGrant.objects.select_related("bowl").order_by("at", "id"))
        events = list(Event.objects.prefetch_related("pace", "classes").order_by("name"))
        counts = list(HandoverCount.objects.select_related("handover__event", "handover__off_by",
                                                           "handover__on_by").order_by("handover__at", "id"))
        handovers = Handover.objects.count()
    # a code checked out in full at the counter before its journal came (counter.check): the prize
    # is gone from the shelf all the same, listed as first known at its hand-over (not saved)
    known = {(a.bowl_id, a.game_no, a.award_no) for a in awards}
    early = [Award(bowl=r.bowl, game_no=r.game_no, award_no=r.award_no, cls=r.cls, source=EARLY, seen=r.at)
             for k, r in sorted(red.items(), key=lambda x: x[1].at) if k not in known]
    awards += early
    wb = Workbook()
    wb.remove(wb.active)
    made = _local(timezone.now())
    redeemed = sum(1 for a in awards if (a.bowl_id, a.game_no, a.award_no) in red)
    _sheet(wb, SHEETS[0], ["项目 item", "数值 value"], [
        ["生成时间 made at", made], ["时区 time zone", timezone.get_current_timezone_name()],
        ["活动 events", " ".join(e.name for e in events)], ["奖品 awards", len(awards)],
        ["已兑奖 redeemed", redeemed], ["未兑奖 not redeemed", len(awards) - redeemed],
        ["兑奖时奖台尚未登记 redeemed before the desk had the award", len(early)],
        ["摇奖授权 shake grants", len(grants)], ["授权摇数 shakes granted", sum(g.n for g in grants)],
        ["交班 hand-overs", handovers],
        ["未结差异 open differences", sum(1 for c in counts if c.diff and not c.closed_by)]])

    rows = []
    for a in awards:
        r = red.get((a.bowl_id, a.game_no, a.award_no))
        rows.append([a.bowl.bowl_id, a.game_no, a.award_no, names.get(a.cls, a.cls), a.cls, a.customer, a.source,
                     _local(a.seen), YES if r else NO, _local(r.at) if r else None,
                     r.by.get_username() if r else "", r.counter if r else ""])
    _sheet(wb, SHEETS[1], ["碗 bowl", "局 game", "奖号 award", "奖项 class", "奖项代号 class id", "顾客 customer",
                           "来源 source", "中奖登记 seen", "已兑奖 redeemed", "兑奖时间 redeemed at",
                           "兑奖员 attendant", "兑奖台 counter"], rows)

    _sheet(wb, SHEETS[2], ["活动 event", "碗 bowl", "授权号 grant", "摇数 shakes", "小票 receipt", "服务员 attendant",
                           "时间 at", "状态 state", "原因 why", "主管再授权 again by supervisor"],
           [[g.event, g.bowl.bowl_id, g.gid, g.n, g.ref, g.by, _local(g.at), g.state, g.why, g.again_by]
            for g in grants])

    def tally(keyf):
        out = {}
        for a in awards:
            k = keyf(a)
            t = out.setdefault(k, [0, 0])
            t[0] += 1
            t[1] += (a.bowl_id, a.game_no, a.award_no) in red
        return out
    per_bowl = tally(lambda a: a.bowl.bowl_id)
    shakes_of = {}
    for g in grants:
        shakes_of[g.bowl.bowl_id] = shakes_of.get(g.bowl.bowl_id, 0) + g.n
    _sheet(wb, SHEETS[3], ["碗 bowl", "奖品 awards", "已兑奖 redeemed", "未兑奖 not redeemed",
                           "授权摇数 shakes granted"],
           [[b, n, k, n - k, shakes_of.get(b, 0)] for b, (n, k) in sorted(per_bowl.items())]
           + [[b, 0, 0, 0, s] for b, s in sorted(shakes_of.items()) if b not in per_bowl])
    per_cls = tally(lambda a: a.cls)
    totals = {}
    for e in events:
        for ec in e.classes.all():
            totals[ec.cls] = totals.get(ec.cls, 0) + ec.total
    _sheet(wb, SHEETS[4], ["奖项 class", "奖项代号 class id", "活动总数 event total", "奖品 awards", "已兑奖 redeemed",
                           "未兑奖 not redeemed"],
           [[names.get(c, c), c, totals.get(c), n, k, n - k] for c, (n, k) in
            sorted(per_cls.items(), key=lambda x: key(x[0]))])
    per_hour = tally(lambda a: _local(a.seen).replace(minute=0, second=0, microsecond=0))
    handed_hour, handed_day = {}, {}
    for r in red.values():
        t = _local(r.at)
        h = t.replace(minute=0, second=0, microsecond=0)
        handed_hour[h] = handed_hour.get(h, 0) + 1
        handed_day[t.date()] = handed_day.get(t.date(), 0) + 1
    _sheet(wb, SHEETS[5], ["小时 hour", "中奖 awards seen", "其中已兑 of them redeemed",
                           "该小时兑出 handed over in it"],
           [[h, per_hour.get(h, (0, 0))[0], per_hour.get(h, (0, 0))[1], handed_hour.get(h, 0)]
            for h in sorted(set(per_hour) | set(handed_hour))])
    per_day = tally(lambda a: _local(a.seen).date())
    grants_day = {}
    for g in grants:
        d = _local(g.at).date()
        grants_day[d] = grants_day.get(d, 0) + g.n
    days = sorted(set(per_day) | set(handed_day) | set(grants_day))
    day_cls = {}
    for a in awards:
        day_cls[(_local(a.seen).date(), a.cls)] = day_cls.get((_local(a.seen).date(), a.cls), 0) + 1
    classes = sorted({a.cls for a in awards}, key=key)
    _sheet(wb, SHEETS[6], ["日期 day", "中奖 awards seen", "其中已兑 of them redeemed", "当天兑出 handed over that day",
                           "授权摇数 shakes granted"] + ["%s %s" % (names.get(c, c), c) for c in classes],
           [[d, per_day.get(d, (0, 0))[0], per_day.get(d, (0, 0))[1], handed_day.get(d, 0), grants_day.get(d, 0)]
            + [day_cls.get((d, c), 0) for c in classes] for d in days])
    from .pacing import PER_WORDS
    _sheet(wb, SHEETS[7], ["活动 event", "奖项 class", "奖项代号 class id", "每期至多 at most", "每期 per"],
           [[e.name, names.get(p.cls, p.cls), p.cls, p.n, PER_WORDS.get(p.per, p.per)]
            for e in events for p in sorted(e.pace.all(), key=lambda p: key(p.cls))])
    _sheet(wb, SHEETS[8], ["时间 at", "活动 event", "交班人 off shift", "接班人 on shift", "奖项 class",
                           "应有 expected", "点数 counted", "差异 difference", "已结 closed by", "结清时间 closed at",
                           "说明 note"],
           [[_local(c.handover.at), c.handover.event.name, c.handover.off_by.get_username(),
             c.handover.on_by.get_username(), "%s %s" % (names.get(c.cls, c.cls), c.cls), c.expected, c.counted,
             c.diff, c.closed_by, _local(c.closed_at), c.close_note] for c in counts])
    return wb


def as_bytes():
    buf = io.BytesIO()
    workbook().save(buf)
    return buf.getvalue()
