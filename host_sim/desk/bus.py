"""The desk's side of the event protocol (firmware/PROTOCOL.md): one durable
MQTT subscription (aiomqtt over paho-mqtt, both pinned) on the event's award
and status topics. An award goes to THE ingestion function, ingest(), like a
journal upload; a status is stored in BowlStatus; anything else is refused
with its reason in the import log, and the listener goes on.

Exactly once: the subscription is durable (client id desk-<event>, clean
session off, QoS 1: the broker keeps what arrives while the desk is away), and
a message is acknowledged only after ingest() has committed it or refused it
for good (paho's manual acknowledgement; aiomqtt 2.5 does not offer it, so its
paho client is reached directly). A desk killed or failing between receipt and
commit gets the message again at its next connection; ingest() counts a copy
it already has once."""
import asyncio
import logging

import aiomqtt
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from bobing import outbox

from . import finals
from .ingest import Refused, ingest
from .models import Bowl, BowlStatus, Import

log = logging.getLogger("desk")
RETRY_S = 2


def _secret_of(bowl_id):
    b = Bowl.objects.filter(bowl_id=bowl_id).first()
    return bytes(b.secret) if b is not None else None


def _refuse(topic, text):
    Import.objects.create(at=timezone.now(), source="mqtt", name=str(topic)[:200], message=text[:2000])
    log.warning("mqtt: refused %s: %s", str(topic)[:80], text)
    return "refused"


def handle(event, topic, payload):
    """One received message -> "award", "known", "status" or "refused" (logged).
    DatabaseError propagates: the message is then not acknowledged."""
    close_old_connections()
    if str(topic).rsplit("/", 1)[-1] in finals.LEAVES:  # 状元王中王 (finals.py)
        return finals.handle(event, topic, payload)
    if str(topic).endswith("/status"):
        try:
            bowl_id, st = outbox.decode_status(event, topic, payload)
        except ValueError as e:
            return _refuse(topic, str(e))
        bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
        if bowl is None:
            return _refuse(topic, "bowl %r is not known here" % bowl_id)
        row = BowlStatus.objects.filter(bowl=bowl).first() or BowlStatus(bowl=bowl)
        row.online, row.seen = bool(st["on"]), timezone.now()
        if st["on"]:
            row.game_no, row.fw, row.left, row.faults = st["g"], st["fw"], st["left"], st["faults"]
        row.save()
        return "status"
    try:
        a = outbox.decode_award(event, topic, payload, _secret_of)
    except ValueError as e:
        return _refuse(topic, str(e))
    try:
        r = ingest(a.bowl_id, a.game_no, [(a.award_no, a.cls, a.customer)], None, "mqtt", str(topic))
    except Refused:
        return "refused"  # ingest() wrote the reason to the import log
    return "award" if r.new else "known"


async def listen(host, port, event, username=None, password=None, ready=None, seen=None):
    """Run until cancelled: connect, subscribe, hand each message to handle() in a
    thread (the ORM is synchronous), acknowledge it; on a lost broker or a
    database error, reconnect after RETRY_S. ready: an asyncio.Event set once
    subscribed; seen(result) is called after each message (tests)."""
    topics = [(outbox.every_bowl(event, leaf), 1) for leaf in ("award", "status") + finals.LEAVES]
    while True:
        client = aiomqtt.Client(host, port, identifier="desk-" + event, clean_session=False,
                                username=username, password=password)
        client._client.manual_ack_set(True)  # before connecting: queued messages arrive at once
        try:
            async with client:
                await client.subscribe(topics)
                log.info("mqtt: listening on %s:%d for event %s", host, port, event)
                if ready is not None:
                    ready.set()
                async for m in client.messages:
                    r = await asyncio.to_thread(handle, event, m.topic.value, m.payload)
                    client._client.ack(m.mid, m.qos)
                    if seen is not None:
                        seen(r)
        except aiomqtt.MqttError as e:
            log.warning("mqtt: %s; connecting again in %d s", e, RETRY_S)
        except DatabaseError as e:
            log.error("mqtt: the database failed (%s): the message stays unacknowledged; "
                      "connecting again in %d s", e, RETRY_S)
        await asyncio.sleep(RETRY_S)
