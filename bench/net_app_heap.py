"""The whole bowl with Wi-Fi and MQTT on the 32-bit frozen build: the smallest
-X heapsize in which the app (bowl/app.py on host_sim/portable/fakes/bowl.py's board, Wi-Fi
simulated by host_sim/portable/fakes/wlan.py, tests/mqtt_bowl.py's `app` mode) resumes a
kiosk game from its journal and its publisher delivers every award still to
send to a real mosquitto (loopback). Two games: a short one sent from its first
award, and a long one (with checkpoints) whose cursor is near its end, as after
a reboot in a busy evening. Prints figures, asserts nothing.

    python bench/net_app_heap.py        (make bench; needs make mp and mosquitto)
"""
import binascii
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
from bobing import game, journal, outbox  # noqa: E402
import portable  # noqa: E402
from mqtt_broker import Broker  # noqa: E402

MP = portable.MP32_FROZEN
SECRET = bytes(range(1, 17))
STOCK = {"yixiu": 9999, "erju": 999, "sijin": 999, "sanhong": 99, "duitang": 99, "zhuangyuan": 9}


def flash(d, port, awards, cursor, tls=None):
    """A bowl's flash: kiosk settings, net.txt (by TLS when tls is (CA as base64, bowl's MQTT
    password), the event broker's certificate its one trust anchor), one kiosk game of `awards`
    awards, the outbox's cursor at award `cursor` -> (root, awards, events)."""
    root = os.path.join(d, "flash")
    os.mkdir(root)
    with open(os.path.join(root, "settings.txt"), "w") as f:
        f.write("mode=kiosk\nbowl_id=0005\npin=2468\nsecret=%s\n" % binascii.hexlify(SECRET).decode())
    with open(os.path.join(root, "net.txt"), "w") as f:
        f.write("ssid=mall-5F\npassword=mooncake88\nbroker=127.0.0.1\nport=%d\nevent=midautumn\n" % port)
        if tls is None:
            f.write("tls=off\n")
        else:
            f.write("tls=on\ntls_ca=%s\nuser=0005\nmqtt_password=%s\n" % tls)
    j = journal.start(root, "kiosk", None, 1, STOCK, "0005", SECRET)
    rnd = random.Random(3)
    while j.table.award_no < awards:
        if j.table.shakes_left:
            j.play(game.EV_ROLL, [rnd.randint(1, 6) for _ in range(6)])
        else:
            j.play(game.EV_CUSTOMER, None)
    n, events = j.table.award_no, j.count
    j.close()
    if cursor:
        outbox.write_cursor(root, 1, cursor)
    return root, n, events


def delivers(port, awards, cursor, heap_k, tls=None):
    with tempfile.TemporaryDirectory() as d:
        root, n, _ = flash(d, port, awards, cursor, tls)
        ms = 2500 + 80 * (n - cursor)  # the publisher sends one award per 50 ms at most
        p = subprocess.run([MP, "-X", "heapsize=%dK" % heap_k, os.path.join("tests", "mqtt_bowl.py"), "app",
                            root, str(ms)], capture_output=True, text=True, timeout=ms / 1000 + 60, cwd=ROOT)
        return "cursor 1 %d" % n in p.stdout


MAX_K = 256  # a bowl without PSRAM never has more (the ESP32 port's heap grown once is 112K)


def smallest(port, awards, cursor, lo=40, hi=128, tls=None):
    """The smallest heap in KB that delivers: binary search (lo fails, hi delivers),
    then the answer confirmed once more (a run's timing moves it by a few KB); None when
    even MAX_K does not deliver (said, never searched for ever)."""
    while not delivers(port, awards, cursor, hi, tls):
        if hi >= MAX_K:
            return None
        lo, hi = hi, min(hi * 2, MAX_K)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if delivers(port, awards, cursor, mid, tls):
            hi = mid
        else:
            lo = mid
    while not delivers(port, awards, cursor, hi, tls):
        hi += 1
    return hi


def tls_broker(d):
    """A mosquitto with the event's certificate and a TLS listener (`python -m host_sim broker`), the
    desk's retained status on it -> (Broker, port, (CA as base64, bowl 0005's MQTT password))."""
    import base64
    import ssl
    from deskkit import free_port
    from mqttkit import make_users, passwords
    port = free_port()
    p = make_users(os.path.join(d, "broker"), "--event", "midautumn", "--bowl", "0005", "--tls-port", str(port),
                   "--listen", "127.0.0.1")
    pw = passwords(p.stdout)
    b = Broker(d, conf=os.path.join(d, "broker", "mosquitto.conf"), port=port)
    b.start()
    crt = os.path.join(d, "broker", "broker.crt")
    # --insecure: the certificate names the event's broker, not 127.0.0.1 (it is still checked)
    r = subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "--cafile", crt, "--insecure",
                        "-q", "1", "-r", "-t", "bobing/midautumn/desk/status", "-s", "-u", "desk", "-P", pw["desk"]],
                       input=b'{"v":2,"on":1}', capture_output=True, timeout=10)
    if r.returncode:
        sys.exit("the desk's status was refused: %s" % r.stderr.decode()[-500:])
    with open(crt) as f:
        ca = base64.b64encode(ssl.PEM_cert_to_DER_cert(f.read())).decode()
    return b, port, (ca, pw["0005"])


def main():
    with tempfile.TemporaryDirectory() as d:
        b = Broker(d)
        b.start()
        # the prize desk's retained status, as the desk publishes it when it runs: a bowl sends its
        # awards only once the desk has said it listens (bowl/net.py)
        b.publish("bobing/midautumn/desk/status", b'{"v":2,"on":1}', retain=True)
        try:
            for awards, cursor in ((40, 0), (300, 250)):
                with tempfile.TemporaryDirectory() as d2:
                    _, n, events = flash(d2, b.port, awards, cursor)
                k = smallest(b.port, awards, cursor)
                print("net_app_heap: the app resuming a kiosk game of %d events, %d awards, cursor at award "
                      "%d: %s (32-bit frozen build)"
                      % (events, n, cursor, "every award delivered in -X heapsize=%dK" % k if k else
                         "NOT every award delivered even in %dK" % MAX_K))
        finally:
            b.stop()


if __name__ == "__main__":
    main()
