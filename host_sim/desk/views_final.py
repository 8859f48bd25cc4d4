"""The 状元王中王 pages (finals.py takes the bowls' messages): the table champions,
the final's order drawn among them (champion 1..n, as the final's bowl calls them),
the final's rolls and winner."""
import logging
import secrets

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from bobing import rules

from .models import Bowl, Champion, Final, FinalBowl

log = logging.getLogger("desk")


def _rank(code_id):
    if not code_id:
        return ""
    i = rules.RANK_IDS.index(code_id)
    return "%s %s" % (rules.rank_names("zh")[i], code_id)


def _table_of(by_no, k):
    c = by_no.get(k)
    return _("%(bowl)s seat %(seat)d") % {"bowl": c.bowl.bowl_id, "seat": c.seat} if c is not None else "?"


@require_http_methods(["GET"])
def page(request):
    rows = list(Champion.objects.select_related("bowl").order_by("final_no", "bowl__bowl_id"))
    by_no = {c.final_no: c for c in rows if c.final_no}
    finals = []
    for f in Final.objects.select_related("bowl").order_by("-seen")[:3]:
        rolls = []
        for i in sorted(f.rolls, key=int):
            k, r, dice, rank = f.rolls[i]
            rolls.append({"i": int(i), "k": k, "table": _table_of(by_no, k), "round": r,
                          "dice": "".join(str(x) for x in dice) if dice else "",
                          "rank": _rank(rank) if dice else _("spill (void)")})
        finals.append({"f": f, "rolls": rolls, "missing": f.events - len(rolls),
                       "winner": _table_of(by_no, f.winner) if f.winner else "",
                       "turn": _table_of(by_no, f.turn) if f.turn else "",
                       "dice": "".join(str(x) for x in f.dice) if f.dice else "", "rank": _rank(f.rank)})
    ctx = {"champions": [{"c": c, "rank": _rank(c.rank), "dice": "".join(str(x) for x in c.dice) if c.dice else ""}
                         for c in rows],
           "finals": finals, "drawn": bool(by_no),
           "bowls": list(Bowl.objects.order_by("bowl_id").values_list("bowl_id", flat=True)),
           "final_bowl": getattr(FinalBowl.objects.select_related("bowl").first(), "bowl", None),
           "playing": [c.bowl.bowl_id for c in rows if not c.ended],
           "can_draw": not any(f["rolls"] for f in finals)}
    return render(request, "desk/final.html", ctx)


@require_POST
def draw(request):
    """Draw the final's order among the tables that have a 状元: champion 1..n, and name
    the final's bowl (only its final and finalroll are taken). Refused once a final has
    rolls (the bowl is already calling those numbers)."""
    if Final.objects.exclude(rolls={}).exists():
        messages.error(request, _("A final is under way: its order stays as drawn."))
        return redirect("final")
    # drawing again changes the numbers the MC may have called; drawing while a
    # table still plays leaves out a 状元 still to come: both only when confirmed
    playing = list(Champion.objects.filter(ended=False).values_list("bowl__bowl_id", flat=True))
    if playing and not request.POST.get("playing_ok"):
        messages.error(request, _("Tables still playing: %s. Wait for them, or tick the box to draw without "
                                  "their 状元 to come.") % ", ".join(sorted(playing)))
        return redirect("final")
    if Champion.objects.filter(final_no__isnull=False).exists() and not request.POST.get("again_ok"):
        messages.error(request, _("The order is drawn already: tick the box to draw it again "
                                  "(every champion's number changes)."))
        return redirect("final")
    if not Champion.objects.filter(seat__gt=0).exists():
        messages.error(request, _("No table has reported a 状元 yet."))
        return redirect("final")
    final_bowl = Bowl.objects.filter(bowl_id=request.POST.get("bowl", "")).first()
    if final_bowl is None:
        messages.error(request, _("Choose the final's bowl: only its final is shown here."))
        return redirect("final")
    with transaction.atomic():
        FinalBowl.objects.all().delete()
        FinalBowl.objects.create(bowl=final_bowl, named=timezone.now())
        rows = list(Champion.objects.select_for_update().filter(seat__gt=0))
        Champion.objects.update(final_no=None)
        secrets.SystemRandom().shuffle(rows)
        for n, c in enumerate(rows, 1):
            c.final_no = n
            c.save(update_fields=["final_no"])
    log.info("final: order drawn by %s for %d champions", request.user, len(rows))
    if rows:
        messages.success(request, ngettext(
            "Order drawn: %(n)d champion. Enter %(n)d on the final's bowl (admin, 王中王).",
            "Order drawn: %(n)d champions. Enter %(n)d on the final's bowl (admin, 王中王).", len(rows))
            % {"n": len(rows)})
    else:
        messages.error(request, _("No table has reported a 状元 yet."))
    return redirect("final")
