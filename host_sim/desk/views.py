"""The desk's pages. Every page but the login needs a logged-in attendant
(LoginRequiredMiddleware); every form carries Django's CSRF token."""
import codecs
import csv
import datetime
import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.paginator import Paginator
from django.db import OperationalError
from django.db.models import Count, Exists, OuterRef, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST


from . import allot, chart, codes, counter, forecast as fc, inputs, views_login, views_pace
from .forms import AwardForm, CodeForm, JournalForm, RateForm, class_names
from .ingest import OVER_GRANT, OVER_TOTAL, Refused, ingest_journal, supervisor
from .models import Award, Bowl, BowlStatus, Event, Game, Import, KeyCustomer, Redemption, ShakeGrant, render_parts

log = logging.getLogger("desk")


def csrf_failure(request, reason=""):
    log.warning("CSRF refused: %s %s", request.path, reason)
    return render(request, "desk/message.html", {
        "title": _("Form expired"),
        "text": _("This form was not accepted (its security token was missing or old). "
                  "Go back, reload the page and try again."),
    }, status=403)


@login_not_required
def too_large(request, exception=None):
    """An upload over the desk's limit (waitress refuses it before Django when
    it is over the server's max_request_body_size, see __main__.py; Django when
    it is over DATA_UPLOAD_MAX_MEMORY_SIZE): a page, not plain text."""
    return render(request, "desk/message.html", {
        "title": _("Too large"),
        "text": _("That upload is larger than the desk takes (a journal is at most %(kb)d KB). "
                  "Nothing was imported.") % {"kb": settings.MAX_JOURNAL_BYTES // 1024},
        "back": "/import",
    }, status=413)


@require_http_methods(["GET", "POST"])
def logout_page(request):
    """GET /logout (a bookmark, a typed address): ask, then log out by the form's
    POST (Django logs out only by POST, against a forged link)."""
    from django.contrib.auth import views as auth_views
    if request.method == "POST":
        return auth_views.LogoutView.as_view()(request)
    return render(request, "desk/logout.html")


def _db_trouble(request, e):
    log.error("database: %s", e)
    return render(request, "desk/message.html", {
        "title": _("Database busy or full"),
        "text": _("The desk could not write to its database (%s). Nothing was recorded: try again in a "
                  "moment; if it goes on, check the disk of the desk's computer.") % e,
    }, status=503)


def _slow(request):
    return _("Too many wrong codes from this attendant: wait %d s before the next check.") \
        % max(1, counter.wait_left(request.user))


def _not_a_code(d, e):
    """counter's ValueError (in English, for the log) -> the attendant's sentence."""
    log.info("check refused: %s", e)
    if "bowl" in d and not Bowl.objects.filter(bowl_id=d["bowl"]).exists():
        return _("Bowl %s is not known to the desk: check the bowl id on the bowl's screen.") % d["bowl"]
    return _("%s is not a claim code: a code has 8 characters, the digits 0-9 and the letters A-Z "
             "without I, L, O, U, as the bowl's claim screen shows it (XXXX-XXXX).") % d["code"]


@require_http_methods(["GET"])
def home(request):
    return render(request, "desk/counter.html", {"form": CodeForm()})


@require_POST
def check(request):
    """Check a code: by itself when the desk knows its award, else with the
    bowl, game, award and class read off the bowl's screen. The code field also
    takes the claim screen's QR text (a USB scanner types it): it carries them all."""
    post = request.POST.copy()
    try:
        qr = codes.parse_qr(post.get("code", ""))
    except ValueError as e:
        return render(request, "desk/counter.html", {"form": CodeForm(post), "error": str(e)}, status=400)
    if qr is not None:
        post.update(qr)
    full = "bowl" in post
    form = (AwardForm if full else CodeForm)(post)
    ctx = {"form": form}
    if not form.is_valid():
        return render(request, "desk/counter.html", ctx, status=400)
    d = form.cleaned_data
    try:
        if full:
            c = counter.check(request.user, d["code"], d["bowl"], d["game"], d["award"], d["cls"])
        else:
            c = counter.find(request.user, d["code"])
    except counter.Slow:
        ctx["error"] = _slow(request)
        return render(request, "desk/counter.html", ctx, status=429)
    except ValueError as e:
        ctx["error"] = _not_a_code(d, e)
        return render(request, "desk/counter.html", ctx, status=400)
    except OperationalError as e:
        return _db_trouble(request, e)
    if c is None:
        log.info("check failed: %s by %s", d["code"], request.user)
        if full:
            ctx["error"] = _("This code does not belong to bowl %(bowl)s game %(game)d award %(award)d (%(cls)s): "
                             "check each field against the bowl's screen.") % {
                "bowl": d["bowl"], "game": d["game"], "award": d["award"], "cls": d["cls"]}
            return render(request, "desk/counter.html", ctx, status=404)
        # a normal next step, not an error: the bowl's journal may not be here yet
        ctx["unknown"] = True
        ctx["form"] = AwardForm(initial={"code": d["code"]})
        ctx["prompt"] = _("The desk has no award with this code yet (its bowl's journal has not been imported, "
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
        return render(request, "desk/counter.html", {"form": CodeForm(), "error": _("Bad hand-over form: %s")
                      % "; ".join("%s: %s" % (k, " ".join(v)) for k, v in form.errors.items())}, status=400)
    d = form.cleaned_data
    try:
        c = counter.check(request.user, d["code"], d["bowl"], d["game"], d["award"], d["cls"])
        if c is None:
            return render(request, "desk/counter.html", {"form": CodeForm(), "error": _(
                "The code did not check out; nothing was handed over.")}, status=400)
        first, r = counter.redeem(request.user, c, request.session.get(views_login.COUNTER, ""))
    except counter.Slow:
        return render(request, "desk/counter.html", {"form": CodeForm(), "error": _slow(request)}, status=429)
    except ValueError as e:
        return render(request, "desk/counter.html", {"form": CodeForm(), "error": _not_a_code(d, e)}, status=400)
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
        # (a body over the limit never gets here: waitress and middleware.too_large refuse it unread)
        form = JournalForm(request.POST, request.FILES)
        if form.is_valid():
            f = form.cleaned_data["journal"]
            if f.size > settings.MAX_JOURNAL_BYTES:
                messages.error(request, _("%(name)s is %(size)d bytes; a journal is at most %(max)d. "
                                          "Nothing was imported.") % {"name": f.name, "size": f.size,
                                                                      "max": settings.MAX_JOURNAL_BYTES})
                return redirect("import")
            try:
                r = ingest_journal(f.read(), f.name, "upload", request.user,
                                   form.cleaned_data["unsealed"] and supervisor(request.user))
            except Refused as e:
                messages.error(request, _("%(name)s: %(why)s. Nothing was imported.")
                               % {"name": f.name, "why": e.shown()})
            except OperationalError as e:
                return _db_trouble(request, e)
            else:
                text = _("%(name)s: %(new)d new awards, %(known)d already known.") % {
                    "name": f.name, "new": r.new, "known": r.known}
                if "(" in r.message:  # a damaged journal: what was wrong, in the firmware's words
                    text += " (%s)" % r.shown()
                messages.success(request, text)
            return redirect("import")
        status = 400
    # journals only: the network's messages have their own page
    imports = Import.objects.exclude(source="mqtt").select_related("by").order_by("-id")
    page = Paginator(imports, IMPORTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "desk/import.html", {
        "form": form, "page": page, "refused": imports.filter(ok=False).count(),
        "supervisor": supervisor(request.user),
        "max_kb": settings.MAX_JOURNAL_BYTES // 1024, "max_bytes": settings.MAX_JOURNAL_BYTES,
        "mqtt_url": _url_or_none("mqtt")}, status=status)


IMPORTS_PER_PAGE = 20


def _url_or_none(name):
    from django.urls import NoReverseMatch, reverse
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def _day(request):
    text = request.GET.get("day", "")
    if text:
        try:
            return inputs.day(text), None
        except inputs.Bad:
            return timezone.localdate(), _("%r is not a date (YYYY-MM-DD): showing today.") % text[:40]
    return timezone.localdate(), None


def _day_redemptions(day):
    start, end = _span(day)
    return Redemption.objects.filter(at__gte=start, at__lt=end).select_related("bowl", "by").order_by("at", "id")


def _span(day):
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time()))
    return start, start + datetime.timedelta(days=1)


def stock_rows(day):
    """A day's stock, per bowl and class: the stock of every game the bowl played
    that day (imported, or heard over the network), what is left in the bowl now
    (its newest game: the newest of the last import and the last status), prizes
    won that day, handed over that day, and still to hand over of the day's
    awards; and the totals per class. A bowl that reports only over the network
    (no journal imported) counts too."""
    start, end = _span(day)
    rows, totals, order = [], {}, list(class_names())
    status = {st.bowl_id: st for st in BowlStatus.objects.all()}
    for bowl in Bowl.objects.order_by("bowl_id"):
        awards = Award.objects.filter(bowl=bowl, seen__gte=start, seen__lt=end)
        won = dict(awards.values_list("cls").annotate(n=Count("id")))
        open_ = dict(awards.exclude(Exists(Redemption.objects.filter(
            bowl=OuterRef("bowl"), game_no=OuterRef("game_no"), award_no=OuterRef("award_no"))))
            .values_list("cls").annotate(n=Count("id")))
        handed = dict(Redemption.objects.filter(bowl=bowl, at__gte=start, at__lt=end)
                      .values_list("cls").annotate(n=Count("id")))
        numbers = set(awards.values_list("game_no", flat=True).distinct())
        games = {g.game_no: g for g in Game.objects.filter(bowl=bowl).filter(
            Q(updated__gte=start, updated__lt=end) | Q(game_no__in=numbers))}
        st = status.get(bowl.pk)
        heard = st is not None and start <= st.seen < end and st.game_no
        if heard:
            numbers.add(st.game_no)
        numbers |= set(games)
        if not numbers:
            continue
        stock = {}
        for g in games.values():
            for cls, n in g.stock:
                stock[cls] = stock.get(cls, 0) + n
        newest = max(numbers)
        g = games.get(newest)
        if heard and st.game_no == newest and (g is None or st.seen > g.updated):
            left = dict(st.left)
        else:
            left = dict(g.left) if g is not None else {}
        classes = []
        for cls in sorted(set(stock) | set(left) | set(won) | set(handed),
                          key=lambda c: order.index(c) if c in order else len(order)):
            row = {"cls": cls, "stock": stock.get(cls, 0), "left": left.get(cls, 0), "won": won.get(cls, 0),
                   "handed": handed.get(cls, 0), "to_hand": open_.get(cls, 0)}
            classes.append(row)
            t = totals.setdefault(cls, {"cls": cls, "stock": 0, "left": 0, "won": 0, "handed": 0, "to_hand": 0})
            for k in ("stock", "left", "won", "handed", "to_hand"):
                t[k] += row[k]
        shown = [{"game_no": n, "known": n in games, "customers": games[n].customers if n in games else 0,
                  "updated": games[n].updated if n in games else None, "ended": games[n].ended if n in games else False}
                 for n in sorted(numbers)]
        rows.append({"bowl": bowl.bowl_id, "games": shown, "classes": classes,
                     "current": newest in games and not games[newest].ended})
    return rows, sorted(totals.values(), key=lambda t: order.index(t["cls"]) if t["cls"] in order else len(order))


@require_http_methods(["GET"])
def stock(request):
    day, bad = _day(request)
    if bad:
        messages.warning(request, bad)
    per_hour = [0] * 24
    for r in _day_redemptions(day):
        per_hour[timezone.localtime(r.at).hour] += 1
    rows, totals = stock_rows(day)
    return render(request, "desk/stock.html", {
        "rows": rows, "totals": totals, "day": day, "per_hour": per_hour,
        "svg": chart.bars(per_hour, _("prizes handed out per hour, %s") % day.isoformat()),
        "handed_today": sum(per_hour),
    })


@require_http_methods(["GET"])
def report_csv(request):
    """The day's hand-overs. UTF-8 with a byte-order mark (Excel reads a CSV
    without one in the PC's legacy code page: the Chinese turns to garbage);
    headings in the page's language, the class as the bowl shows it."""
    if request.GET.get("day"):
        try:
            inputs.day(request.GET["day"])
        except inputs.Bad as e:
            return inputs.bad_request(request, e, back="/stock")  # not today's CSV under another name
    day, _bad = _day(request)
    resp = HttpResponse(content_type="text/csv; charset=utf-8")
    resp["Content-Disposition"] = 'attachment; filename="redemptions-%s.csv"' % day.isoformat()
    resp.write(codecs.BOM_UTF8)
    w = csv.writer(resp)
    w.writerow([_("time"), _("bowl"), _("game"), _("award"), _("class"), _("class id"), _("attendant")])
    names = class_names()
    for r in _day_redemptions(day):
        w.writerow([timezone.localtime(r.at).isoformat(timespec="seconds"), r.bowl.bowl_id, r.game_no,
                    r.award_no, names.get(r.cls, r.cls), r.cls, r.by.get_username()])
    return resp


@require_http_methods(["GET"])
def forecast(request):
    """When each class of a bowl's current game runs out, at a rate of customers
    measured from its imports (or entered on the page), in plain words."""
    bowl = inputs.find_bowl(request.GET.get("bowl", "")[:40])
    g = Game.objects.filter(bowl=bowl).order_by("-game_no").first() if bowl else None
    if g is None and (bowl is not None or not request.GET.get("bowl")):
        paced = views_pace.event_page(request)  # the event's schedule needs no imported journal
        if paced is not None:
            return paced
    if g is None:
        return render(request, "desk/message.html", {
            "title": _("No forecast"), "text": _("No journal of bowl %r has been imported yet: import one first.")
            % request.GET.get("bowl", ""), "back": "/stock"}, status=404)
    measured = fc.measured_rate(g)
    form = RateForm(request.GET if "rate" in request.GET else None)
    rate = measured or fc.DEFAULT_RATE
    ctx = {"bowl": bowl, "game": g, "measured": measured, "form": form}
    if form.is_bound:
        if form.is_valid():
            rate = form.cleaned_data["rate"]
        else:
            ctx["error"] = _("Customers per hour: %s") % " ".join(form.errors["rate"])
    if not form.is_bound:
        ctx["form"] = RateForm(initial={"rate": round(rate, 1)})
    ctx["rate"] = rate
    if g.ended:
        ctx["error"] = _("This game is over: its stock is gone.")
        return render(request, "desk/forecast.html", ctx)
    try:
        ctx["rows"], ctx["whole"], ctx["estimated"] = fc.forecast(g, rate)
    except fc.NoForecast as e:
        ctx["error"] = _("This game's stock cannot be forecast: %s.") % e
    ctx["some_unplanned"] = any(r["p50"] is None for r in ctx.get("rows", ()))
    ctx.update(views_pace.forecast_context(request, g, rate))
    return render(request, "desk/forecast.html", ctx)


# A bowl sends its status every 30 s (firmware/PROTOCOL.md, "status"); three
# missed in a row and it is shown offline, whatever its last status said (the
# broker's will comes only after its 75 s keepalive, and not at all if the
# broker itself went away).
STATUS_EVERY_S = 30
SILENT_S = 3 * STATUS_EVERY_S


def _over_note(bowl):
    """The bowl's latest award refused beyond its grant or the event's total, in the page's
    language (Bowl.refused_note keeps the English, for the log)."""
    for parts in (Import.objects.filter(bowl_id=bowl.bowl_id, ok=False).order_by("-id")
                  .values_list("parts", flat=True)[:50]):
        if parts and parts[0][0] in (OVER_GRANT, OVER_TOTAL):
            return render_parts(parts, _)
    return bowl.refused_note


def _key_last(bowl):
    """(game, minute) of the last customer the bowl's key let in: from its imported journals or
    as it sent it (KeyCustomer), the later."""
    g = Game.objects.filter(bowl=bowl, by_key__gt=0).order_by("-game_no").first()
    a = (g.game_no, g.key_minutes[-1]) if g is not None and g.key_minutes else None
    k = KeyCustomer.objects.filter(bowl=bowl).order_by("-game_no", "-customer").first()
    b = (k.game_no, k.minute) if k is not None else None
    return max(a, b) if a and b else a or b


def _by_key():
    """{bowl pk: customers its key let in}: per game the larger of the imported journal's count and
    the customers it sent over MQTT (the same customers: never added)."""
    per = {}
    for b, g, n in Game.objects.filter(by_key__gt=0).values_list("bowl_id", "game_no", "by_key"):
        per[(b, g)] = n
    for b, g, n in KeyCustomer.objects.values_list("bowl_id", "game_no").annotate(n=Count("id")):
        per[(b, g)] = max(per.get((b, g), 0), n)
    out = {}
    for (b, _g), n in per.items():
        out[b] = out.get(b, 0) + n
    return out


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
    keyed = _by_key()
    receipts = dict(ShakeGrant.objects.filter(state="used").values_list("bowl_id").annotate(n=Count("id")))
    for b in Bowl.objects.order_by("bowl_id"):
        st = status.get(b.pk)
        last = Award.objects.filter(bowl=b).order_by("-id").first()
        seq, grant = grants.get(b.bowl_id, (0, {}))
        ago = int((now - st.seen).total_seconds()) if st else None
        bowls.append({"bowl": b.bowl_id, "st": st, "ago": ago, "online": bool(st and st.online and ago <= SILENT_S),
                      "silent": bool(st and st.online and ago > SILENT_S),
                      "last": last, "s": seq, "grant": allot.as_list(grant),
                      "by_key": keyed.get(b.pk, 0), "by_receipt": receipts.get(b.pk, 0),
                      "key_last": _key_last(b),
                      "refused_over": b.refused_over, "refused_note": _over_note(b) if b.refused_over else ""})
    return {"event": ev, "classes": classes, "bowls": bowls, "now": now, "silent_s": SILENT_S,
            "events": [e.name for e in events]}


@require_http_methods(["GET"])
def bowls(request):
    """The promoter's live page: every bowl and the event's stock. The page
    fetches its own ?part=1 every 2 s and swaps it in (one template renders both)."""
    ctx = event_view(request.GET.get("event") or None)
    if request.GET.get("part"):
        return render(request, "desk/bowls_part.html", ctx)
    return render(request, "desk/bowls.html", ctx)


def shake_states():
    """A grant's state as the counter reads it (Chinese first)."""
    return {"new": _("waiting to be sent"), "sent": _("sent, the bowl has not answered"),
            "got": _("the bowl has it"), "used": _("used: the customer shook"), "no": _("refused by the bowl")}


@require_http_methods(["GET", "POST"])
def shakes_page(request):
    """Shakes granted at the counter (shakegrants.py): the form, and the record
    of grants with what each bowl answered."""
    from .forms import ShakeForm
    from . import shakegrants
    ev = Event.objects.order_by("-started").first()
    form = ShakeForm(request.POST) if request.method == "POST" else ShakeForm(
        initial={"event": ev.name if ev else "", "shakes": 3})
    boss = supervisor(request.user)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        again = request.user.get_username() if d["again"] and boss else ""
        try:
            if not d["ref"].strip() and not again:
                raise ValueError(_("Enter the customer's receipt number: each receipt is granted shakes once "
                                   "(without one, only on a supervisor's tick)."))
            g = shakegrants.grant(request.user.get_username(), d["event"], d["bowl"], d["shakes"], d["ref"],
                                  again_by=again)
        except shakegrants.AlreadyGranted as e:
            f = e.first
            log.warning("shakes: receipt %s refused a second grant (first: %s)", d["ref"], e)
            messages.error(request, _("Receipt %(ref)s was already granted %(n)d shakes on bowl %(bowl)s by "
                                      "%(by)s at %(at)s. A second grant needs a supervisor's tick.") % {
                "ref": f.ref, "n": f.n, "bowl": f.bowl.bowl_id, "by": f.by,
                "at": timezone.localtime(f.at).strftime("%Y-%m-%d %H:%M")})
        except ValueError as e:
            messages.error(request, str(e))
        else:
            log.info("shakes: grant %d of %d shakes to bowl %s (%s) by %s%s", g.gid, g.n, d["bowl"], d["ref"],
                     request.user, " (again, a supervisor's tick)" if g.again_by else "")
            messages.success(request, _("%(n)d shakes granted to bowl %(bowl)s (grant %(gid)d).")
                             % {"n": g.n, "bowl": d["bowl"], "gid": g.gid})
            return redirect("shakes")
    states = shake_states()
    rows = [(g, states.get(g.state, g.state)) for g in
            ShakeGrant.objects.select_related("bowl").order_by("-at", "-pk")[:50]]
    if not boss:
        form.fields.pop("again", None)
    return render(request, "desk/shakes.html", {"form": form, "rows": rows},
                  status=400 if request.method == "POST" else 200)


def language(request):
    """The language switch: Django's set_language (the browser's cookie); a logged-in
    attendant's choice is also kept as theirs (models.AttendantLanguage), for every device."""
    from django.utils.translation import check_for_language
    from django.views.i18n import set_language
    from .models import AttendantLanguage
    response = set_language(request)
    code = request.POST.get("language") if request.method == "POST" else None
    if code and check_for_language(code) and request.user.is_authenticated:
        AttendantLanguage.objects.update_or_create(user=request.user, defaults={"language": code})
    return response
