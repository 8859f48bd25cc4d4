"""listen --broker HOST[:PORT] --event NAME [--user NAME] [--tls-ca FILE]: take the event's
awards and bowl status from the MQTT broker (firmware/PROTOCOL.md) into the
desk's database, until stopped (Ctrl-C). The broker's password, if any, comes
from $MQTT_PASSWORD. With --tls-ca (the event broker's certificate, DIR/broker.crt of
`python -m host_sim broker`) the connection is TLS and no other broker is trusted; without it,
plain, and it says so. Run it beside `serve`."""
import asyncio
import os

from django.core.management.base import BaseCommand

from bobing import outbox

from host_sim.desk import inputs


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("--broker", required=True, metavar="HOST[:PORT]", help="the event's broker (port 1883)")
        p.add_argument("--event", required=True, help="the event name the bowls were provisioned with")
        p.add_argument("--user", default=None, help="the desk's user on the broker")
        p.add_argument("--tls-ca", default=None, metavar="FILE",
                       help="the event broker's certificate: connect by TLS (the broker's TLS port, 8883)")

    def handle(self, *args, broker, event, user, tls_ca, **kw):
        try:
            host, port = inputs.host_port(broker, "--broker", 1883)
            if not host:
                raise inputs.Bad("--broker %r: 没有主机 no host (e.g. 10.0.0.2:1883)" % broker)
        except inputs.Bad as e:
            raise inputs.refuse(str(e))
        try:
            outbox.check_name("event", event)
        except ValueError as e:
            raise inputs.refuse("--event: 活动名不可用 event name not allowed: %s" % e)
        if tls_ca is not None and not os.path.isfile(tls_ca):
            raise inputs.refuse("--tls-ca %s: 没有这个文件 no such file (the broker folder's broker.crt)" % tls_ca)
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
