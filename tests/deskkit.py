"""Shared by the desk's tests: one Django set-up per test process (its own
folder and database: conftest.py configures it, its desk_db fixture migrates it),
kiosk journals played by the firmware's own journal and game code, and a desk
server in a subprocess for the tests that need a real one."""
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request

from django.contrib.auth.hashers import Argon2PasswordHasher

from bobing import game, journal, wire

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "counter-pass-42"
CHROMIUM = "/usr/bin/chromium"  # Debian's chromium and chromium-driver (conftest's browser fixture)
DRIVER = "/usr/bin/chromedriver"
SHOTS = os.path.join(ROOT, "host_sim", "desk", "shots")  # the README's screenshots (DESK_SHOTS=1)
_done = {}


def configure(folder=None):
    """Django configured on a folder of its own (a fresh one unless given), once per process:
    tests/conftest.py's pytest_configure does it for the tests, as pytest-django would -> the folder."""
    if "folder" not in _done:
        os.environ["BOBING_DESK_DIR"] = folder or tempfile.mkdtemp(prefix="desk-test-")
        os.environ["DJANGO_SETTINGS_MODULE"] = "host_sim.desk.settings"
        import django
        django.setup()
        from django.conf import settings
        settings.ALLOWED_HOSTS.append("testserver")  # django.test.Client's Host (as Django's test runner does)
        # the tests' own attendants hashed by Argon2id at its smallest cost (QUICK_ARGON2, before the first
        # hash); desk servers and commands in subprocesses hash at the desk's own settings
        settings.PASSWORD_HASHERS = [QUICK_ARGON2 if h.endswith(".Argon2PasswordHasher") else h
                                     for h in settings.PASSWORD_HASHERS]
        _done["folder"] = os.environ["BOBING_DESK_DIR"]
    return _done["folder"]


def folder():
    """The desk's folder of this process (configure() first: the tests' conftest has)."""
    return _done["folder"]


def migrate():
    """The database migrated, once per process (conftest's desk_db fixture: at the first desk test,
    not when a file is collected)."""
    if "migrated" not in _done:
        configure()
        from django.core.management import call_command
        call_command("migrate", interactive=False, verbosity=0)
        _done["migrated"] = True
    return _done["folder"]


@contextlib.contextmanager
def own_database(folder):
    """The desk on a database of its own in folder, migrated, while the block runs (a test whose
    figures depend on every bowl the desk knows: the process's database holds other files' bowls)."""
    from django.core.management import call_command
    from django.db import connections
    conn = connections["default"]
    old = conn.settings_dict["NAME"]
    conn.close()
    conn.settings_dict["NAME"] = os.path.join(str(folder), "desk.sqlite3")
    try:
        call_command("migrate", interactive=False, verbosity=0)
        yield
    finally:
        conn.close()
        conn.settings_dict["NAME"] = old


def setup():
    """Configured and migrated at once (the benches, which have no conftest) -> the folder."""
    configure()
    return migrate()


QUICK_ARGON2 = "deskkit.QuickArgon2"


class QuickArgon2(Argon2PasswordHasher):
    """Django's Argon2id hasher at the smallest cost: the desk's parameters take ~0.3 s of CPU a
    hash, and the desk's tests log in some 70 times (test_desk checks the desk's own once)."""
    time_cost = 1
    memory_cost = 8  # KiB: Argon2's least (8 per lane)
    parallelism = 1


def attendant(name):
    from django.contrib.auth import get_user_model
    User = get_user_model()
    u = User.objects.filter(username=name).first()
    if u is None:
        u = User(username=name)
        u.set_password(PASSWORD)
        u.save()
    return u


def sealed(secret, topic, body, frm=wire.FROM_BOWL):
    """body (a message's JSON object, bytes) sealed for topic bobing/<event>/<bowl>/<leaf>
    with the key of `secret`, as the bowl (frm "b") or the desk ("d") sends it: the one
    place the tests build what goes on the wire (mqttkit has it too)."""
    _p, event, bowl_id, leaf = topic.split("/")
    return wire.seal(wire.key(secret), frm, event, bowl_id, leaf, body)


def opened(secret, topic, payload, frm=wire.FROM_BOWL):
    """A payload taken off the wire, its seal checked as the receiver does -> its body
    (ValueError saying what is wrong)."""
    _p, event, bowl_id, leaf = topic.split("/")
    return wire.open_sealed(wire.key(secret), frm, event, bowl_id, leaf, payload)


def receive(event, topic, payload):
    """One message as the desk's listener takes it off the broker (bus._one without the
    broker): its seal opened with its bowl's key, then bus.handle -> (result, [(topic,
    sealed payload)] the listener would publish)."""
    from host_sim.desk import bus, mqttlog
    secrets = bus.Secrets()
    secrets.reread(time.monotonic())
    body, why = bus.opened(event, topic, payload, secrets)
    if why is not None:
        return mqttlog.refuse(topic, why[0], **why[1]), []
    r, pub = bus.handle(event, topic, body)
    return r, [(t, wire.seal(secrets.keys[t.split("/")[2]], wire.FROM_DESK, event, t.split("/")[2],
                             t.split("/")[3], p)) for t, p in pub]


def bowl(bowl_id, secret):
    from host_sim.desk.models import Bowl
    Bowl.objects.update_or_create(bowl_id=bowl_id, defaults={"secret": secret})


def kiosk_game(root, bowl_id, secret, customers, seed, counts=None, game_id=0):
    """Play `customers` kiosk customers on the firmware's journal -> (path of the
    journal file, [(game_no, award_no, cls, code), ...] as the bowl shows them:
    the codes are the game engine's own)."""
    os.makedirs(root, exist_ok=True)
    j = journal.start(root, "kiosk", None, 1, counts, bowl_id, secret, game_id=game_id)
    rng = random.Random(seed)
    shown = []
    for _ in range(customers):
        if j.table.ended:
            break
        j.play(game.EV_CUSTOMER, None)
        while j.table.shakes_left and not j.table.ended:
            out = j.play(game.EV_ROLL, tuple(rng.randint(1, 6) for _ in range(6)))
            first = j.table.award_no - len(out.won) + 1
            for i, ((cls, _src), code) in enumerate(zip(out.won, out.claims)):
                shown.append((j.game_id, first + i, cls, code))
    j.close()
    return j.path, shown


# A second desk (or a command) on the same database: python -c ASKER EVENT BOWL,BOWL,... N SEED
# answers N asks of random bowls (always empty, so always low: each has paid its whole grant, the desk
# records those awards first, as they arrive before a bowl's ask) through allot.answer; prints "raised K".
ASKER = r"""
import os, random, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "host_sim.desk.settings"
from host_sim import compat
compat.install()
import django
django.setup()
from django.db import OperationalError
from host_sim.desk import allot
from host_sim.desk.ingest import ingest
from host_sim.desk.models import Allot, Bowl, Event
event, bowls, n, seed = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
raised = 0
for i in range(n):
    b = rng.choice(bowls)
    mine = Allot.objects.filter(event__name=event, bowl__bowl_id=b).order_by("-seq").first()
    s = mine.seq if mine else 0
    if mine:
        paid = allot.awarded(Event.objects.get(name=event), Bowl.objects.get(bowl_id=b))
        pay = [c for c, k in mine.grant for _ in range(k - paid.get(c, 0))]
        ingest(b, 100000 * (seed + 1) + i, [(j + 1, c, j + 1) for j, c in enumerate(pay)], None, "mqtt")
    r, what, p = allot.answer(event, b, s, {})
    raised += r
print("raised", raised)
"""


from host_sim.event import free_port  # noqa: E402  (the tests' and the demo's one)


class Server:
    """`python -m host_sim.desk serve` in a subprocess on its own folder."""

    def __init__(self, folder, threads=8, args=()):
        self.folder = folder
        self.port = free_port()
        self.args = list(args)  # more of serve's options
        self.url = "%s://127.0.0.1:%d" % ("https" if "--https" in self.args else "http", self.port)
        self.threads = threads
        self.proc = None

    def env(self):
        e = dict(os.environ)
        e["BOBING_DESK_DIR"] = self.folder
        e.pop("DJANGO_SETTINGS_MODULE", None)
        return e

    def manage(self, *args, stdin=None):
        return subprocess.run([sys.executable, "-m", "host_sim.desk"] + list(args), cwd=ROOT, env=self.env(),
                              input=stdin, capture_output=True, text=True, timeout=120)

    def start(self):
        self.log = open(os.path.join(self.folder, "server.log"), "a")
        self.proc = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "serve", "--listen",
                                      "127.0.0.1:%d" % self.port, "--threads", str(self.threads)] + self.args,
                                     cwd=ROOT, env=self.env(), stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the desk server exited with %s: see %s/server.log" % (self.proc.returncode,
                                                                                          self.folder))
            try:
                urllib.request.urlopen(self.url + "/login", timeout=2, context=self.tls()).read()
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the desk server did not answer within 60 s")

    def tls(self):
        """An SSL context trusting the desk's own certificate (None for plain HTTP, or before it exists)."""
        import ssl
        cert = os.path.join(self.folder, "tls.crt")
        if not self.url.startswith("https") or not os.path.exists(cert):
            return None
        ctx = ssl.create_default_context(cafile=cert)
        ctx.check_hostname = False  # the tests reach it as 127.0.0.1: in the certificate, and checked below
        return ctx

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class Browserless:
    """An attendant's session over real HTTP (cookies, CSRF token from the page)."""

    def __init__(self, url, context=None):
        import http.cookiejar
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  urllib.request.HTTPSHandler(context=context))
        self.opener.addheaders = [("Accept-Language", "en")]  # the tests read the English pages

    def _token(self, path):
        import re
        page = self.get(path)[1]
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def get(self, path):
        try:
            with self.opener.open(self.url + path, timeout=60) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def post(self, path, data, token=None):
        import urllib.parse
        data = dict(data, csrfmiddlewaretoken=token or self.token)
        req = urllib.request.Request(self.url + path, urllib.parse.urlencode(data).encode(),
                                     headers={"Referer": self.url + "/"})
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def login(self, name, password=PASSWORD):
        token = self._token("/login")
        status, page = self.post("/login", {"username": name, "password": password}, token)
        if "Log out" not in page:
            raise RuntimeError("login as %s failed (%s)" % (name, status))
        self.token = self._token("/")
        return self

    def upload(self, path, name, data):
        """A multipart form post of one file (field "journal") -> (status, page)."""
        boundary = "----deskkit%d" % random.randrange(1 << 30)
        body = (("--%s\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n%s\r\n"
                 "--%s\r\nContent-Disposition: form-data; name=\"journal\"; filename=\"%s\"\r\n"
                 "Content-Type: application/octet-stream\r\n\r\n") % (boundary, self.token, boundary, name)).encode()
        body += data + ("\r\n--%s--\r\n" % boundary).encode()
        req = urllib.request.Request(self.url + path, body, headers={
            "Content-Type": "multipart/form-data; boundary=" + boundary, "Referer": self.url + "/"})
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace")


def wait_lang(d, lang):
    """Wait until the page in browser d is in lang ("zh" or "en").

    Asks the document, not an element: the language switch redirects, and an element found
    before the new page loads goes stale under the wait."""
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(d, 10, 0.1).until(
        lambda d: (d.execute_script("return document.documentElement.lang") or "").lower().startswith(lang))


def shot(d, name, tmp):
    """A screenshot of the browser d into tmp (with DESK_SHOTS=1 also the README's copy)."""
    d.save_screenshot(os.path.join(tmp, name))
    if os.environ.get("DESK_SHOTS"):
        # the README's copy, small: 64 colours (flat pages, text stays sharp)
        from PIL import Image
        os.makedirs(SHOTS, exist_ok=True)
        with Image.open(os.path.join(tmp, name)) as im:
            im.convert("RGB").quantize(64).save(os.path.join(SHOTS, name), optimize=True)
