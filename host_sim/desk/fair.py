"""Verifiable fairness at the desk (firmware/PROTOCOL.md "Verifiable fairness"):
the listener (bus.py) hands commit and reveal messages to handle(), decoded by
the firmware's own bobing.fair. A commitment is recorded with the desk's time,
then the desk's own 16 random bytes (secrets: the OS's entropy) go back on the
bowl's retained seed topic; a reveal is checked with host_sim.analysis.fair_check (the
bowl's derivation). The public page (no login) lists every commitment, its
time, the desk's value, the reveal and the verdict; /fair/export.json is what
`python -m host_sim verify-fair --desk` checks."""
import logging
import secrets

from django.contrib.auth.decorators import login_not_required
from django.db import IntegrityError, transaction
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET

from bobing import fair, journal, outbox
from host_sim.analysis import fair_check

from . import inputs, mqttlog
from .models import Award, Bowl, Commitment

log = logging.getLogger("desk")
LEAVES = ("commit", "reveal")
_refuse = mqttlog.refuse


def _seed(event, c):
    return (outbox.topic(event, c.bowl.bowl_id, "seed"),
            fair.seed_payload(c.game_no, c.q, c.commit, bytes.fromhex(c.desk)))


def handle(event, topic, payload):
    """One commit or reveal -> (result, [(topic, payload)] to publish retained after the commit)."""
    leaf = str(topic).rsplit("/", 1)[-1]
    try:
        if leaf == "commit":
            bowl_id, g, k, q, c = fair.decode_commit(event, topic, payload)
        else:
            bowl_id, g, k, q, s, rolls, unseeded = fair.decode_reveal(event, topic, payload)
    except ValueError as e:
        return mqttlog.bad_message(topic, e), []
    bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
    if bowl is None:
        return _refuse(topic, gettext_noop("bowl %(bowl)s is not known here: add it with its secret first"),
                       bowl=bowl_id), []
    now = timezone.now()
    if leaf == "commit":
        old = Commitment.objects.filter(bowl=bowl, game_no=g, q=q).first()
        if old is not None:
            if old.commit != c.hex() or old.customer != k:
                return _refuse(topic, gettext_noop("commitment %(q)s of game %(game)s is already recorded with "
                                                   "another value: the first one stands"), q=q, game=g), []
            return "known", [_seed(event, old)]  # a copy (QoS 1): the same value again
        row = Commitment(bowl=bowl, game_no=g, q=q, customer=k, commit=c.hex(), seen=now,
                         desk=secrets.token_bytes(16).hex())
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            return "known", [_seed(event, Commitment.objects.get(bowl=bowl, game_no=g, q=q))]
        log.info("fair: bowl %s game %d customer %d: commitment %d recorded", bowl_id, g, k, q)
        return "commit", [_seed(event, row)]
    with transaction.atomic():
        row = Commitment.objects.select_for_update().filter(bowl=bowl, game_no=g, q=q).first()
        if row is None:
            return _refuse(topic, gettext_noop("reveal of commitment %(q)s of game %(game)s: the desk never "
                                               "recorded it"), q=q, game=g), []
        if row.secret:
            return "known", []
        if row.customer != k:
            return _refuse(topic, gettext_noop("reveal for customer %(k)s of a commitment recorded for customer "
                                               "%(rec)s"), k=k, rec=row.customer), []
        row.secret, row.rolls, row.revealed, row.unseeded = s.hex(), list(rolls), now, unseeded
        r = fair_check.check_export(export_of([row], with_awards=True), fair_check.Report())
        row.verdict = r.summary()[len("fair: "):]
        row.save()
    log.info("fair: bowl %s game %d commitment %d revealed: %s", bowl_id, g, q, row.verdict)
    return "reveal", []


def _iso(t):
    return t.isoformat() if t is not None else None


def export_of(rows, with_awards=True):
    """The public export of these commitments (and their customers' awards, without codes)."""
    out = {"v": 1, "commitments": [], "awards": []}
    turns = set()
    for c in rows:
        out["commitments"].append({
            "bowl": c.bowl.bowl_id, "g": c.game_no, "k": c.customer, "q": c.q, "c": c.commit,
            "seen": _iso(c.seen), "d": c.desk, "s": c.secret or None, "r": c.rolls,
            "revealed": _iso(c.revealed), "verdict": c.verdict, "u": 1 if c.unseeded else 0})
        turns.add((c.bowl_id, c.game_no, c.customer))
    if with_awards and turns:
        # only these turns' awards (a reveal checks one turn: not every award its bowl ever sent)
        q = Award.objects.filter(bowl_id__in={b for b, _g, _k in turns}, game_no__in={g for _b, g, _k in turns},
                                 customer__in={k for _b, _g, k in turns})
        for a in q.select_related("bowl").order_by("pk"):
            if (a.bowl_id, a.game_no, a.customer) in turns:
                out["awards"].append({"bowl": a.bowl.bowl_id, "g": a.game_no, "n": a.award_no, "k": a.customer,
                                      "c": a.cls, "seen": _iso(a.seen)})
    return out


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
    return JsonResponse(export_of(rows), json_dumps_params={"ensure_ascii": False})


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
    return render(request, "desk/fair.html", {"rows": rows[:500], "note": note, "claim": claim})


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
    r = fair_check.check_export(export_of(rows), fair_check.Report()) if rows else fair_check.Report()
    resp = render(request, "desk/fair_claim.html", {
        "bowl": bowl[:32], "ga": ga[:20], "game": g if g.isdigit() else "", "award": a, "rows": rows,
        "ok": r.ok, "verified": r.verified, "unverified": r.unverified_n,
        "reasons": "; ".join("%s: %d" % x for x in sorted(r.unverified.items()))}, status=200 if a else 404)
    resp["Referrer-Policy"] = "no-referrer"
    return resp
