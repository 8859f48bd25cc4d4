"""What a guesser gets from the prize desk in one minute, measured on the real
server (waitress, SQLite) on loopback, each side as fast as it can:

- logins (django-axes, host_sim/desk/logins.py): wrong passwords for one account
  from one address (one connection, then 16 at once), and from four addresses at once (127.0.0.2-5: the lock is
  per address); how many were checked (the rest refused as locked), and whether
  the right password still gets in from a locked address;
- wrong claim codes (host_sim/desk/counter.py) from one attendant, in one
  session and in four sessions at once (the wait is the attendant's, not the
  session's); how many were checked, the rest refused with "wait".

A locked address or a waiting attendant is then tried once a second (the
answers are cheap: no password hash, no code check). Prints the load average:
the machine is shared. DESK_GUESS_SECONDS=N shortens the minute (for a quick look)."""
import http.client
import os
import re
import secrets
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
import deskkit  # noqa: E402  (the tests' server helper)

SECONDS = float(os.environ.get("DESK_GUESS_SECONDS") or 60)
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # any 8 of these: a code-shaped guess


class Peer:
    """One browser at one source address (127.0.0.x): cookies by hand, http.client."""

    def __init__(self, port, source):
        self.port, self.source = port, source
        self.cookies = {}
        self.token = None

    def request(self, method, path, form=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=(self.source, 0))
        headers = {"Accept-Language": "en", "Referer": "http://127.0.0.1:%d/" % self.port,
                   "Cookie": "; ".join("%s=%s" % kv for kv in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(dict(form, csrfmiddlewaretoken=self.token))
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        c.request(method, path, body, headers)
        r = c.getresponse()
        page = r.read().decode(errors="replace")
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                name, _, rest = v.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        c.close()
        m = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if m:
            self.token = m.group(1)
        return r.status, page

    def try_login(self, name, password):
        """-> "in", "wrong" (checked and refused) or "locked" (not checked)."""
        if self.token is None:
            self.request("GET", "/login")
        status, page = self.request("POST", "/login", {"username": name, "password": password})
        if status == 429:
            return "locked"
        if status == 302:
            return "in"
        self.request("GET", "/login")  # a fresh token for the next try
        return "wrong"


def logins(port, name, addresses, per_address=1):
    """Wrong passwords for `name` from each address for SECONDS -> ({address: guesses}, the
    right password's answer after). A guess: a try answered "wrong", or the try whose answer
    was the lock (its password was checked too: a right one would have logged in)."""
    counts = {a: 0 for a in addresses}
    locked = {a: False for a in addresses}
    lock = threading.Lock()
    end = time.monotonic() + SECONDS

    def run(addr):
        p = Peer(port, addr)
        while time.monotonic() < end:
            got = p.try_login(name, "wrong-" + secrets.token_hex(4))
            if got == "wrong":
                with lock:
                    counts[addr] += 1
            elif got == "locked":
                with lock:
                    if not locked[addr]:
                        locked[addr] = True
                        counts[addr] += 1
                time.sleep(1)
    ts = [threading.Thread(target=run, args=(a,)) for a in addresses for _ in range(per_address)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    right = Peer(port, addresses[0]).try_login(name, deskkit.PASSWORD)
    return counts, right


def wrong_codes(port, name, sessions):
    """Code-shaped wrong codes from `sessions` logged-in sessions of one attendant for
    SECONDS -> (checked, refused with a wait)."""
    peers = []
    for _ in range(sessions):
        p = Peer(port, "127.0.0.1")
        p.request("GET", "/login")
        if p.request("POST", "/login", {"username": name, "password": deskkit.PASSWORD})[0] != 302:
            raise RuntimeError("login as %s failed" % name)
        p.request("GET", "/")
        peers.append(p)
    got = {"checked": 0, "wait": 0}
    lock = threading.Lock()
    end = time.monotonic() + SECONDS

    def run(p):
        while time.monotonic() < end:
            code = "".join(secrets.choice(ALPHABET) for _ in range(8))
            status, _page = p.request("POST", "/check", {"code": code})
            with lock:
                if status == 429:
                    got["wait"] += 1
                else:
                    got["checked"] += 1
            if status == 429:
                time.sleep(1)
    ts = [threading.Thread(target=run, args=(p,)) for p in peers]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return got["checked"], got["wait"]


def main():
    folder = tempfile.mkdtemp(prefix="desk-guess-")
    s = deskkit.Server(folder)
    for name in ("login1", "login16", "login4", "codes1", "codes4"):
        s.manage("attendant", name, "--password-stdin", stdin=deskkit.PASSWORD + "\n")
    s.start()
    per = "%d s" % SECONDS if SECONDS != 60 else "a minute"
    try:
        load = os.getloadavg()[0]
        counts, right = logins(s.port, "login1", ["127.0.0.2"])
        print("desk logins: %d wrong passwords tried in %s from one address (then refused as locked); "
              "the right password then: %s (load %.1f)" % (sum(counts.values()), per,
                                                          "refused, locked" if right == "locked" else right, load))
        load = os.getloadavg()[0]
        counts, right = logins(s.port, "login16", ["127.0.0.7"], per_address=16)
        print("desk logins: %d wrong passwords tried in %s from one address on 16 connections at once "
              "(load %.1f)" % (sum(counts.values()), per, load))
        load = os.getloadavg()[0]
        addrs = ["127.0.0.%d" % i for i in range(3, 7)]
        counts, right = logins(s.port, "login4", addrs)
        print("desk logins: %d wrong passwords for one account tried in %s from 4 addresses (%s each) "
              "(load %.1f)" % (sum(counts.values()), per, "/".join(str(counts[a]) for a in addrs), load))
        for sessions in (1, 4):
            load = os.getloadavg()[0]
            checked, waited = wrong_codes(s.port, "codes%d" % sessions, sessions)
            print("desk codes: %d wrong codes checked in %s by one attendant in %d session%s, %d refused "
                  "with a wait (load %.1f)" % (checked, per, sessions, "s" if sessions > 1 else "", waited, load))
    finally:
        s.stop()


if __name__ == "__main__":
    main()
