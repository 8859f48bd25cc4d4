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
import time

import aiomqtt
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from bobing import outbox

from . import allot, fair, finals, mqttlog
from .ingest import Refused, ingest
from .models import Allot, Bowl, BowlStatus, Event

log = logging.getLogger("desk")
RETRY_S = 2
FLUSH_S = 1  # refusals are written at most this often (mqttlog.py)


def _secret_of(bowl_id):
    b = Bowl.objects.filter(bowl_id=bowl_id).first()
    return bytes(b.secret) if b is not None else None


class Secrets:
    """The bowls' secrets, read again in a thread once a second, and before a refusal by
    secrets older than FRESH_S, so that an award whose code does not match is refused in the event loop,
    with no thread and no database work: a flood of them cannot hold up real awards."""
    MAX_AGE_S = 1.0
    FRESH_S = 0.25  # a refusal is decided on secrets at most this old (a few rereads a second in a flood)

    def __init__(self):
        self.by_bowl, self.read_at = {}, None

    def stale(self, now):
        return self.read_at is None or now - self.read_at > self.MAX_AGE_S

    def reread(self, now):
        close_old_connections()
        self.by_bowl = {b: bytes(s) for b, s in Bowl.objects.values_list("bowl_id", "secret")}
        self.read_at = now


def refused_early(event, topic, payload, secrets):
    """An award the desk can refuse without its database (malformed, another event's,
    a code its bowl's secret does not make) -> the reason, else None (handle() decides,
    rereading the secret: a bowl added or given a new secret since the last read)."""
    if not str(topic).endswith("/award"):
        return None
    try:
        outbox.decode_award(event, topic, payload, lambda b: secrets.by_bowl.get(b, b""))
    except ValueError as e:
        bowl = str(topic).split("/")[-2:-1]
        if bowl and bowl[0] not in secrets.by_bowl:
            return None  # not known at the last read: handle() looks again
        return str(e)
    return None


_refuse = mqttlog.refuse  # kept in memory, written once a second (a flood costs no write each)


def _known_classes(pairs):
    bad = allot.unknown_classes([c for c, _n in pairs])
    if bad:
        raise ValueError("prize class %r is not one of the firmware's classes" % bad[0][:40])


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
    if t.rsplit("/", 1)[-1] in fair.LEAVES:  # verifiable fairness (fair.py): a seed to publish
        return fair.handle(event, topic, payload)
    if t.endswith("/status"):
        try:
            bowl_id, st = outbox.decode_status(event, topic, payload)
            _known_classes(st.get("left") or [])
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
            _known_classes(left)
        except ValueError as e:
            return _refuse(topic, str(e)), []
        return _answer(event, topic, bowl_id, s, left, False)
    try:
        a = outbox.decode_award(event, topic, payload, _secret_of)
    except ValueError as e:
        return _refuse(topic, str(e)), []
    try:
        r = ingest(a.bowl_id, a.game_no, [(a.award_no, a.cls, a.customer)], None, "mqtt", str(topic), event=event)
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
    topics = [(outbox.every_bowl(event, leaf), 1) for leaf in ("award", "status", "ask") + finals.LEAVES + fair.LEAVES]
    own = outbox.topic(event, "desk", "status")
    flusher = asyncio.create_task(_flusher())
    try:
        await _listen(host, port, event, username, password, ready, seen, topics, own)
    finally:
        flusher.cancel()
        await asyncio.to_thread(_flush)


def _flush():
    close_old_connections()
    try:
        mqttlog.flush()
    except DatabaseError as e:
        log.error("mqtt: the refusals could not be written (%s)", e)


async def _flusher():
    while True:
        await asyncio.sleep(FLUSH_S)
        await asyncio.to_thread(_flush)


async def _listen(host, port, event, username, password, ready, seen, topics, own):
    secrets = Secrets()
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
                    now = time.monotonic()
                    if secrets.stale(now):
                        await asyncio.to_thread(secrets.reread, now)
                    why = refused_early(event, m.topic.value, m.payload, secrets)
                    if why is not None and now - secrets.read_at > Secrets.FRESH_S:  # a secret changed just now?
                        await asyncio.to_thread(secrets.reread, now)
                        why = refused_early(event, m.topic.value, m.payload, secrets)
                    if why is not None:
                        r, pub = mqttlog.refuse(m.topic.value, why), []
                    else:
                        r, pub = await asyncio.to_thread(handle, event, m.topic.value, m.payload)
                    for t, p in pub:  # committed: now the bowl may have it
                        await client.publish(t, p, qos=1, retain=True)
                    client._client.ack(m.mid, m.qos)
                    if seen is not None:
                        if r == "refused":
                            await asyncio.to_thread(_flush)  # (tests look for the reason at once)
                        seen(r)
        except aiomqtt.MqttError as e:
            log.warning("mqtt: %s; connecting again in %d s", e, RETRY_S)
        except DatabaseError as e:
            log.error("mqtt: the database failed (%s): the message stays unacknowledged; "
                      "connecting again in %d s", e, RETRY_S)
        await asyncio.sleep(RETRY_S)
