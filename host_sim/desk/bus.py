"""The desk's side of the event protocol (firmware/PROTOCOL.md): one durable
MQTT subscription (aiomqtt over paho-mqtt, both pinned) on the event's award,
status and ask topics. An award goes to THE ingestion function, ingest(), like
a journal upload; a status is stored in BowlStatus; an ask (and a bowl's first
status "on":1 with no grant yet) goes to THE allotment function,
allot.answer(), and the bowl's allot is published (retained) after its commit;
anything else is refused with its reason in the import log, and the listener
goes on. The desk's own status, bobing/<event>/desk/status, is retained
{"v":1,"on":1} while it listens, and its will {"v":1,"on":0} when it vanishes.
At every connection the desk republishes every bowl's current allot.

Exactly once: the subscription is durable (client id desk-<event>, clean
session off, QoS 1: the broker keeps what arrives while the desk is away), and
a message is acknowledged only after ingest() has committed it or refused it
for good (paho's manual acknowledgement; aiomqtt 2.5 does not offer it, so its
paho client is reached directly). A desk killed or failing between receipt and
commit gets the message again at its next connection; ingest() counts a copy
it already has once."""
import asyncio
import logging
import socket

import aiomqtt
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from bobing import outbox

from . import allot, finals
from .ingest import Refused, ingest
from .models import Allot, Bowl, BowlStatus, Event, Import

log = logging.getLogger("desk")
RETRY_S = 2


def _secret_of(bowl_id):
    b = Bowl.objects.filter(bowl_id=bowl_id).first()
    return bytes(b.secret) if b is not None else None


def _refuse(topic, text):
    Import.objects.create(at=timezone.now(), source="mqtt", name=str(topic)[:200], message=text[:2000])
    log.warning("mqtt: refused %s: %s", str(topic)[:80], text)
    return "refused"


def _answer(event, topic, bowl_id, s, left, first):
    """allot.answer() -> (result, [(topic, allot payload)]) to publish after the commit."""
    try:
        raised, what, payload = allot.answer(event, bowl_id, s, dict(left), first)
    except allot.StockError as e:
        return _refuse(topic, str(e)), []
    log.info("mqtt: bowl %s %s: %s", bowl_id, "came online" if first else "asked", what)
    return ("granted" if raised else "answered"), (
        [(outbox.topic(event, bowl_id, "allot"), payload)] if payload is not None else [])


def handle(event, topic, payload):
    """One received message -> (result, publish): result "award", "known",
    "status", "granted" (an ask or a first status raised a grant), "answered"
    (an ask raised nothing) or "refused" (logged); publish: [(topic, payload)]
    the listener publishes (retained, QoS 1) before acknowledging the message.
    DatabaseError propagates: the message is then not acknowledged."""
    close_old_connections()
    t = str(topic)
    if t.rsplit("/", 1)[-1] in finals.LEAVES:  # 状元王中王 (finals.py)
        return finals.handle(event, topic, payload), []
    if t.endswith("/status"):
        try:
            bowl_id, st = outbox.decode_status(event, topic, payload)
        except ValueError as e:
            return _refuse(topic, str(e)), []
        bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
        if bowl is None:
            return _refuse(topic, "bowl %r is not known here" % bowl_id), []
        row = BowlStatus.objects.filter(bowl=bowl).first() or BowlStatus(bowl=bowl)
        row.online, row.seen = bool(st["on"]), timezone.now()
        if st["on"]:
            row.game_no, row.fw, row.left, row.faults = st["g"], st["fw"], st["left"], st["faults"]
            row.bat = st.get("bat", 0)
        row.save()
        if (st["on"] and Event.objects.filter(name=event).exists()
                and not Allot.objects.filter(event__name=event, bowl=bowl).exists()):  # its first grant
            r, pub = _answer(event, topic, bowl_id, 0, st["left"], True)
            if r == "granted":
                return r, pub
        return "status", []
    if t.endswith("/ask"):
        try:
            bowl_id, s, left = outbox.decode_ask(event, topic, payload)
        except ValueError as e:
            return _refuse(topic, str(e)), []
        return _answer(event, topic, bowl_id, s, left, False)
    try:
        a = outbox.decode_award(event, topic, payload, _secret_of)
    except ValueError as e:
        return _refuse(topic, str(e)), []
    try:
        r = ingest(a.bowl_id, a.game_no, [(a.award_no, a.cls, a.customer)], None, "mqtt", str(topic))
    except Refused:
        return "refused", []  # ingest() wrote the reason to the import log
    return ("award" if r.new else "known"), []


def _republish(event):
    close_old_connections()
    return [(outbox.topic(event, b, "allot"), p) for b, p in allot.republish(event)]


def _nodelay(opened):
    """paho's socket-open callback (aiomqtt's) wrapped to turn Nagle's algorithm off,
    as the bowl does (firmware/PROTOCOL.md): with it, a publish that follows an
    acknowledgement waits for the broker's delayed ACK (40 ms on Linux)."""
    def on_open(client, userdata, sock):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        opened(client, userdata, sock)
    return on_open


async def listen(host, port, event, username=None, password=None, ready=None, seen=None):
    """Run until cancelled: connect, subscribe, hand each message to handle() in a
    thread (the ORM is synchronous), acknowledge it; on a lost broker or a
    database error, reconnect after RETRY_S. ready: an asyncio.Event set once
    subscribed; seen(result) is called after each message (tests)."""
    topics = [(outbox.every_bowl(event, leaf), 1) for leaf in ("award", "status", "ask") + finals.LEAVES]
    own = outbox.topic(event, "desk", "status")
    while True:
        client = aiomqtt.Client(host, port, identifier="desk-" + event, clean_session=False,
                                username=username, password=password,
                                will=aiomqtt.Will(own, b'{"v":1,"on":0}', qos=1, retain=True))
        client._client.manual_ack_set(True)  # before connecting: queued messages arrive at once
        client._client.on_socket_open = _nodelay(client._client.on_socket_open)
        try:
            async with client:
                await client.subscribe(topics)
                await client.publish(own, b'{"v":1,"on":1}', qos=1, retain=True)
                for t, p in await asyncio.to_thread(_republish, event):
                    await client.publish(t, p, qos=1, retain=True)
                log.info("mqtt: listening on %s:%d for event %s", host, port, event)
                if ready is not None:
                    ready.set()
                async for m in client.messages:
                    if m.topic.value == own:  # our own status, through the status subscription
                        client._client.ack(m.mid, m.qos)
                        continue
                    r, pub = await asyncio.to_thread(handle, event, m.topic.value, m.payload)
                    for t, p in pub:  # committed: now the bowl may have it
                        await client.publish(t, p, qos=1, retain=True)
                    client._client.ack(m.mid, m.qos)
                    if seen is not None:
                        seen(r)
        except aiomqtt.MqttError as e:
            log.warning("mqtt: %s; connecting again in %d s", e, RETRY_S)
        except DatabaseError as e:
            log.error("mqtt: the database failed (%s): the message stays unacknowledged; "
                      "connecting again in %d s", e, RETRY_S)
        await asyncio.sleep(RETRY_S)
