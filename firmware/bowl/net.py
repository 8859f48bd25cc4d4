# Device glue for the event network (firmware/PROTOCOL.md): Wi-Fi through
# network.WLAN, MQTT through micropython-lib's umqtt.simple, awards from
# bobing.outbox (the journal is the outbox). One asyncio task, beside the
# game's: the game never waits for it, and it sends only while nobody is
# shaking. umqtt.robust is not used: its reconnect loop sleeps blocking; here a
# failure closes the socket and the task retries after BACKOFF_MS, awaiting.
#
# What blocks, and for how long (the game's tasks wait meanwhile):
#  - umqtt.simple's socket reads, each bounded by SOCK_TIMEOUT_S. umqtt's
#    wait_msg() calls sock.setblocking(True) after every read, which on the
#    ESP32 port removes the timeout (ports/esp32/modsocket.c: setblocking(True)
#    waits for ever; the unix port keeps it): the client's socket is wrapped
#    (_Bounded) so that setblocking(True) means "wait SOCK_TIMEOUT_S".
#  - nothing waits for a PUBACK: a QoS 1 message is written and the task moves
#    on; its PUBACK is read when it comes (check_msg, not waiting), and the
#    cursor moves then. Up to WINDOW awards are in flight at once (the broker
#    acknowledges QoS 1 in the order received, MQTT 3.1.1 section 4.6), other
#    messages one at a time; the oldest not acknowledged within ACK_MS drops the
#    connection (all in flight are sent again after reconnecting). No pause
#    between sends: each turn sends for SLICE_MS at most, then yields to the
#    game's tasks (asyncio.sleep(0)); the cursor is written at most every
#    CURSOR_MS while a backlog drains (each write is a littlefs commit: an erase
#    and programs), and at once when nothing is in flight.
#  - the broker's name is looked up on a thread of its own (the port's
#    getaddrinfo releases the GIL, modsocket.c): mDNS takes 5 s for a *.local
#    name nobody answers, then DNS. A dotted address needs no lookup; a found
#    address is kept until a connection to it fails. Failures back off,
#    doubling from BACKOFF_MS to BACKOFF_MAX_MS, with jitter.
#  - the connection itself: TCP connect and CONNACK, each within CONNECT_S, then the
#    SUBACKs, each within SOCK_TIMEOUT_S. The port polls a socket wait in 100 ms steps,
#    retries = timeout / 100 ms, `for (i = 0; i <= retries; i++)` (modsocket.c): 0.4 s
#    waits 0.5 s, 2 s waits 2.1 s. A broker that takes the connection and never answers
#    holds a round 1 s (connect and CONNACK); one that stops after the CONNACK up to
#    1 s + 2.1 s a SUBACK; then the attempt backs off. A few ms on a LAN once power save is off.
#    With TLS, the handshake is Mbed TLS's C code, ECDHE
#    and the ECDSA check on P-256: hundreds of ms of the ESP32's CPU in one call
#    that nothing can cut into 20 ms pieces (the port runs no ECC step by step:
#    extmod/modtls_mbedtls.c calls mbedtls_ssl_handshake until done). So a
#    connect or reconnect starts only when the bowl is quiet (quiet(): no shake
#    followed, no button or shake for QUIET_MS, READ_MS while a result or a
#    claim is on the screen; once it has waited DEFER_MS, as a kiosk with a
#    queue never rests that long, GRACE_MS will do), never inside a roll. A shake that begins
#    during the handshake is followed from its end: the sensor task reads the accelerometer at
#    the next round, the shake is still going (a shake lasts seconds, the handshake
#    under one) and every sample from then on is taken on time
#    (tests/test_net_quiet.py; bench/budget.py's net path reconnects over TLS).
# WLAN.connect() does not block on the ESP32 port: it starts the association
# and isconnected() is polled. Power save goes off (WLAN.PM_NONE): with ESP-IDF's
# default modem sleep the station wakes only for DTIM beacons, and each round
# trip takes 100-600 ms.
#
# The shared stock (PROTOCOL.md "Shared stock"): the bowl subscribes to its own
# allot topic (QoS 1; the desk's retained allot arrives on every subscribe),
# hands each decoded grant to the console, which applies it through the journal
# between rolls, and publishes an ask when its stock runs low, at most once per
# ASK_MS. Incoming messages are read between sends (check_msg), never waited for.
#
# Shakes granted at the prize desk (PROTOCOL.md "Shakes from the counter"): the
# bowl subscribes to its own shakes topic (retained: a grant waits in the broker),
# checks the desk's signature (bobing/grants.py), hands the grant to the console,
# which puts it on flash and lets it in at the gate, and answers on its shaken
# topic (got, used, or no with the reason); at every (re)connect it says again
# where the last grant stands, so an answer lost to a power cut is not lost.
#
# Nothing is sent before the desk's retained status (bobing/<event>/desk/status)
# has been seen: the broker keeps QoS 1 messages only for a subscription it
# already has, and the desk publishes that status right after its durable
# subscription. A bowl started before the event's first `listen` would see its
# awards acknowledged by the broker and dropped (the load test lost 46 so).
#
# The network's settings are provisioned from a computer (`make provision`) as
# ROOT/net.txt, KEY=VALUE lines: ssid, password, broker, port, event, user,
# mqtt_password, stock (desk: a kiosk plays on the event's shared stock, the
# default; bowl: on its own 奖品库存, the network only reports its awards), fair
# (on, the default: verifiable dice, PROTOCOL.md "Verifiable fairness": an event
# kiosk publishes a commitment per customer, subscribes to its seed topic and
# reveals; off: the bowl's own dice, unverifiable, for a promoter who asks for it),
# fair_wait (seconds a fair kiosk's customer waits for the desk's value before
# he plays unverified, bobing/fair.py: 60 by default, 10..3600), desk (HOST:PORT
# where phones reach the desk's public pages, default the broker's host and port
# 8000, the desk's `serve`: a fair kiosk's claim QR links there, bobing/claim.py's
# link), tls (on, the default: the connection to the broker is TLS and the broker must prove
# itself with the event's certificate; off only by an explicit choice), tls_ca (the event broker's
# certificate, DER in base64, as `python -m host_sim broker` makes it and `make provision` writes it:
# the one trust anchor; the port defaults to 8883 with TLS, 1883 without).
# No file: the bowl plays offline and says so once.
#
# Sealed end to end (PROTOCOL.md "Sealed messages", bobing/wire.py): _publish seals every
# message the bowl sends (and the will, at connect) with the bowl's key; _on_msg opens
# every message of the desk before a decoder reads it. A message that fails its seal is
# logged and dropped: the broker, or a login with the bowl's stolen password, can write
# nothing this bowl takes. The desk's status (bobing/<event>/desk/status) is one topic
# for every bowl and so cannot carry a bowl's seal: it says only that the desk's
# subscription exists, and only the desk's login may write it (the broker's ACL).
from micropython import const

from bobing import outbox, wire

SOCK_TIMEOUT_S = const(2)
CONNECT_S = 0.4  # TCP connect, then CONNACK: each a few ms on a LAN with power save off
WIFI_WAIT_MS = const(20000)  # association + DHCP, then give up and back off
# WLAN.config(reconnects=1): the port gives up after reconnects + 1 = 2 disconnects
# (network_wlan.c: conf_wifi_sta_reconnects = reconnects + 1) and status() then says why. A wrong
# WPA2 passphrase's try ends in a handshake timeout after 4-6 s: 8-12 s, inside WIFI_WAIT_MS (3
# reconnects were 16-24 s, and the wait ran out before the reason came).
WIFI_TRIES = const(1)
# the wait after a failure: BACKOFF_MS, doubling to BACKOFF_MAX_MS, each drawn from its upper half
# (jitter, from the bowl's urandom: 30 bowls of a hall that lost the broker together do not come back
# in one burst). Short enough that a returned broker is seen within BACKOFF_MAX_MS (a backlog is
# sent soon: bench/outbox_warm.py); a broker that is down gets one refused try per bowl every
# 5-10 s, a connection refused at once, no TLS handshake (that starts only once TCP connected).
BACKOFF_MS = const(5000)
BACKOFF_MAX_MS = const(10000)
ACK_MS = const(10000)  # a message the broker has not acknowledged by then: reconnect and send again
LOOKUP_MS = const(30000)  # a name lookup not answered by then has failed
STATUS_MS = const(30000)  # the retained status again: "last seen", and the MQTT keepalive
# sooner when the stock it says has moved (an award acknowledged, a grant applied) and the outbox is
# drained: the desk's view of what a bowl has left is current within this of play stopping
STATUS_SOON_MS = const(5000)
KEEPALIVE_S = const(75)  # > 2 x STATUS_MS: the broker publishes the will after 1.5 x this
IDLE_MS = const(200)
WINDOW = const(8)  # awards in flight at once (QoS 1, unacknowledged)
_TAKE = const(4 * WINDOW + 16)  # bytes take_in reads at once: a window's PUBACKs (4 bytes each) and more
# the packet buffer, allocated once: an award's PUBLISH is ~170 bytes (a 40-byte topic, an 80-byte body
# and its seal); a longer message (a status with many faults, names in Chinese) gets one of its own
_PKT = const(256)
# a turn of the task sends for this long at most, then the game's tasks run; only while nobody
# shakes (may_send()), so it never falls between the samples of a shake
SLICE_MS = const(40)
POLL_MS = const(5)  # while messages are in flight: look for their PUBACKs this often
CURSOR_MS = const(1000)  # the cursor's file at most this often while a backlog drains
QUIET_MS = const(1500)  # no button, no shake this long: a (re)connect may hold the loop
READ_MS = const(5000)  # the same under a result or a claim (its customer reading it)
# a kiosk with a queue is never quiet that long: once a connection has waited DEFER_MS, a moment
# with no button or shake for GRACE_MS (still never while a shake is followed) will do
DEFER_MS = const(20000)
GRACE_MS = const(300)
# a (re)connect holds the loop about this long (the TLS handshake, ~0.93 s on the ESP32:
# hardware/timing.md); it starts only in a round whose own work was light (the ui task's round
# began at most _LIGHT_MS before) and with no page of the screen due to turn within it, so the
# round stays under a second and no page waits for it
_CONNECT_MS = const(1000)
_LIGHT_MS = const(40)
ASK_MS = const(30000)  # an ask for stock at most this often
NET_FILE = "net.txt"
FW_VERSION = "1"
# network.WLAN.status() on the ESP32 port (ports/esp32/network_wlan.c): the
# wifi_err_reason_t of the last disconnect while not connected, else these.
STAT_IDLE = const(1000)
STAT_CONNECTING = const(1001)
STAT_GOT_IP = const(1010)
STAT_NO_AP_FOUND = const(201)
STAT_WRONG_PASSWORD = const(202)  # AUTH_FAIL and CONNECTION_FAIL (205): the port's only mapping
# a wrong passphrase usually ends the 4-way handshake by timing out (wifi_err_reason_t 15, or 204
# HANDSHAKE_TIMEOUT), which the port passes through once the reconnects are used up
_HANDSHAKE_REASONS = (15, 204)
# no access point to join: returned at once (network_wlan.c, network_wlan_status), each its own advice
_NO_AP = (201, 210, 211, 212)
_NO_AP_WHY = ("network not found",
              "network found, but not with a security the bowl supports (WPA2-PSK)",  # _W_COMPATIBLE_SECURITY
              "network found, but below the security threshold",  # _IN_AUTHMODE_THRESHOLD
              "network found, but its signal is too weak here")  # _IN_RSSI_THRESHOLD
_KEYS = ("ssid", "password", "broker", "port", "event", "user", "mqtt_password", "stock", "fair", "desk",
         "fair_wait", "tls", "tls_ca")
MAX_NET_FILE = const(2048)  # bytes of net.txt read: a broker certificate in base64 is ~600
# the desk's status: unsealed (one topic for all bowls), only the desk's login writes it
DESK_ON = b'{"v":2,"on":1}'
DESK_OFF = b'{"v":2,"on":0}'
DESK_PORT = const(8000)  # the desk's `serve --listen` port by default
# characters of desk=: the claim's link must fit a version 3 QR code (bobing/claim.py's link, with
# an 8-digit bowl id and game number, a 3-digit award number and the longest class id)
MAX_DESK = const(21)


def read_config(root):
    """ROOT/net.txt -> dict, or None when the bowl has none. ValueError naming the
    line for a bad file (the bowl then plays offline and logs it)."""
    try:
        f = open(root + "/" + NET_FILE)
    except OSError:
        return None
    try:
        text = f.read(MAX_NET_FILE)
    finally:
        f.close()
    return parse_config(text)


def parse_config(text):
    c = {"user": "", "mqtt_password": "", "password": "", "stock": "desk", "fair": "on",
         "fair_wait": "60", "tls": "on"}
    for i, line in enumerate(text.split("\n")):
        line = line.strip()
        if not line or line[0] == "#":
            continue
        k, eq, v = line.partition("=")
        if not eq or k not in _KEYS:
            raise ValueError("net.txt line %d: %r is not KEY=VALUE with KEY one of %s"
                             % (i + 1, line[:40], " ".join(_KEYS)))
        c[k] = v
    for k in ("ssid", "broker", "event"):
        if not c.get(k):
            raise ValueError("net.txt: %s= is missing" % k)
    if c["tls"] == "on":
        c["tls_ca"] = _ca(c.get("tls_ca"))
    elif c["tls"] != "off":
        raise ValueError("net.txt: tls=%r: on (the broker proves itself with the event's certificate, tls_ca=) or off "
                         "(no TLS: passwords and messages readable on the Wi-Fi)" % c["tls"][:20])
    else:
        c["tls_ca"] = None
    c.setdefault("port", 8883 if c["tls_ca"] else 1883)
    if not 1 <= len(c["ssid"].encode()) <= 32 or len(c["password"].encode()) > 64:
        raise ValueError("net.txt: ssid is 1..32 bytes and password at most 64 (IEEE 802.11, WPA2)")
    try:
        c["port"] = int(c["port"])
    except ValueError:
        raise ValueError("net.txt: port=%r is not a number" % c["port"])
    if not 1 <= c["port"] <= 65535:
        raise ValueError("net.txt: port=%d: 1..65535" % c["port"])
    outbox.check_name("event", c["event"])
    if c["stock"] not in ("desk", "bowl"):
        raise ValueError("net.txt: stock=%r: desk (the event's shared stock) or bowl (the bowl's own)"
                         % c["stock"][:20])
    if c["fair"] not in ("on", "off"):
        raise ValueError("net.txt: fair=%r: on (verifiable dice: a commitment per customer, the desk's "
                         "value) or off" % c["fair"][:20])
    w = c["fair_wait"]
    if not w.isdigit() or not 10 <= int(w) <= 3600:
        raise ValueError("net.txt: fair_wait=%r: the seconds a customer waits for the desk's value before he "
                         "plays unverified, 10..3600" % w[:20])
    c["fair_wait"] = int(w)
    d = c.get("desk") or "%s:%d" % (c["broker"], DESK_PORT)
    # the claim link's scheme is the desk's: https://HOST:PORT when it serves its pages by HTTPS
    scheme, low = "HTTP", d.lower()
    if low.startswith("https://"):
        scheme, d = "HTTPS", d[8:]
    elif low.startswith("http://"):
        d = d[7:]
    most = MAX_DESK - len(scheme) + 4  # HTTPS takes one character more of the link
    if len(d) > most or any(not ("a" <= ch.lower() <= "z" or "0" <= ch <= "9" or ch in ".-:") for ch in d):
        if c.get("desk"):
            raise ValueError("net.txt: desk=%r: [https://]HOST:PORT where phones reach the desk, at most %d "
                             "characters of letters, digits, . - : (%d with https://)" % (c["desk"][:40], MAX_DESK,
                                                                                          MAX_DESK - 1))
        d = ""  # (a broker's name too long for the claim's link: the claim QR keeps its counter text)
    c["desk"] = d
    c["desk_scheme"] = scheme
    return c


def _ca(b64):
    """net.txt's tls_ca= -> the broker certificate's DER bytes (ValueError saying what is wrong)."""
    if not b64:
        raise ValueError("net.txt: tls_ca= is missing: the event broker's certificate (make provision writes it), "
                         "or tls=off for a broker without TLS")
    import binascii
    try:
        der = binascii.a2b_base64(b64)
    except ValueError:
        der = b""
    # a DER certificate is one SEQUENCE: 0x30, then its length in two bytes (0x82) for 256..65535
    if len(der) < 128 or der[0] != 0x30 or der[1] != 0x82 or (der[2] << 8 | der[3]) + 4 != len(der):
        raise ValueError("net.txt: tls_ca= is damaged: not a certificate in base64 (make provision again with the "
                         "broker folder's broker.crt)")
    return der


_PLAIN_HINT = ": a TLS port? (net.txt says tls=off)"
TLS_NAME = "broker.bobing"  # the name in the event's certificate (host_sim/cli/broker.py's CERT_NAME)


class BrokerNotProven(Exception):
    """The broker did not prove itself with the event's certificate (or offered no TLS)."""


class _Tls:
    """umqtt.simple's ssl= for the event broker: its certificate is the one trust anchor (tls_ca);
    a broker that cannot prove it holds that certificate's key never sees the password."""

    def __init__(self, der, where, module=None):
        self.der = der
        self.where = where
        self.module = module  # the ssl module (the simulator's for its in-memory broker), None: the port's

    def wrap_socket(self, sock, server_hostname=None):
        ssl = self.module
        if ssl is None:
            import ssl
        try:
            sock.setsockopt(6, 1, 1)  # TCP_NODELAY on the TCP socket (the SSL one has no setsockopt)
        except (OSError, AttributeError):
            pass
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.verify_mode = ssl.CERT_REQUIRED
        try:
            ctx.load_verify_locations(cadata=self.der)
        except (ValueError, OSError) as e:
            raise BrokerNotProven("net.txt's tls_ca= is not a certificate this port can use (%s)" % (e,))
        try:
            # the name checked is the event certificate's own (the bowl reaches the broker by net.txt's
            # broker=, whatever its name): the certificate itself is the one trust anchor
            s = ctx.wrap_socket(sock, server_hostname=TLS_NAME)
        except ValueError as e:  # extmod/modtls_mbedtls.c: a certificate that fails verification, said by Mbed TLS
            raise BrokerNotProven("%s did not prove it is the event's broker: its certificate is not net.txt's "
                                  "tls_ca= (%s); not sending the password" % (self.where, str(e).strip()))
        except OSError as e:
            why = e.args[1] if len(e.args) > 1 else e.args[0] if e.args else e
            if "VERIFY" in str(why) or "CERT" in str(why):
                raise BrokerNotProven("%s did not prove it is the event's broker: its certificate is not net.txt's "
                                      "tls_ca= (%s); not sending the password" % (self.where, why))
            raise BrokerNotProven("%s did not complete a TLS handshake (%s): no TLS on that port? (net.txt's port= "
                                  "and tls=)" % (self.where, why))
        # What Mbed TLS checked: the broker's chain ends at tls_ca= and it holds that certificate's key
        # (its handshake signature), for the name broker.bobing; the event's certificate is a CA
        # (openssl req -x509), so another certificate its key signed would pass. Where the port keeps
        # the peer's certificate (getpeercert, with MBEDTLS_SSL_KEEP_PEER_CERTIFICATE: ESP-IDF's default;
        # not the unix build's mbedtls_config_common.h) it must be tls_ca= itself, byte for byte.
        peer = getattr(s, "getpeercert", None)
        if peer is not None and peer(True) != self.der:
            s.close()
            raise BrokerNotProven("%s showed a certificate made with the event's key but not net.txt's tls_ca= "
                                  "itself; not sending the password" % self.where)
        self.raw = sock
        return s


def status_payload(online, con=None, faults=(), at=(1, 1, 1), tls=1):
    """The retained status: what the desk shows for a bowl. faults: the board's
    [(part, message)] (hw.errors); bat: the battery's last reading in mV (0: the
    board cannot tell); the desk stamps "last seen" on arrival. at: (boot, connection,
    status number) of the bowl's order (outbox.decode_status); the will (not online)
    has no status number. tls: 1 when the bowl talks TLS, 0 for net.txt's tls=off (the desk's
    Bowls page shows it)."""
    if not online:
        return ('{"v":%d,"on":0,"b":%d,"c":%d}' % (outbox.VERSION, at[0], at[1])).encode()
    t = con.table
    left = ",".join(['["%s",%d]' % (c, t.pool[c]) for c in t.classes]) if t is not None else ""
    g = con.j.game_id if con.j is not None else 0
    f = ",".join(['"%s"' % part for part, _msg in faults])
    return ('{"v":%d,"on":1,"b":%d,"c":%d,"i":%d,"fw":"%s","g":%d,"left":[%s],"faults":[%s],"bat":%d,"tls":%d}'
            % (outbox.VERSION, at[0], at[1], at[2], FW_VERSION, g, left, f, con.battery_mv or 0, tls)).encode()


class _Bounded:
    """The client's socket, whose setblocking(True) waits SOCK_TIMEOUT_S at most
    (on the ESP32 port it would wait for ever: modsocket.c, socket_setblocking). raw: the
    TCP socket under a TLS one (an SSLSocket has no settimeout; its reads wait on raw's)."""

    def __init__(self, sock, raw=None):
        self.sock = sock
        self.raw = raw or sock
        self.back = None  # bytes take_in read that are not PUBACKs: umqtt reads them first

    def setblocking(self, flag):
        self.raw.settimeout(SOCK_TIMEOUT_S if flag else 0)

    def settimeout(self, t):
        self.raw.settimeout(SOCK_TIMEOUT_S if t is None else t)

    def read(self, n):
        b = self.back
        if b is None:
            return self.sock.read(n)
        if len(b) > n:
            self.back = b[n:]
            return b[:n]
        self.back = None
        if len(b) == n:
            return b
        r = self.sock.read(n - len(b))  # (non-blocking: what came; a stream read waits for it all)
        return b if not r else b + r

    def write(self, buf, n=-1):
        return self.sock.write(buf) if n < 0 else self.sock.write(buf, n)

    def setsockopt(self, *args):
        self.sock.setsockopt(*args)

    def close(self):
        self.sock.close()


def _numeric(host):
    p = host.split(".")
    if len(p) != 4:
        return False
    for x in p:
        if not x or not x.isdigit():
            return False
    return True


def _spawn(fn, args, done):
    """fn(*args) on a thread of its own; done((True, result) or (False, error)) there."""
    def work():
        try:
            r = (True, fn(*args))
        except Exception as e:  # OSError from the lookup, MemoryError
            r = (False, e)
        done(r)
    try:
        import _thread
    except ImportError:  # a port without threads: the lookup waits inline
        work()
        return
    _thread.start_new_thread(work, ())


class Net:
    """The publisher. key: the bowl's message key (wire.key of its claim secret);
    status((boot, connection, i)) -> the status's body; mqtt_class:
    umqtt.simple.MQTTClient (or a test's); may_send() -> False while a shake is in
    progress or its result is not yet on the screen. stock: the console (allot(),
    grant_s(), stock_low(), table): grants in, asks out; None: awards only."""

    def __init__(self, cfg, box, bowl_id, wlan, say, status, may_send, key, mqtt_class=None, stock=None,
                 sockets=None, spawn=None, quiet=None, tls_module=None, urandom=None):
        self.cfg = cfg
        if urandom is None:
            import os
            urandom = os.urandom
        self.urandom = urandom  # the back-off's jitter
        self.box = box
        self.key = key
        self._boot = 0  # outbox.next_boot, read at the first connect
        self._conn = 0  # connections since (a status's "c")
        self._i = 0  # statuses on this connection ("i")
        self.bowl_id = outbox.check_name("bowl id", bowl_id)
        self.wlan = wlan
        self.say = say
        self.status = status
        self.may_send = may_send
        # quiet(ms the connection has waited) -> True when a (re)connect may hold the loop (above)
        self.quiet = quiet or (lambda waited: may_send())
        self._want = None  # ticks_ms since when a connection waits for a quiet moment
        self.tls_module = tls_module  # the ssl module (None: the port's own)
        if mqtt_class is None:
            from umqtt.simple import MQTTClient as mqtt_class
        self.mqtt_class = mqtt_class
        self.client = None
        self.sent = 0  # awards acknowledged by the broker since boot
        self.news = None  # (champions.Reporter, console): the 状元王中王's messages, or None
        self.running = True
        self._status_topic = outbox.topic(cfg["event"], bowl_id, "status")
        self.stock = stock
        self._allot_topic = outbox.topic(cfg["event"], bowl_id, "allot").encode()
        self._ask_topic = outbox.topic(cfg["event"], bowl_id, "ask")
        self._asked = None  # ticks_ms of the last ask, or None
        self.gate = None  # the console, taking the desk's shake grants (None: not subscribed)
        self._shakes_topic = outbox.topic(cfg["event"], bowl_id, "shakes").encode()
        self._shaken_topic = outbox.topic(cfg["event"], bowl_id, "shaken")
        self.asks = 0  # asks published since boot
        self._desk_topic = outbox.topic(cfg["event"], "desk", "status").encode()
        self._seed_topic = outbox.topic(cfg["event"], bowl_id, "seed").encode()
        self.fair = None  # the console when it plays verifiable dice (its .fair: bobing/fair.py)
        self.desk_seen = False  # the desk's retained status came: its subscription exists
        self._waiting_said = False
        self.sockets = sockets  # the socket module for name lookups (None: the port's own)
        self.spawn = spawn or _spawn
        self._addr = None  # the broker's address found by the last lookup
        self._found = None  # a lookup's answer: (True, address) or (False, error)
        self._fails = 0  # failures in a row (the backoff doubles with them)
        self._inflight = []  # [pid, kind, key, ticks_ms sent, acked] of the messages awaiting their PUBACK
        self._pid = 0
        self._committed = 0  # ticks_ms of the last cursor write (CURSOR_MS)
        self._said = (0, 0)  # (awards acknowledged, grant applied) when the last status was sent
        self._pkt = bytearray(_PKT)  # every PUBLISH is written from here: nothing allocated per message
        self.connects = 0  # connections made since boot

    async def _wifi(self, ticks_ms, ticks_diff):
        import asyncio
        w = self.wlan
        if w.isconnected():
            return True
        w.active(True)
        try:
            w.config(pm=w.PM_NONE)  # round trips of ms, not DTIM beacons (network_wlan.c: PM_NONE)
            w.config(reconnects=WIFI_TRIES)  # then status() says why it gave up, not "connecting"
        except (AttributeError, ValueError, OSError) as e:
            self.say("net: wifi config refused: %s" % e)
        w.connect(self.cfg["ssid"], self.cfg["password"])
        t0 = ticks_ms()
        while ticks_diff(ticks_ms(), t0) < WIFI_WAIT_MS:
            if w.isconnected():
                return True
            s = w.status()
            if s == STAT_WRONG_PASSWORD or s in _NO_AP or s in _HANDSHAKE_REASONS:
                if s in _NO_AP:
                    why = _NO_AP_WHY[_NO_AP.index(s)]
                elif s == STAT_WRONG_PASSWORD:
                    why = "wrong password"
                else:
                    why = "wrong password? (the handshake timed out, reason %d): check net.txt's password=" % s
                self.say("net: wifi %r: %s" % (self.cfg["ssid"], why))
                w.disconnect()
                return False
            await asyncio.sleep(IDLE_MS / 1000)
        self.say("net: wifi %r: no connection after %d s" % (self.cfg["ssid"], WIFI_WAIT_MS // 1000))
        w.disconnect()
        return False

    async def _address(self, asyncio, ticks_ms, ticks_diff):
        """The broker's address, looked up off the game's loop -> str, or None (said)."""
        host = self.cfg["broker"]
        if _numeric(host):
            return host
        if self._addr is not None:
            return self._addr
        self._found = None
        sockets = self.sockets
        if sockets is None:
            import socket as sockets
        self.spawn(sockets.getaddrinfo, (host, self.cfg["port"]), self._got)
        t0 = ticks_ms()
        while self._found is None:
            if ticks_diff(ticks_ms(), t0) >= LOOKUP_MS:
                self.say("net: no answer for %r in %d s" % (host, LOOKUP_MS // 1000))
                return None
            await asyncio.sleep(IDLE_MS / 1000)
        ok, v = self._found
        if not ok:
            self.say("net: cannot find the broker %r (%s): check net.txt's broker= (an address such as"
                     " 192.168.1.10 needs no lookup)" % (host, v))
            return None
        self._addr = v[0][-1][0]
        return self._addr

    def _got(self, found):
        self._found = found

    def _connect(self, addr):
        c = self.cfg
        tls = _Tls(c["tls_ca"], "%s:%d" % (c["broker"], c["port"]), self.tls_module) if c["tls_ca"] else None
        m = self.mqtt_class("bowl-" + self.bowl_id, addr, c["port"], c["user"] or None,
                            c["mqtt_password"] or None, KEEPALIVE_S, ssl=tls)
        self._new_boot()
        self._conn += 1
        self._i = 0
        will = status_payload(False, at=(self._boot, self._conn))
        m.set_last_will(self._status_topic, wire.seal(self.key, wire.FROM_BOWL, c["event"], self.bowl_id, "status",
                                                      will), True, 1)
        m.connect(True, CONNECT_S)
        m.sock = _Bounded(m.sock, tls.raw if tls is not None else None)
        self.client = m
        self._inflight = []
        self.connects += 1
        # umqtt writes a PUBLISH in four small writes: with Nagle's algorithm on, the later ones
        # wait for the broker's delayed ACK (40 ms on Linux). IPPROTO_TCP 6 and TCP_NODELAY 1 are
        # the values of Linux and of lwIP (extmod/modlwip.c); the unix port's socket module does
        # not name them.
        if tls is None:
            try:
                m.sock.setsockopt(6, 1, 1)
            except OSError:
                pass
        m.set_callback(self._on_msg)

    def _new_boot(self):
        if not self._boot or self._conn >= outbox.MAX_CONN:
            self._boot = outbox.next_boot(self.box.root)  # on flash before any status says it
            self._conn = 0
            return True
        return False

    def _subscribe(self):
        """After the connect, in a round of its own (the handshake's was long enough)."""
        m = self.client
        m.subscribe(self._desk_topic, 1)  # retained: comes now (or during a later call)
        if self.stock is not None:
            m.subscribe(self._allot_topic, 1)  # the retained allot comes now (or during a later call)
        if self.fair is not None:
            m.subscribe(self._seed_topic, 1)  # retained: the desk's latest value comes again
        if self.gate is not None:
            m.subscribe(self._shakes_topic, 1)  # the retained grant comes now (or during a later call)
            news = self.gate.grant_news()
            if news is not None:
                self.gate.ack(news)  # where the last grant stands: an answer lost to a cut is sent again
        self._send_status()

    def _send_status(self):
        self._said = (self.sent, self.stock.grant_s() if self.stock is not None else 0)
        self._i += 1
        self._publish(self._status_topic, self.status((self._boot, self._conn, self._i)), True, "status", None)

    def _publish(self, topic, msg, retain, kind, key):
        """Seal msg (a message body of one of this bowl's topics) and write it as a QoS 1
        PUBLISH (as umqtt.simple's publish does) from the packet buffer allocated once; do
        not wait: its PUBACK is taken in by take_in()."""
        self._pid = self._pid % 65535 + 1
        pid = self._pid
        if isinstance(topic, str):
            topic = topic.encode()
        tl = len(topic)
        sz = 2 + tl + 2 + len(msg) + wire.OVERHEAD  # the variable header and the sealed payload
        pkt = self._pkt
        if 5 + sz > len(pkt):
            pkt = bytearray(5 + sz)  # (none of the bowl's messages: MAX_PAYLOAD and the longest topic fit)
        pkt[0] = 0x33 if retain else 0x32
        i = 1
        while sz > 0x7F:
            pkt[i] = (sz & 0x7F) | 0x80
            sz >>= 7
            i += 1
        pkt[i] = sz
        pkt[i + 1] = tl >> 8
        pkt[i + 2] = tl & 0xFF
        i += 3
        pkt[i:i + tl] = topic
        i += tl
        pkt[i] = pid >> 8
        pkt[i + 1] = pid & 0xFF
        # the whole PUBLISH in one write: with TLS each write is a record of its own
        self.client.sock.sock.write(pkt, wire.seal_into(pkt, i + 2, self.key, wire.FROM_BOWL, self.cfg["event"],
                                                        self.bowl_id, topic[topic.rfind(b"/") + 1:].decode(), msg))
        self._inflight.append([pid, kind, key, self._now(), False])

    def _now(self):
        import time
        return time.ticks_ms()

    def take_in(self):
        """What the broker sent, without waiting for more (a few messages at most):
        PUBACKs, the desk's status, allots. What came is read at once and its PUBACKs
        (4 bytes each: a window's in one read) taken here; the rest is left to umqtt
        (check_msg), which reads it first (_Bounded.back)."""
        m = self.client
        s = m.sock
        s.raw.settimeout(0)  # (_Bounded.setblocking(False), a call less)
        r = s.sock.read(_TAKE)
        # and blocking again, within SOCK_TIMEOUT_S, as umqtt leaves it: a PUBLISH written on a socket
        # left non-blocking could go out in part when lwIP's send buffer is full (EAGAIN)
        s.raw.settimeout(SOCK_TIMEOUT_S)
        if r is None:
            return
        if not r:
            raise OSError(-1)  # closed by the broker (as umqtt says it)
        fl = self._inflight
        i = 0
        k = len(r)
        while i + 4 <= k and r[i] == 0x40 and r[i + 1] == 2:  # PUBACK, remaining length 2, packet id
            pid = r[i + 2] << 8 | r[i + 3]
            for f in fl:
                if f[0] == pid:
                    f[4] = True
                    break
            i += 4
        if i < k:
            s.back = r[i:] if i else r  # a message of the desk's, a SUBACK, a PUBACK cut short
            for _ in range(WINDOW + 4):  # and a few messages of the desk's after it
                op = m.check_msg()
                if op is None:
                    break
                if op == 0x40:  # PUBACK: umqtt returns its first byte only
                    r = s.read(3)  # its length (2) and packet id, in one read
                    if r is None or len(r) != 3 or r[0] != 2:
                        raise OSError("a PUBACK that is not one")
                    self._acked(r[1] << 8 | r[2])
                elif op == 0x90:  # a SUBACK after its subscribe gave up waiting
                    s.read(4)
        # in the order sent: the cursor never passes an award not acknowledged; it moves once, to the
        # last of a run of awards (the outbox's sent() drops every item up to it)
        last = None
        while fl and fl[0][4]:
            f = fl.pop(0)
            if f[1] == "award":  # (or a customer the key let in, after that award: the outbox's order)
                last = f[2]
                if not last[2][1]:
                    self.sent += 1
                continue
            if last is not None:
                self.box.sent(last[0], last[1], True, last[2])
                last = None
            self._done(f)
        if last is not None:
            self.box.sent(last[0], last[1], True, last[2])  # on flash by commit()

    def _acked(self, pid):
        for f in self._inflight:
            if f[0] == pid:
                f[4] = True
                return

    def _done(self, f):
        kind, key = f[1], f[2]
        if kind == "news":
            self.news[0].sent(key)
        elif kind == "fair":
            p = self.fair.fair.pending
            if p and p[0] is key:
                p.pop(0)

    def _on_msg(self, topic_b, msg):
        """A message from the broker (umqtt's callback): the desk's status, an allot,
        shakes or a seed, each opened (its seal checked) before it is decoded."""
        if topic_b == self._desk_topic:
            # any status the desk wrote ({"v":2,"on":0|1}: its will too) means its session exists
            if msg in (DESK_ON, DESK_OFF):
                if not self.desk_seen:
                    self.say("net: the desk has listened on this broker; sending")
                self.desk_seen = True
            else:
                self.say("net: desk status refused: %r is not {\"v\":%d,\"on\":0|1}" % (msg[:40], outbox.VERSION))
            return
        if topic_b == self._shakes_topic:
            leaf = "shakes"
            if self.gate is None or not msg:
                return  # an empty retained message: the desk cleared the topic
        elif topic_b == self._seed_topic:
            leaf = "seed"
        elif topic_b == self._allot_topic:
            leaf = "allot"
        else:
            return
        try:
            msg = wire.open_sealed(self.key, wire.FROM_DESK, self.cfg["event"], self.bowl_id, leaf, msg)
        except ValueError as e:
            self.say("net: %s refused: %s" % (leaf, e))
            return
        if leaf == "shakes":
            self._shakes(topic_b, msg)
            return
        if leaf == "seed":
            if self.fair is not None:
                from bobing import fair
                try:
                    g, q, c, d = fair.decode_seed(self.cfg["event"], topic_b, msg, self.bowl_id)
                except ValueError as e:
                    self.say("net: seed refused: %s" % e)
                    return
                if not self.fair.seed(g, q, c, d):
                    self.say("net: seed %d-%d is not for the commitment waiting (an old one)" % (g, q))
            return
        if self.stock is None:
            return
        try:
            s, grant = outbox.decode_allot(self.cfg["event"], topic_b, msg, self.bowl_id)
        except ValueError as e:
            self.say("net: allot refused: %s" % e)
            return
        if self.stock.allot(s, grant):
            self.say("net: allot %d received" % s)
        else:
            self.say("net: allot %d ignored: not newer than grant %d" % (s, self.stock.grant_s()))

    def _shakes(self, topic_b, msg):
        from bobing import grants
        try:
            gid, n, ref = grants.decode(self.cfg["event"], topic_b, msg, self.bowl_id)
        except ValueError as e:
            self.say("net: shakes refused: %s" % e)  # a forged or malformed grant gets no answer
            return
        st, why = self.gate.grant_shakes(gid, n)
        self.say("net: shakes %d (%d, %s): %s%s" % (gid, n, ref, st, ": " + why if why else ""))
        self.gate.ack((gid, st, why))

    def poll(self, now, ticks_diff):
        """Between sends: take in what the broker has for us (not waiting), and
        ask for stock when the console says it runs low."""
        self.take_in()
        g = self.gate
        a = g.next_ack() if not self._inflight and g is not None else None
        if a is not None:
            from bobing import grants
            gid, st, why = a
            self._publish(self._shaken_topic, grants.ack_payload(gid, st, why), False, "shaken", None)
            return
        st = self.stock
        if (not self._inflight and st is not None and st.stock_low()
                and (self._asked is None or ticks_diff(now, self._asked) >= ASK_MS)):
            self._asked = now
            self._publish(self._ask_topic, outbox.ask_payload(st.grant_s(), st.table.left()), False, "ask", None)
            self.asks += 1
            self.say("net: asked for stock (grant %d)" % st.grant_s())

    def _why(self, e):
        # CONNACK 4 (bad user name or password) and 5 (not authorised: mosquitto's answer to a
        # wrong password, MQTT 3.1.1 section 3.2.2.3) come as umqtt's MQTTException(code)
        if type(e).__name__ == "MQTTException" and e.args and e.args[0] in (4, 5):
            return "the broker refused user %r (CONNACK %d): check net.txt's user= and mqtt_password=" % (
                self.cfg["user"], e.args[0])
        if isinstance(e, BrokerNotProven):
            return str(e)
        if isinstance(e, (AssertionError, IndexError)):  # umqtt's checks of a reply; b"" read from a closed socket
            return "%s:%d closed the connection or answered something that is not MQTT (%s)%s" % (
                self.cfg["broker"], self.cfg["port"], type(e).__name__,
                "" if self.cfg["tls_ca"] else _PLAIN_HINT)
        if isinstance(e, OSError) and e.args and e.args[0] == 104 and not self.cfg["tls_ca"]:  # ECONNRESET
            return "%s:%d reset the connection%s" % (self.cfg["broker"], self.cfg["port"], _PLAIN_HINT)
        return "%s %s" % (type(e).__name__, e)

    def close(self):
        m = self.client
        self.client = None
        if m is not None:
            try:
                m.sock.close()  # no DISCONNECT: a lost bowl's will ("on":0) is the truth
            except OSError:
                pass

    def send_one(self):
        """Publish the next award (QoS 1) while the window has room (WINDOW awards and
        nothing else in flight); the cursor moves when its PUBACK comes. -> True if one
        was sent, or the outbox stopped at a step with more to read (one bounded step per
        call). OSError when the connection fails."""
        fl = self._inflight
        if fl:
            last = fl[-1]
            if len(fl) >= WINDOW or last[1] != "award":
                return False
            item = self.box.next(last[2])  # the award after the last in flight, in the same game
        else:
            item = self.box.next()
        notes = self.box.notes
        while notes:
            self.say(notes.pop(0))
        if item is None:
            return self.box.busy  # still reading the journal (one bounded step a call): on soon
        tp, payload, g, n, at = item
        self._publish(tp, payload, False, "award", (g, n, at))
        return True

    def _moved(self):
        """Has the stock the last status said moved since (an award acknowledged, a grant applied)?"""
        return self.sent != self._said[0] or self.stock is not None and self.stock.grant_s() != self._said[1]

    def _seeding(self):
        """A fair kiosk's customer waits for the desk's value: it is looked for as often as
        a PUBACK is (the customer's wait is the round trip, not the idle poll)."""
        f = self.fair
        return f is not None and f.fair.turn is not None and not f.fair.ready()

    def send_fair(self):
        """Publish the next commitment or reveal (QoS 1) unless a message is in flight:
        before awards, a customer waits for his commitment's answer. -> True if sent."""
        if self.fair is None or self._inflight or not self.fair.fair.pending:
            return False
        item = self.fair.fair.pending[0]
        self._publish(outbox.topic(self.cfg["event"], self.bowl_id, item[0]), item[1], False, "fair", item)
        return True

    def send_news(self):
        """Publish the next champion or final message (QoS 1) unless one is in
        flight -> True if one was sent. OSError when the connection fails."""
        if self.news is None or self._inflight:
            return False
        rep, con = self.news
        item = rep.next(con)
        if item is None:
            return False
        self._publish(item[0], item[1], item[2], "news", item[3])
        return True

    def _backoff_ms(self):
        self._fails += 1
        ms = BACKOFF_MS
        for _ in range(self._fails - 1):
            if ms >= BACKOFF_MAX_MS:
                break
            ms *= 2
        ms = min(ms, BACKOFF_MAX_MS)
        r = self.urandom(2)
        return ms - (ms // 2) * (r[0] | r[1] << 8) // 65536  # in (ms / 2, ms]

    def commit(self, now, ticks_diff):
        """The cursor on flash when it moved: at once when nothing is in flight (the backlog
        done), else at most every CURSOR_MS (a power cut sends the rest again: counted once)."""
        box = self.box
        if box.dirty and (not self._inflight or ticks_diff(now, self._committed) >= CURSOR_MS):
            box.commit()
            self._committed = now

    async def run(self, ticks_ms, ticks_diff, alive=None):
        """The task: until self.running is False (or alive() is), then the
        connection is dropped (the broker publishes the will: "on":0)."""
        import asyncio
        self._now = ticks_ms
        last_status = ticks_ms()
        while self.running and (alive is None or alive()):
            try:
                if self.client is None:
                    addr = None  # (the Wi-Fi's association and the lookup wait off the loop)
                    if await self._wifi(ticks_ms, ticks_diff):
                        addr = await self._address(asyncio, ticks_ms, ticks_diff)
                    if addr is None:
                        await asyncio.sleep(self._backoff_ms() / 1000)
                        continue
                    if self._new_boot():  # its flash write in a round of its own
                        await asyncio.sleep(0)
                    now = ticks_ms()
                    if self._want is None:
                        self._want = now
                    if not self.quiet(ticks_diff(now, self._want)):  # a connect holds the loop (the
                        await asyncio.sleep(0.05)  # TLS handshake): only while nobody plays
                        continue  # (see above); the Wi-Fi and the address are kept meanwhile
                    self._want = None
                    try:
                        self._connect(addr)
                    except Exception:
                        self._addr = None  # looked up again next time: the address may have moved
                        raise
                    self._fails = 0
                    await asyncio.sleep(0)  # the game's tasks after the connect's long round
                    self._subscribe()
                    self.say("net: connected to %s:%d%s" % (self.cfg["broker"], self.cfg["port"],
                                                             " (TLS)" if self.cfg["tls_ca"] else ""))
                    last_status = ticks_ms()
                if not self.may_send():  # a shake is followed (seconds; the keepalive allows far more): the
                    await asyncio.sleep(IDLE_MS / 1000)  # loop is its own, nothing is read or sent
                    continue
                self.take_in()
                fl = self._inflight
                t0 = ticks_ms()
                if fl and ticks_diff(t0, fl[0][3]) >= ACK_MS:
                    raise OSError("no PUBACK in %d s" % (ACK_MS // 1000))
                busy = False
                free = self.may_send()  # nobody shakes: sends, the cursor's commit, the status
                if not self.desk_seen:
                    if not self._waiting_said:
                        self._waiting_said = True
                        self.say("net: no desk has listened on this broker yet (%s): awards wait in the journal"
                                 % self._desk_topic.decode())
                elif free:
                    # sends for SLICE_MS at most, the window's PUBACKs taken in between
                    n = 0
                    # (send_fair and send_news send only with nothing in flight: not asked otherwise)
                    while (not fl and self.send_fair()) or self.send_one() or (not fl and self.send_news()):
                        busy = True
                        n += 1
                        if n >= 2 * WINDOW or ticks_diff(ticks_ms(), t0) >= SLICE_MS:
                            break
                        if len(fl) >= WINDOW:  # the window full: its PUBACKs (a read when none came)
                            self.take_in()
                if free:  # (a shake's samples never wait for a flash commit or a seal)
                    self.commit(ticks_ms(), ticks_diff)
                    d = ticks_diff(ticks_ms(), last_status)
                    if not self._inflight and (d >= STATUS_MS or d >= STATUS_SOON_MS and not busy and self._moved()):
                        self._send_status()
                        last_status = ticks_ms()
                    self.poll(ticks_ms(), ticks_diff)
                if busy:
                    await asyncio.sleep(0)  # more to send: on as soon as the game's tasks have run
                else:
                    await asyncio.sleep((POLL_MS if self._inflight or self._seeding() else IDLE_MS) / 1000)
            except Exception as e:
                # OSError from the socket, IndexError when umqtt reads b"" from a closed one,
                # AssertionError from its checks of the broker's replies, MQTTException when
                # the broker refuses the connection (bad user or password): all the same here
                ms = self._backoff_ms()
                self.say("net: %s; retrying in %d s" % (self._why(e), ms // 1000))
                self.close()  # what was in flight is sent again after reconnecting (from the cursor)
                await asyncio.sleep(ms / 1000)
        self.close()
        self.box.commit()


def quiet(con, now, ticks_diff, waited=0, ui_t=None):
    """True when a (re)connect may hold the game loop: nobody shaking and no button or shake
    for QUIET_MS (the console's idle clock), READ_MS under a result or a claim; GRACE_MS once the
    connection has waited DEFER_MS (waited: ms). Never after a heavy round of the ui task (begun
    at ui_t, ticks_ms: a frame drawn, a journal folded) nor with a page due within _CONNECT_MS."""
    from bobing.vocab import V_CLAIM, V_RESULT, V_SHAKING
    v = con.view
    if v == V_SHAKING or con.stage == V_SHAKING:
        return False
    if ui_t is not None and ticks_diff(now, ui_t) > _LIGHT_MS:
        return False
    due = con.turns_in(now)
    if 0 <= due < _CONNECT_MS:
        return False
    # a result or a claim of a roll since boot is being read: longer (one left on the screen, its
    # customer gone, lets it; one the bowl resumed under after a reset is not waited for)
    if waited >= DEFER_MS:
        return ticks_diff(now, con._active) >= GRACE_MS
    read = con.rolled and (v == V_RESULT or v == V_CLAIM)
    return ticks_diff(now, con._active) >= (READ_MS if read else QUIET_MS)


def start(app):
    """Start the publisher as an asyncio task beside bowl.app's, for as long as the
    app runs -> the Net, or None when the settings are bad or the port has no
    Wi-Fi (the bowl plays offline and says why)."""
    hw = app.hw
    con = app.con
    cfg = app.net_cfg  # net.txt as bowl/app.py read it at boot (a bad one was said then)
    if cfg is None:
        return None
    wlan = getattr(hw, "wlan", None)
    if wlan is None:
        try:
            import network
        except ImportError:  # a port without Wi-Fi (the unix port, CPython): hal.SimBoard.wlan stands in
            hw.say("net: this port has no network module; playing offline")
            return None
        wlan = network.WLAN(network.STA_IF)
    from bobing import champions
    box = outbox.Outbox(hw.root, cfg["event"])
    tls = 1 if cfg["tls_ca"] else 0
    net = Net(cfg, box, con.settings.bowl_id, wlan, hw.say, lambda at: status_payload(True, con, hw.errors, at, tls),
              lambda: not champions.busy(con) and app.drawn(), wire.key(con.secret()),
              stock=con if cfg["stock"] == "desk" else None,
              sockets=getattr(hw, "sockets", None), spawn=getattr(hw, "spawn", None),
              quiet=lambda waited: quiet(con, hw.ticks_ms(), hw.ticks_diff, waited, app.ui_t),
              tls_module=getattr(hw, "ssl", None), urandom=getattr(hw, "urandom", None))
    net.news = (champions.Reporter(cfg["event"], con.settings.bowl_id), con)
    net.gate = con
    if con.fair is not None:
        net.fair = con
    import asyncio
    asyncio.create_task(kept(net, hw, app))
    return net


async def kept(net, hw, app):
    """net.run for as long as the app runs. Out of memory inside it is the run's own retry; one
    that escapes (its handler short of memory as well) would end the task, and with it the
    network until the next boot: here it is said, the connection dropped, and the task begins
    again after a collection and BACKOFF_MS. The game's tasks never see it."""
    import asyncio
    import gc
    while app.running:
        try:
            await net.run(hw.ticks_ms, hw.ticks_diff, lambda: app.running)
            return
        except MemoryError:
            try:
                net.close()
            except MemoryError:
                net.client = None  # (its socket goes with the collection)
            net._inflight = None  # sent again after reconnecting, as after any drop
            gc.collect()
            hw.say("net: out of memory in the network task; it starts again in %d s" % (BACKOFF_MS // 1000))
            await asyncio.sleep(BACKOFF_MS / 1000)
