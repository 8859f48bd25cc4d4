"""The desk's public fair pages (firmware/PROTOCOL.md "Verifiable fairness"), no login:
/fair (every customer's verdict), /fair/export.json (what `verify-fair --desk` checks), a
claim's page /F/..., the waiting screen's /J/... (the customer's own seed), the receipt
/V/... (his turn checked in his phone) and POST /fair/seed. What they show is
recorded and checked by fair.py and host_sim.analysis.fair_check."""
import importlib
import json
import logging
import os

from django.contrib.auth.decorators import login_not_required
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from bobing import dice, journal
from host_sim.analysis import fair_check

from . import inputs
from .fair import append_log, export_of
from .models import Award, Commitment, FairChain, FairLog
from .settings import STATIC_ROOT

log = logging.getLogger("desk")

@login_not_required
@require_POST
def take_seed(request):
    """POST /fair/seed (public: the phone page of the waiting screen's QR): bowl, g, k and
    u, the 16 random bytes (32 hex digits) the customer's phone made with Web Crypto.
    Taken only for a format-2 customer the desk has sent its value to, not yet revealed;
    the first seed stands. -> JSON: what the phone keeps (the chain's anchor, the desk's
    value, its seed), or {"error": ...} with a 4xx status, Chinese first, English beside."""
    def no(status, zh, en):
        return JsonResponse({"error": "%s %s" % (zh, en)}, status=status, json_dumps_params={"ensure_ascii": False})
    bowl, g, k, u = (request.POST.get(x, "")[:64] for x in ("bowl", "g", "k", "u"))
    u = u.lower()
    if not (g.isdigit() and k.isdigit() and len(u) == 2 * dice.USER_BYTES and
            all(ch in "0123456789abcdef" for ch in u)):
        return no(400, "格式不对：要碗号、局号、顾客号和 32 位十六进制的种子。",
                  "Malformed: a bowl, a game, a customer and a seed of 32 hex digits are needed.")
    with transaction.atomic():
        row = Commitment.objects.select_for_update().select_related("bowl").filter(
            bowl__bowl_id=bowl, game_no=int(g), q=int(k), fmt=2).first()
        if row is None:
            return no(404, "兑奖台还没有这位顾客：请等碗显示等待摇碗后再扫。",
                      "The desk has no such customer yet: scan once the bowl shows his turn.")
        if row.secret:
            return no(409, "这位顾客的摇骰已经结束：种子来得太晚。",
                      "This customer's turn is over: the seed came too late.")
        if row.useed and row.useed != u:
            return no(409, "这位顾客已经有一个种子：以第一个为准。",
                      "This customer already has a seed: the first one stands.")
        if not row.useed:
            row.useed, row.useed_sent = u, False
            row.save(update_fields=["useed", "useed_sent"])
            append_log("seed", bowl=bowl, g=row.game_no, k=row.customer, u=u)
    log.info("fair: bowl %s game %s customer %s: his own seed taken", bowl, g, k)
    ch = FairChain.objects.filter(bowl=row.bowl, game_no=row.game_no, a=dice.chain_place(row.customer)[0]).first()
    return JsonResponse({"bowl": bowl, "g": row.game_no, "k": row.customer, "u": u, "d": row.desk,
                         "anchor": ch.anchor if ch else None, "p": dice.chain_place(row.customer)[1]})


def _turn(bowl, gk):
    """A /J/ or /V/ link's bowl and "<game>-<customer>" -> (game text, customer text, his
    format-2 Commitment or None, his chain's FairChain or None); anything no bowl can show
    (no dash, not digits, a bowl id past 32 characters) finds nobody: the page says 404."""
    g, dash, k = gk.partition("-")
    row = ch = None
    if dash and g.isdigit() and k.isdigit() and len(bowl) <= 32:
        row = Commitment.objects.filter(bowl__bowl_id=bowl, game_no=int(g), q=int(k), fmt=2).first()
    if row is not None:
        ch = FairChain.objects.filter(bowl_id=row.bowl_id, game_no=row.game_no,
                                      a=dice.chain_place(row.customer)[0]).first()
    return g, k, row, ch


@login_not_required
@require_GET
def join_page(request, bowl, gk):
    """GET /J/<bowl>/<game>-<customer>: the phone page of the waiting screen's QR: the
    chain's anchor and the desk's value for that customer, and a button that makes his
    own seed in the phone (Web Crypto), keeps it there with them and posts it to /fair/seed."""
    g, k, row, ch = _turn(bowl, gk)
    resp = render(request, "desk/fair_join.html", {
        "bowl": bowl[:32], "g": g[:8], "k": k[:8], "row": row, "anchor": ch.anchor if ch else "",
        "p": dice.chain_place(row.customer)[1] if row else 0}, status=200 if row else 404)
    resp["Referrer-Policy"] = "no-referrer"
    return resp


def _verify_url(a):
    return reverse("fair_verify", args=[a.bowl.bowl_id, "%d-%d" % (a.game_no, a.customer)])


_VERIFY_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def _receipt(row):
    """A customer's receipt: his reveal's entry in the desk's log and its head now, or None."""
    e = row is not None and row.log_n and FairLog.objects.filter(pk=row.log_n).first()
    return {"n": e.pk, "head": e.head} if e else None


# the bowl's modules the phone's check runs, unchanged: the dice, the rules, the award logic
FIRMWARE = ("dice", "profiles", "rules", "game")


@login_not_required
@require_GET
def verify_page(request, bowl, gk):
    """GET /V/<bowl>/<game>-<customer>: the customer's receipt page: his turn (the chain's
    anchor, the desk's value, the reveal, the game's rules and his stock, the awards the
    desk holds for him) checked in his own phone by the bowl's bobing/dice.py, rules.py and
    game.py under MicroPython's WebAssembly port (static/desk/verify.js), and held to the
    seed and anchor his phone saved. Its policy lets WebAssembly compile; a service worker
    (/V/sw.js) keeps the page and what it runs, so a saved copy checks again offline."""
    g, k, row, ch = _turn(bowl, gk)
    awards = []
    if row is not None:
        awards = [a.cls for a in Award.objects.filter(bowl_id=row.bowl_id, game_no=row.game_no,
                                                      customer=row.customer).order_by("award_no")]
    turn = {"bowl": bowl[:32], "g": int(g) if g.isdigit() else 0, "k": int(k) if k.isdigit() else 0,
            "anchor": ch.anchor if ch else None, "d": row.desk if row else None,
            "s": (row.secret or None) if row else None, "r": row.rolls if row else [],
            "unseeded": bool(row and row.unseeded), "u_seed": (row.upicked or None) if row else None,
            "pf": (ch.rules or None) if ch else None, "l": row.left if row else None, "awards": awards,
            "receipt": _receipt(row),
            "fw": {m: reverse("fair_firmware", args=[m]) for m in FIRMWARE},
            "wasm_url": static("desk/mpwasm/micropython.wasm")}
    resp = render(request, "desk/fair_verify.html", {
        "bowl": bowl[:32], "g": g[:8], "k": k[:8], "rolls": " ".join(turn["r"]), "awards": awards,
        "turn": json.dumps(turn).replace("<", "\\u003c")}, status=200 if row else 404)
    resp["Content-Security-Policy"] = _VERIFY_CSP
    resp["Referrer-Policy"] = "no-referrer"
    return resp


@login_not_required
@require_GET
def firmware_module(request, name):
    """GET /fair/fw/<name>.py: one of the bowl's own modules the phone's check runs
    (FIRMWARE), unchanged; any other name is not served."""
    if name not in FIRMWARE:
        return HttpResponse("不提供 not served: %s (%s)" % (name[:40], ", ".join(FIRMWARE)), status=404,
                            content_type="text/plain; charset=utf-8")
    with open(importlib.import_module("bobing." + name).__file__.replace(".pyc", ".py"), "rb") as f:
        return HttpResponse(f.read(), content_type="text/x-python; charset=utf-8")


@login_not_required
@require_GET
def service_worker(request):
    """GET /V/sw.js: the receipt pages' service worker (static/desk/verify-sw.js), served
    under /V/ so that its scope is the receipt pages."""
    with open(os.path.join(STATIC_ROOT, "desk", "verify-sw.js"), "rb") as f:
        resp = HttpResponse(f.read(), content_type="text/javascript; charset=utf-8")
    resp["Cache-Control"] = "no-cache"
    return resp


def _rows(request):
    """The commitments ?bowl= and ?game= name (inputs.Bad for values no bowl can have)."""
    qs = Commitment.objects.select_related("bowl").order_by("bowl__bowl_id", "game_no", "q")
    bowl = request.GET.get("bowl")
    if bowl:
        inputs.bowl_id(bowl)
        qs = qs.filter(bowl__bowl_id__in=inputs.bowl_forms(bowl))
    game = request.GET.get("game", "")
    if game:
        qs = qs.filter(game_no=inputs.whole(game, "game", hi=journal.MAX_GAME_ID))
    return qs


def _award(bowl, game, award):
    """The Award a claim's bowl, game and award name, or None; inputs.Bad for values
    no bowl can show."""
    inputs.bowl_id(bowl)
    g = inputs.whole(game, "game", hi=journal.MAX_GAME_ID)
    n = inputs.whole(award, "award")
    return Award.objects.filter(bowl__bowl_id__in=inputs.bowl_forms(bowl), game_no=g, award_no=n) \
        .select_related("bowl").first()


@login_not_required
@require_GET
def export(request):
    """GET /fair/export.json: every commitment (or ?bowl=&game=), public."""
    try:
        rows = list(_rows(request))
    except inputs.Bad as e:
        return JsonResponse({"error": str(e)}, status=400, json_dumps_params={"ensure_ascii": False})
    return JsonResponse(export_of(rows, games=True, log=True), json_dumps_params={"ensure_ascii": False})


@login_not_required
@require_GET
def page(request):
    """GET /fair: the public page, a row per commitment, newest games first. ?claim= the
    claim screen's QR text (BB1:bowl:game-award:CLASS:code) shows that award's customer."""
    try:
        rows = _rows(request)
        claim = (request.GET.get("claim") or "").strip()[:80]
        award = request.GET.get("award", "")
        a = None
        if claim:
            p = claim.split(":")
            if len(p) == 5 and p[0].upper() == "BB1" and "-" in p[2]:
                g, _d, n = p[2].partition("-")
                a = _award(p[1], g, n)
        elif award:  # the counter's link (claim.html)
            a = _award(request.GET.get("bowl", ""), request.GET.get("game", ""), award)
    except inputs.Bad as e:
        return inputs.bad_request(request, e, back="/fair")
    note = None
    if claim or award:
        if a is None:
            note = _("No award of that claim is known here (yet): the desk shows it once the bowl has sent it.")
            rows = rows.none()
        else:
            rows = rows.filter(bowl=a.bowl, game_no=a.game_no, customer=a.customer)
    rows = list(rows[:500])
    _mark(rows)
    log_r = fair_check.check_log(export_of([], log=True), fair_check.Report())  # the whole log, once
    return render(request, "desk/fair.html", {"rows": rows, "note": note, "claim": claim,
                                              "log_bad": fair_check.reasons_text(log_r.unverified)})


def _mark(rows):
    """Each row gets its customer's verdict (mark_ok, mark_n: verified and unverified rolls,
    mark_why): a customer's turn is checked whole (every commitment and reveal of his),
    so a retried row is never green while his claim page says Not verified."""
    turns = {}
    for c in rows:
        turns.setdefault((c.bowl_id, c.game_no, c.customer), []).append(c)
    for key, rs in turns.items():
        mine = list(Commitment.objects.filter(bowl_id=key[0], game_no=key[1], customer=key[2])
                    .select_related("bowl"))  # (all of his, not only those on this page)
        r = fair_check.check_export(export_of(mine), fair_check.Report())
        for c in rs:
            c.mark_ok, c.mark_n, c.mark_why = r.ok, (r.verified, r.unverified_n), fair_check.reasons_text(
                r.unverified)
            c.mark_trusted = bool(r.trusted)


@login_not_required
@require_GET
def claim_page(request, bowl, ga, cls):
    """GET /F/<bowl>/<game>-<award>/<CLASS>: where a fair kiosk's claim QR leads a
    customer's phone (bobing/claim.py's link; the code after its "#" never reaches the
    desk): that award's customer's commitments and verdict, Chinese first, English
    beside. Nothing of a code is shown or taken; other customers are not listed."""
    g, dash, n = ga.partition("-")
    try:
        if not dash:
            raise inputs.Bad("%r: 局号-奖号 game-award, e.g. 17-3" % ga[:20])
        a = _award(bowl, g, n)
    except inputs.Bad as e:
        return inputs.bad_request(request, e, back="/fair")
    rows = []
    if a is not None:
        rows = list(Commitment.objects.filter(bowl=a.bowl, game_no=a.game_no, customer=a.customer)
                    .select_related("bowl").order_by("q"))
    r = fair_check.Report()
    if rows:  # his turn, and the desk's log it was written in (a deleted or changed entry shows)
        ex = export_of(rows, log=True)
        fair_check.check_log(ex, fair_check.check_export(ex, r))
    # an award of a fair bowl's game (it committed for other customers) without a commitment
    fair_game = a is not None and not rows and Commitment.objects.filter(bowl=a.bowl, game_no=a.game_no).exists()
    receipt = _receipt(max((c for c in rows if c.log_n), key=lambda c: c.log_n, default=None))
    resp = render(request, "desk/fair_claim.html", {
        "bowl": bowl[:32], "ga": ga[:20], "game": g if g.isdigit() else "", "award": a, "rows": rows,
        "ok": r.ok, "verified": r.verified, "unverified": r.unverified_n, "trusted": bool(r.trusted),
        "receipt": receipt, "verify_url": _verify_url(a) if rows and rows[0].fmt == 2 else None,
        "fair_game": fair_game,
        "reasons_zh": fair_check.reasons_text(r.unverified, "zh"),
        "reasons": fair_check.reasons_text(r.unverified, "en")}, status=200 if a else 404)
    resp["Referrer-Policy"] = "no-referrer"
    return resp
