"""The event under load and faults, on loopback (firmware/PROTOCOL.md
"Load and faults"): N bowls (host_sim/event/kiosk_bowl.py, the bowl's own code on the
32-bit frozen MicroPython unix port, each a process) play kiosk customers at
full speed against a real mosquitto and the prize desk's listener
(`python -m host_sim.desk listen`, a process with its own SQLite database),
sharing one event stock (the desk's totals, granted to the bowls on `allot`,
asked for on `ask`: PROTOCOL.md "Shared stock"; or each bowl with its own),
while the broker is restarted, the desk is SIGKILLed and started again, and
one bowl loses its Wi-Fi for a long stretch. Then the checks, from the bowls'
journals read by the firmware's own code (bobing.outbox.replay, the one place
awards are numbered) against the desk's database and the broker's retained
statuses. Used by tests/test_event_load.py and bench/event_load.py.

    ev = Event(folder, bowls=4, broker=mqtt_broker.Broker(folder))  # anything with port, start(), stop()
    ev.run(Plan(play_s=40))   # -> ev.report (dict), ev.problems (list of texts: empty = all checks hold)

Times: every clock is CLOCK_REALTIME on this machine. An award's latency is
the desk's Award.seen (stamped by ingest() inside the transaction that stores
it) minus the wall time the bowl logged just after the 10 ms round whose
journal write committed it. A fault's recovery is measured from the end of the
fault (broker accepting again, desk process started again, Wi-Fi back) until
the desk holds every award committed before that moment and, for the broker
and the Wi-Fi, every bowl concerned has connected again (its first "on":1
status after the end, as a watching subscriber receives it); for the broker
and the desk the bowl cut off meanwhile is left out (it has its own figure).
Also given: when the bowls reconnected, when the restarted desk subscribed."""
import binascii
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:  # run as a script: python tests/harness/event_sim.py
    sys.path.insert(0, ROOT)
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
from bobing import journal, outbox  # noqa: E402
from host_sim import event as loop  # noqa: E402  (the event on loopback: the bowls' flash and processes)

sys.path.insert(0, os.path.join(ROOT, "tests"))
from portable import MP32_FROZEN as MP  # noqa: E402  (the one place the binary's path is spelled)
EVENT = "loadtest"
LISTENING = "INFO desk: mqtt: listening on"  # host_sim/desk/bus.py's log once subscribed
# the event's shared stock (set on the desk: `stock --event`; the bowls play on the desk's grants):
# the top classes run out across the bowls while the test runs (the kiosk's lower_tier rule then
# pays the next class down), the others last
TOTALS = {"zhuangyuan": 3, "duitang": 8, "sanhong": 20, "sijin": 60, "erju": 400, "yixiu": 2000}
# or each bowl's own stock (settings.txt's stock=, net.txt's stock=bowl: the network only reports)
STOCK = {"zhuangyuan": 1, "duitang": 3, "sanhong": 8, "sijin": 20, "erju": 150, "yixiu": 400}


class Plan:
    """When each fault comes (seconds after play starts) and how long it lasts."""

    def __init__(self, play_s=36, cut_at=2, cut_s=20, broker_at=4, broker_down_s=2, desk_at=18, desk_down_s=3,
                 faults=True):
        self.faults = faults  # False: play_s of play without any fault
        self.play_s = play_s
        self.cut_at = cut_at
        self.cut_s = cut_s  # the long stretch: four times the bowl's 5 s back-off
        self.broker_at = broker_at
        self.broker_down_s = broker_down_s
        self.desk_at = desk_at
        self.desk_down_s = desk_down_s


def _utc_ns(text):
    """Django's stored DateTimeField (UTC, 'YYYY-MM-DD HH:MM:SS[.ffffff]') -> ns since the epoch."""
    fmt = "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S"
    d = datetime.strptime(text[:26], fmt).replace(tzinfo=timezone.utc)
    return int(d.timestamp()) * 1000000000 + d.microsecond * 1000


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))]


class Event:
    def __init__(self, folder, bowls, broker, speed=10, mp=MP, totals=None, stock=None, say=None, fair=False,
                 pace=()):
        """totals: the event's stock per class, set on the desk (TOTALS by default); or stock:
        each bowl's own ({class: n}, the same for every bowl; then no shared stock). fair: the
        bowls play verifiable dice (the default; else net.txt says fair=off) and every roll is checked after the run
        (`python -m host_sim verify-fair` on each bowl's journal with the desk's export)."""
        self.fair = fair
        self.pace = list(pace)  # the event's release schedule: `pace` arguments (CLASS=N/day ...)
        self.dir = str(folder)
        self.n = bowls
        self.speed = speed
        self.broker = broker
        self.mp = mp
        self.stock = stock
        self.totals = None if stock is not None else dict(TOTALS if totals is None else totals)
        self.say = say or (lambda text: None)
        self.ids = ["%04d" % (101 + i) for i in range(bowls)]
        self.roots = [os.path.join(self.dir, "bowl-" + b) for b in self.ids]
        self.secrets = [os.urandom(16) for _ in self.ids]
        self.desk_dir = os.path.join(self.dir, "desk")
        self.procs = {}  # bowl id -> Popen
        self.desk = None
        self.faults = []  # (name, start_ns, end_ns, bowl or None)
        self._desk_before = None
        self.desk_listening = None
        self.report = {}
        self.problems = []

    # ---- setting up ------------------------------------------------------------
    def desk_env(self):
        return loop.desk_env(self.desk_dir)

    def setup(self):
        os.makedirs(self.desk_dir, exist_ok=True)
        for bowl, root, secret in zip(self.ids, self.roots, self.secrets):
            # verifiable dice: the default; a customer waits a minute of real time for the desk's
            # value (fair_wait is in the bowl's clock, which runs `speed` times real time)
            loop.write_flash(root, bowl, secret, self.broker.port, EVENT, stock=None if self.totals else self.stock,
                             fair=self.fair, fair_wait=min(3600, 60 * self.speed))
        # the desk's database (migrated by the command), its bowls with their claim secrets, the
        # event's stock
        code = ("from host_sim.desk.models import Bowl\n" + "".join(
            "Bowl.objects.create(bowl_id=%r, secret=bytes.fromhex(%r))\n" % (b, binascii.hexlify(s).decode())
            for b, s in zip(self.ids, self.secrets)))
        if self.totals:
            code += "from django.core.management import call_command\ncall_command('stock', '--event', %r, %s)\n" % (
                EVENT, ", ".join(repr("%s=%d" % kv) for kv in sorted(self.totals.items())))
            if self.pace:
                code += "call_command('pace', '--event', %r, %s)\n" % (EVENT, ", ".join(map(repr, self.pace)))
        p = subprocess.run([sys.executable, "-m", "host_sim.desk", "shell", "-c", code], cwd=ROOT,
                           env=self.desk_env(), capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError("the desk's setup failed: %s" % (p.stdout + p.stderr)[-2000:])

    def _desk_log(self):
        try:
            with open(os.path.join(self.desk_dir, "listen.log")) as f:
                return f.read()
        except OSError:
            return ""

    def wait_desk(self, before, timeout=90):
        """Until the desk's listener has subscribed (`before`: its count of subscriptions until now)."""
        deadline = time.time() + timeout
        while self._desk_log().count(LISTENING) <= before:
            if time.time() > deadline or self.desk is None or self.desk.poll() is not None:
                raise RuntimeError("the desk did not subscribe: %s" % self._desk_log()[-2000:])
            time.sleep(0.1)

    def start_desk(self):
        """-> the number of subscriptions the desk's log showed before this start."""
        before = self._desk_log().count(LISTENING)
        log = open(os.path.join(self.desk_dir, "listen.log"), "a")
        self.desk = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "listen", "--broker",
                                      "127.0.0.1:%d" % self.broker.port, "--event", EVENT], cwd=ROOT,
                                     env=self.desk_env(), stdout=log, stderr=subprocess.STDOUT)
        log.close()
        return before

    def kill_desk(self):
        if self.desk is not None and self.desk.poll() is None:
            self.desk.send_signal(signal.SIGKILL)
            self.desk.wait(10)
        self.desk = None

    def start_bowls(self):
        """Each bowl boots idle (nobody plays yet): -> once all of them have told the broker."""
        for bowl, root in zip(self.ids, self.roots):
            self.ctl(bowl, "idle")
            self.procs[bowl] = loop.start_bowl(root, self.speed, mp=self.mp)
        deadline = time.time() + 30 + 2 * self.n
        while True:
            st = self.retained()
            if all(isinstance(st.get(b), dict) and st[b].get("on") == 1 for b in self.ids):
                return
            if time.time() > deadline:
                raise RuntimeError("bowls not connected after boot: %s" % sorted(
                    b for b in self.ids if not isinstance(st.get(b), dict) or st[b].get("on") != 1))
            self._wait_until(time.time() + 0.5)

    def watch_status(self):
        """Every status message as it arrives, stamped (mosquitto_sub reconnects by itself after
        the broker's restart; durable, so what came meanwhile is delivered): when each bowl
        connected (each connection publishes an "on":1 status first)."""
        self.watch_file = os.path.join(self.dir, "status-watch.txt")
        out = open(self.watch_file, "a")
        self.watch = subprocess.Popen(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-i",
                                       "status-watch", "-c", "-q", "1", "-t", outbox.every_bowl(EVENT, "status"),
                                       "-F", "%U %t %p"], stdout=out, stderr=subprocess.DEVNULL)
        out.close()

    def connections(self):
        """{bowl: [wall ns of each "on":1 status the watcher saw]}."""
        out = {}
        try:
            lines = open(self.watch_file).read().splitlines()
        except (OSError, AttributeError):
            return out
        for line in lines:
            w = line.split(" ", 2)
            if len(w) == 3 and '"on":1' in w[2]:
                sec, _, frac = w[0].partition(".")
                out.setdefault(w[1].split("/")[2], []).append(int(sec) * 1000000000 + int((frac + "0" * 9)[:9]))
        return out

    def ctl(self, bowl, words):
        loop.ctl(self.roots[self.ids.index(bowl)], words)

    def stop(self):
        """Everything this event started, whatever happened."""
        for bowl in list(self.procs):
            try:
                self.ctl(bowl, "exit")
            except OSError:
                pass
        for bowl, p in list(self.procs.items()):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = {}
        self.kill_desk()
        if getattr(self, "watch", None) is not None:
            self.watch.terminate()
            self.watch.wait(10)
            self.watch = None

    # ---- what happened -----------------------------------------------------------
    def committed(self):
        """{(bowl, game, award): wall ns} from the bowls' logs, and their other lines."""
        out, notes = {}, {}
        for bowl, root in zip(self.ids, self.roots):
            notes[bowl] = []
            try:
                lines = open(root + ".log").read().splitlines()
            except OSError:
                continue
            for line in lines:
                w = line.split()
                if w and w[0] == "a" and len(w) == 4:
                    out[(bowl, int(w[1]), int(w[2]))] = int(w[3])
                elif w:
                    notes[bowl].append(line)
        return out, notes

    def _desk_db(self):
        """The desk's database, read-only (the listener writes it meanwhile)."""
        return sqlite3.connect("file:%s?mode=ro" % os.path.join(self.desk_dir, "desk.sqlite3"), uri=True, timeout=30)

    def desk_awards(self):
        """{(bowl, game, award): (class, seen ns)} and the number of rows, from the desk's database."""
        db = self._desk_db()
        try:
            rows = db.execute("SELECT b.bowl_id, a.game_no, a.award_no, a.cls, a.seen FROM desk_award a "
                              "JOIN desk_bowl b ON a.bowl_id = b.id").fetchall()
        except sqlite3.OperationalError:
            rows = []  # not migrated yet
        finally:
            db.close()
        return {(r[0], r[1], r[2]): (r[3], _utc_ns(r[4])) for r in rows}, len(rows)

    def journals(self):
        """{(bowl, game, award): class} and {bowl: (game, {class: left}, {class: cumulative grant} (an
        event game) or its initial stock)} from each bowl's flash (its last game), read by the
        firmware's own journal code."""
        awards, last = {}, {}
        for bowl, root in zip(self.ids, self.roots):
            ids, _top = journal.inventory(root)
            for gid in ids:
                _scan, t, won = outbox.replay(journal.path_of(root, gid), gid)
                if t is None:
                    continue
                for n, cls, _customer in won:
                    awards[(bowl, gid, n)] = cls
                last[bowl] = (gid, dict(t.pool), dict(t.granted) if t.event else dict(t.initial))
        return awards, last

    def retained(self):
        """{bowl: status dict} as the broker holds them (retained) now."""
        # the broker hands the retained messages over at once, but says nothing after the last:
        # -C stops at the bowls' and the desk's own (the wildcard matches desk/status too), -W 2
        # when one is missing, instead of 2 s every time
        p = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-t",
                            outbox.every_bowl(EVENT, "status"), "--retained-only", "-C", str(self.n + 1),
                            "-W", "2", "-F", "%t %p"],
                           capture_output=True, text=True, timeout=30)
        out = {}
        for line in p.stdout.splitlines():
            t, _, payload = line.partition(" ")
            try:
                out[t.split("/")[2]] = json.loads(payload)
            except (ValueError, IndexError):
                out[t] = payload
        return out

    def status_current(self, last):
        """Bowls whose retained status does not match their journal's last game -> {bowl: why}."""
        st = self.retained()
        bad = {}
        for bowl in self.ids:
            s = st.get(bowl)
            if bowl not in last:
                bad[bowl] = "no game on its flash"
                continue
            gid, pool = last[bowl][:2]
            want = {"g": gid, "left": sorted([c, n] for c, n in pool.items())}
            got = None if not isinstance(s, dict) else {"g": s.get("g"), "left": sorted(s.get("left", []))}
            if s is None or s.get("on") != 1 or got != want:
                bad[bowl] = "retained %r, journal %r" % (s, want)
        return bad

    # ---- the run -----------------------------------------------------------------
    def _wait_until(self, t):
        while time.time() < t:
            if self._desk_before is not None and self._desk_log().count(LISTENING) > self._desk_before:
                self._desk_before = None
                self.desk_listening = time.time_ns()  # the restarted desk has subscribed again
            for bowl, p in self.procs.items():
                if p.poll() is not None:
                    raise RuntimeError("bowl %s exited (%s): %s" % (bowl, p.returncode, self._tail(bowl)))
            time.sleep(0.05)

    def _tail(self, bowl):
        try:
            return open(self.roots[self.ids.index(bowl)] + ".out").read()[-1500:]
        except OSError:
            return ""

    def run(self, plan, drain_s=60, status_s=90):
        if not os.access(self.mp, os.X_OK):
            raise RuntimeError("no MicroPython unix port at %s: `make mp` builds it" % self.mp)
        self.setup()
        # the desk subscribes first: its durable session must exist before the first award is
        # published (the broker keeps messages only for a session it knows; PROTOCOL.md)
        self.wait_desk(self.start_desk())
        self.watch_status()
        self.start_bowls()
        try:
            self._play(plan)
            self._settle(drain_s, status_s)
        finally:
            self.stop()
        self._check()
        return self.report

    def _play(self, plan):
        for b in self.ids:
            self.ctl(b, "play")
        t0 = time.time()
        self._t_play = t0
        cut_bowl = self.ids[0]
        events = sorted([
            (plan.cut_at, "cut", cut_bowl), (plan.cut_at + plan.cut_s, "uncut", cut_bowl),
            (plan.broker_at, "broker down", None), (plan.broker_at + plan.broker_down_s, "broker up", None),
            (plan.desk_at, "desk kill", None), (plan.desk_at + plan.desk_down_s, "desk up", None),
            (plan.play_s, "idle", None)] if plan.faults else [(plan.play_s, "idle", None)])
        open_ = {}
        for at, what, bowl in events:
            self._wait_until(t0 + at)
            now = time.time_ns()
            self.say("%5.1f s: %s" % (time.time() - t0, what))
            if what == "cut":
                self.ctl(bowl, "play nowifi")
                open_["wifi"] = now
            elif what == "uncut":
                self.ctl(bowl, "play")
                self.faults.append(("wifi cut", open_.pop("wifi"), time.time_ns(), bowl))
            elif what == "broker down":
                self.broker.stop()
                open_["broker"] = now
            elif what == "broker up":
                self.broker.start()
                self.faults.append(("broker restart", open_.pop("broker"), time.time_ns(), None))
            elif what == "desk kill":
                self.kill_desk()
                open_["desk"] = now
            elif what == "desk up":
                self._desk_before = self.start_desk()
                self.faults.append(("desk kill", open_.pop("desk"), time.time_ns(), None))
            elif what == "idle":
                for b in self.ids:
                    self.ctl(b, "idle")
        self._t_idle = time.time()

    def _settle(self, drain_s, status_s):
        """Until the desk holds every committed award, then until every retained status is current."""
        deadline = time.time() + drain_s
        while True:
            self._wait_until(time.time() + 0.5)  # (and the restarted desk's subscription, when it comes now)
            want, _ = self.committed()
            got, _ = self.desk_awards()
            if set(want) <= set(got) or time.time() > deadline:
                break
        self._t_drained = time.time()
        self.report["drain_s"] = round(self._t_drained - self._t_idle, 1)
        self.late = not set(want) <= set(got)
        deadline = time.time() + status_s
        while True:
            _, last = self.journals()
            bad = self.status_current(last)
            if not bad or time.time() > deadline:
                break
            time.sleep(1)
        self.stale = bad
        self.report["status_wait_s"] = round(time.time() - self._t_drained, 1)
        if self.fair:  # the customers still shaking finish their turns: every commitment revealed
            t0 = time.time()
            while time.time() < t0 + status_s and self._unrevealed():
                time.sleep(1)
            self.report["reveal_wait_s"] = round(time.time() - t0, 1)

    def _unrevealed(self):
        db = self._desk_db()
        try:
            return db.execute("SELECT COUNT(*) FROM desk_commitment WHERE secret = ''").fetchone()[0]
        except sqlite3.OperationalError:
            return 0
        finally:
            db.close()

    # ---- the checks and the figures -----------------------------------------------
    def check_fair(self):
        """verify-fair on every bowl's journal held against the desk's public export, and on the
        export alone -> {"bowl id" or "desk": (exit status, its last line)}."""
        code = ("import json\nfrom host_sim.desk import fair\nfrom host_sim.desk.models import Commitment\n"
                "rows = list(Commitment.objects.select_related('bowl'))\n"
                "print(json.dumps(fair.export_of(rows, games=True, log=True)))\n")  # (what /fair/export.json is)
        p = subprocess.run([sys.executable, "-m", "host_sim.desk", "shell", "-c", code], cwd=ROOT,
                           env=self.desk_env(), capture_output=True, text=True, timeout=120)
        export = os.path.join(self.dir, "fair-export.json")
        with open(export, "w") as f:
            f.write((p.stdout.strip().splitlines() or [""])[-1])  # (the shell says what it imported first)
        out = {}
        runs = [(b, [root, "--desk", export, "--bowl", b]) for b, root in zip(self.ids, self.roots)]
        for who, args in runs + [("desk", ["--desk", export])]:
            r = subprocess.run([sys.executable, "-m", "host_sim", "verify-fair"] + args, cwd=ROOT,
                               capture_output=True, text=True, timeout=120)
            lines = (r.stdout + r.stderr).strip().splitlines()
            out[who] = (r.returncode, lines[-1] if lines else "", lines[:-1][:10])
        return out

    def _check(self):
        p = self.problems
        if self.fair:
            self.report["fair"] = f = self.check_fair()
            for who, (code, last, lines) in sorted(f.items()):
                if code != 0:
                    p.append("verify-fair %s: %s %s" % (who, last, lines))
        commits, notes = self.committed()
        journal_awards, last = self.journals()
        desk, rows = self.desk_awards()
        # 1. every award a bowl committed is at the desk, once, with the journal's class
        missing = sorted(set(journal_awards) - set(desk))
        if missing:
            p.append("%d awards in the bowls' journals are not at the desk: %s" % (len(missing), missing[:10]))
        extra = sorted(set(desk) - set(journal_awards))
        if extra:
            p.append("%d awards at the desk are in no bowl's journal: %s" % (len(extra), extra[:10]))
        if rows != len(desk):
            p.append("the desk holds %d award rows for %d identities (doubled awards)" % (rows, len(desk)))
        wrong = [(k, c, desk[k][0]) for k, c in journal_awards.items() if k in desk and desk[k][0] != c]
        if wrong:
            p.append("%d awards have another class at the desk: %s" % (len(wrong), wrong[:10]))
        unlogged = sorted(set(journal_awards) - set(commits))
        if unlogged:
            p.append("%d journal awards the bowls never logged (the runner's bookkeeping): %s"
                     % (len(unlogged), unlogged[:5]))
        # 2. no class handed out beyond the event's stock, or each bowl's own per game
        if self.totals:
            self._check_stock(desk, journal_awards, last)
        else:
            per = {}
            for (bowl, gid, _n), (cls, _seen) in desk.items():
                per[(bowl, gid, cls)] = per.get((bowl, gid, cls), 0) + 1
            for (bowl, gid, cls), k in sorted(per.items()):
                initial = last[bowl][2] if bowl in last and last[bowl][0] == gid else self.stock
                if k > initial.get(cls, 0):
                    p.append("bowl %s game %d handed out %d %s, its stock was %d" % (bowl, gid, k, cls,
                                                                                     initial.get(cls, 0)))
        if self.late:
            p.append("the desk did not have every award %.0f s after play stopped (the ones missing may be late "
                     "rather than lost: the machine did not keep up)" % self.report["drain_s"])
        # 3. every bowl's retained status is current
        for bowl, why in sorted(self.stale.items()):
            p.append("bowl %s: status not current: %s" % (bowl, why))
        self._figures(commits, desk, notes)

    def desk_grants(self):
        """{bowl: {class: cumulative}}: each bowl's latest grant in the desk's database."""
        db = self._desk_db()
        try:
            rows = db.execute("SELECT b.bowl_id, a.seq, a.grant FROM desk_allot a JOIN desk_bowl b "
                              "ON a.bowl_id = b.id").fetchall()
        finally:
            db.close()
        out = {}
        for bowl, seq, grant in sorted(rows):  # by seq: the highest last
            out[bowl] = dict((c, n) for c, n in json.loads(grant))
        return out

    def _check_stock(self, desk, journal_awards, last):
        """The event's totals: the awards of a class over all bowls, and the desk's grants, within
        the total; each bowl's awards (all its games) within what its journal says it was granted,
        and that within what the desk granted it."""
        p = self.problems
        grants = self.desk_grants()
        awarded, granted = {}, {}
        for (bowl, gid, n), (cls, _seen) in desk.items():
            awarded[cls] = awarded.get(cls, 0) + 1
        for g in grants.values():
            for c, n in g.items():
                granted[c] = granted.get(c, 0) + n
        self.report["stock"] = dict((c, {"total": self.totals.get(c, 0), "granted": granted.get(c, 0),
                                         "awarded": awarded.get(c, 0)}) for c in sorted(self.totals))
        for c in sorted(set(awarded) | set(granted)):
            if awarded.get(c, 0) > self.totals.get(c, 0) or granted.get(c, 0) > self.totals.get(c, 0):
                p.append("the event handed out %d %s and granted %d; its total is %d"
                         % (awarded.get(c, 0), c, granted.get(c, 0), self.totals.get(c, 0)))
        for bowl in self.ids:
            mine = {}
            for (b, _g, _n), cls in journal_awards.items():
                if b == bowl:
                    mine[cls] = mine.get(cls, 0) + 1
            have = last[bowl][2] if bowl in last else {}
            for c in sorted(set(mine) | set(have)):
                if mine.get(c, 0) > have.get(c, 0):
                    p.append("bowl %s awarded %d %s, its journal's grant is %d" % (bowl, mine.get(c, 0), c,
                                                                                     have.get(c, 0)))
                if have.get(c, 0) > grants.get(bowl, {}).get(c, 0):
                    p.append("bowl %s applied a grant of %d %s, the desk granted it %d"
                             % (bowl, have[c], c, grants.get(bowl, {}).get(c, 0)))

    def ready_ns(self, key, t, seen):
        """When award key (bowl, game, award), committed at wall ns t and recorded by the desk at
        seen, could first reach the desk: t, or the end of the last fault that held it, one that
        began before the desk had it and ended after it was made (it was made in it, or in flight
        or still to be sent when it began): the bowl's own Wi-Fi back, the broker accepting again,
        the killed desk subscribed again (its process's start is the desk's, not the bowls').
        The bowls' reconnects and backlogs after it count."""
        held = [(max(end, self.desk_listening or end) if name == "desk kill" else end, start, bowl)
                for name, start, end, bowl in self.faults]
        for end, start, bowl in sorted(held):  # by their ends: one held by two waits for the later
            if start <= seen and end >= t and (bowl is None or bowl == key[0]):
                t = max(t, end)
        return t

    def _figures(self, commits, desk, notes):
        r = self.report
        t_play, t_idle = int(self._t_play * 1e9), int(self._t_idle * 1e9)
        in_play = [t for t in commits.values() if t_play <= t <= t_idle]
        r["bowls"] = self.n
        r["awards"] = len(commits)
        r["play_s"] = round((t_idle - t_play) / 1e9, 1)
        r["awards_per_s"] = round(len(in_play) / ((t_idle - t_play) / 1e9), 2)
        lat = [(desk[k][1] - t) / 1e6 for k, t in commits.items() if k in desk]
        r["latency_ms_p50"] = round(percentile(lat, 50), 1) if lat else None
        r["latency_ms_p99"] = round(percentile(lat, 99), 1) if lat else None
        # outside the faults: awards committed when no fault was on nor being recovered from
        rec = []
        quiet = []
        cuts = [(s, e, b) for name, s, e, b in self.faults if b is not None]
        for name, start, end, bowl in self.faults:
            # a fault of the broker or the desk: the bowls that were not cut off meanwhile
            away = set(b for s, e, b in cuts if s <= end and e >= start)
            before = [(k, t) for k, t in commits.items() if t < end and (
                k[0] == bowl if bowl is not None else k[0] not in away)]
            late = [desk[k][1] for k, _t in before if k in desk]
            back = max(late) if late else end
            f = {"fault": name, "down_s": round((end - start) / 1e9, 1),
                 "recovery_s": round(max(0, back - end) / 1e9, 1)}
            if name == "desk kill" and self.desk_listening:
                f["subscribed_s"] = round((self.desk_listening - end) / 1e9, 1)
            else:  # every bowl concerned connected again (its first status after the end)
                con = self.connections()
                again = [min([t for t in con.get(b, []) if t > end] or [None]) for b in (
                    [bowl] if bowl is not None else [b for b in self.ids if b not in away])]
                f["reconnected_s"] = round((max(again) - end) / 1e9, 1) if None not in again else None
                back = max(back, max(again) if None not in again else back)
            f["recovery_s"] = round(max(0, back - end) / 1e9, 1)
            rec.append(f)
            quiet.append((start, max(back, end), bowl))
        r["faults"] = rec
        calm = [(desk[k][1] - t) / 1e6 for k, t in commits.items() if k in desk and not any(
            s <= t <= e and (b is None or k[0] == b) for s, e, b in quiet)]
        r["calm_awards"] = len(calm)
        r["calm_latency_ms_p50"] = round(percentile(calm, 50), 1) if calm else None
        r["calm_latency_ms_p99"] = round(percentile(calm, 99), 1) if calm else None
        # every award from when it could first be sent: its commit, or the end of the fault that held it
        # (the Wi-Fi back for the bowl cut off, the broker accepting again, the desk subscribed again)
        ready = [(desk[k][1] - self.ready_ns(k, t, desk[k][1])) / 1e6 for k, t in commits.items() if k in desk]
        r["ready_latency_ms_p50"] = round(percentile(ready, 50), 1) if ready else None
        r["ready_latency_ms_p99"] = round(percentile(ready, 99), 1) if ready else None
        r["load_avg"] = [round(x, 2) for x in os.getloadavg()]
        r["speed_asked"] = self.speed
        speeds = []
        for bowl in self.ids:
            at = {}
            for line in notes[bowl]:
                w = line.split()
                if w[0] in ("play", "idle") and len(w) == 4:
                    at[w[0]] = (int(w[1]), int(w[3]))  # the last of each: play then idle
            if "play" in at and "idle" in at and at["idle"][0] > at["play"][0]:
                speeds.append((at["idle"][1] - at["play"][1]) / ((at["idle"][0] - at["play"][0]) / 1e6))
        r["speed_reached"] = [round(min(speeds), 1), round(max(speeds), 1)] if speeds else None


def main(argv=None):
    """python tests/harness/event_sim.py [BOWLS [PLAY_S]] [--fair]: one run, its figures printed (needs mosquitto
    and `make mp`); the broker is tests/mqtt_broker.py's."""
    import tempfile
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from mqtt_broker import Broker
    fair = "--fair" in argv
    argv = [a for a in argv if a != "--fair"]
    n = int(argv[0]) if argv else 4
    play = float(argv[1]) if len(argv) > 1 else 40
    d = tempfile.mkdtemp(prefix="event-load-")
    b = Broker(d)
    b.start()
    ev = Event(d, n, b, say=print, fair=fair)
    try:
        ev.run(Plan(play_s=play))
    finally:
        b.stop()
    print(json.dumps(ev.report, indent=1))
    for text in ev.problems:
        print("PROBLEM:", text)
    return 1 if ev.problems else 0


if __name__ == "__main__":
    sys.exit(main())
