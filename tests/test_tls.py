"""The bowl's connection to the event broker over TLS (firmware/PROTOCOL.md "TLS"): the whole app
on the 32-bit frozen unix port, built with Mbed TLS as the ESP32 port is, against a real mosquitto
with the TLS listener and certificate `python -m host_sim broker` makes. The bowl trusts only the
event's certificate from net.txt (tls_ca=): a broker with another certificate, a plain broker, a
plain bowl at the TLS port and a damaged tls_ca= each get a clear line, and the bowl plays on."""
import base64
import ssl

import pytest

import deskkit
from deskkit import free_port
from mqtt_broker import Broker, need_broker
from mqttkit import EVENT, SECRET, Listener, app_flash, awards_of, make_users, passwords, play_kiosk, run_app


from host_sim.cli import broker as cmd_broker

BOWL = "0451"  # its own: the desk database of a test process is shared by the files it runs


def _tls_broker(tmp_path, name="broker"):
    """The event's broker as `make broker` runs it, TLS only -> (Broker, passwords, its folder)."""
    d = tmp_path / name
    port = free_port()
    p = make_users(d, "--event", EVENT, "--bowl", BOWL, "--tls-port", str(port), "--listen", "127.0.0.1")
    assert p.returncode == 0, p.stderr
    assert "TLS on port %d" % port in p.stdout and "TLS_CA=" in p.stdout, p.stdout
    b = Broker(tmp_path, conf=str(d / "mosquitto.conf"), port=port)
    b.start()
    return b, passwords(p.stdout), d


def _ca(d):
    return base64.b64encode(ssl.PEM_cert_to_DER_cert((d / cmd_broker.CERT).read_text())).decode()


def _flash(tmp_path, port, pw, tls):
    root = app_flash(tmp_path, "flash", BOWL, port)
    net = (root / "net.txt").read_text().replace("tls=off\n", tls) + "user=%s\nmqtt_password=%s\n" % (BOWL, pw)
    (root / "net.txt").write_text(net)
    (root / "settings.txt").write_text("mode=kiosk\nbowl_id=%s\n" % BOWL)
    return root


@need_broker
def test_the_bowl_hands_its_awards_over_tls_to_the_desk_and_again_after_a_broker_restart(mp_built, tmp_path):
    b, pw, d = _tls_broker(tmp_path)
    deskkit.bowl(BOWL, SECRET)
    listener = Listener(b.port, "desk", pw["desk"], ca=str(d / cmd_broker.CERT))  # the desk's listener by TLS
    listener.start()
    try:
        root = _flash(tmp_path, b.port, pw[BOWL], "tls_ca=%s\n" % _ca(d))
        j, want = play_kiosk(str(root), 3, seed=40, bowl=BOWL)
        j.close()
        out = run_app(root, 4000)
        assert "net: connected to 127.0.0.1:%d" % b.port in out and "cursor 1 3" in out, out
        b.restart()  # the broker comes back; the bowl boots again: a new handshake, the desk reconnects
        j, more = play_kiosk(str(root), 2, seed=41, bowl=BOWL,
                             j=__import__("bobing.journal").journal.recover(str(root), SECRET).journal)
        j.close()
        out = run_app(root, 6000)
        assert "net: connected to 127.0.0.1:%d" % b.port in out and "cursor 1 5" in out, out
        want.update(more)
        listener.wait(5, skip=("status",), timeout=20)
        assert awards_of(BOWL) == want
    finally:
        listener.stop()
        b.stop()


@need_broker
@pytest.mark.parametrize("case", ["another certificate", "a plain broker", "a plain bowl", "a damaged tls_ca"])
def test_a_broker_that_does_not_prove_itself_gets_a_clear_line_and_the_bowl_plays_on(mp_built, tmp_path, case):
    if case == "a plain broker":
        (tmp_path / "plain").mkdir()
        b = Broker(tmp_path / "plain")
        b.start()
        cmd_broker.make_certificate(str(tmp_path))
        tls, pw, d = "tls_ca=%s\n" % _ca(tmp_path), {BOWL: "x"}, None
    else:
        b, pw, d = _tls_broker(tmp_path)
        other = tmp_path / "other"
        other.mkdir()
        cmd_broker.make_certificate(str(other))  # another event's certificate, or an impostor's
        ca = _ca(d)
        tls = {"another certificate": "tls_ca=%s\n" % _ca(other), "a plain bowl": "tls=off\n",
               "a damaged tls_ca": "tls_ca=%s\n" % (ca[:100] + ca[104:])}[case]
    try:
        root = _flash(tmp_path, b.port, pw[BOWL], tls)
        out = run_app(root, 3000)
        said = {"another certificate": "did not prove it is the event's broker: its certificate is not net.txt's "
                                       "tls_ca= (",
                "a plain broker": "did not complete a TLS handshake (",
                "a plain bowl": "a TLS port? (net.txt says tls=off)",
                "a damaged tls_ca": "net: net.txt: tls_ca= is damaged"}[case]
        assert said in out, out
        assert "net: connected" not in out, out
        samples = int(out.split("samples ")[1].split()[0])
        assert samples > 150, out  # the game's loop ran on throughout
    finally:
        b.stop()
