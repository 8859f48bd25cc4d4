"""Write a bowl's network settings (net.txt, read by firmware/bowl/net.py) for
`make provision`, checked by the firmware's own parser so the bowl never gets
a file it would refuse:

    python host_sim/tools/make_net_config.py --out FILE --ssid NAME --broker HOST
        --event NAME [--port 1883] [--user NAME]

The secrets never go on the command line (a process list shows it): the Wi-Fi
password comes from $PASSWORD and the broker's from $MQTT_PASSWORD (`make
provision` passes them so), or are asked for when stdin is a terminal. Exit
status 2 with a message for anything the bowl could not use."""
import argparse
import getpass
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from bowl import net  # noqa: E402
from host_sim.cli import guarded  # noqa: E402
from host_sim.cli.options import InputError  # noqa: E402


def _secret(env, prompt):
    v = os.environ.get(env)
    if v is None and sys.stdin.isatty():
        v = getpass.getpass(prompt)
    return v or ""


def _tls(a):
    if a.tls == "off":
        return [("tls", "off")]
    if not a.tls_ca:
        raise InputError("TLS_CA= is missing: the event broker's certificate (DIR/broker.crt of `python -m host_sim "
                         "broker`), or TLS=off for a broker without TLS")
    import base64
    import ssl
    try:
        with open(a.tls_ca) as f:
            der = ssl.PEM_cert_to_DER_cert(f.read())
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise InputError("TLS_CA=%s: not a PEM certificate (%s)" % (a.tls_ca, e))
    return [("tls", "on"), ("tls_ca", base64.b64encode(der).decode())]


def main(argv=None):
    return guarded(lambda: _main(argv))


def _main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--ssid", required=True)
    ap.add_argument("--broker", required=True)
    ap.add_argument("--event", required=True)
    ap.add_argument("--port", default="8883")
    ap.add_argument("--tls-ca", default="", metavar="FILE",
                    help="the event broker's certificate (PEM, DIR/broker.crt of `python -m host_sim broker`): the "
                         "bowl talks TLS and takes no other broker")
    ap.add_argument("--tls", default="on", choices=("on", "off"),
                    help="off: no TLS (passwords and messages readable on the Wi-Fi), only by explicit choice")
    ap.add_argument("--user", default="")
    ap.add_argument("--stock", default="desk", choices=("desk", "bowl"),
                    help="desk: a kiosk plays on the event's shared stock (default); bowl: on its own")
    ap.add_argument("--fair", default="on", choices=("on", "off"),
                    help="on (default): an event kiosk's dice verifiable, a commitment per customer answered by "
                         "the desk (PROTOCOL.md); off: the bowl's own dice, which nobody can check afterwards")
    ap.add_argument("--desk", default="",
                    help="HOST:PORT where phones reach the desk's public pages (a fair kiosk's claim QR links "
                         "there; default: the broker's host, port 8000)")
    a = ap.parse_args(argv)
    fields = [("ssid", a.ssid), ("password", _secret("PASSWORD", "Wi-Fi password (empty: open network): ")),
              ("broker", a.broker), ("port", a.port), ("event", a.event), ("user", a.user),
              ("mqtt_password", _secret("MQTT_PASSWORD", "broker password (empty: none): ") if a.user else ""),
              ("stock", a.stock), ("fair", a.fair)] + ([("desk", a.desk)] if a.desk else []) + _tls(a)
    for k, v in fields:
        if "\n" in v or "\r" in v or v != v.strip():
            raise InputError("%s: no line breaks and no leading or trailing spaces" % k)
    text = "".join("%s=%s\n" % kv for kv in fields)
    try:
        net.parse_config(text)
    except ValueError as e:
        raise InputError(str(e))
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, a.out)
    print("%s: ssid %s, broker %s:%s, event %s, stock from the %s" % (a.out, a.ssid, a.broker, a.port, a.event,
                                                                     a.stock))
    return 0


if __name__ == "__main__":
    sys.exit(main())
