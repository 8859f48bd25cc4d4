"""状元王中王 across tables at the desk (firmware/PROTOCOL.md): the listener
(bus.py) hands champion, final and finalroll messages to handle(), decoded by the
firmware's own bobing.champions, into Champion and Final (views_final.py has the
final's page)."""
import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from bobing import champions

from . import mqttlog
from .models import Bowl, Champion, Final, FinalBowl

log = logging.getLogger("desk")
LEAVES = ("champion", "final", "finalroll")


_refuse = mqttlog.refuse


def handle(event, topic, payload):
    """One champion, final or finalroll message -> its leaf, or "refused" (logged)."""
    leaf = str(topic).rsplit("/", 1)[-1]
    decode = {"champion": champions.decode_champion, "final": champions.decode_final,
              "finalroll": champions.decode_roll}.get(leaf)
    if decode is None:
        return _refuse(topic, gettext_noop("not a champion, final or final's roll topic"))
    try:
        bowl_id, d = decode(event, topic, payload)
    except ValueError as e:
        return mqttlog.bad_message(topic, e)
    bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
    if bowl is None:
        return _refuse(topic, gettext_noop("bowl %(bowl)s is not known here: add it with its secret first"),
                       bowl=bowl_id)
    if leaf != "champion":
        named = FinalBowl.objects.select_related("bowl").first()
        if named is None:
            return _refuse(topic, gettext_noop("bowl %(bowl)s is not the final's bowl (no draw has named one yet): "
                                               "its %(leaf)s is not taken"), bowl=bowl_id, leaf=[mqttlog.LEAF[leaf]])
        if named.bowl_id != bowl.pk:
            return _refuse(topic, gettext_noop("bowl %(bowl)s is not the final's bowl (the draw named %(named)s): "
                                               "its %(leaf)s is not taken"), bowl=bowl_id,
                           named=named.bowl.bowl_id, leaf=[mqttlog.LEAF[leaf]])
    now = timezone.now()
    with transaction.atomic():
        if leaf == "champion":
            row = Champion.objects.select_for_update().filter(bowl=bowl).first() or Champion(bowl=bowl)
            row.game_no, row.seat, row.dice, row.ended = d["g"], d["seat"], d["dice"], bool(d["end"])
            row.rank, row.seen = d["rank"] or "", now
            row.save()
            return leaf
        f = Final.objects.select_for_update().filter(bowl=bowl, fid=d["id"]).first() or \
            Final(bowl=bowl, fid=d["id"], seen=now)
        if leaf == "final":
            if d["ev"] >= f.events:  # a state older than one already here changes nothing
                f.players, f.round, f.turn, f.events = d["n"], d["round"], d["turn"], d["ev"]
                f.winner, f.dice, f.rank = d["win"], d["dice"], d["rank"] or ""
        else:
            f.rolls[str(d["i"])] = [d["k"], d["r"], d["dice"], d["rank"]]  # a copy lands on itself
        f.seen = now
        f.save()
    return leaf
