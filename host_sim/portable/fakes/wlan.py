# network.WLAN(network.STA_IF) as MicroPython v1.28's ESP32 port behaves, for
# bowl/net.py in the tests and the simulator (portable: CPython and the unix
# port, which has sockets but no `network`). The radio is fake; the broker is
# a real mosquitto on loopback (the tests' sockets) or FakeBroker, in memory,
# on simulated time (Air(..., clock=, broker=): the simulator's).
#   - connect() before active(True) raises OSError("Wifi Not Started") (the
#     port maps ESP_ERR_WIFI_NOT_STARTED to that OSError)
#   - connect() returns at once; isconnected() becomes True only after the
#     association and DHCP (ASSOC_MS on a clock; else `polls` calls of
#     isconnected()/status())
#   - status() (ports/esp32/network_wlan.c, network_wlan_status): STAT_GOT_IP
#     (1010) when connected; 201 NO_AP_FOUND; 202 when the last disconnect was
#     AUTH_FAIL (202) or CONNECTION_FAIL (205), the only reasons the port maps to
#     STAT_WRONG_PASSWORD; while the connection is still requested and the
#     reconnects allowed (config(reconnects=n), 0 = for ever, the default) are not
#     used up: STAT_CONNECTING (1001), whatever the reason; after that the
#     reason itself. A wrong WPA2 passphrase usually ends in reason 15,
#     4WAY_HANDSHAKE_TIMEOUT (the access point never gets a valid message 2),
#     not 202: `air.wrong_reason` (15) says which; each try takes HANDSHAKE_MS.
#     200 BEACON_TIMEOUT when the access point went away; STAT_IDLE (1000) after
#     disconnect() or before any connect()
#   - config(pm=) takes WLAN.PM_NONE / PM_PERFORMANCE / PM_POWERSAVE (ESP-IDF's
#     WIFI_PS_NONE / MIN_MODEM / MAX_MODEM, network_wlan.c); ESP-IDF starts in
#     MIN_MODEM: the station wakes only for DTIM beacons and round trips take
#     100-600 ms (air.rtt_ms(), PM_LATENCY_MS), ~3 ms with PM_NONE
#   - an SSID is 1..32 bytes, a WPA2 passphrase 8..63 (or none: an open network);
#     anything else is refused by esp_wifi_set_config with OSError
STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
STAT_BEACON_TIMEOUT = 200
STAT_NO_AP_FOUND = 201
STAT_WRONG_PASSWORD = 202
STAT_HANDSHAKE_TIMEOUT = 15
STA_IF = 0
PM_NONE = 0
PM_PERFORMANCE = 1
PM_POWERSAVE = 2
ASSOC_MS = 1500  # scan, association, 4-way handshake and DHCP on a quiet LAN (assumption)
HANDSHAKE_MS = 4000  # a try with a wrong passphrase: EAPOL message 1 sent 4 times, 1 s apart (assumption)
LAN_RTT_MS = 3
# round trips with ESP-IDF's default modem sleep: the AP holds frames for the station until
# the next DTIM beacon it wakes for (DTIM 1-3 x 102.4 ms), often more (reports of 100-600 ms)
PM_LATENCY_MS = (120, 310, 600, 205, 450, 100, 380, 260)
MDNS_MS = 5000  # ports/esp32/modsocket.c: MDNS_QUERY_TIMEOUT_MS, for a *.local name nobody answers
DNS_FAIL_MS = 10000  # lwIP: a name no server answers (DNS_MAX_RETRIES 4, the wait growing 1 s a try)


class Clock:
    """Simulated time for the fakes when no simulator runs: now() in ms, wait(ms)."""

    def __init__(self, t=0):
        self.t = t

    def now(self):
        return self.t

    def wait(self, ms):
        self.t += ms


class Air:
    """The access points in range: {ssid: passphrase}. up=False: all gone.
    clock: now()/wait(ms) (the simulator's board, or Clock()), or None (polls, and
    real sockets to a real broker). broker: a FakeBroker reached by the sockets
    of through(), or None (the real one on loopback). names: {name: address}
    the network's DNS (or mDNS, for *.local) answers."""

    def __init__(self, networks, clock=None, broker=None, names=None):
        self.networks = dict(networks)
        self.up = True
        self.clock = clock
        self.broker = broker
        self.names = dict(names or {})
        self.pm = PM_PERFORMANCE  # ESP-IDF's default
        self.wrong_reason = STAT_HANDSHAKE_TIMEOUT
        self.no_ap_reason = STAT_NO_AP_FOUND  # or 210, 211, 212: why the station found no access point
        self._rtt_i = 0
        self.lookups = 0

    def rtt_ms(self):
        if self.pm == PM_NONE:
            return LAN_RTT_MS
        self._rtt_i += 1
        return PM_LATENCY_MS[self._rtt_i % len(PM_LATENCY_MS)]

    def now(self):
        return self.clock.now() if self.clock is not None else 0

    def wait(self, ms):
        if self.clock is not None and ms > 0:
            self.clock.wait(ms)


class WLAN:
    PM_NONE = PM_NONE
    PM_PERFORMANCE = PM_PERFORMANCE
    PM_POWERSAVE = PM_POWERSAVE

    def __init__(self, interface, air):
        if interface != STA_IF:
            raise ValueError("the bowl uses the station interface (network.STA_IF)")
        self.air = air
        self._active = False
        self._ssid = None
        self._key = None
        self._status = STAT_IDLE
        self._wait = 0
        self._t0 = 0
        self._tries = 0
        self.polls = 3  # polls until associated and given an address (no clock)
        self.connects = 0
        self.reconnects = 0  # config(reconnects=): 0 tries for ever (the port's default)

    def active(self, v=None):
        if v is None:
            return self._active
        self._active = bool(v)
        if not v:
            self._status = STAT_IDLE
            self._ssid = None
        return self._active

    def config(self, *args, **kw):
        if args:
            if args[0] == "pm":
                return self.air.pm
            if args[0] == "reconnects":
                return self.reconnects
            raise ValueError("unknown config param")
        for k in kw:
            if k == "pm":
                if kw[k] not in (PM_NONE, PM_PERFORMANCE, PM_POWERSAVE):
                    raise OSError("Wifi Invalid Argument")
                self.air.pm = kw[k]
            elif k == "reconnects":
                self.reconnects = max(0, int(kw[k]))
            else:
                raise ValueError("unknown config param")

    def connect(self, ssid, key=None):
        if not self._active:
            raise OSError("Wifi Not Started")
        if not 1 <= len(ssid.encode()) <= 32 or (key and not 8 <= len(key.encode()) <= 63):
            raise OSError("Wifi Invalid Argument")
        self._ssid, self._key = ssid, key or ""
        self._status = STAT_CONNECTING
        self._wait = self.polls
        self._t0 = self.air.now()
        self._tries = 0
        self.connects += 1

    def disconnect(self):
        self._ssid = None
        self._status = STAT_IDLE

    def _settle(self):
        if self._status == STAT_GOT_IP and not self.air.up:
            self._status = STAT_BEACON_TIMEOUT
        if self._status != STAT_CONNECTING:
            return
        pw = self.air.networks.get(self._ssid) if self.air.up else None
        if self.air.clock is None:
            if self._wait > 0:
                self._wait -= 1
                return
            self._tries += 1
            tries = self._tries
        else:
            took = self.air.now() - self._t0
            if pw is not None and pw == self._key:
                if took < ASSOC_MS:
                    return
            tries = took // HANDSHAKE_MS
            if tries < 1:
                return
        if pw is None:
            # 201, or 210-212 (no access point of compatible security, of the authmode or RSSI
            # threshold): network_wlan.c returns each at once, reconnects or not
            self._status = self.air.no_ap_reason
        elif pw != self._key:
            r = self.air.wrong_reason
            if r in (202, 205):
                self._status = STAT_WRONG_PASSWORD  # AUTH_FAIL, CONNECTION_FAIL: the port's mapping
            elif self.reconnects and tries >= self.reconnects + 1:
                # used up: config(reconnects=n) stores n + 1 (network_wlan.c:
                # conf_wifi_sta_reconnects = reconnects + 1), the disconnects counted against it
                self._status = r  # then status() passes the reason itself
            # else: the port tries again for ever and says STAT_CONNECTING
        else:
            self._status = STAT_GOT_IP

    def status(self, param=None):
        if param is not None:
            raise ValueError("unknown status param %r" % (param,))
        self._settle()
        return self._status

    def isconnected(self):
        self._settle()
        return self._status == STAT_GOT_IP


# ---- sockets through the simulated radio ----------------------------------------
# On the bowl a socket reaches the broker only while the station is associated:
# with the access point gone, lwIP still takes writes into its send buffer
# (they never arrive), a read waits out the socket's timeout and raises
# OSError(ETIMEDOUT), a non-blocking read finds nothing, and a new connection
# cannot be made. The ESP32 port's socket (ports/esp32/modsocket.c):
# settimeout(None) and setblocking(True) both set the wait to UINT64_MAX, for
# ever (socket_setblocking: _socket_settimeout(self, UINT64_MAX)); the unix
# port keeps a timeout set before. umqtt.simple's wait_msg() calls
# setblocking(True) after every read, so a read after it on a silent
# connection never returns on the bowl: here it raises Hang, which no
# `except Exception` catches (the simulator turns it into the watchdog's reset).
# A wait with a timeout advances the clock by what it waits (air.clock).
# Real sockets (air.broker None): the broker on loopback; the timeout is then
# not waited out (tests on simulated time would only lose wall time).
ETIMEDOUT = 110
POLL_MS = 100  # modsocket.c SOCKET_POLL_US: a wait is polled in steps of 100 ms


def waited_ms(t):
    """What a socket wait of t seconds takes on the ESP32 port before ETIMEDOUT: _socket_settimeout
    sets retries = t / 100 ms (rounded down), and the read and connect loops poll
    `for (i = 0; i <= retries; i++)`, one 100 ms select each: 0.4 s waits 0.5 s (modsocket.c)."""
    return (int(t * 1000) // POLL_MS + 1) * POLL_MS


ECONNREFUSED = 111
EHOSTUNREACH = 113


class Hang(BaseException):
    """A blocking read with no timeout that nothing will ever answer: on the ESP32
    it never returns (only the watchdog ends it)."""


class _Socket:
    def __init__(self, air, sock):
        self._air = air
        self._sock = sock
        self._timeout = None  # a new socket blocks for ever

    def _dead(self):
        return not self._air.up

    def settimeout(self, t):
        self._timeout = t
        self._sock.settimeout(t)

    def setblocking(self, flag):
        self._timeout = None if flag else 0
        self._sock.setblocking(flag)

    def connect(self, addr):
        if self._dead():
            raise OSError(EHOSTUNREACH)
        self._sock.connect(addr)

    def write(self, buf, n=-1):
        if self._dead():
            return len(buf) if n < 0 else n  # into lwIP's buffer, never to arrive
        return self._sock.write(buf) if n < 0 else self._sock.write(buf, n)

    def read(self, n):
        if self._dead():
            if self._timeout is None:
                raise Hang("a read with no timeout on a connection whose access point is gone")
            if self._timeout:
                self._air.wait(waited_ms(self._timeout))
                raise OSError(ETIMEDOUT)
            return None
        return self._sock.read(n)

    def setsockopt(self, *args):
        self._sock.setsockopt(*args)

    def close(self):
        self._sock.close()


class FakeBroker:
    """An MQTT 3.1.1 broker in memory, enough for the bowl (CONNECT, PUBLISH QoS
    0/1, SUBSCRIBE to exact topics, PINGREQ): retained messages, and the messages
    published, in `published` [(topic, payload, retain)]. up=False refuses
    connections; silent=True takes everything and answers nothing (a broker
    stuck mid-burst; TCP stays up); acks_left=N goes silent after N PUBACKs.
    cert: the DER certificate of its TLS listener (FakeTls), None: a plain listener."""

    def __init__(self, cert=None, issuer=None):
        self.cert = cert
        self.issuer = issuer  # the certificate whose key signed cert (None: cert is self-signed)
        self.handshakes = 0  # TLS handshakes completed
        self.up = True
        self.silent = False
        self.acks_left = None
        self.retained = {}
        self.published = []
        self.conns = []

    def retain(self, topic, payload):
        self.retained[topic] = payload

    def _packet(self, sock, kind, flags, body):
        if kind == 1:  # CONNECT -> CONNACK accepted
            if self.cert is not None and not sock.tls:
                sock.eof = True  # MQTT in clear at a TLS listener: not a ClientHello, dropped
                return
            sock._answer(b"\x20\x02\x00\x00")
        elif kind == 3:
            tl = body[0] << 8 | body[1]
            topic = bytes(body[2:2 + tl]).decode()
            qos = (flags >> 1) & 3
            at = 2 + tl
            pid = None
            if qos:
                pid = body[at:at + 2]
                at += 2
            payload = bytes(body[at:])
            self.published.append((topic, payload, bool(flags & 1)))
            if flags & 1:
                self.retained[topic] = payload
            if qos == 1:
                if self.acks_left is not None:
                    if self.acks_left <= 0:
                        self.silent = True
                        return
                    self.acks_left -= 1
                sock._answer(b"\x40\x02" + bytes(pid))
        elif kind == 8:  # SUBSCRIBE -> SUBACK, then the retained message of the topic
            pid = bytes(body[0:2])
            tl = body[2] << 8 | body[3]
            topic = bytes(body[4:4 + tl]).decode()
            sock.subs.append(topic)
            sock._answer(b"\x90\x03" + pid + b"\x01")
            if topic in self.retained:
                sock._answer(_publish0(topic, self.retained[topic], True))
        elif kind == 12:
            sock._answer(b"\xd0\x00")

    def restart(self):
        """The broker restarts: every connection is closed (its retained messages kept)."""
        for c in self.conns:
            c.eof = True
        self.conns = []

    def deliver(self, topic, payload, retain=False):
        """Publish to the connected subscribers of topic (the desk's allot)."""
        if retain:
            self.retained[topic] = payload
        for c in self.conns:
            if topic in c.subs and not c.closed:
                c._answer(_publish0(topic, payload, retain))


def _publish0(topic, payload, retain):
    t = topic.encode()
    body = bytes([len(t) >> 8, len(t) & 255]) + t + payload
    n = len(body)
    head = bytearray([0x30 | (1 if retain else 0)])
    while True:
        b = n & 0x7F
        n >>= 7
        head.append(b | (0x80 if n else 0))
        if not n:
            break
    return bytes(head) + body


class _MemSocket:
    """A socket to FakeBroker on simulated time, as the ESP32 port's behaves (above)."""

    def __init__(self, air):
        self._air = air
        self._timeout = None
        self._inbox = []  # [ready_at_ms, bytearray] from the broker
        self._out = bytearray()
        self.subs = []
        self.closed = False
        self.connected = False
        self.tls = False  # wrapped by FakeTls: its handshake done
        self.eof = False  # the broker closed the connection: reads give b""

    def settimeout(self, t):
        self._timeout = t

    def setblocking(self, flag):
        self._timeout = None if flag else 0

    def setsockopt(self, *args):
        pass

    def connect(self, addr):
        air = self._air
        if not air.up:
            raise OSError(EHOSTUNREACH)
        b = air.broker
        if not b.up:
            air.wait(air.rtt_ms())
            raise OSError(ECONNREFUSED)
        air.wait(air.rtt_ms())  # SYN, SYN-ACK
        self.connected = True
        b.conns.append(self)

    def _answer(self, data):
        self._inbox.append([self._air.now() + self._air.rtt_ms(), bytearray(data)])

    def write(self, buf, n=-1):
        if self.closed:
            raise OSError(9)  # EBADF
        if isinstance(buf, str):
            buf = buf.encode()
        data = bytes(buf if n < 0 else buf[:n])
        if not self._air.up or self._air.broker.silent:
            return len(data)  # taken by lwIP, never answered
        self._out.extend(data)
        self._parse()
        return len(data)

    def _parse(self):
        out = self._out
        while len(out) >= 2:
            n = 0
            sh = 0
            i = 1
            while True:
                if i >= len(out):
                    return
                b = out[i]
                n |= (b & 0x7F) << sh
                i += 1
                if not b & 0x80:
                    break
                sh += 7
            if len(out) < i + n:
                return
            kind, flags, body = out[0] >> 4, out[0] & 15, out[i:i + n]
            del out[:i + n]
            if not self._air.broker.silent:
                self._air.broker._packet(self, kind, flags, body)

    def read(self, n):
        air = self._air
        if self.eof:
            return b""
        got = bytearray()
        while len(got) < n:
            now = air.now()
            box = self._inbox
            if air.up and box and box[0][0] <= now:
                chunk = box[0][1]
                take = min(n - len(got), len(chunk))
                got.extend(chunk[:take])
                del chunk[:take]
                if not chunk:
                    box.pop(0)
                continue
            if got:
                return bytes(got)  # a stream read returns what came (MicroPython's stream read)
            t = self._timeout
            if t == 0:
                return None
            nxt = box[0][0] if (air.up and box) else None
            limit = None if t is None else waited_ms(t)
            if nxt is None or (limit is not None and nxt - now > limit):
                if limit is None:
                    raise Hang("a read with no timeout on a connection that will not answer")
                air.wait(limit)
                raise OSError(ETIMEDOUT)
            air.wait(nxt - now)
        return bytes(got)

    def close(self):
        self.closed = True


class FakeTls:
    """The ssl module as the port's (extmod/modtls_mbedtls.c) for sockets to FakeBroker: the
    handshake charges the ESP32's time (chiptime.TLS_HANDSHAKE_US, the loop waits: one C call)
    and two round trips; the broker proves its certificate or the port's errors come:
    load_verify_locations with what is not a DER certificate -> ValueError("invalid cert"); a
    broker whose certificate is not the trusted one -> ValueError with Mbed TLS's verify text
    (mbedtls_x509_crt_verify_info); a plain listener -> OSError(MBEDTLS_ERR_SSL_CONN_EOF)."""
    PROTOCOL_TLS_CLIENT = 16
    CERT_REQUIRED = 2

    def __init__(self, air):
        self.air = air

    def SSLContext(self, protocol):
        if protocol != self.PROTOCOL_TLS_CLIENT:
            raise ValueError("the bowl is a TLS client")
        return _TlsContext(self.air)


class _TlsContext:
    def __init__(self, air):
        self.air = air
        self.verify_mode = 0
        self.ca = None

    def load_verify_locations(self, cadata=None):
        d = bytes(cadata or b"")
        if len(d) < 4 or d[0] != 0x30:
            raise ValueError("invalid cert")
        self.ca = d

    def wrap_socket(self, sock, server_hostname=None):
        from host_sim.portable.fakes import chiptime
        if self.verify_mode == FakeTls.CERT_REQUIRED and server_hostname is None:
            raise ValueError("CERT_REQUIRED requires server_hostname")
        air = self.air
        air.wait(air.rtt_ms())  # ClientHello -> ServerHello .. ServerHelloDone
        b = air.broker
        if b.cert is None:
            sock.eof = True
            raise OSError(-0x7280, "SSL - The connection indicated an EOF")
        if self.verify_mode == FakeTls.CERT_REQUIRED and (b.issuer or b.cert) != self.ca:
            raise ValueError("The certificate is not correctly signed by the trusted CA")
        air.wait(chiptime.TLS_HANDSHAKE_US // 1000)  # ECDSA check, ECDH: the chip's CPU, in one call
        air.wait(air.rtt_ms())  # ClientKeyExchange, Finished -> Finished
        sock.tls = True
        b.handshakes += 1
        return _TlsSocket(sock, b.cert)


class _TlsSocket:
    """The SSL socket: reads and writes through the TCP one (no setsockopt, as the port's); the
    peer's certificate kept (getpeercert(True): the ESP32 port's with ESP-IDF's default
    MBEDTLS_SSL_KEEP_PEER_CERTIFICATE, extmod/modtls_mbedtls.c)."""

    def __init__(self, sock, peer):
        self._s = sock
        self._peer = peer

    def getpeercert(self, binary_form=False):
        if not binary_form:
            raise NotImplementedError()
        return self._peer

    def read(self, n):
        return self._s.read(n)

    def write(self, buf, n=-1):
        return self._s.write(buf, n)

    def setblocking(self, flag):
        self._s.setblocking(flag)

    def close(self):
        self._s.close()


def _numeric(host):
    parts = host.split(".")
    return len(parts) == 4 and all(p.isdigit() for p in parts)


class _SocketModule:
    def __init__(self, air, real):
        self._air = air
        self._real = real

    def socket(self, *args):
        if self._air.broker is not None:
            return _MemSocket(self._air)
        return _Socket(self._air, self._real.socket(*args))

    def getaddrinfo(self, host, port, *args):
        """socket.getaddrinfo on the ESP32 port (modsocket.c): a dotted address at
        once; a *.local name is first asked over mDNS (MDNS_QUERY_TIMEOUT_MS, 5 s,
        when nobody answers), then the name goes to DNS. The caller waits."""
        air = self._air
        if _numeric(host):
            ip = host
        else:
            air.lookups += 1
            if not air.up:
                raise OSError(-202)  # lwIP's "name not resolved": no network to ask
            ip = air.names.get(host)
            if host.endswith(".local"):
                air.wait(air.rtt_ms() if ip is not None else MDNS_MS)
                if ip is None:
                    air.wait(DNS_FAIL_MS)  # then the DNS server does not know a .local name
            else:
                air.wait(2 * air.rtt_ms() if ip is not None else DNS_FAIL_MS)
            if ip is None:
                raise OSError(-202)
        if air.broker is not None:
            return [(2, 1, 0, host, (ip, port))]
        return self._real.getaddrinfo(ip, port, *args)


def through(air, mqtt_module=None):
    """Route micropython-lib's umqtt.simple (or mqtt_module) over the radio `air`:
    its sockets carry nothing while air.up is False (see above). MicroPython's
    sockets only (read/write) or FakeBroker's; the tests run the bowl's network
    code there."""
    if mqtt_module is None:
        from umqtt import simple as mqtt_module
    try:
        import socket
    except ImportError:
        socket = None
    mqtt_module.socket = _SocketModule(air, socket)
