"""listen --broker HOST[:PORT] --event NAME [--user NAME] [--tls-ca FILE]: take the event's
awards and bowl status from the MQTT broker (firmware/PROTOCOL.md) into the
desk's database, until stopped (Ctrl-C). The broker's password, if any, comes
from $MQTT_PASSWORD. With --tls-ca (the event broker's certificate, DIR/broker.crt of
`python -m host_sim broker`) the connection is TLS and no other broker is trusted; without it,
plain, and it says so. Run it beside `serve`."""
import asyncio
import os

from django.core.management.base import BaseCommand, CommandError

from bobing import outbox


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("--broker", required=True, metavar="HOST[:PORT]", help="the event's broker (port 1883)")
        p.add_argument("--event", required=True, help="the event name the bowls were provisioned with")
        p.add_argument("--user", default=None, help="the desk's user on the broker")
        p.add_argument("--tls-ca", default=None, metavar="FILE",
                       help="the event broker's certificate: connect by TLS (the broker's TLS port, 8883)")

    def handle(self, *args, broker, event, user, tls_ca, **kw):
        host, sep, port = broker.rpartition(":")
        if not sep:
            host, port = broker, "1883"
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise CommandError("--broker %r: 写成 write it as HOST or HOST:PORT, e.g. 10.0.0.2:1883" % broker)
        try:
            outbox.check_name("event", event)
        except ValueError as e:
            raise CommandError("--event: %s" % e)
        if tls_ca is not None and not os.path.isfile(tls_ca):
            raise CommandError("--tls-ca %s: 没有这个文件 no such file (the broker folder's broker.crt)" % tls_ca)
        from host_sim.desk import bus
        self.stdout.write("listening to %s:%s for event %s%s (Ctrl-C stops)" % (
            host, port, event, " by TLS" if tls_ca else "; 未加密 without TLS: passwords and messages readable on "
                                                           "the network (--tls-ca FILE for TLS)"))
        self.stdout.flush()
        try:
            asyncio.run(bus.listen(host, int(port), event, user, os.environ.get("MQTT_PASSWORD") if user else None,
                                   ca=tls_ca))
        except KeyboardInterrupt:
            pass
