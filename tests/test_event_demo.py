"""The promoter's first try (`python -m host_sim event-demo`): a real mosquitto with the event's
ACL, the desk with its listener and two simulated kiosk bowls on the real firmware (the frozen
32-bit MicroPython unix port), fair by default; the promoter logs in with the password it prints,
watches the awards arrive, and presses Ctrl-C: everything stops, and every award in the bowls'
journals (read by the firmware's own code) is at the desk once, with its class; every roll verifies."""
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import deskkit
from harness import event_sim

from bobing import journal, outbox


def _journal_awards(root, bowl):
    out = {}
    ids, _top = journal.inventory(root)
    for gid in ids:
        _scan, t, won = outbox.replay(journal.path_of(root, gid), gid)
        for n, cls, _customer in won if t is not None else ():
            out[(bowl, gid, n)] = cls
    return out


def _login(url, password):
    jar = CookieJar()
    op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = op.open(url + "login").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode({"username": "promoter", "password": password, "csrfmiddlewaretoken": token})
    op.open(urllib.request.Request(url + "login", data.encode(), headers={"Referer": url + "login"}))
    return op


def test_the_demo_runs_an_event_and_ctrl_c_stops_it_with_every_award_once(mp_built, broker_installed, tmp_path):
    port = deskkit.free_port()
    p = subprocess.Popen([sys.executable, "-m", "host_sim", "event-demo", "--bowls", "2", "--pace-s", "1", "--speed",
                          "5", "--dir", str(tmp_path), "--port", str(port)], cwd=event_sim.ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        deadline = time.time() + 240
        while time.time() < deadline:
            line = p.stdout.readline()
            assert line, "the demo ended: %s" % "".join(lines)
            lines.append(line)
            if re.search(r"\b([5-9]|\d\d+) awards at the desk", line):
                break
        said = "".join(lines)
        password = re.search(r"log in as promoter, password (\S+)", said).group(1)
        url = "http://127.0.0.1:%d/" % port
        page = _login(url, password).open(url + "stock").read().decode()
        assert 'id="xlsx"' in page and "0001" in page, page[:2000]
        run = re.search(r"flash folders in (\S+)", said).group(1)
    finally:
        p.send_signal(signal.SIGINT)  # Ctrl-C
        out, _ = p.communicate(timeout=120)
    lines.append(out)
    said = "".join(lines)
    assert p.returncode == 0 and "Ctrl-C: stopping" in said and "stopped:" in said, said[-3000:]
    pids = [int(x) for x in re.findall(r"\bpid (\d+)", said)]
    for pid in pids:
        assert not os.path.exists("/proc/%d" % pid) or "zombie" in open("/proc/%d/status" % pid).read().lower()
    # every award a bowl's journal holds is at the desk, once, with its class
    want = {}
    for bowl in ("0001", "0002"):
        want.update(_journal_awards(os.path.join(run, "bowl-" + bowl), bowl))
    db = sqlite3.connect(os.path.join(run, "desk", "desk.sqlite3"))
    rows = db.execute("SELECT b.bowl_id, a.game_no, a.award_no, a.cls FROM desk_award a JOIN desk_bowl b "
                      "ON a.bowl_id = b.id").fetchall()
    db.close()
    got = {(b, g, n): c for b, g, n, c in rows}
    assert len(rows) == len(got) and len(got) >= 5
    assert got == want, (sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5])
    # fair by default: every roll of the bowls' journals verifies against the desk's public export
    code = ("import json\nfrom host_sim.desk import fair\nfrom host_sim.desk.models import Commitment\n"
            "print(json.dumps(fair.export_of(list(Commitment.objects.select_related('bowl')), games=True, log=True)))")
    r = subprocess.run([sys.executable, "-m", "host_sim.desk", "shell", "-c", code], cwd=event_sim.ROOT,
                       env=dict(os.environ, BOBING_DESK_DIR=os.path.join(run, "desk")), capture_output=True, text=True,
                       timeout=120)
    export = tmp_path / "fair-export.json"
    export.write_text(r.stdout.strip().splitlines()[-1])
    for bowl in ("0001", "0002"):
        r = subprocess.run([sys.executable, "-m", "host_sim", "verify-fair", os.path.join(run, "bowl-" + bowl),
                            "--desk", str(export), "--bowl", bowl], cwd=event_sim.ROOT, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0 and "verified" in r.stdout, r.stdout + r.stderr
