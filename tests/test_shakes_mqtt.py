"""Shakes granted at the counter through a real mosquitto (firmware/PROTOCOL.md
"Shakes from the counter"): the desk's listener (bus.listen, its own thread)
publishes the grants the counter recorded (shakegrants.grant, as the page does);
the whole bowl app (bowl/app.py, bowl/net.py, umqtt.simple) runs on the 32-bit
frozen MicroPython unix port (tests/mqtt_bowl.py gate: no accelerometer, so the
customer's OK rolls) and lets exactly the granted shakes in; a replayed grant, a
forged one and a malformed one grant nothing; a power cut right after the bowl
took a grant keeps it for the next customer; the desk sees each answer."""
import binascii
import subprocess
import time

import deskkit
import portable
from mqtt_broker import need_broker
from mqttkit import EVENT, OTHER_SECRET, SECRET, bowl_cmd, sealed


from bobing import grants
from host_sim.desk import shakegrants
from host_sim.desk.models import ShakeGrant

BOWL = "0007"


def _bowl(root, ms, cut=False):
    return subprocess.Popen(bowl_cmd("gate", root, ms)
                            + (["cut"] if cut else []),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=portable.ROOT)


def _state(gid, want, timeout=20):
    t0 = time.time()
    while time.time() - t0 < timeout:
        g = ShakeGrant.objects.get(bowl__bowl_id=BOWL, gid=gid)
        if g.state == want:
            return g
        time.sleep(0.1)
    return ShakeGrant.objects.get(bowl__bowl_id=BOWL, gid=gid)


def _done(p, timeout=60):
    try:
        out, _ = p.communicate(timeout=timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return out


@need_broker
def test_a_counter_grant_lets_exactly_its_shakes_once_through_replays_forgeries_and_a_power_cut(
        mp_built, broker, listener, tmp_path):
    deskkit.bowl(BOWL, SECRET)
    ShakeGrant.objects.filter(bowl__bowl_id=BOWL).delete()
    root = tmp_path / "flash"
    root.mkdir()
    (root / "settings.txt").write_text("mode=kiosk\nbowl_id=%s\npin=2468\nsecret=%s\n"
                                       % (BOWL, binascii.hexlify(SECRET).decode()))
    (root / "net.txt").write_text("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nport=%d\nevent=%s\n"
                                  "stock=bowl\n" % (broker.port, EVENT))
    listener.start()
    topic = "bobing/%s/%s/shakes" % (EVENT, BOWL)
    g1 = shakegrants.grant("wang", EVENT, BOWL, 3, "R-1001")
    bowl = _bowl(root, 9000)
    try:
        assert _state(1, "used").state == "used"
        # the same signed grant again (a replay), one signed with another secret, one malformed
        broker.publish(topic, sealed(SECRET, topic, grants.payload(1, 3, "R-1001"), "d"))
        forged = grants.payload(2, 9, "R-1001")
        broker.publish(topic, sealed(OTHER_SECRET, topic, forged, "d"))
        broker.publish(topic, b'{"v":2,"id":2,"n":9}')
        out = _done(bowl)
    finally:
        if bowl.poll() is None:
            bowl.kill()
    assert bowl.returncode == 0 and "Traceback" not in out, out
    assert "customer 1: the prize desk started 3 shakes" in out and "shakes: grant 1 used by customer 1" in out, out
    assert "net: shakes 1 (3, R-1001): used" in out, out  # the replay: nothing granted
    assert "net: shakes refused: seal does not match" in out and "net: shakes refused: not sealed" in out, out
    assert out.count("net: shakes refused") == 2, out
    assert "table customers 1 shakes_left 0 events 4" in out, out  # 1 customer, exactly 3 rolls
    g1.refresh_from_db()
    assert g1.state == "used" and g1.acked is not None

    # grant 2: the power fails right after the bowl took it (on its flash, not yet used)
    shakegrants.grant("wang", EVENT, BOWL, 2, "R-1002")
    cut = _bowl(root, 9000, cut=True)
    out = _done(cut)
    assert cut.returncode == 3 and "power cut after taking grant 2" in out, out
    assert "customer 2" not in out, out
    assert ShakeGrant.objects.get(bowl__bowl_id=BOWL, gid=2).state == "sent"  # no answer came
    again = _bowl(root, 6000)
    out = _done(again)
    assert again.returncode == 0 and "Traceback" not in out, out
    assert "customer 2: the prize desk started 2 shakes" in out, out
    assert "table customers 2 shakes_left 0 events 7" in out, out  # 3 + 2 rolls, 2 customers: no more
    assert _state(2, "used").state == "used"
