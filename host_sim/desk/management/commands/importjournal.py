"""importjournal FILE...: import journals copied off bowls (mpremote cp
:/data/gNNNNNNNN.bbj .), the same way as the import page. Importing a file
again changes nothing. A journal must carry its bowl's seal (bobing/seal.py); an
old-format one without seals only with --unauthenticated (the desk's operator
accepting it as a supervisor). Exit status 1 if any file was refused."""
from django.core.management.base import BaseCommand, CommandError

from host_sim.desk.ingest import Refused, ingest_file


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
                self.stderr.write("error: %s: %s; nothing was imported from it" % (path, e))
                bad += 1
                continue
            self.stdout.write("%s: %s" % (path, r.message))
        if bad:
            raise CommandError("%d of %d file(s) refused" % (bad, len(files)), returncode=1)
