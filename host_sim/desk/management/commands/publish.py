"""publish DIR: write the event's fair pages as static files a promoter can put on any
web host, so that a customer can check his dice after the event, away from the mall's
network: DIR/fair/index.html (the public page, every customer's verdict), DIR/fair/export.json
(what `python -m host_sim verify-fair --desk` checks, with the desk's hash-chained log) and,
for every award of a fair game, DIR/F/<bowl>/<game>-<award>/<CLASS>/index.html (the page its
claim QR's link leads to: the same path on the host), and for every customer of a fair game
his receipt page DIR/V/<bowl>/<game>-<customer>/index.html with what it runs in his phone
(the service worker, the bowl's modules, MicroPython's WebAssembly port): his receipt QR's
link checks his turn on the host as it did at the desk. Pages are rendered by the desk
itself, Chinese first; nothing of a claim code is in them."""
import os
import shutil

from django.core.management.base import BaseCommand, CommandError
from django.test import Client

from host_sim.desk.models import Award, Commitment
from host_sim.desk.settings import STATIC_ROOT, STATIC_URL
from host_sim.desk.views_fair import FIRMWARE

_HOST = "localhost"  # (one of the desk's own names: the pages are rendered in this process)


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)  # (a copy interrupted leaves the old page, never half of one)


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("dir", metavar="DIR", help="the folder to write the pages into (made if missing)")

    def handle(self, *args, dir, **kw):
        try:
            os.makedirs(dir, exist_ok=True)
        except OSError as e:
            raise CommandError("cannot make the folder %s: %s 无法创建文件夹" % (dir, e.strerror or e))
        c = Client(HTTP_HOST=_HOST, HTTP_ACCEPT_LANGUAGE="zh-hans")

        def get(url):
            r = c.get(url)
            if r.status_code != 200:
                raise CommandError("%s: the desk answered %d 奖台无法生成此页" % (url, r.status_code))
            return r.content

        n = k = 0
        try:
            _write(os.path.join(dir, "fair", "index.html"), get("/fair"))
            _write(os.path.join(dir, "fair", "export.json"), get("/fair/export.json"))
            fair_games = set(Commitment.objects.values_list("bowl_id", "game_no").distinct())
            for a in Award.objects.select_related("bowl").order_by("pk"):
                if (a.bowl_id, a.game_no) not in fair_games:
                    continue
                cls = a.cls.upper()
                url = "/F/%s/%d-%d/%s" % (a.bowl.bowl_id, a.game_no, a.award_no, cls)
                _write(os.path.join(dir, "F", a.bowl.bowl_id, "%d-%d" % (a.game_no, a.award_no), cls, "index.html"),
                       get(url))
                n += 1
            for row in Commitment.objects.select_related("bowl").order_by("pk"):
                b, gk = row.bowl.bowl_id, "%d-%d" % (row.game_no, row.q)
                _write(os.path.join(dir, "V", b, gk, "index.html"), get("/V/%s/%s" % (b, gk)))
                k += 1
            if k:
                _write(os.path.join(dir, "V", "sw.js"), get("/V/sw.js"))
                for m in FIRMWARE:
                    _write(os.path.join(dir, "fair", "fw", m + ".py"), get("/fair/fw/%s.py" % m))
                _copy_static(dir, ("desk/verify.js", "desk/verify-sw.js", "desk/mpwasm"))
        except OSError as e:
            raise CommandError("cannot write into %s: %s 无法写入" % (dir, e.strerror or e))
        self.stdout.write("已写入 written: %s/fair/index.html, fair/export.json, %d claim pages and %d receipt pages"
                          % (dir, n, k))


def _copy_static(dir, names):
    """The static files the receipt pages load, at their URLs' paths under DIR."""
    to = os.path.join(dir, *[p for p in STATIC_URL.split("/") if p])
    for name in names:
        src = os.path.join(STATIC_ROOT, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(to, name), dirs_exist_ok=True)
        else:
            with open(src, "rb") as f:
                _write(os.path.join(to, name), f.read())
