# What the broker sent is read at once (bowl/net.py take_in): a window's PUBACKs are taken there,
# the cursor moves once, to the last award acknowledged, and anything else (the desk's retained
# status, a PUBACK that TCP cut in two) is left to micropython-lib's umqtt.simple (check_msg), which
# reads it first (net._Bounded.back) and answers a QoS 1 message with its PUBACK.
from umqtt.simple import MQTTClient

from bobing import wire
from bowl import net

NET = "ssid=mall\npassword=secret123\nbroker=10.0.0.2\nevent=midautumn\nstock=bowl\nfair=off\ntls=off\n"
DESK = b"bobing/midautumn/desk/status"


class Stream:
    """A socket with what the broker sent: `now` has come; each of `later` comes while a blocking
    read waits. As the port's stream read (py/stream.c mp_stream_rw): non-blocking, what came (None
    for nothing); blocking, all n bytes, waiting for them (OSError ETIMEDOUT if they never come)."""

    def __init__(self, now, later=()):
        self.data = bytearray(now)
        self.later = list(later)
        self.timeout = None
        self.written = []

    def settimeout(self, t):
        self.timeout = t

    def read(self, n):
        if not self.data and self.timeout == 0:
            return None
        while self.timeout != 0 and len(self.data) < n:
            if not self.later:
                raise OSError(110)  # ETIMEDOUT
            self.data.extend(self.later.pop(0))
        out = bytes(self.data[:n])
        self.data = self.data[n:]
        return out

    def write(self, buf, n=-1):
        self.written.append(bytes(buf if n < 0 else buf[:n]))
        return len(self.written[-1])


class Box:
    def __init__(self):
        self.moves = []
        self.notes = []

    def sent(self, game_no, award_no, later=False, at=None):
        self.moves.append((game_no, award_no, later, at))


def puback(pid):
    return bytes([0x40, 2, pid >> 8, pid & 255])


def publish(topic, payload, pid):
    """A retained QoS 1 PUBLISH as the broker sends it."""
    body = bytes([len(topic) >> 8, len(topic) & 255]) + topic + bytes([pid >> 8, pid & 255]) + payload
    return bytes([0x33, len(body)]) + body


def publisher(sock):
    box = Box()
    n = net.Net(net.parse_config(NET), box, "5F-kiosk", None, lambda text: None, lambda at: b"{}", lambda: True,
                wire.key(bytes(32)), mqtt_class=MQTTClient)
    m = MQTTClient("bowl-5F-kiosk", "10.0.0.2")
    m.sock = net._Bounded(sock)
    m.set_callback(n._on_msg)
    n.client = m
    n._inflight = [[p, "award", (1, p, (p, 0, 0)), 0, False] for p in (1, 2, 3)]
    return n, box


def test_a_window_of_pubacks_and_a_desk_message_in_one_read():
    # two PUBACKs, the desk's retained status, and the third PUBACK cut in two by TCP
    sock = Stream(puback(1) + puback(2) + publish(DESK, net.DESK_ON, 7) + puback(3)[:2], [puback(3)[2:]])
    n, box = publisher(sock)
    n.take_in()
    assert n.desk_seen  # umqtt read the status after the PUBACKs (what take_in had read of it first)
    assert sock.written == [puback(7)]  # and acknowledged it (QoS 1)
    assert n.sent == 3 and n._inflight == []
    assert box.moves == [(1, 3, True, (3, 0, 0))]  # the cursor moved once, to the last acknowledged
    assert not sock.data and not sock.later and n.client.sock.back is None
    assert sock.timeout == net.SOCK_TIMEOUT_S  # left blocking (bounded) for the next PUBLISH's write


def test_the_socket_is_blocking_again_after_a_read_that_found_nothing():
    sock = Stream(b"")
    n, box = publisher(sock)
    n.take_in()
    assert sock.timeout == net.SOCK_TIMEOUT_S and box.moves == []  # a write after it waits, bounded


def test_an_award_not_acknowledged_holds_the_cursor_behind_it():
    sock = Stream(puback(2) + puback(3))  # the broker acknowledged 2 and 3, not 1 (yet)
    n, box = publisher(sock)
    n.take_in()
    assert box.moves == [] and n.sent == 0 and [f[0] for f in n._inflight] == [1, 2, 3]
    sock.data.extend(puback(1))
    n.take_in()
    assert box.moves == [(1, 3, True, (3, 0, 0))] and n.sent == 3 and n._inflight == []


def test_a_connection_the_broker_closed_is_said():
    sock = Stream(b"")
    sock.read = lambda n: b""  # the port's read of a closed socket
    n, _box = publisher(sock)
    try:
        n.take_in()
    except OSError:
        return
    raise AssertionError("a closed connection passed for a quiet one")
