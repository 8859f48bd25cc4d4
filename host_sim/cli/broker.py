"""broker: the event's mosquitto settings (firmware/PROTOCOL.md, access control):
a user and a strong random password per bowl and one for the desk, the ACL that
lets each bowl write only its own topics and read only its own grant, and a
mosquitto.conf using them (anonymous clients refused, persistence on, message
sizes bounded, each login's client id forced to its user name). Writes DIR/mosquitto.conf, DIR/passwd (mosquitto's own
PBKDF2-SHA512 hashes, never the passwords) and DIR/acl; prints each new
password ONCE, as the `make provision` / `listen` line that uses it.

Run it again with more --bowl to add bowls: users already in DIR/passwd keep
their password (nothing to re-provision) unless named by --renew. Then restart
the broker (`make broker EVENT=...`), or send it SIGHUP to reload."""
import argparse
import base64
import hashlib
import ipaddress
import os
import pwd
import secrets

from bobing import outbox
from host_sim.cli.options import InputError, out_dir, whole, write_files

DESK = "desk"  # the desk's user; also the bowl-id level of its own status topic
ITERATIONS = 101  # mosquitto_passwd's default: the passwords are 128 random bits, not a word to guess
# mosquitto's own limit is MQTT's: 268435455 bytes a packet (message_size_limit and
# max_packet_size unset). Ours: the biggest packet a bowl or the desk sends is ~600 bytes (a
# 256-byte payload, a topic of two names of <= 32 characters of <= 4 UTF-8 bytes; a CONNECT
# with its will, user and password), so a client sending more than MAX_PACKET is broken or
# hostile: the broker closes its connection. A payload between 256 bytes and that still
# reaches the desk, which refuses it with its reason in the import log.
MAX_PACKET = 1024

# (access, leaf): what one bowl may do on bobing/<event>/<its id>/<leaf>
BOWL_OWN = (("write", "award"), ("write", "status"), ("write", "ask"), ("read", "allot"),
            ("write", "champion"), ("write", "final"), ("write", "finalroll"),  # the 状元王中王's
            ("read", "shakes"), ("write", "shaken"),  # shakes granted at the counter, and the answer
            ("write", "commit"), ("write", "reveal"), ("read", "seed"),  # verifiable fairness
            ("write", "key"))  # customers the attendant's key let in


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--out", required=True, type=out_dir, metavar="DIR",
                   help="folder for mosquitto.conf, passwd, acl and the broker's persistence file")
    p.add_argument("--event", required=True, help="the event name the bowls are provisioned with")
    p.add_argument("--bowl", action="append", default=[], metavar="ID",
                   help="a bowl id (碗号), once per bowl; bowls already in DIR/passwd are kept")
    p.add_argument("--renew", action="append", default=[], metavar="USER",
                   help="give this bowl (or 'desk') a new password (a lost or leaked one)")
    p.add_argument("--tls-port", type=whole(1, 65535), default=8883,
                   help="the broker's TLS port (8883), with the event's certificate DIR/broker.crt")
    p.add_argument("--plain", action="store_true",
                   help="also listen without TLS on --port: passwords and messages readable on the network; "
                        "only for bowls provisioned with TLS=off, by explicit choice")
    p.add_argument("--port", type=whole(1, 65535), default=1883, help="the plain port with --plain (1883)")
    p.add_argument("--listen", default="0.0.0.0", metavar="ADDRESS", type=ip_address,
                   help="address to listen on (0.0.0.0: every network of this computer)")


def ip_address(s):
    try:
        return str(ipaddress.ip_address(s))
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not an IP address of this computer (e.g. 0.0.0.0, 10.0.0.2 "
                                         "or 127.0.0.1)" % s[:60])


def hash_password(password, salt=None):
    """mosquitto 2's password file hash: $7$<iterations>$<salt b64>$<PBKDF2-HMAC-SHA512 b64>
    (as mosquitto_passwd writes it: a 12-byte salt, 64-byte hash)."""
    salt = secrets.token_bytes(12) if salt is None else salt
    h = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    return "$7$%d$%s$%s" % (ITERATIONS, base64.b64encode(salt).decode(), base64.b64encode(h).decode())


def check_user(what, name):
    outbox.check_name(what, name)
    if ":" in name:  # the password file's separator
        raise ValueError("%s %r: ':' is not allowed in a broker user name" % (what, name))
    return name


def acl_text(event, bowls):
    """mosquitto's acl_file: topics are named in full (this event only), no patterns."""
    pre = "%s/%s/" % (outbox.PREFIX, outbox.check_name("event", event))
    out = ["# bobing event %s: made by `python -m host_sim broker` (firmware/PROTOCOL.md)" % event, "",
           "# the prize desk: reads everything of the event, grants stock, says it is up",
           "user %s" % DESK, "topic read %s#" % pre, "topic write %s+/allot" % pre,
           "topic write %s+/shakes" % pre, "topic write %s+/seed" % pre,
           "topic write %s%s/status" % (pre, DESK), ""]
    for b in sorted(bowls):
        out.append("user %s" % b)
        out += ["topic %s %s%s/%s" % (access, pre, b, leaf) for access, leaf in BOWL_OWN]
        out += ["topic read %s%s/status" % (pre, DESK), ""]
    return "\n".join(out)


def conf_text(d, port, listen, tls_port=None, plain=True):
    d = os.path.abspath(d)
    tls = ["listener %d %s" % (tls_port, listen), "certfile %s" % os.path.join(d, CERT),
           "keyfile %s" % os.path.join(d, KEY)] if tls_port else []
    return "\n".join([
        "# bobing event broker: made by `python -m host_sim broker`; run with `make broker EVENT=...`",
        "per_listener_settings false"] + tls + (["listener %d %s" % (port, listen)] if plain else []) + [
        "allow_anonymous false",
        # a login is its own client id, whatever id it asks for: a bowl's login can neither take
        # the desk's durable session (and drop the awards queued in it) nor push another bowl off
        "use_username_as_clientid true",
        "password_file %s" % os.path.join(d, "passwd"),
        "acl_file %s" % os.path.join(d, "acl"),
        "persistence true",
        "persistence_location %s/" % d,
        "autosave_interval 60",
        "max_packet_size %d" % MAX_PACKET,
        "max_inflight_messages 20",
        "max_queued_messages 10000",  # per durable session: the desk away for a long stretch
        # mosquitto 2's own sends without Nagle's delay: a bowl's ask -> the desk's allot p50 44 ms
        # -> 14-19 ms (bench/allot_bench.py); the bowl and the desk set TCP_NODELAY on their side
        "set_tcp_nodelay true",
        "log_dest stdout",
        "log_type error", "log_type warning", "log_type notice", "log_type information",
        "connection_messages true",
        # as root, mosquitto would switch to user mosquitto, who cannot read these files (the
        # running user's name from the system, not from $USER, which sudo or su may leave behind)
        "user %s" % pwd.getpwuid(os.getuid()).pw_name,
        ""])


CERT, KEY = "broker.crt", "broker.key"
CERT_NAME = "broker.bobing"  # the certificate's name, as the bowls check it (bowl/net.py's TLS_NAME)


def make_certificate(d):
    """The event's own certificate (made once; the bowls are provisioned with it): a self-signed
    ECDSA P-256 certificate and its key (mode 0600) by Debian's openssl, the key from the OS's
    entropy. -> the certificate's SHA-256 fingerprint (hex)."""
    import ssl
    import subprocess
    crt, key = os.path.join(d, CERT), os.path.join(d, KEY)
    if not (os.path.exists(crt) and os.path.exists(key)):
        old = os.umask(0o077)
        try:
            p = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                "-nodes", "-keyout", key, "-out", crt, "-days", "3650", "-subj", "/CN=" + CERT_NAME,
                                "-addext", "subjectAltName=DNS:" + CERT_NAME], capture_output=True, text=True)
        except FileNotFoundError:
            raise InputError("the broker's certificate needs Debian's openssl (apt-get install openssl)")
        finally:
            os.umask(old)
        if p.returncode != 0:
            raise InputError("openssl could not make the broker's certificate: %s" % p.stderr.strip()[-300:])
        os.chmod(crt, 0o644)
    with open(crt) as f:
        der = ssl.PEM_cert_to_DER_cert(f.read())
    return hashlib.sha256(der).hexdigest()


def read_passwd(path):
    """DIR/passwd -> {user: hash line} (empty when there is none)."""
    users = {}
    try:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f):
                line = line.rstrip("\n")
                if not line:
                    continue
                user, sep, h = line.partition(":")
                if not sep or not h.startswith("$7$"):
                    raise InputError("%s line %d is not USER:$7$... (a mosquitto 2 password file)" % (path, i + 1))
                users[user] = h
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError) as e:
        raise InputError("cannot read %s: %s" % (path, e))
    return users


def run(args):
    try:
        outbox.check_name("event", args.event)
        bowls = [check_user("bowl id", b) for b in args.bowl]
        for r in args.renew:
            check_user("--renew", r)
    except ValueError as e:
        raise InputError(str(e))
    if DESK in bowls:
        raise InputError("bowl id %r is the desk's own name on the broker: give the bowl another id" % DESK)
    old = read_passwd(os.path.join(args.out, "passwd"))
    everyone = sorted(set(bowls) | (set(old) - {DESK}))
    unknown = [r for r in args.renew if r != DESK and r not in everyone]
    if unknown:
        raise InputError("--renew %s: not a bowl of this broker (add it with --bowl)" % " ".join(unknown))
    if not everyone:
        raise InputError("name the event's bowls: --bowl ID once per bowl")
    new = {}  # user: password, made now
    hashes = {}
    for u in [DESK] + everyone:
        if u in old and u not in args.renew:
            hashes[u] = old[u]
        else:
            new[u] = secrets.token_urlsafe(16)  # 128 bits from the OS's entropy
            hashes[u] = hash_password(new[u])

    def secret_file(text):
        def write(path):
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
                f.write(text)
        return write
    write_files(args.out, {"passwd": secret_file("".join("%s:%s\n" % (u, hashes[u]) for u in [DESK] + everyone)),
                           "acl": acl_text(args.event, everyone).encode(),
                           "mosquitto.conf": conf_text(args.out, args.port, args.listen, args.tls_port,
                                                       args.plain).encode()})
    fp = make_certificate(args.out)
    print("%s: %d bowls; run the broker with: make broker EVENT=%s BROKER_DIR=%s"
          % (args.out, len(everyone), args.event, args.out))
    print("TLS on port %d, the event's certificate %s (sha256 %s): provision bowls with TLS_CA=%s%s"
          % (args.tls_port, os.path.join(args.out, CERT), fp, os.path.join(args.out, CERT),
             "; plain (no TLS) on port %d, for bowls provisioned TLS=off" % args.port if args.plain else ""))
    kept = [u for u in [DESK] + everyone if u not in new]
    if kept:
        print("kept (password unchanged): %s" % " ".join(kept))
    if new:
        print("new passwords, shown only this once: write them down or provision now")
    for u, pw in new.items():
        if u == DESK:
            print("desk: MQTT_PASSWORD=%s python -m host_sim.desk listen --broker HOST:%d --event %s --user %s"
                  % (pw, args.port if args.plain else args.tls_port, args.event, DESK))
        else:
            print("bowl %s: make provision PORT=/dev/ttyUSB0 SSID=... PASSWORD=... BROKER=HOST MQTT_PORT=%d "
                  "EVENT=%s MQTT_USER=%s MQTT_PASSWORD=%s TLS_CA=%s" % (u, args.tls_port, args.event, u, pw,
                                                                       os.path.join(args.out, CERT)))
    return 0
