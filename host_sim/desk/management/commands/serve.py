"""serve: serve the desk with waitress, a production WSGI server (threads, no
reload). Like every desk command, it first brings the database up to this
version's schema (migrate), keeping its data."""
import os
import signal
import socket

from django.core.management.base import BaseCommand

from host_sim.desk import inputs



# Connections a phone (or 200) can hold open without stalling a counter: waitress reads
# requests in its event loop and gives a worker thread only a complete one, so idle and
# trickling connections cost a socket each, not a thread; its default of 100 connections
# was what ran out (then it stops accepting). poll(): select() stops at 1024 descriptors.
# A connection silent for 60 s is closed.
OPEN = {"connection_limit": 2000, "channel_timeout": 60, "cleanup_interval": 10, "asyncore_use_poll": True,
        "backlog": 1024}


PER_ADDRESS = 64  # connections one address may hold (a browser uses about 6): one phone cannot take them all


def capped(channel_class, per_address=PER_ADDRESS):
    """waitress's channel factory with a cap per client address: a connection beyond it is
    closed at once, unread (the log counts them once a second)."""
    import logging
    import time
    log = logging.getLogger("desk")
    said = {"at": 0.0, "n": 0}

    def make(server, conn, addr, adj, map=None):
        host = addr[0] if isinstance(addr, tuple) else addr
        held = sum(1 for ch in list(server.active_channels.values())
                   if (ch.addr[0] if isinstance(ch.addr, tuple) else ch.addr) == host)
        if held >= per_address:
            conn.close()
            said["n"] += 1
            if time.monotonic() - said["at"] >= 1.0:
                log.warning("connections: %d refused, %s holds %d already", said["n"], host, held)
                said["at"], said["n"] = time.monotonic(), 0
            return None
        return channel_class(server, conn, addr, adj, map=map)
    return make


def max_body():
    """waitress reads a whole request body before the desk sees it, so its limit is the
    desk's (a journal and its form, settings.DATA_UPLOAD_MAX_MEMORY_SIZE): a larger upload
    is refused at its headers with waitress's 413, its body never read (the import page
    itself sends no file over the limit: it shows the desk's page "too large")."""
    from django.conf import settings
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _addresses():
    """This computer's IPv4 addresses: its host name's, and the one its default route
    leaves by (a UDP socket's connect sends nothing)."""
    out = set()
    try:
        out.update(a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    except OSError:
        pass
    for probe in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                out.add(s.getsockname()[0])
        except OSError:
            pass
    return sorted(out)


def _answer_to(host):
    """The Host names the desk answers to (settings.ALLOWED_HOSTS): with
    BOBING_DESK_HOSTS unset, its own names plus the address it listens on."""
    from django.conf import settings
    if os.environ.get("BOBING_DESK_HOSTS", "").strip():
        return
    extra = _addresses() if host in ("", "0.0.0.0") else [host]
    settings.ALLOWED_HOSTS = list(dict.fromkeys(settings.ALLOWED_HOSTS + extra))


def _stop(signum, frame):
    raise KeyboardInterrupt


class Command(BaseCommand):
    def _tls(self, host, cert, key):
        """The TLS context, the settings that go with it (settings.https_settings) applied."""
        from django.conf import settings
        from host_sim.desk import tls
        try:
            if cert is None:
                names = settings.ALLOWED_HOSTS + ([host] if host not in ("", "0.0.0.0", "::") else [])
                cert, key = tls.own_certificate(settings.DATA_DIR, [n for n in names if n != "testserver"])
                self.stdout.write("certificate: %s (the desk's own; phones ask to accept it once)" % cert)
            ctx = tls.context(cert, key)
        except ValueError as e:
            raise inputs.refuse(str(e))
        from host_sim.desk.settings import https_settings
        for name, value in https_settings().items():
            setattr(settings, name, value)
        return ctx

    help = __doc__

    def add_arguments(self, p):
        p.add_argument("--listen", default="127.0.0.1:8000", metavar="HOST:PORT",
                       help="where to listen (default %(default)s; 0.0.0.0:8000 for phones on the counter's network)")
        p.add_argument("--threads", type=int, default=8, help="worker threads (default %(default)s)")
        p.add_argument("--https", action="store_true",
                       help="serve HTTPS: secure cookies, HSTS (the desk's own certificate unless --cert/--key)")
        p.add_argument("--cert", metavar="FILE", help="the promoter's certificate (PEM), with --https")
        p.add_argument("--key", metavar="FILE", help="its private key (PEM), with --https")
        p.add_argument("--backup-dir", metavar="FOLDER", help="back the database up into FOLDER (a USB stick) "
                       "every --backup-every minutes and at shutdown")
        p.add_argument("--backup-every", metavar="MINUTES", default="10", help="default %(default)s")

    def handle(self, *args, listen, threads, backup_dir=None, backup_every="10", https=False, cert=None, key=None,
               **kw):
        try:
            host, port = inputs.host_port(listen, "--listen")
        except inputs.Bad as e:
            raise inputs.refuse(str(e))
        if not 1 <= threads <= 64:
            raise inputs.refuse("--threads %d: 1-64 1..64" % threads)
        if host in ("", "0.0.0.0", "::"):
            self.stderr.write("注意 note: 在本机所有地址上服务 serving on every address of this computer (%s): "
                              "phones on its networks reach it; 127.0.0.1:%d for this computer alone"
                              % (listen, port))
        else:
            try:
                socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICSERV)
            except (OSError, UnicodeError) as e:
                raise inputs.refuse("--listen %r: 没有这个地址 no such address here (%s)" % (listen, e))
        every = None
        if backup_dir is not None:
            t = inputs.fold(backup_every)  # 10, or 0.5 (ASCII digits and one point only: no ², no 1e3)
            minutes = float(t) if t.isascii() and t.replace(".", "", 1).isdigit() else 0
            if not 0.05 <= minutes <= 1440:
                raise inputs.refuse("--backup-every %r: 分钟数 minutes, 0.05..1440" % backup_every)
            if not os.path.isdir(backup_dir):
                raise inputs.refuse("--backup-dir %s: 文件夹不存在 no such folder (plug the stick in, or make it)"
                                    % backup_dir)
            from host_sim.desk import backup
            every = backup.Every(backup_dir, minutes)
        _answer_to(host)
        tls = None
        if https or cert or key:
            if not https or bool(cert) != bool(key):
                raise inputs.refuse("--cert FILE --key FILE: 两个都要，且与 --https 一起 both, and with --https")
            tls = self._tls(host, cert, key)
        import waitress

        from host_sim.desk.wsgi import application
        from django.contrib.auth import get_user_model
        if not get_user_model().objects.exists():
            self.stderr.write("还没有兑奖员 no attendant yet: python -m host_sim.desk attendant NAME")
        try:
            server = waitress.create_server(application, host=host or "0.0.0.0", port=port, threads=threads,
                                            max_request_body_size=max_body(), ident="bobing-desk",
                                            url_scheme="https" if tls else "http", **OPEN)
        except OSError as e:  # the port in use, an address not on this computer
            raise inputs.refuse("--listen %s: 无法在此监听 cannot listen there: %s (is another desk running? "
                                "choose another port)" % (listen, e.strerror or e))
        channel = server.channel_class
        if tls is not None:
            from host_sim.desk.tls import TLSChannel
            channel, server.tls = TLSChannel, tls
        server.channel_class = capped(channel)
        self.stdout.write("prize desk on %s://%s:%s/ (Ctrl-C stops it)" % ("https" if tls else "http",
                                                                           host or "0.0.0.0", port))
        self.stdout.flush()
        if every is not None:
            every.start()
            self.stdout.write("backups to %s every %s min and at shutdown" % (backup_dir, backup_every))
        signal.signal(signal.SIGTERM, _stop)  # kill PID: the same orderly stop (and last backup) as Ctrl-C
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
            if every is not None:
                every.stop()
