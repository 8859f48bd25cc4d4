"""event-demo: a whole event on this computer, no hardware: a real mosquitto with the event's users
and ACL (`python -m host_sim broker`), the prize desk (`serve`) with its MQTT listener (`listen`),
and N simulated kiosk bowls running the real firmware on the 32-bit MicroPython unix port
(host_sim/event/kiosk_bowl.py, each with its own flash folder, verifiable dice on by default),
their customers shaking on their own, one every --pace-s seconds at each bowl. Everything listens
on 127.0.0.1 only. Open the desk's pages and watch awards, stock, grants, the fair page and the
forecast move; Ctrl-C stops everything (bowls first, then the desk, then the broker)."""
import datetime
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time

from host_sim import event as loop
from host_sim.cli.options import InputError, whole

EVENT = "demo"
LISTENING = "mqtt: listening on"  # the listener's log line once subscribed (host_sim/desk/bus.py)
# the event's shared stock (a mall's three-day set), granted to the bowls a step at a time
TOTALS = {"zhuangyuan": 3, "duitang": 6, "sanhong": 20, "sijin": 60, "erju": 300, "yixiu": 1500}


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--bowls", type=whole(1, 12), default=3, help="simulated kiosk bowls (1..12, default 3)")
    p.add_argument("--pace-s", type=whole(0, 3600), default=20, metavar="S",
                   help="seconds between one customer and the next at each bowl (default 20; 0: at once)")
    p.add_argument("--speed", type=whole(1, 20), default=1,
                   help="the bowls' clock this many times real time (default 1: as a customer plays)")
    p.add_argument("--port", type=whole(1024, 65535), default=8000, help="the desk's port (default 8000)")
    p.add_argument("--dir", default=os.path.join("data", "demo"), metavar="FOLDER",
                   help="where each run gets its own folder (default data/demo)")
    p.add_argument("--fair", choices=("on", "off"), default="on", help="verifiable dice (default on)")
    p.add_argument("--pace", action="append", default=[], metavar="CLASS=N/PER",
                   help="the release schedule, as the desk's `pace` command takes it (zhuangyuan=1/day)")
    p.add_argument("--for", dest="seconds", type=whole(1, 86400), default=0, metavar="S",
                   help="stop by itself after S seconds (default: at Ctrl-C)")


def _port_free(port):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


STABLE_S = 12  # s without a new commitment at the desk before the bowls are told to exit


def _wait(what, ok, proc, log, timeout=90):
    deadline = time.time() + timeout
    while not ok():
        if proc.poll() is not None or time.time() > deadline:
            raise InputError("%s did not start: %s" % (what, _tail(log)))
        time.sleep(0.2)


def _tail(path, n=1500):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-n:]
    except OSError:
        return ""


def _listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close()
        return True
    except OSError:
        return False


class Demo:
    def __init__(self, args):
        self.a = args
        self.procs = []  # (name, Popen), in the order they were started
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.dir = os.path.abspath(os.path.join(args.dir, "run-" + stamp))  # a run never reuses an older one's
        self.ids = ["%04d" % (i + 1) for i in range(args.bowls)]
        self.roots = [os.path.join(self.dir, "bowl-" + b) for b in self.ids]
        self.desk_dir = os.path.join(self.dir, "desk")
        self.broker_port = loop.free_port()

    def say(self, text):
        print(text, flush=True)

    def _start(self, name, argv, log, env=None):
        with open(log, "ab") as out:
            # its own session: the terminal's Ctrl-C reaches only the demo, which stops them in order
            p = subprocess.Popen(argv, cwd=loop.ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        self.procs.append((name, p))
        return p

    def _desk(self, *args, stdin=None):
        p = subprocess.run([sys.executable, "-m", "host_sim.desk"] + list(args), cwd=loop.ROOT, input=stdin,
                           env=loop.desk_env(self.desk_dir), capture_output=True, text=True, timeout=180)
        if p.returncode != 0:
            raise InputError("the desk's %s failed: %s" % (args[0], (p.stdout + p.stderr)[-1500:]))
        return p.stdout

    def start(self):
        os.makedirs(self.desk_dir)
        bdir = os.path.join(self.dir, "broker")
        p = subprocess.run([sys.executable, "-m", "host_sim", "broker", "--out", bdir, "--event", EVENT,
                            "--plain", "--port", str(self.broker_port), "--listen", "127.0.0.1",
                            "--tls-port", str(loop.free_port())] + [x for b in self.ids for x in ("--bowl", b)],
                           cwd=loop.ROOT, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise InputError("the broker's users: %s" % (p.stdout + p.stderr)[-1500:])
        words = loop.passwords(p.stdout)
        b = self._start("mosquitto", ["mosquitto", "-c", os.path.join(bdir, "mosquitto.conf")],
                        os.path.join(self.dir, "broker.log"))
        _wait("mosquitto", lambda: _listening(self.broker_port), b, os.path.join(self.dir, "broker.log"))
        self.say("broker: mosquitto on 127.0.0.1:%d with the event's users and ACL (%s)" % (self.broker_port, bdir))
        # the desk: its bowls and their claim secrets, the event's stock, its schedule, the promoter
        keys = {b: secrets.token_bytes(16) for b in self.ids}
        self._desk("shell", "-c", "from host_sim.desk.models import Bowl\n" + "".join(
            "Bowl.objects.create(bowl_id=%r, secret=bytes.fromhex(%r))\n" % (b, k.hex()) for b, k in keys.items()))
        self._desk("stock", "--event", EVENT, *["%s=%d" % kv for kv in TOTALS.items()])
        if self.a.pace:
            self._desk("pace", "--event", EVENT, *self.a.pace)
        self.password = secrets.token_urlsafe(9)
        self._desk("attendant", "promoter", "--supervisor", "--password-stdin", stdin=self.password + "\n")
        log = os.path.join(self.desk_dir, "listen.log")
        lst = self._start("listener", [sys.executable, "-m", "host_sim.desk", "listen", "--broker", "127.0.0.1:%d"
                                       % self.broker_port, "--event", EVENT, "--user", "desk"], log,
                          env=loop.desk_env(self.desk_dir, MQTT_PASSWORD=words["desk"]))
        _wait("the desk's listener", lambda: LISTENING in _tail(log, 10 ** 6), lst, log)
        slog = os.path.join(self.desk_dir, "serve.log")
        srv = self._start("desk", [sys.executable, "-m", "host_sim.desk", "serve", "--listen",
                                   "127.0.0.1:%d" % self.a.port], slog, env=loop.desk_env(self.desk_dir))
        _wait("the desk", lambda: _listening(self.a.port), srv, slog)
        for bowl, root in zip(self.ids, self.roots):
            loop.write_flash(root, bowl, keys[bowl], self.broker_port, EVENT, fair=self.a.fair == "on",
                             fair_wait=min(3600, 60 * self.a.speed), user=bowl, password=words[bowl])
            loop.ctl(root, "play")
            self.procs.append(("bowl " + bowl, loop.start_bowl(root, self.a.speed, self.a.pace_s * 1000,
                                                               new_session=True)))
        url = "http://127.0.0.1:%d/" % self.a.port
        self.say("desk: %s  log in as promoter, password %s" % (url, self.password))
        self.say("      awards and stock: %sstock   bowls: %sbowls   shakes: %sshakes   fair: %sfair   "
                 "forecast: %sforecast?event=%s" % (url, url, url, url, url, EVENT))
        self.say("bowls: %s, a customer every %d s each%s; their flash folders in %s" % (
            " ".join(self.ids), self.a.pace_s, "" if self.a.speed == 1 else " of the bowls' clock (%d times real "
            "time)" % self.a.speed, self.dir))
        self.say("Ctrl-C stops everything")

    def awards(self):
        return self._count("SELECT COUNT(*) FROM desk_award")

    def _count(self, sql):
        """A count from the desk's database, read-only (0 before it exists)."""
        try:
            db = sqlite3.connect("file:%s?mode=ro" % os.path.join(self.desk_dir, "desk.sqlite3"), uri=True, timeout=5)
            try:
                return db.execute(sql).fetchone()[0]
            finally:
                db.close()
        except sqlite3.Error:
            return 0

    def watch(self):
        t0 = time.time()
        last = -1
        while not self.a.seconds or time.time() - t0 < self.a.seconds:
            for name, p in self.procs:
                if p.poll() is not None:
                    raise InputError("%s stopped (exit %s): see %s" % (name, p.returncode, self.dir))
            n = self.awards()
            if n != last:
                self.say("%5.0f s: %d awards at the desk" % (time.time() - t0, n))
                last = n
            time.sleep(2)

    def stop(self):
        """Bowls first (no new customer; the one shaking finishes his turn, revealed to the desk, then
        they say goodbye), then the desk, then the broker."""
        for root in self.roots:
            if os.path.isdir(root):
                loop.ctl(root, "idle")
        deadline = time.time() + 90  # (a loaded machine runs the bowls' clocks slow)
        said = False
        # the last customer's commitment may still be on its way (a bowl connects only when quiet,
        # and retries within 10 s): wait until every commitment at the desk is revealed and none
        # new has come for STABLE_S
        seen, since = -1, time.time()
        while time.time() < deadline:
            n = self._count("SELECT COUNT(*) FROM desk_commitment")
            if n != seen:
                seen, since = n, time.time()
            if not self._count("SELECT COUNT(*) FROM desk_commitment WHERE secret = ''"):
                if time.time() - since >= STABLE_S:
                    break
            elif not said:
                self.say("等待最后的顾客揭示 waiting for the last customers' turns to be revealed ...")
                said = True
            time.sleep(0.5)
        left = self._count("SELECT COUNT(*) FROM desk_commitment WHERE secret = ''")
        if left:
            self.say("%d 个顾客的局尚未揭示 turn(s) not revealed yet: they stay in the bowls' journals" % left)
        for root in self.roots:
            if os.path.isdir(root):
                loop.ctl(root, "exit")
        for name, p in reversed(self.procs):
            if name.startswith("bowl "):
                self._end(name, p, None)
        for name, p in reversed(self.procs):
            if not name.startswith("bowl "):
                self._end(name, p, signal.SIGTERM)
        self.say("stopped: %d awards at the desk; everything of this run is in %s" % (self.awards(), self.dir))

    def _end(self, name, p, sig):
        if p.poll() is None and sig is not None:
            p.send_signal(sig)
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        self.say("stopped %s (pid %d)" % (name, p.pid))


def run(a):
    # the arguments first, before anything starts
    from host_sim.desk.schedule import PaceError, parse
    try:
        parse(a.pace)
    except PaceError as e:
        raise InputError("--pace %s" % e)
    if os.path.exists(a.dir) and not os.path.isdir(a.dir):
        raise InputError("--dir %s: 不是文件夹 is not a folder: name a folder (it is made if missing)" % a.dir)
    if shutil.which("mosquitto") is None:
        raise InputError("event-demo needs Debian's mosquitto: apt-get install mosquitto (or `make deps`)")
    if not os.access(loop.MP32_FROZEN, os.X_OK):
        raise InputError("event-demo needs the 32-bit MicroPython unix port at %s: `make mp` builds it"
                         % loop.MP32_FROZEN)
    if not _port_free(a.port):
        raise InputError("--port %d: already in use on 127.0.0.1 (another desk?): name a free one, e.g. --port %d"
                         % (a.port, loop.free_port()))
    d = Demo(a)
    # SIGTERM as Ctrl-C: the same orderly stop
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        d.start()
        d.watch()
    except KeyboardInterrupt:
        d.say("Ctrl-C: stopping")
    finally:
        d.stop()
    return 0
