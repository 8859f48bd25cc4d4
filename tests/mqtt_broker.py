"""A real mosquitto for the tests (shared by every test that needs a broker):
its own config in a temp folder, loopback only, a free port, persistence on
(a restart keeps retained messages and durable sessions), optionally with
access control (a password file and an ACL file: then anonymous clients are
refused). Subscribers started with Sub() are stopped with the broker's
fixture, whatever the test did. The fixtures (broker, event_broker, broker_installed)
are in tests/conftest.py; a test that starts its own Broker is marked @need_broker.
"""
import os
import signal
import socket
import subprocess
import time

import pytest

from deskkit import free_port


need_broker = pytest.mark.usefixtures("broker_installed")  # fails (never skips) without mosquitto


class Broker:
    """mosquitto on 127.0.0.1:<free port>. password_file/acl_file: paths of files in
    mosquitto's formats (then allow_anonymous is false); extra: more config lines.
    Broker(d, conf=PATH, port=N): run that config instead (one made by
    `python -m host_sim broker --listen 127.0.0.1 --port N`). Its log: log_text()."""

    def __init__(self, d, password_file=None, acl_file=None, extra="", conf=None, port=None):
        self.dir = str(d)
        self.log = os.path.join(self.dir, "broker.log")
        self.proc = None
        self.clients = []  # subscribers started on it: stopped with the test, whatever happens
        if conf is not None:
            self.conf, self.port = conf, port
            return
        self.port = free_port()
        self.conf = os.path.join(self.dir, "mosquitto.conf")
        lines = ["listener %d 127.0.0.1" % self.port, "persistence true",
                 "persistence_location %s/" % self.dir, "log_dest stdout"]
        if password_file:
            lines += ["allow_anonymous false", "password_file %s" % password_file]
        else:
            lines.append("allow_anonymous true")
        if acl_file:
            lines.append("acl_file %s" % acl_file)
        if os.getuid() == 0:  # as root (CI) mosquitto would switch to user mosquitto: no access here
            lines.append("user root")
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n" + extra)

    def start(self):
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(["mosquitto", "-c", self.conf], stdout=log, stderr=subprocess.STDOUT)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start: %s" % self.log_text()[-2000:])

    def stop(self):  # SIGTERM: mosquitto writes its persistence file and exits
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
            self.proc = None

    def restart(self):
        self.stop()
        self.start()

    def log_text(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def auth(self, user=None, password=None):
        return (["-u", user] if user else []) + (["-P", password] if password is not None else [])

    def publish(self, topic, payload, user=None, password=None, qos=1, retain=False):
        """mosquitto_pub one message -> the CompletedProcess (returncode != 0: refused)."""
        return subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.port), "-q", str(qos), "-t", topic,
                               "-s"] + (["-r"] if retain else []) + self.auth(user, password),
                              input=payload, capture_output=True, timeout=10)


class Sub:
    """mosquitto_sub as a durable subscription (client id, clean session off, QoS 1):
    what it is sent while away waits in the broker. Each message is a line "topic hexpayload"."""

    def __init__(self, broker, d, topic, client_id, user=None, password=None, desk_event=None):
        self.broker = broker
        self.desk_event = desk_event  # as the desk: its retained status once subscribed (bowls send only then)
        self.client_id = client_id
        self.out = os.path.join(str(d), client_id + ".txt")
        self.err = os.path.join(str(d), client_id + ".err")
        self.topic = topic
        self.user, self.password = user, password
        self.proc = None

    def start(self):
        self.file = open(self.out, "a")
        self.errfile = open(self.err, "a")
        self.proc = subprocess.Popen(
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-i", self.client_id, "-c",
             "-q", "1", "-t", self.topic, "-F", "%t %x"] + self.broker.auth(self.user, self.password),
            stdout=self.file, stderr=self.errfile)
        self.broker.clients.append(self)
        time.sleep(0.3)  # subscribed (the session then exists in the broker)
        if self.desk_event:
            self.broker.publish("bobing/%s/desk/status" % self.desk_event, b'{"v":2,"on":1}', self.user,
                                self.password, retain=True)

    def lines(self, n, timeout=10):
        t0 = time.time()
        while time.time() - t0 < timeout:
            got = open(self.out).read().splitlines()
            if len(got) >= n:
                return got
            time.sleep(0.05)
        return open(self.out).read().splitlines()

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None
            self.file.close()
            self.errfile.close()
