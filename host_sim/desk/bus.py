"""The desk's side of the event protocol (firmware/PROTOCOL.md): one durable
MQTT subscription (aiomqtt over paho-mqtt, both pinned) on the event's award,
status and ask topics. An award goes to THE ingestion function, ingest(), like
a journal upload; a status is stored in BowlStatus; an ask (and a bowl's first
status "on":1 with no grant yet) goes to THE allotment function,
allot.answer(), and the bowl's allot is published (retained) after its commit;
anything else is refused with its reason in the import log, and the listener
goes on. The desk's own status, bobing/<event>/desk/status, is retained
{"v":1,"on":1} while it listens, and its will {"v":1,"on":0} when it vanishes.
At every connection the desk republishes every bowl's current allot. Shakes
granted at the counter (shakegrants.py) are published from the database once a
second, each bowl's open one again at every connection; a bowl's answers
(shaken) move them on.

Sealed end to end (firmware/PROTOCOL.md "Sealed messages", bobing/wire.py): every
message is opened in _one() with its bowl's key before any decoder reads it (one that
fails is refused in the event loop, no thread, no database: a flood of forgeries
cannot hold up real awards), and everything the desk publishes for a bowl (allot,
shakes, seed) is sealed in _publish(). The desk's own status is one topic for all
bowls and so unsealed: it only tells the bowls that the desk's subscription exists.

Exactly once: the subscription is durable (client id desk-<event>, clean
session off, QoS 1: the broker keeps what arrives while the desk is away), and
a message is acknowledged only after ingest() has committed it or refused it
for good (paho's manual acknowledgement; aiomqtt 2.5 does not offer it, so its
paho client is reached directly; the messages already received are acknowledged
together, in one write: _ack()). A desk killed or failing between receipt and
commit gets the message again at its next connection; ingest() counts a copy
it already has once."""
import asyncio
import logging
import socket
import struct
import time

import aiomqtt
from django.db import DatabaseError, close_old_connections
from django.utils import timezone
from django.utils.translation import gettext_noop

from bobing import outbox, wire

from . import allot, fair, finals, mqttlog, shakegrants
from .ingest import Refused, ingest
from .models import Allot, Bowl, BowlStatus, Event, KeyCustomer

log = logging.getLogger("desk")
# the desk's own status (retained) and its will, as the bowls' net.py reads them
DESK_ON = b'{"v":%d,"on":1}' % outbox.VERSION
DESK_OFF = b'{"v":%d,"on":0}' % outbox.VERSION
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
        self.by_bowl, self.keys, self.read_at = {}, {}, None

    def stale(self, now):
        return self.read_at is None or now - self.read_at > self.MAX_AGE_S

    def reread(self, now):
        close_old_connections()
        by_bowl = {b: bytes(s) for b, s in Bowl.objects.values_list("bowl_id", "secret")}
        old = self.by_bowl
        keys = {b: self.keys[b] for b, s in by_bowl.items() if old.get(b) == s and b in self.keys}
        for b, s in by_bowl.items():
            if b not in keys:
                try:
                    keys[b] = wire.key(s)
                except ValueError:
                    pass  # a secret of another length: none of its messages opens
        self.by_bowl, self.keys = by_bowl, keys
        self.read_at = now


NOT_KNOWN = gettext_noop("bowl %(bowl)s is not known here: add it with its secret first")
BAD_CLASS = gettext_noop("prize class %(cls)s is not one of the firmware's classes")
BAD_SEAL = gettext_noop("%(leaf)s refused: its seal is not bowl %(bowl)s's (forged, moved from another topic, or "
                        "the desk holds another secret for this bowl)%(detail)s")
OLD_STATUS = gettext_noop("status of bowl %(bowl)s refused: older than the last one taken (boot %(boot)s, "
                          "connection %(conn)s: a replay, or the bowl lost its outbox/boot file)")


def opened(event, topic, payload, secrets):
    """A received message's seal checked with its bowl's key -> (body, None), or (None,
    (msgid, args)) for mqttlog.refuse: another event's topic, a bowl the desk does not know
    (at secrets' last read), an oversized payload, an unsealed or forged one."""
    t = str(topic)
    parts = t.split("/")
    if len(parts) != 4 or parts[0] != outbox.PREFIX or parts[1] != event:
        return None, (mqttlog.BAD_MESSAGE, _bad(topic, "topic %r: not %s/%s/<bowl>/<kind>" % (
            t[:80], outbox.PREFIX, event)))
    k = secrets.keys.get(parts[2])
    if k is None:
        return None, (NOT_KNOWN, {"bowl": parts[2][:40]})
    if len(payload) > outbox.MAX_PAYLOAD + wire.OVERHEAD:
        return None, (mqttlog.BAD_MESSAGE, _bad(topic, "payload of %d bytes: at most %d" % (
            len(payload), outbox.MAX_PAYLOAD + wire.OVERHEAD)))
    try:
        return wire.open_sealed(k, wire.FROM_BOWL, event, parts[2], parts[3], payload), None
    except ValueError as e:
        if str(e).startswith("payload format 1"):
            return None, (mqttlog.BAD_MESSAGE, _bad(topic, e))
        return None, (BAD_SEAL, {"leaf": [mqttlog.LEAF.get(parts[3], mqttlog.OTHER)], "bowl": parts[2],
                                 "detail": {"en": ": " + str(e)}})


def _bad(topic, error):
    return {"leaf": [mqttlog.LEAF.get(str(topic).rsplit("/", 1)[-1], mqttlog.OTHER)],
            "detail": {"en": ": " + str(error)}}


_refuse = mqttlog.refuse  # kept in memory, written once a second (a flood costs no write each)


class _BadClass(ValueError):
    pass


def _known_classes(pairs):
    bad = allot.unknown_classes([c for c, _n in pairs])
    if bad:
        raise _BadClass(bad[0][:40])


def _refuse_value(topic, e):
    if isinstance(e, _BadClass):
        return _refuse(topic, BAD_CLASS, cls=str(e))
    return mqttlog.bad_message(topic, e)


def _answer(event, topic, bowl_id, s, left, first):
    """allot.answer() -> (result, [(topic, allot payload)]) to publish after the commit."""
    try:
        raised, what, payload = allot.answer(event, bowl_id, s, dict(left), first)
    except allot.StockError as e:
        return _refuse(topic, gettext_noop("the stock request was refused%(detail)s"), detail={"en": ": " + str(e)}), []
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
            return _refuse_value(topic, e), []
        bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
        if bowl is None:
            return _refuse(topic, NOT_KNOWN, bowl=bowl_id), []
        row = BowlStatus.objects.filter(bowl=bowl).first() or BowlStatus(bowl=bowl)
        order = outbox.status_order(st["at"])
        if order <= row.status_order:
            if order == row.status_order:
                return "status", []  # the retained one again (a new subscription): nothing new
            return _refuse(topic, OLD_STATUS, bowl=bowl_id, boot=st["at"][0], conn=st["at"][1]), []
        row.status_order = order
        row.online, row.seen = bool(st["on"]), timezone.now()
        if st["on"]:
            row.game_no, row.fw, row.left, row.faults = st["g"], st["fw"], st["left"], st["faults"]
            row.bat = st.get("bat", 0)
            row.tls = None if st.get("tls") is None else bool(st["tls"])
        row.save()
        if (st["on"] and Event.objects.filter(name=event).exists()
                and not Allot.objects.filter(event__name=event, bowl=bowl).exists()):  # its first grant
            r, pub = _answer(event, topic, bowl_id, 0, st["left"], True)
            if r == "granted":
                return r, pub
        return "status", []
    if t.endswith("/key"):  # a customer the bowl's key let in: the Bowls page's count, live
        try:
            bowl_id, g, k, m = outbox.decode_key(event, topic, payload)
        except ValueError as e:
            return mqttlog.bad_message(topic, e), []
        bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
        if bowl is None:
            return _refuse(topic, NOT_KNOWN, bowl=bowl_id), []
        _row, new = KeyCustomer.objects.get_or_create(bowl=bowl, game_no=g, customer=k,
                                                      defaults={"minute": m, "seen": timezone.now()})
        return ("key" if new else "known"), []
    if t.endswith("/shaken"):
        try:
            return shakegrants.acked(event, topic, payload), []
        except ValueError as e:
            return mqttlog.bad_message(topic, e), []
    if t.endswith("/ask"):
        try:
            bowl_id, s, left = outbox.decode_ask(event, topic, payload)
            _known_classes(left)
        except ValueError as e:
            return _refuse_value(topic, e), []
        return _answer(event, topic, bowl_id, s, left, False)
    asked = []

    def secret_of(b):
        asked.append(_secret_of(b))
        return asked[0]
    try:
        a = outbox.decode_award(event, topic, payload, secret_of)
    except ValueError as e:
        if asked and asked[0] is None:
            return _refuse(topic, NOT_KNOWN, bowl=str(topic).split("/")[-2]), []
        return mqttlog.bad_message(topic, e), []
    try:
        r = ingest(a.bowl_id, a.game_no, [(a.award_no, a.cls, a.customer)], None, "mqtt", str(topic), event=event)
    except Refused:
        return "refused", []  # ingest() wrote the reason to the import log
    return ("award" if r.new else "known"), []


def _republish(event):
    close_old_connections()
    return [(outbox.topic(event, b, "allot"), p) for b, p in allot.republish(event)]


def _shake_list(event, again):
    close_old_connections()
    return shakegrants.to_publish(event, again)


def _seed_list(event):
    close_old_connections()
    return fair.seeds_to_publish(event)


async def _publish(client, secrets, event, t, p):
    """One message for a bowl, sealed with its key, published retained (QoS 1)."""
    bowl, leaf = t.split("/")[2:4]
    if bowl not in secrets.keys:  # added since the last read
        await asyncio.to_thread(secrets.reread, time.monotonic())
    k = secrets.keys.get(bowl)
    if k is None:
        log.error("mqtt: %s not published: bowl %s is no longer known here", t, bowl)
        return
    await client.publish(t, wire.seal(k, wire.FROM_DESK, event, bowl, leaf, p), qos=1, retain=True)


async def _shakes(client, event, secrets):
    """The counter's shake grants to the bowls: each bowl's open one again at
    connect (retained: the broker holds it for the bowl), then new ones as the
    counter records them (a look at the database once a second)."""
    again = True
    while True:
        try:
            todo = await asyncio.to_thread(_shake_list, event, again)
            for _pk, t, p in todo:
                await _publish(client, secrets, event, t, p)
            if todo:
                await asyncio.to_thread(shakegrants.published, [pk for pk, _t, _p in todo])
            seeds = await asyncio.to_thread(_seed_list, event)  # customers' own seeds (fair.py)
            for _pk, t, p in seeds:
                await _publish(client, secrets, event, t, p)
            if seeds:
                await asyncio.to_thread(fair.seeds_published, [pk for pk, _t, _p in seeds])
            again = False
        except DatabaseError as e:
            log.error("mqtt: shake grants not read (%s); trying again", e)
        except aiomqtt.MqttError:
            return  # the connection is gone: the listener connects again and starts anew
        await asyncio.sleep(FLUSH_S)


def _nodelay(opened):
    """paho's socket-open callback (aiomqtt's) wrapped to turn Nagle's algorithm off,
    as the bowl does (firmware/PROTOCOL.md): with it, a publish that follows an
    acknowledgement waits for the broker's delayed ACK (40 ms on Linux)."""
    def on_open(client, userdata, sock):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        opened(client, userdata, sock)
    return on_open


async def listen(host, port, event, username=None, password=None, ready=None, seen=None, ca=None):
    """Run until cancelled: connect, subscribe, hand each message to handle() in a
    thread (the ORM is synchronous), acknowledge it; on a lost broker or a
    database error, reconnect after RETRY_S. ready: an asyncio.Event set once
    subscribed; seen(result) is called after each message (tests). ca: the event
    broker's certificate file: connect by TLS, trusting only it."""
    topics = [(outbox.every_bowl(event, leaf), 1)
              for leaf in ("award", "status", "ask", "shaken", "key") + finals.LEAVES + fair.LEAVES]
    own = outbox.topic(event, "desk", "status")
    flusher = asyncio.create_task(_flusher())
    try:
        await _listen(host, port, event, username, password, ready, seen, topics, own, ca)
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


ACK_BATCH = 10  # at most half the broker's window (cmd_broker: max_inflight_messages 20), so it keeps sending
PUBACK = 0x40


def _ack(paho, msgs):
    """Acknowledge msgs (QoS 1 PUBACKs, in the order received) in one socket write, queued
    as paho queues a packet for its event loop (paho 2.2's _packet_queue without its wake-up
    byte to a socket pair aiomqtt does not read): paho's ack() costs two system calls a
    message, which under a flood on a loaded machine were most of the listener's time."""
    mids = [m.mid for m in msgs if m.qos == 1]
    if mids:
        packet = b"".join(struct.pack("!BBH", PUBACK, 2, mid) for mid in mids)
        paho._out_packet.append({"command": PUBACK, "mid": 0, "qos": 0, "pos": 0, "to_process": len(packet),
                                 "packet": packet, "info": None})
        paho._call_socket_register_write()


async def _one(event, own, client, m, secrets, seen):
    """One message: refused in the event loop when its code cannot be its bowl's, else
    handle() in a thread; its allots published after the commit. Acknowledged by the caller."""
    if m.topic.value == own:  # our own status, through the status subscription
        return
    now = time.monotonic()
    if secrets.stale(now):
        await asyncio.to_thread(secrets.reread, now)
    body, why = opened(event, m.topic.value, m.payload, secrets)
    if why is not None and now - secrets.read_at > Secrets.FRESH_S:  # a bowl added, a secret changed just now?
        await asyncio.to_thread(secrets.reread, now)
        body, why = opened(event, m.topic.value, m.payload, secrets)
    if why is not None:
        r, pub = mqttlog.refuse(m.topic.value, why[0], **why[1]), []
    else:
        r, pub = await asyncio.to_thread(handle, event, m.topic.value, body)
    for t, p in pub:  # committed: now the bowl may have it
        await _publish(client, secrets, event, t, p)
    if seen is not None:
        if r == "refused":
            await asyncio.to_thread(_flush)  # (tests look for the reason at once)
        seen(r)


async def _listen(host, port, event, username, password, ready, seen, topics, own, ca=None):
    secrets = Secrets()
    shaker = None
    while True:
        client = aiomqtt.Client(host, port, identifier="desk-" + event, clean_session=False,
                                username=username, password=password,
                                will=aiomqtt.Will(own, DESK_OFF, qos=1, retain=True),
                                # the event's own certificate is the one trust anchor: its name is not checked
                                tls_params=aiomqtt.TLSParameters(ca_certs=ca) if ca else None,
                                tls_insecure=True if ca else None)
        client._client.manual_ack_set(True)  # before connecting: queued messages arrive at once
        client._client.on_socket_open = _nodelay(client._client.on_socket_open)
        try:
            async with client:
                await client.subscribe(topics)
                await client.publish(own, DESK_ON, qos=1, retain=True)
                await asyncio.to_thread(secrets.reread, time.monotonic())
                for t, p in await asyncio.to_thread(_republish, event):
                    await _publish(client, secrets, event, t, p)
                shaker = asyncio.create_task(_shakes(client, event, secrets))
                log.info("mqtt: listening on %s:%d for event %s", host, port, event)
                if ready is not None:
                    ready.set()
                async for m in client.messages:
                    # every message already received, handled in turn and acknowledged in one write
                    batch = [m]
                    while len(batch) < ACK_BATCH:
                        try:
                            batch.append(client._queue.get_nowait())
                        except asyncio.QueueEmpty:
                            break
                    acks = []
                    try:
                        for m in batch:
                            await _one(event, own, client, m, secrets, seen)
                            acks.append(m)
                    finally:  # what was handled is acknowledged, even if a later one failed
                        _ack(client._client, acks)
        except aiomqtt.MqttError as e:
            log.warning("mqtt: %s; connecting again in %d s", e, RETRY_S)
        except DatabaseError as e:
            log.error("mqtt: the database failed (%s): the message stays unacknowledged; "
                      "connecting again in %d s", e, RETRY_S)
        finally:
            if shaker is not None:
                shaker.cancel()
                shaker = None
        await asyncio.sleep(RETRY_S)
