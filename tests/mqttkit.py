"""The event network's side of the tests on CPython, shared by the tests that run
the bowl's publisher (tests/mqtt_bowl.py on the 32-bit frozen unix port) against a
real mosquitto (tests/mqtt_broker.py): the event, the bowl's secret, kiosk journals
played by the firmware's own journal and game, the bowl's commands, the desk's
durable subscription as mosquitto_sub (Desk) or as the desk's own listener (Listener,
host_sim/desk/bus.py: needs deskkit.setup() first), and refused messages (BAD)."""
import asyncio
import binascii
import os
import random
import subprocess
import sys
import threading
import time

from bobing import game, journal, outbox
from deskkit import opened, sealed
import portable
from mqtt_broker import Sub

MP = portable.MP32_FROZEN  # the bowl frozen in, as on the ESP32 (`make mp`)
EVENT = "midautumn"
SECRET = bytes(range(1, 17))
OTHER_SECRET = bytes(range(2, 18))
BOWLS = ("0005", "0007")  # the bowls of the event broker (conftest's event_broker)


def Desk(broker, d, topic="bobing/%s/+/award" % EVENT, client_id="desk-test"):
    """The desk's durable subscription, as mosquitto_sub, and its retained status."""
    return Sub(broker, d, topic, client_id, desk_event=EVENT)


def decode(lines, secret=SECRET, bowl="5F-kiosk"):
    """-> ({identity: Award}, [refusal texts], duplicates) as the desk would see them."""
    got, refused, dups = {}, [], 0
    for line in lines:
        t, _, hexp = line.partition(" ")
        parts = t.split("/")
        if len(parts) != 4 or parts[:2] != [outbox.PREFIX, EVENT]:
            refused.append("topic %r: not bobing/%s/<bowl>/award" % (t, EVENT))
            continue
        try:
            body = opened(secret, t, binascii.unhexlify(hexp))
            a = outbox.decode_award(EVENT, t, body, lambda b: secret if b == bowl else None)
        except ValueError as e:
            refused.append(str(e))
            continue
        if a.key() in got:
            dups += 1
        got[a.key()] = a
    return got, refused, dups


def play_kiosk(root, awards, seed, bowl="5F-kiosk", secret=SECRET, j=None):
    """Play kiosk customers on the firmware (journal + game.Table) until `awards`
    more awards were won -> (journal, {(bowl, game, n): (class, code shown)})."""
    if j is None:
        j = journal.start(root, "kiosk", None, 1, None, bowl, secret)
    rnd = random.Random(seed)
    won = {}
    while len(won) < awards and not j.table.ended:
        if j.table.shakes_left == 0:
            out = j.play(game.EV_CUSTOMER, None)
        else:
            out = j.play(game.EV_ROLL, [rnd.randint(1, 6) for _ in range(6)])
        first = j.table.award_no - len(out.won) + 1
        for i, (cls, _src) in enumerate(out.won):
            won[(bowl, j.game_id, first + i)] = (cls, out.claims[i])
    return j, won


def run_bowl(root, port, seconds=20, cut=0, secret=SECRET, bowl="5F-kiosk", user=None, password=None, retries=0):
    """The bowl's publisher on the journals in root until none is left, `seconds` pass, or (retries)
    it has said that many times that it retries (tests/mqtt_bowl.py)."""
    args = bowl_cmd(root, port, EVENT, bowl, binascii.hexlify(secret).decode(), seconds, cut) + (
        [user, password] if user else [])
    env = dict(os.environ, MQTT_BOWL_RETRIES=str(retries))
    p = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 30, cwd=portable.ROOT, env=env)
    assert "Traceback" not in p.stderr + p.stdout, p.stdout + p.stderr
    return p


def bowl_cmd(*args):
    """The command line of tests/mqtt_bowl.py on the frozen build (its header says the forms)."""
    return [MP, os.path.join(portable.TESTS, "mqtt_bowl.py")] + [str(a) for a in args]


def app_flash(tmp_path, name, bowl_id, port, secret=SECRET):
    """A family bowl's flash folder provisioned for EVENT on the broker at port, its claim
    secret (the key of its messages' seals) the one the desk holds for it."""
    root = tmp_path / name
    root.mkdir()
    (root / "settings.txt").write_text("mode=family\nbowl_id=%s\n" % bowl_id)
    (root / "claim.key").write_text(binascii.hexlify(secret).decode() + "\n")
    (root / "net.txt").write_text("ssid=mall-5F\npassword=mooncake88\ntls=off\nbroker=127.0.0.1\nport=%d\nevent=%s\n"
                                  % (port, EVENT))
    return root


def run_app(root, ms=2500):
    """The whole app booting from root for ms milliseconds of real time -> its output."""
    p = subprocess.run(bowl_cmd("app", root, ms), capture_output=True, text=True, timeout=60, cwd=portable.ROOT)
    assert p.returncode == 0 and "Traceback" not in p.stdout + p.stderr, p.stdout + p.stderr
    return p.stdout


# rolls of a final: 四红 带12, 四红 带13, and a roll worth nothing
SIHONG_12 = (4, 4, 4, 4, 1, 2)
SIHONG_13 = (4, 4, 4, 4, 1, 3)
NONE = (1, 2, 3, 5, 6, 6)

# published as a bowl would: each is refused, the refusal saying what is wrong; the ones
# sealed with the bowl's own secret get as far as the decoder
_A = "bobing/%s/5F-kiosk/award" % EVENT
_AWARD = b'{"v":2,"g":1,"n":1,"c":"yixiu","k":1}'
BAD = [
    # (topic, payload, what the refusal says)
    (_A, b"not json", "not sealed"),
    (_A, b"\xff\xfe", "not sealed"),
    (_A, b"[1,2]", "not sealed"),
    (_A, _AWARD, "not sealed"),
    (_A, b'{"v":1,"g":1,"n":1,"c":"yixiu","k":1,"code":"AAAAAAAA"}', "format 1 (unsealed, older firmware)"),
    (_A, sealed(OTHER_SECRET, _A, _AWARD), "seal does not match"),  # another bowl's secret
    (_A, sealed(SECRET, _A.replace("award", "ask"), _AWARD), "seal does not match"),  # moved from another topic
    (_A, sealed(SECRET, _A, _AWARD, frm="d"), "seal does not match"),  # the desk's direction reflected
    (_A, sealed(SECRET, _A, _AWARD).replace(b'"k":1', b'"k":2'), "seal does not match"),  # changed on the way
    (_A, sealed(SECRET, _A, b"{not json}"), "not JSON"),
    (_A, sealed(SECRET, _A, b'{"v":3,"g":1,"n":1,"c":"yixiu","k":1}'), "format 3"),
    (_A, sealed(SECRET, _A, b'{"v":2,"g":0,"n":1,"c":"yixiu","k":1}'), "'g'=0"),
    (_A, sealed(SECRET, _A, b'{"v":2,"g":1,"n":true,"c":"yixiu","k":1}'), "'n'=True"),
    (_A, sealed(SECRET, _A, b'{"v":2,"g":1,"n":1,"c":"a/b","k":1}'), "prize class"),
    (_A, sealed(SECRET, _A, b'{"v":2,"g":1,"n":1,"c":"yixiu","k":1,"code":"AAAAAAAA"}'), "carries no claim code"),
    (_A, sealed(SECRET, _A, b"{" + b" " * 300 + b"}"), "at most 256"),
    ("bobing/%s/ghost/award" % EVENT, sealed(SECRET, "bobing/%s/ghost/award" % EVENT, _AWARD), "not known"),
    ("bobing/%s/5F-kiosk/status" % EVENT, sealed(SECRET, "bobing/%s/5F-kiosk/status" % EVENT, b'{"v":2,"on":1}'),
     "not bobing/"),
    ("bobing/other-event/5F-kiosk/award", b"{}", "not bobing/"),
    ("elsewhere", b"{}", "not bobing/"),
]


class Listener:
    """bus.listen() on its own thread and event loop, as `python -m host_sim.desk listen` runs it."""

    def __init__(self, port, user=None, password=None, event=EVENT, ca=None):
        self.port = port
        self.user, self.password = user, password
        self.ca = ca  # the broker's certificate file: by TLS
        self.event = event
        self.results = []
        self.ready = threading.Event()

    def start(self):
        self.ready.clear()
        self.thread = threading.Thread(target=asyncio.run, args=(self._main(),), daemon=True)
        self.thread.start()
        assert self.ready.wait(15), "the listener did not subscribe"

    async def _main(self):
        from host_sim.desk import bus  # after deskkit.setup()
        self.loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        self.task = asyncio.create_task(bus.listen("127.0.0.1", self.port, self.event, self.user, self.password,
                                                    ready=ev, seen=self.results.append, ca=self.ca))
        await ev.wait()
        self.ready.set()
        try:
            await self.task
        except asyncio.CancelledError:
            pass

    def wait(self, n, timeout=20, skip=()):
        """The results so far, once n of them (not counting those in skip) are in."""
        t0 = time.time()
        while time.time() - t0 < timeout:
            got = [r for r in self.results if r not in skip]
            if len(got) >= n:
                break
            time.sleep(0.05)
        return [r for r in self.results if r not in skip]

    def stop(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(15)


def awards_of(bowl_id):
    """The desk's database: {(bowl, game, award no): (class, code)} of one bowl."""
    from host_sim.desk.models import Award
    return {(bowl_id, a.game_no, a.award_no): (a.cls, a.code) for a in Award.objects.filter(bowl__bowl_id=bowl_id)}


def make_users(out, *args, env=None):
    """`python -m host_sim broker --out OUT ARGS...` -> its CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "host_sim", "broker", "--out", str(out)] + list(args),
                          capture_output=True, text=True, timeout=60, cwd=portable.ROOT,
                          env=dict(os.environ, **(env or {})))


from host_sim.event import passwords  # noqa: E402,F401  (the one reader of the tool's output)
