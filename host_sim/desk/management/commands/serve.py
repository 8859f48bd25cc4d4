"""serve: serve the desk with waitress, a production WSGI server (threads, no
reload). Like every desk command, it first brings the database up to this
version's schema (migrate), keeping its data."""
from django.core.management.base import BaseCommand, CommandError

# waitress answers anything larger with its own plain-text 413; up to this the desk
# answers with its own page (middleware.py; it takes 1 MB journals)
MAX_BODY = 64 << 20


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("--listen", default="127.0.0.1:8000", metavar="HOST:PORT",
                       help="where to listen (default %(default)s; 0.0.0.0:8000 for phones on the counter's network)")
        p.add_argument("--threads", type=int, default=8, help="worker threads (default %(default)s)")

    def handle(self, *args, listen, threads, **kw):
        host, sep, port = listen.rpartition(":")
        if not sep or not port.isdigit() or not 0 < int(port) < 65536:
            raise CommandError("--listen %r: write it as HOST:PORT, e.g. 127.0.0.1:8000" % listen)
        if not 1 <= threads <= 64:
            raise CommandError("--threads %d: 1..64" % threads)
        import waitress

        from host_sim.desk.wsgi import application
        from django.contrib.auth import get_user_model
        if not get_user_model().objects.exists():
            self.stderr.write("no attendant yet: python -m host_sim.desk attendant NAME")
        self.stdout.write("prize desk on http://%s:%s/ (Ctrl-C stops it)" % (host or "0.0.0.0", port))
        self.stdout.flush()
        waitress.serve(application, host=host or "0.0.0.0", port=int(port), threads=threads,
                       max_request_body_size=MAX_BODY, ident="bobing-desk")
