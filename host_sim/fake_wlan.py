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
