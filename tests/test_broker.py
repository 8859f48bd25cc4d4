"""The event broker's access control and bad input through it (firmware/PROTOCOL.md,
"Access control"): the files `python -m host_sim broker` makes, run by a real
mosquitto (tests/mqtt_broker.py) exactly as `make broker` runs them: anonymous
clients and wrong passwords refused, a bowl writes only its own topics and reads
only its own grant, the desk reads everything; the bowl's own code (bowl/net.py
on the 32-bit frozen unix port) logs in with its user; the desk (bus.listen)
refuses malformed, oversized, forged and replayed messages and goes on."""
import asyncio
import base64
import binascii
import hashlib
import logging
import os
import pwd
import signal
import socket
import subprocess
import threading
import time

import pytest

import deskkit
import portable
import mqttkit
from deskkit import free_port
from mqtt_broker import Broker, Sub, need_broker
from mqttkit import (EVENT, SECRET, Listener, awards_of, bowl_cmd, make_users, opened, passwords, play_kiosk, run_bowl,
                     sealed)


from bobing import journal, outbox
from host_sim.cli import broker as cmd_broker
from host_sim.desk import bus
from host_sim.desk.models import Award, Import

A, B = mqttkit.BOWLS


def test_the_tool_writes_hashes_keeps_old_users_and_refuses_bad_names(tmp_path):
    d = tmp_path / "b"
    p = make_users(d, "--event", EVENT, "--bowl", A, "--bowl", B)
    assert p.returncode == 0, p.stderr
    pw = passwords(p.stdout)
    assert sorted(pw) == [A, B, "desk"] and len(set(pw.values())) == 3
    assert all(len(v) == 22 for v in pw.values())  # 16 bytes from secrets, URL-safe base64
    assert os.stat(d / "passwd").st_mode & 0o777 == 0o600
    lines = dict(ln.split(":", 1) for ln in (d / "passwd").read_text().split())
    for user, h in lines.items():
        _, seven, it, salt, digest = h.split("$")
        assert (seven, it) == ("7", "101") and pw[user] not in h
        assert base64.b64decode(digest) == hashlib.pbkdf2_hmac("sha512", pw[user].encode(), base64.b64decode(salt), 101)
    acl = (d / "acl").read_text()
    assert "topic write bobing/%s/%s/award" % (EVENT, A) in acl and "topic read bobing/%s/#" % EVENT in acl
    assert "pattern" not in acl and "allow_anonymous false" in (d / "mosquitto.conf").read_text()

    # a bowl added later: the others keep their password (nothing to re-provision)
    p = make_users(d, "--event", EVENT, "--bowl", "0009")
    assert p.returncode == 0 and sorted(passwords(p.stdout)) == ["0009"], p.stdout
    assert "kept (password unchanged): desk 0005 0007" in p.stdout
    again = dict(ln.split(":", 1) for ln in (d / "passwd").read_text().split())
    assert {u: again[u] for u in lines} == lines and "user 0009" in (d / "acl").read_text()
    # a lost password: renewed, that user only
    p = make_users(d, "--event", EVENT, "--renew", A)
    assert p.returncode == 0 and sorted(passwords(p.stdout)) == [A]
    assert dict(ln.split(":", 1) for ln in (d / "passwd").read_text().split())[A] != lines[A]

    before = {f: (d / f).read_bytes() for f in ("passwd", "acl", "mosquitto.conf")}
    for args, why in ((["--event", "a/b", "--bowl", "1"], "event"),
                      (["--event", EVENT, "--bowl", "desk"], "the desk's own name"),
                      (["--event", EVENT, "--bowl", "a:b"], "':' is not allowed"),
                      (["--event", EVENT, "--bowl", "a b"], "not allowed"),
                      (["--event", EVENT, "--bowl", "x" * 33], "1..32"),
                      (["--event", EVENT, "--renew", "ghost"], "not a bowl of this broker"),
                      (["--event", EVENT, "--bowl", "1", "--port", "0"], "from 1 to 65535")):
        p = make_users(d, *args)
        assert p.returncode == 2 and why in p.stderr and "Traceback" not in p.stderr, (args, p.stderr)
    assert {f: (d / f).read_bytes() for f in before} == before  # nothing written
    (d / "passwd").write_text("garbage\n")
    p = make_users(d, "--event", EVENT, "--bowl", A)
    assert p.returncode == 2 and "not USER:$7$" in p.stderr
    p = make_users(tmp_path / "empty", "--event", EVENT)
    assert p.returncode == 2 and "--bowl ID" in p.stderr


def test_the_broker_runs_as_the_user_who_made_it(tmp_path):
    # mosquitto started as root switches to the config's `user`: the one running the tool, as the
    # system knows it; $USER and $LOGNAME (left behind by su or sudo) named someone else
    p = make_users(tmp_path, "--event", EVENT, "--bowl", A, env={"USER": "nobody", "LOGNAME": "nobody"})
    assert p.returncode == 0, p.stderr
    me = pwd.getpwuid(os.getuid()).pw_name
    assert "\nuser %s\n" % me in (tmp_path / "mosquitto.conf").read_text()


def test_hash_is_mosquitto_passwd_s():
    # mosquitto_passwd's own output for user a, password s3cret (mosquitto 2.0.11, -b -c)
    line = ("$7$101$sxGaYcrfwVPKSGvU$"
            "nwTsVoZfSAlj2FOEj7UZxNGg3FV5Ejzu2oEgZshsQO/7SayhKVZjaB9NSspQRkuXRvsvpctj/2AFBODKmzMY2Q==")
    assert cmd_broker.hash_password("s3cret", base64.b64decode("sxGaYcrfwVPKSGvU")) == line


@need_broker
def test_anonymous_and_wrong_passwords_are_refused(event_broker):
    b, pw = event_broker
    t = outbox.topic(EVENT, A, "award")
    for user, password in ((None, None), (A, "wrong"), (A, pw[B]), ("ghost", pw[A]), ("desk", pw[A])):
        p = b.publish(t, b"{}", user, password)
        assert p.returncode != 0 and b"not authorised" in p.stderr, (user, p.stderr)
    assert b.publish(t, b"{}", A, pw[A]).returncode == 0
    b.stop()  # (mosquitto writes its log through a buffer)
    assert b.log_text().count("disconnected, not authorised") == 5, b.log_text()


@need_broker
def test_a_bowl_writes_only_its_own_topics_and_reads_only_its_own_grant(event_broker, tmp_path):
    b, pw = event_broker
    desk = Sub(b, tmp_path, "bobing/%s/#" % EVENT, "desk-%s" % EVENT, "desk", pw["desk"])
    desk.start()
    foreign = [(outbox.topic(EVENT, B, "award"), b"forged award"),  # bowl A as bowl B
               (outbox.topic(EVENT, B, "status"), b'{"v":2,"on":0}'),
               (outbox.topic(EVENT, B, "ask"), b"forged ask"),
               (outbox.topic(EVENT, B, "allot"), b"A grants B"),  # only the desk grants
               (outbox.topic(EVENT, A, "allot"), b"A grants itself"),
               ("bobing/%s/desk/status" % EVENT, b'{"v":2,"on":0}'),
               ("bobing/other-event/%s/award" % A, b"another event"),
               (outbox.topic(EVENT, B, "champion"), b"forged champion"),  # the 状元王中王's
               (outbox.topic(EVENT, B, "final"), b"forged final"),
               (outbox.topic(EVENT, B, "finalroll"), b"forged roll"),
               ("bobing/%s/%s/finals" % (EVENT, A), b"a topic nobody owns")]
    for t, payload in foreign:
        # MQTT 3.1.1 has no way to refuse a PUBLISH: mosquitto acknowledges it and drops it
        assert b.publish(t, payload, A, pw[A]).returncode == 0
    own = [(outbox.topic(EVENT, A, leaf), leaf.encode())
           for leaf in ("award", "status", "ask", "champion", "final", "finalroll")]
    for t, payload in own:
        assert b.publish(t, payload, A, pw[A]).returncode == 0
    # a login is one connection (its client id is its user name): A's and B's readers after A's sends
    a_sees = Sub(b, tmp_path, "bobing/%s/#" % EVENT, "bowl-" + A, A, pw[A])  # asks for everything
    a_sees.start()
    b_sees = Sub(b, tmp_path, outbox.topic(EVENT, B, "allot"), "bowl-" + B, B, pw[B])
    b_sees.start()
    grants = [(outbox.topic(EVENT, A, "allot"), b"grant A"), (outbox.topic(EVENT, B, "allot"), b"grant B"),
              ("bobing/%s/desk/status" % EVENT, b'{"v":2,"on":1}')]
    for t, payload in grants:
        assert b.publish(t, payload, "desk", pw["desk"], retain=True).returncode == 0
    # nor can the desk write a bowl's award
    assert b.publish(outbox.topic(EVENT, A, "award"), b"desk as bowl", "desk", pw["desk"]).returncode == 0

    def seen(sub, n, moment=3):
        # n wanted, and a moment more for anything that should not be there
        return [(ln.split()[0], binascii.unhexlify(ln.split()[1])) for ln in sub.lines(n + 1, timeout=moment)]
    assert seen(desk, len(own) + len(grants)) == own + grants  # in order, nothing foreign between
    # the readers' moment was that one too (all three subscribed before the grants): read at once
    assert seen(a_sees, 2, 0) == grants[:1] + grants[2:]  # its own grant and the desk's status, never B's
    assert seen(b_sees, 1, 0) == grants[1:2]


@need_broker
def test_a_bowl_s_login_cannot_take_the_desk_s_or_another_bowl_s_client_id(event_broker, tmp_path):
    """A bowl's login connecting as the desk's client id (desk-<event>, durable) took the desk's
    session and dropped the awards queued in it; as another bowl's, it pushed that bowl off."""
    import paho.mqtt.client as paho
    b, pw = event_broker
    deskkit.bowl(B, SECRET)
    listener = Listener(b.port, "desk", pw["desk"])
    listener.start()
    clients = []

    def connect(client_id, user):
        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
        c.username_pw_set(user, pw[user])
        c.drops = []
        c.on_disconnect = lambda *a: c.drops.append(time.time())
        c.connect("127.0.0.1", b.port, 30)
        c.loop_start()
        clients.append(c)
        return c
    try:
        bowl_b = connect("bowl-" + B, B)
        time.sleep(0.5)
        connect("desk-" + EVENT, A)  # bowl A's login, as the desk and as bowl B
        connect("bowl-" + B, A)
        time.sleep(1)
        assert bowl_b.drops == [], "bowl B was pushed off by bowl A's login"
        n = 30
        t = outbox.topic(EVENT, B, "award")
        for i in range(1, n + 1):
            bowl_b.publish(t, _award(B, 60, i), qos=1).wait_for_publish(10)
        assert listener.wait(n, skip=("status",), timeout=20)[:n] == ["award"] * n
        assert Award.objects.filter(bowl__bowl_id=B, game_no=60).count() == n  # none swallowed
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        listener.stop()
        Award.objects.filter(bowl__bowl_id=B, game_no=60).delete()  # (the database is the test process's)


@need_broker
def test_the_bowl_logs_in_with_its_user_and_says_a_wrong_password(mp_built, event_broker, tmp_path):
    b, pw = event_broker
    desk = Sub(b, tmp_path, outbox.every_bowl(EVENT, "award"), "desk-" + EVENT, "desk", pw["desk"], desk_event=EVENT)
    desk.start()
    root = tmp_path / "flash"
    root.mkdir()
    j, want = play_kiosk(str(root), 3, seed=21, bowl=A)
    j.close()
    p = run_bowl(root, b.port, seconds=7, bowl=A, user=A, password=pw[B], retries=2)  # B's password: refused
    assert p.returncode == 0 and "sent 0 cursor 0 0" in p.stdout, p.stdout + p.stderr
    refusals = [ln for ln in p.stdout.splitlines() if "the broker refused user '%s' (CONNACK 5)" % A in ln]
    assert len(refusals) >= 2 and 2 <= _retry_s(refusals[0]) <= 5, p.stdout  # retried after its backoff
    p = run_bowl(root, b.port, seconds=2, bowl=A, retries=1)  # no user at all: anonymous, refused the same way
    assert "sent 0" in p.stdout and "refused user ''" in p.stdout, p.stdout
    p = run_bowl(root, b.port, bowl=A, user=A, password=pw[A])
    assert p.returncode == 0 and "sent 3 cursor 1 3" in p.stdout, p.stdout + p.stderr
    got = [outbox.decode_award(EVENT, ln.split()[0], opened(SECRET, ln.split()[0], binascii.unhexlify(ln.split()[1])),
                               lambda _b: SECRET) for ln in desk.lines(3)]
    assert {a.key(): (a.cls, a.code) for a in got} == want


def _retry_s(line):
    """The seconds of a bowl's "...; retrying in N s" line."""
    return int(line.rsplit("retrying in ", 1)[1].split()[0])


def _award(bowl, g, n, cls="yixiu", k=1, secret=SECRET):
    t = outbox.topic(EVENT, bowl, "award")
    return sealed(secret, t, outbox.award_payload(g, n, cls, k))


@need_broker
def test_the_desk_refuses_a_flood_of_bad_messages_and_goes_on(mp_built, event_broker, tmp_path):
    b, pw = event_broker
    deskkit.bowl(A, SECRET)
    # (one desk database per test process: other modules' tests may have left awards of bowls A and B)
    Award.objects.filter(bowl__bowl_id=A).delete()
    b_awards = Award.objects.filter(bowl__bowl_id=B).count()
    listener = Listener(b.port, "desk", pw["desk"])
    listener.start()
    try:
        t = outbox.topic(EVENT, A, "award")
        good = _award(A, 90, 1)
        bad = ([b"not json", b"[1,2]", sealed(SECRET, t, b'{"v":3}'),  # malformed
                sealed(SECRET, t, b"{" + b" " * 300 + b"}"),  # over 256 bytes
                _award(A, 90, 2, secret=bytes(16)),  # a bowl with a wrong secret
                _award(A, 90, 3).replace(b"yixiu", b"duitang")]  # the class changed after it was sealed
               * 30)
        # one connection, one message a line (mosquitto_pub -l): the flood comes fast
        flood = subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(b.port), "-q", "1", "-t", t, "-l",
                                "-u", A, "-P", pw[A]], input=b"\n".join(bad + [good] * 5) + b"\n",
                               capture_output=True, timeout=30)
        assert flood.returncode == 0, flood.stderr
        # a packet over the broker's max_packet_size: the broker drops the sender, nothing arrives
        huge = b.publish(t, b"{" + b" " * 5000 + b"}", A, pw[A])
        assert huge.returncode != 0 and b"lost" in huge.stderr, huge.stderr
        # foreign topics from a bowl's user never reach the desk at all (the ACL)
        assert b.publish(outbox.topic(EVENT, B, "award"), _award(B, 1, 1), A, pw[A]).returncode == 0
        results = listener.wait(len(bad) + 5, timeout=60)
        assert results == ["refused"] * len(bad) + ["award"] + ["known"] * 4, results  # the replays counted once
        reasons = [i.message for i in Import.objects.filter(source="mqtt", ok=False).order_by("-id")[:len(bad)]]
        for why in ("not sealed", "format 3", "bytes: at most", "seal does not match"):
            assert any(why in r for r in reasons), why
        # the desk goes on: the bowl's own publisher, right after the flood
        root = tmp_path / "flash"
        root.mkdir()
        j, want = play_kiosk(str(root), 4, seed=22, bowl=A)
        j.close()
        p = run_bowl(root, b.port, bowl=A, user=A, password=pw[A])
        assert "sent 4" in p.stdout, p.stdout + p.stderr
        assert listener.wait(len(bad) + 5 + 4, skip=("status",), timeout=30)[-4:] == ["award"] * 4
        assert {k: v for k, v in awards_of(A).items() if k[1] != 90} == want
        assert Award.objects.filter(bowl__bowl_id=A, game_no=90).count() == 1
        assert Award.objects.filter(bowl__bowl_id=B).count() == b_awards  # none through the ACL
    finally:
        listener.stop()


@need_broker
def test_a_desk_with_a_wrong_password_says_so_and_keeps_trying(event_broker, caplog, monkeypatch):
    b, pw = event_broker
    monkeypatch.setattr(bus, "RETRY_S", 0.3)

    async def main():
        task = asyncio.create_task(bus.listen("127.0.0.1", b.port, EVENT, "desk", pw[A]))
        await asyncio.sleep(2)
        alive = not task.done()
        task.cancel()
        return alive
    with caplog.at_level(logging.WARNING, logger="desk"):
        assert asyncio.run(main())  # still trying, not crashed
    said = [r.getMessage() for r in caplog.records if r.name == "desk"]
    assert len(said) >= 2 and all("authori" in m and "connecting again" in m for m in said), said


@need_broker
@pytest.mark.parametrize("answer", [b"", b"HTTP/1.1 400 Bad Request\r\n\r\n", b"\x20\x02\x00\x05",
                                    b"\x20\x7f" + b"x" * 200])
def test_the_bowl_survives_a_broker_that_answers_nonsense(mp_built, tmp_path, answer):
    # something else on the broker's port (a web server, a half-open proxy, a refusal, a runaway
    # length): the bowl's publisher says it, closes, retries; the game never sees it
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)
    srv.settimeout(0.5)
    stop = []

    def serve():
        while not stop:
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            c.settimeout(0.2)
            try:  # the whole CONNECT (umqtt writes it in pieces; unread data would make the close a reset)
                while c.recv(1024):
                    pass
            except OSError:
                pass
            c.sendall(answer)
            c.close()
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    root = tmp_path / "flash"
    root.mkdir()
    j, _want = play_kiosk(str(root), 1, seed=23, bowl=A)
    j.close()
    try:
        p = run_bowl(root, srv.getsockname()[1], seconds=7, bowl=A, retries=2)  # (the two retries checked below)
    finally:
        stop.append(1)
        t.join(5)
        srv.close()
    # each failed try says why and backs off: 2.5-5 s, then 5-10 s (bowl/net.py's backoff doubles, jittered)
    said = [ln for ln in p.stdout.splitlines() if ln.startswith("net: ") and "retrying in " in ln]
    assert p.returncode == 0 and len(said) >= 2 and "sent 0 cursor 0 0" in p.stdout, p.stdout + p.stderr
    assert 2 <= _retry_s(said[0]) <= 5 and 5 <= _retry_s(said[1]) <= 10, said
    if answer[:1] == b"\x20" and answer[1:2] == b"\x02":
        assert all("refused user ''" in ln for ln in said), said
    else:
        assert all("closed the connection or answered something that is not MQTT" in ln for ln in said), said


@need_broker
def test_make_broker_runs_the_event_s_broker(tmp_path):
    port = free_port()
    d = tmp_path / "b"
    # plain on the free port the test publishes through, TLS on another free one (without --plain the
    # broker listened TLS-only on 8883: no publish below ever got through, the loop ran its whole 10 s,
    # and two runs on one machine fought over 8883)
    pw = passwords(make_users(d, "--event", EVENT, "--bowl", A, "--port", str(port), "--listen", "127.0.0.1",
                              "--plain", "--tls-port", str(free_port())).stdout)
    p = subprocess.run(["make", "-s", "broker", "EVENT=nothing-here", "BROKER_DIR=%s/none" % tmp_path],
                       cwd=portable.ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "python -m host_sim broker" in p.stdout, p.stdout + p.stderr
    run = subprocess.Popen(["make", "-s", "broker", "EVENT=" + EVENT, "BROKER_DIR=%s" % d], cwd=portable.ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        b = Broker(tmp_path, conf=str(d / "mosquitto.conf"), port=port)  # to publish through it
        for _ in range(100):
            if b.publish(outbox.topic(EVENT, A, "status"), b'{"v":2,"on":0}', A, pw[A], retain=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the bowl's user could not publish through `make broker`'s broker in 10 s")
        p = b.publish("x", b"{}")
        assert p.returncode != 0 and b"not authorised" in p.stderr, p.stderr  # anonymous: refused
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        out = run.communicate(timeout=10)[0].decode()
    assert "Saving in-memory database" in out and (d / "mosquitto.db").exists(), out  # persistence on



@need_broker
def test_only_the_desk_grants_stock_to_a_bowl(mp_built, event_broker, tmp_path):
    # the whole app on the frozen port, logged in as bowl A, playing on the event's shared stock:
    # its grant comes from the desk's user; an allot bowl B or A itself writes (a bowl granting
    # stock) and one too big for the broker never reach it; its ask reaches the desk
    b, pw = event_broker
    root = tmp_path / "flash"
    root.mkdir()
    (root / "settings.txt").write_text("mode=kiosk\nbowl_id=%s\nsecret=%s\n" % (A, binascii.hexlify(SECRET).decode()))
    (root / "net.txt").write_text("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nport=%d\nevent=%s\n"
                                  "user=%s\nmqtt_password=%s\n" % (b.port, EVENT, A, pw[A]))
    allot = outbox.topic(EVENT, A, "allot")
    forged = sealed(SECRET, allot, outbox.allot_payload(9, [("yixiu", 99)]), "d")  # sealed right, even
    assert b.publish(allot, sealed(SECRET, allot, outbox.allot_payload(2, [("duitang", 1), ("yixiu", 1)]), "d"),
                     "desk", pw["desk"], retain=True).returncode == 0
    # then, retained over it if the broker let them: a bowl's own grants, one too big
    assert b.publish(allot, forged, B, pw[B], retain=True).returncode == 0  # dropped by the ACL
    assert b.publish(allot, forged, A, pw[A], retain=True).returncode == 0  # so is this
    huge = b.publish(allot, b'{"v":2,"s":8,"grant":[["yixiu",1]],"x":"' + b"x" * 2000 + b'"}', "desk", pw["desk"],
                     retain=True)
    assert huge.returncode != 0 and b"lost" in huge.stderr  # over max_packet_size: the desk's connection closed
    asks = Sub(b, tmp_path, outbox.topic(EVENT, A, "ask"), "desk-asks", "desk", pw["desk"])
    asks.start()
    p = subprocess.run(bowl_cmd("app", root, 4000), capture_output=True, text=True, timeout=60, cwd=portable.ROOT)
    out = p.stdout + p.stderr
    assert p.returncode == 0 and "Traceback" not in out, out
    assert "net: connected" in out and "net: allot 2 received" in out and "stock: grant 2 applied" in out, out
    assert "allot 9" not in out and "allot 8" not in out and "allot refused" not in out, out
    got = asks.lines(1)
    t, hexp = got[0].split() if got else ("", "")
    assert got and outbox.decode_ask(EVENT, t, opened(SECRET, t, binascii.unhexlify(hexp)))[0] == A, got
    r = journal.recover(str(root))
    assert r.journal.table.grant_s == 2 and r.journal.table.granted["yixiu"] == 1
    r.journal.close()


@need_broker
def test_a_stolen_bowl_password_injects_nothing_and_a_capture_of_the_event_holds_no_code_password_or_secret(
        mp_built, event_broker, tmp_path, monkeypatch):
    """Before: a capture of one bowl logging in and sending one award held the 状元's claim code
    four times (typed at the counter it was accepted at once), and a sniffed bowl password let
    anyone speak for the bowl. Now every payload is sealed with the bowl's key and carries no code;
    a login with the bowl's stolen password can push the bowl off, and nothing it writes is taken."""
    import paho.mqtt.client as paho
    from host_sim.desk.models import BowlStatus
    b, pw = event_broker
    deskkit.bowl(A, SECRET)
    Award.objects.filter(bowl__bowl_id=A).delete()
    BowlStatus.objects.filter(bowl__bowl_id=A).delete()
    # the capture: every message the broker carries to the desk, as it comes off the socket (a second
    # login as the desk would take the listener's client id: use_username_as_clientid)
    carried = []
    one = bus._one

    async def sniffed(event, own, client, m, secrets, seen):
        carried.append((m.topic.value, bytes(m.payload)))
        return await one(event, own, client, m, secrets, seen)
    monkeypatch.setattr(bus, "_one", sniffed)
    listener = Listener(b.port, "desk", pw["desk"])
    listener.start()
    try:
        root = tmp_path / "flash"
        root.mkdir()
        j, want = play_kiosk(str(root), 5, seed=30, bowl=A)
        j.close()
        assert "sent 5 cursor" in run_bowl(root, b.port, bowl=A, user=A, password=pw[A]).stdout
        listener.wait(5, skip=("status",))
        assert awards_of(A) == want
        status = BowlStatus.objects.get(bowl__bowl_id=A)
        run = list(carried)  # the event run: the bowl's awards and status (before the attacker's messages)
        captured = ["%s %s" % (tp, binascii.hexlify(p).decode()) for tp, p in run]
        # the attacker logs in with bowl A's stolen password (its client id is forced to "A")
        thief = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="anything", clean_session=True)
        thief.username_pw_set(A, pw[A])
        thief.connect("127.0.0.1", b.port, 30)
        thief.loop_start()
        t = lambda leaf: outbox.topic(EVENT, A, leaf)  # noqa: E731
        code = claim_of(want)  # a code the sniffer saw before this change (format 1 carried it)
        old = [ln for ln in captured if ln.split()[0] == t("status")]
        attacks = [
            (t("award"), b'{"v":1,"g":7,"n":1,"c":"zhuangyuan","k":1,"code":"%s"}' % code.encode()),  # format 1
            (t("award"), outbox.award_payload(7, 1, "zhuangyuan", 1)),  # unsealed
            (t("award"), sealed(bytes(16), t("award"), outbox.award_payload(7, 2, "zhuangyuan", 1))),  # guessed key
            (t("status"), sealed(bytes(16), t("status"), b'{"v":2,"on":1,"b":99,"c":1,"i":1,"fw":"1","g":7,'
                                                         b'"left":[],"faults":[]}')),
            (t("ask"), outbox.ask_payload(0, [("zhuangyuan", 0)])),
            (t("status"), binascii.unhexlify(old[0].split()[1])),  # the bowl's first status, replayed
        ]
        n = len(listener.results)  # (before the attacks: the listener answers them as they come)
        for topic, payload in attacks:
            thief.publish(topic, payload, qos=1).wait_for_publish(10)
        replay = [ln for ln in captured if ln.split()[0] == t("award")][0]  # a captured award, replayed
        thief.publish(t("award"), binascii.unhexlify(replay.split()[1]), qos=1).wait_for_publish(10)
        for leaf in ("allot", "shakes", "seed"):  # the desk's topics: the broker drops them (its ACL)
            body = b'{"v":2,"s":9,"grant":[["zhuangyuan",9]]}'
            thief.publish(t(leaf), sealed(bytes(16), t(leaf), body, "d"), qos=1, retain=True).wait_for_publish(10)
        thief.loop_stop()
        thief.disconnect()
        got = listener.wait(n + len(attacks) + 1, timeout=20)
        assert got[-(len(attacks) + 1):] == ["refused"] * len(attacks) + ["known"], got  # the replayed award
        assert awards_of(A) == want  # nothing injected
        status.refresh_from_db()
        assert BowlStatus.objects.get(bowl__bowl_id=A).status_order == status.status_order
        reasons = " | ".join(i.message for i in Import.objects.filter(source="mqtt", ok=False, name__contains=A))
        for why in ("format 1 (unsealed", "not sealed", "its seal is not bowl %s" % A, "older than the last one"):
            assert why in reasons, (why, reasons)
        r = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(b.port), "-u", "desk", "-P", pw["desk"],
                            "-t", "bobing/%s/%s/+" % (EVENT, A), "--retained-only", "-W", "2", "-F", "%t"],
                           capture_output=True, text=True)
        assert not [x for x in r.stdout.split() if x.rsplit("/", 1)[-1] in ("allot", "shakes", "seed")], r.stdout
    finally:
        listener.stop()
    # the capture of the whole run: no claim code, no password, no secret (nor the message key)
    from bobing import wire
    carried = [p for _t, p in run]
    assert len(carried) >= 6
    secrets = [c.encode() for _cls, c in want.values()] + [pw[A].encode(), pw["desk"].encode(),
                                                           binascii.hexlify(SECRET), SECRET,
                                                           binascii.hexlify(wire.key(SECRET)), wire.key(SECRET)]
    leaked = [(s, p) for p in carried for s in secrets if s in p]
    assert not leaked, leaked
    print("capture: %d payloads, %d bytes; claim codes, passwords, secret found in them: %d"
          % (len(carried), sum(map(len, carried)), len(leaked)))


def claim_of(want):
    return next(iter(want.values()))[1]
