"""The event network (firmware/PROTOCOL.md) against a real mosquitto: each test
starts its own broker on a free loopback port (tests/mqtt_broker.py: temp config,
persistence on) and stops it. The bowl's side is bowl/net.py + bobing/outbox.py + micropython-lib's
umqtt.simple running on the 32-bit frozen MicroPython unix port
(tests/mqtt_bowl.py) with network.WLAN simulated (host_sim/portable/fakes/wlan.py); the
journals are real kiosk games played by the firmware's own game.Table; the
subscriber is mosquitto_sub with a persistent session (QoS 1), its messages
decoded by outbox.decode_award as the desk decodes them."""
import binascii
import json
import os
import re
import subprocess

import pytest

from bobing import claim, journal, outbox
from bowl import net
from host_sim.portable.fakes import wlan as fake_wlan
import portable
from mqtt_broker import Sub, need_broker
from mqttkit import BAD, EVENT, OTHER_SECRET, SECRET, Desk, bowl_cmd, decode, opened, play_kiosk, run_bowl

@need_broker
def test_every_award_reaches_the_desk_once_through_power_cut_and_broker_restart(mp_built, broker, tmp_path):
    root = tmp_path / "flash"
    root.mkdir()
    desk = Desk(broker, tmp_path)
    desk.start()
    j, want = play_kiosk(str(root), 6, seed=1)
    j.close()

    # 1. the power fails after the broker acknowledged award 3 (with those whose PUBACKs came in the
    # same read: the cursor moves once, to the last of them), before the cursor moved
    p = run_bowl(root, broker.port, cut=3)
    assert p.returncode == 3 and re.search(r"power cut after award 1-[3-6]\n", p.stdout), p.stdout + p.stderr
    # the cursor's file is written at most once a second while awards stream (net.CURSOR_MS):
    # never past an award the broker acknowledged, perhaps behind it
    c = outbox.read_cursor(str(root))
    assert c in ((0, 0), (1, 1), (1, 2)), c
    # (awards after 3 may have reached the broker too: several are in flight, net.WINDOW)
    first = len(desk.lines(6, timeout=3))
    assert 3 <= first <= 6
    # 2. the bowl boots again and sends what the cursor says is left: award 3 (and any before) again
    p = run_bowl(root, broker.port)
    assert p.returncode == 0 and "sent %d cursor 1 6" % (6 - c[1]) in p.stdout, p.stdout + p.stderr
    got, refused, dups = decode(desk.lines(first + 6 - c[1]))
    assert not refused and dups == first - c[1] >= 1  # award 3 (at least) twice, known by its identity
    assert {k: (a.cls, a.code) for k, a in got.items()} == want

    # 3. the broker goes down (persistence on), the desk too; the bowl plays on offline
    desk.stop()
    broker.stop()
    j = journal.recover(str(root), SECRET).journal
    j, more = play_kiosk(str(root), 4, seed=2, j=j)
    j.close()
    p = run_bowl(root, broker.port, seconds=2, retries=1)  # (until it has said why and backs off)
    assert "sent 0 cursor 1 6" in p.stdout and "net: " in p.stdout, p.stdout  # said why, sent nothing
    # 4. the broker is back: the bowl sends the rest while the desk is still away ...
    broker.start()
    p = run_bowl(root, broker.port)
    assert p.returncode == 0 and "sent 4 cursor 1 10" in p.stdout, p.stdout + p.stderr
    # 5. ... and the broker, restarted once more, keeps them for the desk's session
    broker.restart()
    desk.start()
    got, refused, dups = decode(desk.lines(first + 10 - c[1]))
    desk.stop()
    want.update(more)
    assert not refused and dups == first - c[1] and len(got) == 10
    assert {k: (a.cls, a.code) for k, a in got.items()} == want


@need_broker
def test_a_bowl_holds_its_awards_until_a_desk_has_listened(mp_built, broker, tmp_path):
    # the broker acknowledges a QoS 1 award nobody has subscribed to and drops it: a bowl
    # started before the event's first `listen` sends nothing until the desk's status is there
    root = tmp_path / "flash"
    root.mkdir()
    watcher = Sub(broker, tmp_path, "bobing/%s/+/award" % EVENT, "early-watch")  # not the desk
    watcher.start()
    j, want = play_kiosk(str(root), 3, seed=5)
    j.close()
    p = run_bowl(root, broker.port, seconds=2)
    assert p.returncode == 0 and "sent 0 cursor 0 0" in p.stdout, p.stdout + p.stderr
    assert "no desk has listened on this broker yet" in p.stdout, p.stdout
    assert outbox.read_cursor(str(root)) == (0, 0) and watcher.lines(1, timeout=1) == []
    # the desk's will counts too: its durable session exists, the broker keeps the awards for it
    assert broker.publish("bobing/%s/desk/status" % EVENT, b'{"v":2,"on":0}', retain=True).returncode == 0
    p = run_bowl(root, broker.port)
    assert "sent 3 cursor 1 3" in p.stdout, p.stdout + p.stderr
    got, refused, _ = decode(watcher.lines(3))
    assert not refused and {k: (a.cls, a.code) for k, a in got.items()} == want


@need_broker
def test_a_bowl_with_the_wrong_secret_is_refused(mp_built, broker, tmp_path):
    root = tmp_path / "flash"
    root.mkdir()
    desk = Desk(broker, tmp_path)
    desk.start()
    j, want = play_kiosk(str(root), 2, seed=3, secret=OTHER_SECRET)
    j.close()
    p = run_bowl(root, broker.port, secret=OTHER_SECRET)
    assert p.returncode == 0 and "sent 2" in p.stdout, p.stdout + p.stderr
    got, refused, dups = decode(desk.lines(2))
    desk.stop()
    assert not got and len(refused) == 2
    assert all("seal does not match" in r for r in refused), refused


@need_broker
def test_bad_messages_through_the_broker_are_refused_with_a_reason(broker, tmp_path):
    desk = Sub(broker, tmp_path, "#", "desk-test")  # no bowl here: no desk status needed
    desk.start()
    for t, payload, _why in BAD:
        assert broker.publish(t, payload).returncode == 0
    lines = desk.lines(len(BAD))
    desk.stop()
    got, refused, _ = decode(lines)
    assert not got and len(refused) == len(BAD)
    for (_t, _p, why), text in zip(BAD, refused):
        assert why in text, (why, text)


def test_award_payload_round_trip_and_identity_and_it_carries_no_claim_code():
    code = claim.code(SECRET, "万达-3", 17, 3, "duitang")
    p = outbox.award_payload(17, 3, "duitang", 5)
    assert len(p) <= outbox.MAX_PAYLOAD and code.encode() not in p and b"code" not in p
    a = outbox.decode_award(EVENT, outbox.topic(EVENT, "万达-3", "award").encode(), p, lambda b: SECRET)
    # the desk computes the code the bowl showed from the bowl's secret
    assert a.key() == ("万达-3", 17, 3) and (a.cls, a.customer, a.code) == ("duitang", 5, code)
    with pytest.raises(ValueError, match="carries no claim code"):  # format 1's field
        outbox.decode_award(EVENT, "bobing/%s/x/award" % EVENT, p[:-1] + b',"code":"%s"}' % code.encode(),
                            lambda b: SECRET)
    with pytest.raises(ValueError, match="format 1 .unsealed, older firmware"):
        outbox.decode_award(EVENT, "bobing/%s/x/award" % EVENT, b'{"v":1' + p[6:], lambda b: SECRET)
    for bad in ("", "a/b", "a+b", "#", "$SYS", "a b", 'a"b', "x" * 33, None):
        with pytest.raises(ValueError):
            outbox.topic(EVENT, bad, "award")


def test_cursor_is_written_whole_and_a_damaged_one_resends_everything(tmp_path):
    root = str(tmp_path)
    assert outbox.read_cursor(root) == (0, 0)
    journal.start(root, game_id=17).close()
    outbox.write_cursor(root, 17, 3)
    assert outbox.read_cursor(root) == (17, 3) and os.listdir(os.path.join(root, "outbox")) == ["cursor"]
    for junk in (b"", b"v1 17", b"v1 x 3", b"17 3\n", b"v1 17 -1\n", b"\xff" * 10, b"v1 17 3\n"):
        with open(os.path.join(root, outbox.CURSOR), "wb") as f:
            f.write(junk)
        assert outbox.read_cursor(root) == (0, 0), junk


def test_outbox_sends_in_order_across_games_and_skips_table_games(tmp_path):
    root = str(tmp_path)
    j, want1 = play_kiosk(root, 3, seed=4)
    j.close()
    journal.start(root, "xiamen", None, 4).close()  # a table game: no claims, nothing to send
    j, want3 = play_kiosk(root, 2, seed=5)
    j.close()
    box = outbox.Outbox(root, EVENT)
    seen = []
    while True:
        item = box.next()
        if item is None:
            if box.busy:  # one bounded step of reading done, more to read
                continue
            break
        tp, payload, g, n, _at = item
        a = outbox.decode_award(EVENT, tp, payload, lambda b: SECRET)
        seen.append((a.key(), (a.cls, a.code)))
        box.sent(g, n)
    want = sorted(list(want1.items()) + list(want3.items()))
    assert seen == want
    assert [k[1] for k, _ in seen] == [1, 1, 1, 3, 3]
    box = outbox.Outbox(root, EVENT)  # the cursor survives a reboot
    while box.next() is None and box.busy:
        pass
    assert box.next() is None and not box.busy


def test_net_config_refuses_what_the_bowl_cannot_use():
    good = "ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=10.0.0.2\nevent=midautumn\n"
    c = net.parse_config(good)
    assert (c["ssid"], c["port"], c["event"]) == ("mall-5F", 1883, "midautumn")
    # an event kiosk's dice are verifiable unless net.txt says fair=off; its claim QR links to the desk
    assert (c["fair"], c["desk"], c["fair_wait"]) == ("on", "10.0.0.2:8000", 60)
    assert net.parse_config(good + "fair=off\ndesk=desk.local:80\n")["fair"] == "off"
    assert net.parse_config(good + "fair_wait=600\n")["fair_wait"] == 600
    assert net.parse_config(good + "desk=desk.local:80\n")["desk"] == "desk.local:80"
    c = net.parse_config(good + "desk=https://desk.local:443\n")  # the desk serves its pages by HTTPS
    assert (c["desk"], c["desk_scheme"]) == ("desk.local:443", "HTTPS") and c["desk_scheme"] != net.parse_config(
        good)["desk_scheme"]
    assert net.parse_config(good.replace("10.0.0.2", "b" * 40))["desk"] == ""  # too long for the link: none
    for bad, why in ((good + "colour=red\n", "KEY=VALUE"), (good + "fair=yes\n", "on .* or off"),
                     (good + "fair_wait=5\n", "10..3600"), (good + "fair_wait=x\n", "10..3600"),
                     (good + "desk=" + "d" * 22 + "\n", "at most 21"), (good + "desk=a/b\n", "desk="),
                     (good + "desk=https://" + "d" * 21 + "\n", "20 with https"),
                     (good + "port=x\n", "not a number"),
                     (good + "port=70000\n", "1..65535"), (good.replace("ssid=mall-5F", "ssid=" + "x" * 33), "ssid"),
                     (good.replace("event=midautumn", "event=a/b"), "event"),
                     (good.replace("broker=10.0.0.2\n", ""), "broker= is missing")):
        with pytest.raises(ValueError, match=why):
            net.parse_config(bad)


def test_net_config_takes_tls_by_default_and_refuses_a_missing_or_damaged_certificate(tmp_path):
    import base64
    import ssl
    from host_sim.cli import broker as cmd_broker
    cmd_broker.make_certificate(str(tmp_path))  # the event's certificate, as `python -m host_sim broker` makes it
    der = ssl.PEM_cert_to_DER_cert((tmp_path / cmd_broker.CERT).read_text())
    ca = base64.b64encode(der).decode()
    base = "ssid=mall-5F\npassword=mooncake88\nbroker=10.0.0.2\nevent=midautumn\n"
    c = net.parse_config(base + "tls_ca=%s\n" % ca)
    assert (c["tls"], c["tls_ca"], c["port"]) == ("on", der, 8883)  # TLS unless net.txt says tls=off
    assert net.parse_config(base + "tls=off\n")["tls_ca"] is None  # only by an explicit choice
    damaged = ca[:40] + ("A" if ca[40] != "A" else "B") * 3 + ca[43:]
    for bad, why in ((base, "tls_ca= is missing"), (base + "tls=maybe\n", "on .* or off"),
                     (base + "tls_ca=%s\n" % ca[:-8], "tls_ca= is damaged"), (base + "tls_ca=@@@\n", "damaged"),
                     (base + "tls_ca=%s\n" % ca.replace("M", "*", 1), "damaged")):
        with pytest.raises(ValueError, match=why):
            net.parse_config(bad)
    assert net.parse_config(base + "tls_ca=%s\n" % damaged)["tls_ca"] != der  # a changed byte: the handshake says


def test_fake_wlan_behaves_as_the_esp32_port():
    air = fake_wlan.Air({"mall-5F": "mooncake88"})
    w = fake_wlan.WLAN(fake_wlan.STA_IF, air)
    with pytest.raises(OSError, match="Wifi Not Started"):
        w.connect("mall-5F", "mooncake88")
    w.active(True)
    assert w.status() == fake_wlan.STAT_IDLE
    # a wrong passphrase: usually the 4-way handshake times out (reason 15), which the port
    # reports as STAT_CONNECTING while it retries for ever (reconnects=0, its default) ...
    w.connect("mall-5F", "wrong-pass")
    for _ in range(20):
        assert w.status() == fake_wlan.STAT_CONNECTING and not w.isconnected()
    # ... and as 15 itself once the reconnects allowed are used up
    w.config(reconnects=3)
    w.connect("mall-5F", "wrong-pass")
    while w.status() == fake_wlan.STAT_CONNECTING:
        pass
    assert w.status() == fake_wlan.STAT_HANDSHAKE_TIMEOUT and not w.isconnected()
    # AUTH_FAIL (202) is the one reason the port maps to STAT_WRONG_PASSWORD
    air.wrong_reason = 202
    w.connect("mall-5F", "wrong-pass")
    while w.status() == fake_wlan.STAT_CONNECTING:
        pass
    assert w.status() == fake_wlan.STAT_WRONG_PASSWORD and not w.isconnected()
    w.connect("mall-5F", "mooncake88")
    assert not w.isconnected()
    while w.status() == fake_wlan.STAT_CONNECTING:
        pass
    assert w.isconnected() and w.status() == fake_wlan.STAT_GOT_IP
    air.up = False
    assert not w.isconnected() and w.status() == fake_wlan.STAT_BEACON_TIMEOUT
    with pytest.raises(OSError):
        w.connect("", "mooncake88")


@need_broker
def test_the_app_publishes_on_its_own_task_while_the_game_runs(mp_built, broker, tmp_path):
    root = tmp_path / "flash"
    root.mkdir()
    (root / "settings.txt").write_text("mode=kiosk\nbowl_id=0005\npin=2468\nsecret=%s\n"
                                       % binascii.hexlify(SECRET).decode())
    (root / "net.txt").write_text("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nport=%d\nevent=%s\n"
                                  % (broker.port, EVENT))
    j, want = play_kiosk(str(root), 30, seed=6, bowl="0005")
    j.close()
    desk = Desk(broker, tmp_path)
    desk.start()
    watch = Desk(broker, tmp_path, topic=outbox.topic(EVENT, "0005", "status"), client_id="status-watch")
    watch.start()
    # (it resumes under its last result: the network connects once that has stood net.READ_MS untouched)
    p = subprocess.run(bowl_cmd("app", root, 6500),
                       capture_output=True, text=True, timeout=60, cwd=portable.ROOT)
    assert p.returncode == 0 and "Traceback" not in p.stdout + p.stderr, p.stdout + p.stderr
    samples, feeds = [int(x) for x in p.stdout.split("samples ")[1].split()[:3:2]]
    assert "net: connected to 127.0.0.1:%d" % broker.port in p.stdout
    assert "cursor 1 %d" % len(want) in p.stdout, p.stdout
    # the game's tasks and the watchdog ran throughout: ~650 sensor rounds in 6.5 s, as without a
    # network (a PUBACK held back by Nagle's algorithm, 40 ms a send, left ~115 in 2.5 s)
    assert samples > 470 and feeds >= 5, p.stdout
    statuses = [json.loads(opened(SECRET, line.split()[0], binascii.unhexlify(line.split()[1])))
                for line in watch.lines(2)]
    watch.stop()
    # retained status at connect (a desk that subscribes later still sees it), then the will
    # ("on":0) the broker published when the bowl vanished without a goodbye
    boot = statuses[0]["b"]  # outbox/boot: 1 on a bowl's first start
    assert statuses[0] == {"v": 2, "on": 1, "b": boot, "c": 1, "i": 1, "fw": net.FW_VERSION, "g": 1, "faults": [],
                           "left": [[c, j.table.pool[c]] for c in j.table.classes],
                           "bat": statuses[0]["bat"], "tls": 0}, statuses  # its net.txt: tls=off
    assert 3000 < statuses[0]["bat"] < 4300, statuses  # the simulated cell's reading, mV
    assert statuses[-1] == {"v": 2, "on": 0, "b": boot, "c": 1}, statuses  # the will: that connection's last word
    got, refused, dups = decode(desk.lines(len(want)), bowl="0005")
    desk.stop()
    assert not refused and not dups and {k: (a.cls, a.code) for k, a in got.items()} == want


TOOL = os.path.join(portable.ROOT, "host_sim", "tools", "make_net_config.py")


def _provision(tmp_path, *args, env=None):
    import sys
    return subprocess.run([sys.executable, TOOL, "--out", str(tmp_path / "net.txt")] + list(args),
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, **(env or {})))


def test_provision_writes_what_the_bowl_reads_and_refuses_the_rest(tmp_path):
    import ssl
    from host_sim.cli import broker as cmd_broker
    cmd_broker.make_certificate(str(tmp_path))  # the event broker's, as `python -m host_sim broker` makes it
    crt = str(tmp_path / cmd_broker.CERT)
    p = _provision(tmp_path, "--ssid", "万达 5F", "--broker", "10.0.0.2", "--event", "midautumn", "--tls-ca", crt,
                   env={"PASSWORD": "mooncake88"})
    assert p.returncode == 0, p.stderr
    c = net.read_config(str(tmp_path))
    assert (c["ssid"], c["password"], c["broker"], c["port"], c["event"]) == ("万达 5F", "mooncake88", "10.0.0.2",
                                                                             8883, "midautumn")
    assert c["tls_ca"] == ssl.PEM_cert_to_DER_cert(open(crt).read())  # the broker's certificate: TLS by default
    p = _provision(tmp_path, "--ssid", "s", "--broker", "h", "--event", "e", "--tls", "off", "--port", "1883",
                   env={"PASSWORD": ""})
    assert p.returncode == 0 and net.read_config(str(tmp_path))["tls_ca"] is None, p.stderr  # by explicit choice
    assert "mooncake88" not in p.stdout
    assert (c["fair"], c["desk"]) == ("on", "10.0.0.2:8000")  # verifiable dice unless FAIR=off
    off = ["--tls", "off"]
    for args, env, why in ((["--ssid", "s", "--broker", "h", "--event", "e", "--desk", "x" * 30] + off, {}, "desk="),
                           (["--ssid", "x" * 33, "--broker", "h", "--event", "e"] + off, {}, "ssid is 1..32"),
                           (["--ssid", "s", "--broker", "h", "--event", "a/b"] + off, {}, "event"),
                           (["--ssid", "s", "--broker", "h", "--event", "e", "--port", "0"] + off, {}, "1..65535"),
                           (["--ssid", "s", "--broker", "h", "--event", "e"], {}, "TLS_CA= is missing"),
                           (["--ssid", "s", "--broker", "h", "--event", "e", "--tls-ca", str(tmp_path / "x")], {},
                            "not a PEM certificate"),
                           (["--ssid", "s", "--broker", "h", "--event", "e", "--tls", "off"],
                            {"PASSWORD": "a\nport=1"}, "line breaks")):
        (tmp_path / "net.txt").unlink(missing_ok=True)
        p = _provision(tmp_path, *args, env=dict({"PASSWORD": ""}, **env))
        assert p.returncode == 2 and why in p.stderr and "Traceback" not in p.stderr, (args, p.stderr)
        assert not (tmp_path / "net.txt").exists()


def test_a_network_that_cannot_start_is_said_and_the_bowl_plays_offline(tmp_path, monkeypatch):
    # an OSError from net.start (no RAM for the socket, the radio refusing) was swallowed as if
    # the bowl were not provisioned: the promoter saw no award arrive and no reason why
    import asyncio
    from host_sim.portable.fakes import bowl as hal
    from bowl import app as bowl_app
    (tmp_path / "net.txt").write_text("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nevent=%s\n"
                                      % EVENT)

    def no_room(app):
        raise OSError(12)
    monkeypatch.setattr(net, "start", no_room)
    board = hal.SimBoard(str(tmp_path), realtime=True)
    a = bowl_app.App(board)
    asyncio.run(a.run(stop_after_ms=200))
    assert [ln for ln in board.lines if ln.startswith("net: ") and "playing offline" in ln], board.lines
