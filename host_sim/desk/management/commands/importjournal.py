"""importjournal FILE...: import journals copied off bowls (mpremote cp
:/data/gNNNNNNNN.bbj .), the same way as the import page. Importing a file
again changes nothing. A journal must carry its bowl's seal (bobing/seal.py); an
old-format one without seals only with --unauthenticated (the desk's operator
accepting it as a supervisor). Exit status 1 if any file was refused."""
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from host_sim.desk.ingest import Refused, ingest_file
from host_sim.desk.models import render_parts


def _both(said):
    """said (a Refused or a Result) in Chinese first, then the English, as the pages say it."""
    with translation.override("zh-hans"):
        zh = said.shown()
    return "%s\n  %s" % (zh, render_parts(said.parts, str))


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("files", nargs="+", metavar="FILE")
        p.add_argument("--unauthenticated", action="store_true",
                       help="accept old-format journals without the bowl's seal (a supervisor's decision)")

    def handle(self, *args, files, unauthenticated=False, **kw):
        bad = 0
        for path in files:
            try:
                r = ingest_file(path, unsealed_ok=unauthenticated)
            except Refused as e:
                self.stderr.write("错误 error: %s: %s\n  未导入任何内容 nothing was imported from it"
                                  % (path, _both(e)))
                bad += 1
                continue
            self.stdout.write("%s: %s" % (path, _both(r)))
        if bad:
            n = (bad, len(files))
            raise CommandError("拒绝了 %d 个文件（共 %d 个） %d of %d file(s) refused" % (n + n), returncode=1)
