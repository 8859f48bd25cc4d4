"""Verifiable fairness at the desk (firmware/PROTOCOL.md "Verifiable fairness"):
the listener (bus.py) hands commit and reveal messages to handle(), decoded by
the firmware's own bobing.fair. A commitment is recorded with the desk's time,
then the desk's own 16 random bytes (secrets: the OS's entropy) go back on the
bowl's retained seed topic; a reveal is checked with host_sim.analysis.fair_check (the
bowl's derivation). export_of() is what the public pages (views_fair.py) show and
what `python -m host_sim verify-fair --desk` checks."""
import logging
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from bobing import dice, fair, outbox
from host_sim.analysis import fair_check

from . import mqttlog
from .models import Award, Bowl, Commitment, FairChain, FairLog

log = logging.getLogger("desk")
LEAVES = ("commit", "reveal")
_refuse = mqttlog.refuse


def _seed(event, c):
    if c.fmt == 2:
        return outbox.topic(event, c.bowl.bowl_id, "seed"), fair.seed2_payload(
            c.game_no, c.customer, bytes.fromhex(c.desk), bytes.fromhex(c.useed) if c.useed else None)
    return (outbox.topic(event, c.bowl.bowl_id, "seed"),
            fair.seed_payload(c.game_no, c.q, c.commit, bytes.fromhex(c.desk)))


def handle(event, topic, payload):
    """One commit or reveal -> (result, [(topic, payload)] to publish retained after the commit)."""
    leaf = str(topic).rsplit("/", 1)[-1]
    try:
        f, bowl_id, body = fair.form(event, topic, payload, leaf)
        if f == 2:
            got = fair.decode_commit2(body) if leaf == "commit" else fair.decode_reveal2(body)
    except ValueError as e:
        return mqttlog.bad_message(topic, e), []
    if f == 2:
        bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
        if bowl is None:
            return _refuse(topic, gettext_noop("bowl %(bowl)s is not known here: add it with its secret first"),
                           bowl=bowl_id), []
        return (_commit2 if leaf == "commit" else _reveal2)(event, topic, bowl, *got)
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


def append_log(kind, **body):
    """Append one entry to the desk's hash-chained log (call inside the transaction that
    records what it says). -> the entry."""
    last = FairLog.objects.order_by("-pk").first()
    text = fair_check.log_body(body)
    return FairLog.objects.create(kind=kind, body=text, head=fair_check.log_head(last.head if last else "0" * 64,
                                                                                 text), at=timezone.now())


def _commit2(event, topic, bowl, g, k, a, anchor, pf, left):
    """Fair format 2: customer k is about to shake. His chain's first anchor and rules stand
    (another is refused, no value sent); his one desk value is drawn the first time and
    sent again, the same, whenever he is asked for (a copy, a reboot, a retry), recorded
    with the stock his commit says he starts with (the first stands)."""
    now = timezone.now()
    with transaction.atomic():
        chain, fresh = FairChain.objects.get_or_create(bowl=bowl, game_no=g, a=a, defaults={
            "n": dice.CHAIN_N, "anchor": anchor.hex(), "seen": now, "rules": pf})
        if fresh:
            append_log("chain", bowl=bowl.bowl_id, g=g, a=a, c=chain.anchor, pf=pf)
        if chain.anchor != anchor.hex():
            return _refuse(topic, gettext_noop("chain %(a)s of game %(game)s is already recorded with another "
                                               "anchor: the first one stands, no value is sent"), a=a, game=g), []
        if chain.rules != pf:
            return _refuse(topic, gettext_noop("game %(game)s was committed with the rules %(first)s, this commit "
                                               "names %(pf)s: the first one stands, no value is sent"),
                           game=g, first=chain.rules, pf=pf[:40]), []
        row, new = Commitment.objects.get_or_create(bowl=bowl, game_no=g, q=k, defaults={
            "fmt": 2, "customer": k, "commit": chain.anchor, "seen": now, "desk": secrets.token_bytes(16).hex(),
            "left": list(left)})
        if new:
            append_log("value", bowl=bowl.bowl_id, g=g, k=k, d=row.desk, l=row.left)  # logged before it is sent
    if row.fmt != 2:
        return _refuse(topic, gettext_noop("customer %(k)s of game %(game)s: a format-1 commitment has his "
                                           "number"), k=k, game=g), []
    if new:
        log.info("fair: bowl %s game %d customer %d: value sent (chain %d)", bowl.bowl_id, g, k, a)
    return "commit" if new else "known", [_seed(event, row)]


def _reveal2(event, topic, bowl, g, k, s, rolls, unseeded, p):
    """Fair format 2: customer k's secret and shakes; the first reveal stands."""
    with transaction.atomic():
        row = Commitment.objects.select_for_update().filter(bowl=bowl, game_no=g, q=k, fmt=2).first()
        if row is None:
            return _refuse(topic, gettext_noop("reveal of customer %(k)s of game %(game)s: the desk never sent "
                                               "him a value"), k=k, game=g), []
        if row.secret:
            if row.secret != s.hex() or row.rolls != list(rolls):
                return _refuse(topic, gettext_noop("a second reveal of customer %(k)s of game %(game)s differs "
                                                   "from the first: the first one stands"), k=k, game=g), []
            return "known", []
        row.secret, row.rolls, row.revealed, row.unseeded = s.hex(), list(rolls), timezone.now(), unseeded
        row.upicked = p.hex() if p else ""
        e = append_log("reveal", bowl=bowl.bowl_id, g=g, k=k, s=row.secret, r=row.rolls, p=row.upicked or None,
                 unseeded=1 if unseeded else 0)
        row.log_n = e.pk
        r = fair_check.check_export(export_of([row], with_awards=True), fair_check.Report())
        row.verdict = r.summary()[len("fair: "):]
        row.save()
    log.info("fair: bowl %s game %d customer %d revealed: %s", bowl.bowl_id, g, k, row.verdict)
    return "reveal", []


def seeds_to_publish(event):
    """Customers' own seeds the desk took from their phones and has not yet passed on ->
    [(pk, topic, payload)] for the listener (bus.py) to publish, retained, on the bowl's seed."""
    out = []
    for c in Commitment.objects.filter(fmt=2, useed_sent=False).exclude(useed="").select_related("bowl")[:100]:
        t, p = _seed(event, c)
        out.append((c.pk, t, p))
    return out


def seeds_published(pks):
    Commitment.objects.filter(pk__in=pks).update(useed_sent=True)


def _iso(t):
    return t.isoformat() if t is not None else None


def export_of(rows, with_awards=True, games=False, log=False):
    """The public export of these commitments (and their customers' awards, without codes;
    games: every award of their games, so an award without a commitment shows; log: the
    desk's whole hash-chained log)."""
    out = {"v": 1, "commitments": [], "awards": [], "chains": [], "turns": []}
    turns = set()
    chains = set()
    for c in rows:
        turns.add((c.bowl_id, c.game_no, c.customer))
        if c.fmt == 2:
            out["turns"].append({
                "bowl": c.bowl.bowl_id, "g": c.game_no, "k": c.customer, "seen": _iso(c.seen), "d": c.desk,
                "s": c.secret or None, "r": c.rolls, "revealed": _iso(c.revealed), "verdict": c.verdict,
                "unseeded": 1 if c.unseeded else 0, "u_sent": c.useed or None, "u_seed": c.upicked or None,
                "l": c.left})
            chains.add((c.bowl_id, c.game_no, dice.chain_place(c.customer)[0]))
            continue
        out["commitments"].append({
            "bowl": c.bowl.bowl_id, "g": c.game_no, "k": c.customer, "q": c.q, "c": c.commit,
            "seen": _iso(c.seen), "d": c.desk, "s": c.secret or None, "r": c.rolls,
            "revealed": _iso(c.revealed), "verdict": c.verdict, "u": 1 if c.unseeded else 0})
    if log:
        out["log"] = [{"n": e.pk, "kind": e.kind, "body": e.body, "head": e.head, "at": _iso(e.at)}
                      for e in FairLog.objects.order_by("pk")]
    for b, g, a in sorted(chains):
        ch = FairChain.objects.filter(bowl_id=b, game_no=g, a=a).select_related("bowl").first()
        if ch is not None:
            out["chains"].append({"bowl": ch.bowl.bowl_id, "g": g, "a": a, "n": ch.n, "c": ch.anchor,
                                  "seen": _iso(ch.seen), "pf": ch.rules or None})
    if with_awards and turns:
        # only these turns' awards (a reveal checks one turn: not every award its bowl ever sent)
        q = Award.objects.filter(bowl_id__in={b for b, _g, _k in turns}, game_no__in={g for _b, g, _k in turns},
                                 customer__in={k for _b, _g, k in turns})
        if games:
            q = Award.objects.filter(bowl_id__in={b for b, _g, _k in turns}, game_no__in={g for _b, g, _k in turns})
            turns = {(b, g) for b, g, _k in turns}
        for a in q.select_related("bowl").order_by("pk"):
            if (a.bowl_id, a.game_no, a.customer) in turns or (a.bowl_id, a.game_no) in turns:
                out["awards"].append({"bowl": a.bowl.bowl_id, "g": a.game_no, "n": a.award_no, "k": a.customer,
                                      "c": a.cls, "seen": _iso(a.seen)})
    return out
