"""publish DIR: write the event's fair pages as static files a promoter can put on any
web host, so that a customer can check his dice after the event, away from the mall's
network: DIR/fair/index.html (the public page, every customer's verdict), DIR/fair/export.json
(what `python -m host_sim verify-fair --desk` checks, with the desk's hash-chained log) and,
for every award of a fair game, DIR/F/<bowl>/<game>-<award>/<CLASS>/index.html (the page its
claim QR's link leads to: the same path on the host). Pages are rendered by the desk itself,
Chinese first; nothing of a claim code is in them."""
import os

from django.core.management.base import BaseCommand, CommandError
from django.test import Client

from host_sim.desk.models import Award, Commitment

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

        n = 0
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
        except OSError as e:
            raise CommandError("cannot write into %s: %s 无法写入" % (dir, e.strerror or e))
        self.stdout.write("已写入 written: %s/fair/index.html, fair/export.json and %d claim pages" % (dir, n))
