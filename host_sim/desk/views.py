"""The desk's pages. Every page but the login needs a logged-in attendant
(LoginRequiredMiddleware); every form carries Django's CSRF token."""
import csv
import datetime
import logging

from django.conf import settings
from django.contrib import messages
from django.db import OperationalError
from django.db.models import Count, Exists, OuterRef
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from host_sim import plan

from . import allot, chart, counter, forecast as fc
from .forms import AwardForm, CodeForm, JournalForm, RateForm
from .ingest import Refused, ingest_journal
from .models import Award, Bowl, BowlStatus, Event, Game, Import, Redemption

log = logging.getLogger("desk")


def csrf_failure(request, reason=""):
    log.warning("CSRF refused: %s %s", request.path, reason)
    return render(request, "desk/message.html", {
        "title": "Form expired",
        "text": "This form was not accepted (its security token was missing or old). "
                "Go back, reload the page and try again.",
    }, status=403)


def _db_trouble(request, e):
    log.error("database: %s", e)
    return render(request, "desk/message.html", {
        "title": "Database busy or full",
        "text": "The desk could not write to its database (%s). Nothing was recorded: try again in a "
                "moment; if it goes on, check the disk of the desk's computer." % e,
    }, status=503)


@require_http_methods(["GET"])
def home(request):
    return render(request, "desk/counter.html", {"form": CodeForm()})


@require_POST
def check(request):
    """Check a code: by itself when the desk knows its award, else with the
    bowl, game, award and class read off the bowl's screen."""
    full = "bowl" in request.POST
    form = (AwardForm if full else CodeForm)(request.POST)
    ctx = {"form": form}
    if not form.is_valid():
        return render(request, "desk/counter.html", ctx, status=400)
    d = form.cleaned_data
    try:
        if full:
            c = counter.check(request.user, d["code"], d["bowl"], d["game"], d["award"], d["cls"])
        else:
            c = counter.find(request.user, d["code"])
    except counter.Slow as e:
        ctx["error"] = str(e)
        return render(request, "desk/counter.html", ctx, status=429)
    except ValueError as e:
        ctx["error"] = str(e)
        return render(request, "desk/counter.html", ctx, status=400)
    except OperationalError as e:
        return _db_trouble(request, e)
    if c is None:
        log.info("check failed: %s by %s", d["code"], request.user)
        if full:
            ctx["error"] = ("This code does not belong to bowl %s game %d award %d (%s): check each field "
                            "against the bowl's screen." % (d["bowl"], d["game"], d["award"], d["cls"]))
            return render(request, "desk/counter.html", ctx, status=404)
        ctx["unknown"] = True
        ctx["form"] = AwardForm(initial={"code": d["code"]})
        ctx["error"] = ("The desk has no award with this code yet (its bowl's journal has not been imported, "
                        "or the code was mistyped). Enter what the bowl's claim screen shows to check it "
                        "with the bowl's secret.")
        return render(request, "desk/counter.html", ctx, status=404)
    return render(request, "desk/claim.html", {"c": c})


@require_POST
def redeem(request):
    """Hand the prize over: the code is checked again (the form's hidden fields
    are never trusted), then recorded once."""
    form = AwardForm(request.POST)
    if not form.is_valid():
        return render(request, "desk/counter.html", {"form": CodeForm(), "error": "Bad hand-over form: %s"
                      % "; ".join("%s: %s" % (k, " ".join(v)) for k, v in form.errors.items())}, status=400)
    d = form.cleaned_data
    try:
        c = counter.check(request.user, d["code"], d["bowl"], d["game"], d["award"], d["cls"])
        if c is None:
            return render(request, "desk/counter.html", {"form": CodeForm(), "error": "The code did not check out; "
                          "nothing was handed over."}, status=400)
        first, r = counter.redeem(request.user, c)
    except counter.Slow as e:
        return render(request, "desk/counter.html", {"form": CodeForm(), "error": str(e)}, status=429)
    except ValueError as e:
        return render(request, "desk/counter.html", {"form": CodeForm(), "error": str(e)}, status=400)
    except OperationalError as e:
        return _db_trouble(request, e)
    c.redemption = r
    if first:
        log.info("redeemed: bowl %s game %d award %d %s by %s", c.bowl, c.game_no, c.award_no, c.cls, request.user)
    else:
        log.warning("refused second redemption: bowl %s game %d award %d (first %s by %s)",
                    c.bowl, c.game_no, c.award_no, r.at, r.by)
    return render(request, "desk/claim.html", {"c": c, "handed": first, "refused": not first},
                  status=200 if first else 409)


@require_http_methods(["GET", "POST"])
def import_journal(request):
    form = JournalForm()
    status = 200
    if request.method == "POST":
        size = int(request.META.get("CONTENT_LENGTH") or 0)
        if size > settings.MAX_JOURNAL_BYTES + 65536:
            # refused before Django reads the body into a file
            messages.error(request, "That upload is %d bytes; a journal is at most %d. Nothing was imported."
                           % (size, settings.MAX_JOURNAL_BYTES))
            return redirect("import")
        form = JournalForm(request.POST, request.FILES)
        if form.is_valid():
            f = form.cleaned_data["journal"]
            if f.size > settings.MAX_JOURNAL_BYTES:
                messages.error(request, "%s is %d bytes; a journal is at most %d. Nothing was imported."
                               % (f.name, f.size, settings.MAX_JOURNAL_BYTES))
                return redirect("import")
            try:
                r = ingest_journal(f.read(), f.name, "upload", request.user)
            except Refused as e:
                messages.error(request, "%s: %s. Nothing was imported." % (f.name, e))
            except OperationalError as e:
                return _db_trouble(request, e)
            else:
                messages.success(request, "%s: %s." % (f.name, r.message))
            return redirect("import")
        status = 400
    imports = Import.objects.exclude(source="mqtt").select_related("by").order_by("-id")[:30]  # MQTT: its own page
    return render(request, "desk/import.html", {"form": form, "imports": imports,
                                                "max_kb": settings.MAX_JOURNAL_BYTES // 1024}, status=status)


def _day(request):
    text = request.GET.get("day", "")
    if text:
        try:
            return datetime.date.fromisoformat(text), None
        except ValueError:
            return timezone.localdate(), "day %r is not a date (YYYY-MM-DD); showing today" % text
    return timezone.localdate(), None


def _day_redemptions(day):
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time()))
    end = start + datetime.timedelta(days=1)
    return Redemption.objects.filter(at__gte=start, at__lt=end).select_related("bowl", "by").order_by("at", "id")


def stock_rows():
    """Per bowl (its newest game) and class: stock, left in the bowl, awarded,
    handed over, still to hand over; and the totals per class."""
    rows = []
    totals = {}
    order = []
    for bowl in Bowl.objects.order_by("bowl_id"):
        g = Game.objects.filter(bowl=bowl).order_by("-game_no").first()
        if g is None:
            continue
        won = dict(Award.objects.filter(bowl=bowl, game_no=g.game_no).values_list("cls").annotate(n=Count("id")))
        out = dict(Redemption.objects.filter(bowl=bowl, game_no=g.game_no).values_list("cls").annotate(n=Count("id")))
        left = dict(g.left)
        classes = []
        for cls, n in g.stock:
            row = {"cls": cls, "stock": n, "left": left.get(cls, 0), "won": won.get(cls, 0),
                   "handed": out.get(cls, 0)}
            row["to_hand"] = row["won"] - row["handed"]
            classes.append(row)
            if cls not in totals:
                order.append(cls)
                totals[cls] = {"cls": cls, "stock": 0, "left": 0, "won": 0, "handed": 0, "to_hand": 0}
            for k in ("stock", "left", "won", "handed", "to_hand"):
                totals[cls][k] += row[k]
        rows.append({"bowl": bowl.bowl_id, "game": g, "classes": classes})
    return rows, [totals[c] for c in order]


@require_http_methods(["GET"])
def stock(request):
    day, bad = _day(request)
    if bad:
        messages.warning(request, bad)
    per_hour = [0] * 24
    for r in _day_redemptions(day):
        per_hour[timezone.localtime(r.at).hour] += 1
    rows, totals = stock_rows()
    return render(request, "desk/stock.html", {
        "rows": rows, "totals": totals, "day": day, "per_hour": per_hour,
        "svg": chart.bars(per_hour, "prizes handed out per hour, %s" % day.isoformat()),
        "handed_today": sum(per_hour),
    })


@require_http_methods(["GET"])
def report_csv(request):
    day, _bad = _day(request)
    resp = HttpResponse(content_type="text/csv; charset=utf-8")
    resp["Content-Disposition"] = 'attachment; filename="redemptions-%s.csv"' % day.isoformat()
    w = csv.writer(resp)
    w.writerow(["time", "bowl", "game", "award", "class", "attendant"])
    for r in _day_redemptions(day):
        w.writerow([timezone.localtime(r.at).isoformat(timespec="seconds"), r.bowl.bowl_id, r.game_no,
                    r.award_no, r.cls, r.by.get_username()])
    return resp


@require_http_methods(["GET"])
def forecast(request):
    """When each class of a bowl's current game runs out, at a rate of customers
    measured from its imports (or entered on the page)."""
    bowl = Bowl.objects.filter(bowl_id=request.GET.get("bowl", "")).first()
    g = Game.objects.filter(bowl=bowl).order_by("-game_no").first() if bowl else None
    if g is None:
        return render(request, "desk/message.html", {
            "title": "No forecast", "text": "No journal of bowl %r has been imported yet: import one first."
            % request.GET.get("bowl", "")}, status=404)
    measured = fc.measured_rate(g)
    form = RateForm(request.GET if "rate" in request.GET else None)
    rate = measured or fc.DEFAULT_RATE
    ctx = {"bowl": bowl, "game": g, "measured": measured, "form": form}
    if form.is_bound:
        if form.is_valid():
            rate = form.cleaned_data["rate"]
        else:
            ctx["error"] = "Customers per hour: %s" % " ".join(form.errors["rate"])
    if not form.is_bound:
        ctx["form"] = RateForm(initial={"rate": round(rate, 1)})
    ctx["rate"] = rate
    if g.ended:
        ctx["error"] = "This game is over: its stock is gone."
        return render(request, "desk/forecast.html", ctx)
    try:
        ctx["rows"], ctx["whole"], ctx["states"] = fc.forecast(g, rate)
    except ValueError as e:  # plan.PlanError: a game the planner cannot plan
        ctx["error"] = "The planner cannot forecast this game: %s" % e
    ctx["some_unplanned"] = any(r["p50"] is None for r in ctx.get("rows", ()))
    ctx["max_states"] = plan.MAX_STATES
    return render(request, "desk/forecast.html", ctx)


def event_view(event_name=None):
    """What the bowls page shows: the event (the one named, else the newest),
    its totals per class (total, granted to bowls, awarded and redeemed since
    the event started, not yet granted), and every bowl the desk knows with its
    latest status, grant and award."""
    events = Event.objects.order_by("-started")
    ev = (events.filter(name=event_name) if event_name else events).first()
    now = timezone.now()
    classes, grants = [], {}
    if ev is not None:
        grants = allot.current(ev)
        ours = Award.objects.filter(bowl__bowl_id__in=list(grants), seen__gte=ev.started)
        won = dict(ours.values_list("cls").annotate(n=Count("id")))
        out = dict(Redemption.objects.filter(Exists(ours.filter(
            bowl=OuterRef("bowl"), game_no=OuterRef("game_no"), award_no=OuterRef("award_no"))))
            .values_list("cls").annotate(n=Count("id")))
        for r in allot.overview(ev):
            r["awarded"], r["redeemed"] = won.get(r["cls"], 0), out.get(r["cls"], 0)
            r["over"] = r["awarded"] > r["total"]  # journals of another day, or a forged award: look
            classes.append(r)
    bowls = []
    status = {s.bowl_id: s for s in BowlStatus.objects.all()}
    for b in Bowl.objects.order_by("bowl_id"):
        st = status.get(b.pk)
        last = Award.objects.filter(bowl=b).order_by("-id").first()
        seq, grant = grants.get(b.bowl_id, (0, {}))
        bowls.append({"bowl": b.bowl_id, "st": st, "ago": int((now - st.seen).total_seconds()) if st else None,
                      "last": last, "s": seq, "grant": allot.as_list(grant),
                      "refused_over": b.refused_over, "refused_note": b.refused_note})
    return {"event": ev, "classes": classes, "bowls": bowls, "now": now,
            "events": [e.name for e in events]}


@require_http_methods(["GET"])
def bowls(request):
    """The promoter's live page: every bowl and the event's stock. The page
    fetches its own ?part=1 every 2 s and swaps it in (one template renders both)."""
    ctx = event_view(request.GET.get("event") or None)
    if request.GET.get("part"):
        return render(request, "desk/bowls_part.html", ctx)
    return render(request, "desk/bowls.html", ctx)
