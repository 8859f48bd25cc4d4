"""The shared stock through a real mosquitto (firmware/PROTOCOL.md "Shared stock"):
the whole bowl app (bowl/app.py, bowl/net.py, umqtt.simple) on the 32-bit frozen
MicroPython unix port, as tests/test_mqtt.py runs it, provisioned for an event as
a kiosk. The desk's allots are published with mosquitto_pub: a retained one before
the bowl connects, then while it plays a stale one, a malformed one and a newer
retained one; the bowl's asks and status are read with mosquitto_sub."""
import binascii
import json
import subprocess
import time

from bobing import outbox
import portable
from mqtt_broker import Sub, need_broker
from mqttkit import EVENT, OTHER_SECRET, SECRET, bowl_cmd, opened, sealed

BOWL = "0005"


def _decoded(sub, n, leaf, timeout=15):
    out = []
    for line in sub.lines(n, timeout):
        t, hexp = line.split()
        p = opened(SECRET, t, binascii.unhexlify(hexp))
        out.append(outbox.decode_ask(EVENT, t, p) if leaf == "ask" else json.loads(p))
    return out


@need_broker
def test_the_bowl_takes_its_grants_from_the_retained_allot_and_asks_when_low(mp_built, broker, tmp_path):
    root = tmp_path / "flash"
    root.mkdir()
    (root / "settings.txt").write_text("mode=kiosk\nbowl_id=%s\nsecret=%s\n"
                                       % (BOWL, binascii.hexlify(SECRET).decode()))
    (root / "net.txt").write_text("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nport=%d\nevent=%s\n"
                                  % (broker.port, EVENT))
    allot = outbox.topic(EVENT, BOWL, "allot")
    # the desk granted before the bowl came up: the retained allot waits in the broker
    desk = lambda body: sealed(SECRET, allot, body, "d")  # noqa: E731  (as the desk seals it)
    first = desk(outbox.allot_payload(2, [("duitang", 1), ("yixiu", 1)]))
    assert broker.publish(allot, first, retain=True).returncode == 0
    asks = Sub(broker, tmp_path, outbox.topic(EVENT, BOWL, "ask"), "ask-watch")
    asks.start()
    status = Sub(broker, tmp_path, outbox.topic(EVENT, BOWL, "status"), "status-watch")
    status.start()
    bowl = subprocess.Popen(bowl_cmd("app", root, 6000),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=portable.ROOT)
    try:
        first = _decoded(status, 1, "status")[0]
        assert first["on"] == 1 and first["bat"] > 3000, first  # the simulated cell, in mV
        # the bowl, at 1 of 1 yixiu (its low mark), asks at once; nothing more within 30 s
        got = _decoded(asks, 1, "ask")
        assert got and got[0][0] == BOWL and got[0][1] in (0, 2), got
        time.sleep(0.5)
        broker.publish(allot, desk(outbox.allot_payload(1, [("yixiu", 50)])))  # stale: s 1 < 2
        broker.publish(allot, desk(b'{"v":2,"s":9,"grant":[["yixiu",-4]]}'))  # malformed
        broker.publish(allot, desk(b'{"v":2,"s":9,"x":"' + b"x" * 280 + b'"}'))  # oversized
        broker.publish(allot, outbox.allot_payload(9, [("yixiu", 99)]))  # unsealed (anyone on the broker)
        broker.publish(allot, sealed(OTHER_SECRET, allot, outbox.allot_payload(9, [("yixiu", 99)]), "d"))  # forged
        broker.publish(allot, sealed(SECRET, allot, outbox.allot_payload(9, [("yixiu", 99)])))  # as the bowl seals
        broker.publish(allot, desk(outbox.allot_payload(3, [("duitang", 1), ("yixiu", 5)])), retain=True)
        out, _ = bowl.communicate(timeout=60)
    finally:
        if bowl.poll() is None:
            bowl.kill()
            bowl.wait()
    assert bowl.returncode == 0 and "Traceback" not in out, out
    assert "net: allot 2 received" in out and "stock: grant 2 applied" in out, out
    assert "net: allot 1 ignored: not newer than grant 2" in out, out
    assert "net: allot refused: field 'n'=-4" in out and "net: allot refused: payload of 300 bytes" in out, out
    assert "net: allot refused: not sealed" in out and out.count("net: allot refused: seal does not match") == 2, out
    assert "allot 9" not in out, out
    assert "net: allot 3 received" in out and "stock: grant 3 applied" in out, out
    assert out.count("net: asked for stock") == 1, out
    asks.stop()
    status.stop()
    # on flash: the grants applied once each, in the game's journal
    from bobing import journal
    r = journal.recover(str(root))
    t = r.journal.table
    assert t.event and t.grant_s == 3 and t.granted["yixiu"] == 5 and t.granted["duitang"] == 1
    r.journal.close()
