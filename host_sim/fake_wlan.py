# network.WLAN(network.STA_IF) as MicroPython v1.28's ESP32 port behaves, for
# bowl/net.py in the tests (portable: CPython and the unix port, which has
# sockets but no `network`). The radio is fake; the broker the tests reach
# through it is a real mosquitto on loopback.
#   - connect() before active(True) raises OSError("Wifi Not Started") (the
#     port maps ESP_ERR_WIFI_NOT_STARTED to that OSError)
#   - connect() returns at once; isconnected() becomes True only after the
#     association and DHCP (here: `polls` calls of isconnected()/status())
#   - status() is STAT_CONNECTING (1001) meanwhile, STAT_GOT_IP (1010) when
#     connected, and after a failure the reason of the last disconnect
#     (wifi_err_reason_t): 201 NO_AP_FOUND, 202 AUTH_FAIL (STAT_WRONG_PASSWORD),
#     200 BEACON_TIMEOUT when the access point went away; STAT_IDLE (1000)
#     after disconnect() or before any connect()
#   - an SSID is 1..32 bytes, a WPA2 passphrase 8..63 (or none: an open network);
#     anything else is refused by esp_wifi_set_config with OSError
STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
STAT_BEACON_TIMEOUT = 200
STAT_NO_AP_FOUND = 201
STAT_WRONG_PASSWORD = 202
STA_IF = 0


class Air:
    """The access points in range: {ssid: passphrase}. up=False: all gone."""

    def __init__(self, networks):
        self.networks = dict(networks)
        self.up = True


class WLAN:
    def __init__(self, interface, air):
        if interface != STA_IF:
            raise ValueError("the bowl uses the station interface (network.STA_IF)")
        self.air = air
        self._active = False
        self._ssid = None
        self._key = None
        self._status = STAT_IDLE
        self._wait = 0
        self.polls = 3  # polls until associated and given an address
        self.connects = 0

    def active(self, v=None):
        if v is None:
            return self._active
        self._active = bool(v)
        if not v:
            self._status = STAT_IDLE
            self._ssid = None
        return self._active

    def connect(self, ssid, key=None):
        if not self._active:
            raise OSError("Wifi Not Started")
        if not 1 <= len(ssid.encode()) <= 32 or (key and not 8 <= len(key.encode()) <= 63):
            raise OSError("Wifi Invalid Argument")
        self._ssid, self._key = ssid, key or ""
        self._status = STAT_CONNECTING
        self._wait = self.polls
        self.connects += 1

    def disconnect(self):
        self._ssid = None
        self._status = STAT_IDLE

    def _settle(self):
        if self._status == STAT_GOT_IP and not self.air.up:
            self._status = STAT_BEACON_TIMEOUT
        if self._status != STAT_CONNECTING:
            return
        if self._wait > 0:
            self._wait -= 1
            return
        pw = self.air.networks.get(self._ssid) if self.air.up else None
        if pw is None:
            self._status = STAT_NO_AP_FOUND
        elif pw != self._key:
            self._status = STAT_WRONG_PASSWORD
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
# (they never arrive), a blocking read waits out the socket's timeout and raises
# OSError(ETIMEDOUT) (umqtt.simple sets it: bowl/net.py's SOCK_TIMEOUT_S), a
# non-blocking read finds nothing, and a new connection cannot be made. Here the
# socket underneath is a real one to the real broker on loopback; while
# air.up is False it behaves as above, except that the timeout is not waited
# out (the bowl's clock in the tests is simulated: the wait would only cost
# wall time). The broker sees the connection end only when the bowl closes it.
ETIMEDOUT = 110
EHOSTUNREACH = 113


class _Socket:
    def __init__(self, air, sock):
        self._air = air
        self._sock = sock
        self._blocking = True

    def _dead(self):
        return not self._air.up

    def settimeout(self, t):
        self._blocking = t is None or t > 0
        self._sock.settimeout(t)

    def setblocking(self, flag):
        self._blocking = bool(flag)
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
            if self._blocking:
                raise OSError(ETIMEDOUT)
            return None
        return self._sock.read(n)

    def setsockopt(self, *args):
        self._sock.setsockopt(*args)

    def close(self):
        self._sock.close()


class _SocketModule:
    def __init__(self, air, real):
        self._air = air
        self._real = real

    def socket(self, *args):
        return _Socket(self._air, self._real.socket(*args))

    def getaddrinfo(self, *args):
        if not self._air.up:
            raise OSError(-202)  # lwIP's "name not resolved": no network to ask
        return self._real.getaddrinfo(*args)


def through(air, mqtt_module=None):
    """Route micropython-lib's umqtt.simple (or mqtt_module) over the radio `air`:
    its sockets carry nothing while air.up is False (see above). MicroPython's
    sockets only (read/write); the tests run the bowl's network code there."""
    if mqtt_module is None:
        from umqtt import simple as mqtt_module
    import socket
    mqtt_module.socket = _SocketModule(air, socket)
