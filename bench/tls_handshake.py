# The bowl's TLS handshake with the event broker (bowl/net.py's _Tls over umqtt.simple) on the
# 32-bit frozen unix port built with Mbed TLS (`make mp`): its time on this machine, the heap it
# keeps (the unix port's Mbed TLS allocates from the MicroPython heap: MICROPY_TRACKED_ALLOC), and
# the smallest -X heapsize in which the whole connect (TLS, CONNECT, CONNACK) still succeeds, its
# peak. A real mosquitto with the certificate and TLS listener `python -m host_sim broker` makes.
# Prints figures, asserts nothing:  .venv/bin/python bench/tls_handshake.py
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
import portable  # noqa: E402  (the builds paths)
MP = portable.MP32_FROZEN

BOWL = r"""
import gc, sys, time, binascii
from bowl import net
import umqtt.simple
der = binascii.a2b_base64(open(sys.argv[1]).read())  # (a 600-character argument: the unix port aborts)
port = int(sys.argv[2])
gc.collect()
a0 = gc.mem_alloc()
times = []
for i in range(int(sys.argv[3])):
    m = umqtt.simple.MQTTClient("bowl-0001", "127.0.0.1", port, "0001", sys.argv[4], 75,
                                ssl=net._Tls(der, "127.0.0.1:%d" % port))
    t0 = time.ticks_us()
    m.connect(True, 2)
    times.append(time.ticks_diff(time.ticks_us(), t0))
    if i == 0:
        gc.collect()
        kept = gc.mem_alloc() - a0
    m.sock.close()
    m = None
    gc.collect()
times.sort()
print("ok %d %d %d %d" % (kept, times[0], times[len(times) // 2], times[-1]))
"""


def main():
    import base64
    import ssl
    from mqtt_broker import Broker
    from deskkit import free_port
    from mqttkit import make_users, passwords
    d = tempfile.mkdtemp(prefix="tls-bench-")
    port = free_port()
    p = make_users(os.path.join(d, "broker"), "--event", "bench", "--bowl", "0001", "--tls-port", str(port),
                   "--listen", "127.0.0.1")
    pw = passwords(p.stdout)
    b = Broker(d, conf=os.path.join(d, "broker", "mosquitto.conf"), port=port)
    b.start()
    script = os.path.join(d, "tls_bowl.py")
    with open(script, "w") as f:
        f.write(BOWL)
    ca = os.path.join(d, "ca.b64")
    with open(os.path.join(d, "broker", "broker.crt")) as f, open(ca, "w") as out:
        out.write(base64.b64encode(ssl.PEM_cert_to_DER_cert(f.read())).decode())

    def run(heap_k, n):
        r = subprocess.run([MP, "-X", "heapsize=%dK" % heap_k, script, ca, str(port), str(n), pw["0001"]],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
        line = [x for x in r.stdout.splitlines() if x.startswith("ok ")]
        if not line and heap_k >= 1024:
            print("rc", r.returncode, r.stdout[-1500:], r.stderr[-1500:])
        return [int(x) for x in line[0].split()[1:]] if line else None
    try:
        t0 = time.time()
        kept, best, median, worst = run(1024, 20)
        lo, hi = 8, 256  # the smallest heap (KB) the connect succeeds in: its peak, to 1 KB
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if run(mid, 1):
                hi = mid
            else:
                lo = mid
        print("tls_handshake: connect to mosquitto by TLS (ECDHE-ECDSA P-256, the event's self-signed certificate "
              "as the one trust anchor) + MQTT CONNECT/CONNACK, 20 times on loopback: %d us best, %d median, %d "
              "worst (32-bit frozen unix port, this machine)" % (best, median, worst))
        print("tls_handshake: heap kept by the open TLS connection: %d bytes; smallest heap the connect succeeds "
              "in: %d KB (-X heapsize; its peak, with the interpreter's own)" % (kept, hi))
        print("tls_handshake: (measured in %.0f s)" % (time.time() - t0))
    finally:
        b.stop()


if __name__ == "__main__":
    main()
