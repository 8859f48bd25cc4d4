"""HTTPS for `serve --https`: waitress itself speaks only HTTP, so each accepted
connection is wrapped in the standard library's TLS (ssl) before waitress's
channel reads it; waitress's event loop, limits and threads stay as they are
(serve.py). A TLS socket that is not blocking may need more bytes before it can
give any (ssl.SSLWantReadError): that is "nothing yet", not a closed connection,
and decrypted bytes it holds already (pending()) are read on at once, since
poll() cannot see them.

The certificate: the promoter's own (--cert FILE --key FILE), or one the desk
makes once with the `cryptography` package (requirements/desk.txt) for its own
names and addresses, kept beside the database (tls.crt, tls.key 0600). Phones
warn about a certificate no authority signed until it is accepted once; a
promoter with a name and a real certificate gives those instead."""
import datetime
import ipaddress
import os
import ssl
import time

from waitress.channel import HTTPChannel

CERT, KEY = "tls.crt", "tls.key"
DAYS = 825  # what browsers accept for a certificate's life


class TLSChannel(HTTPChannel):
    def __init__(self, server, sock, addr, adj, map=None):
        sock = server.tls.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        super().__init__(server, sock, addr, adj, map)

    def handle_read(self):
        while True:
            try:
                data = self.socket.recv(self.adj.recv_bytes)
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return  # the handshake or a record not complete yet
            except OSError:  # a bad handshake (plain HTTP on this port, an old client), a reset
                self.handle_close()
                return
            if not data:
                self.handle_close()
                return
            self.last_activity = time.time()
            self.received(data)
            if not self.socket.pending():
                return

    def send(self, data, do_close=True):
        try:
            return self.socket.send(data)
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError):
            return 0
        except OSError:
            if do_close:
                self.handle_close()
            return 0


def context(cert, key):
    """An SSLContext serving cert and key (TLS 1.2 or newer); ValueError saying what is wrong."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as e:
        raise ValueError("证书或密钥不可用 the certificate %s or its key %s cannot be used: %s" % (cert, key, e))
    return ctx


def own_certificate(folder, names):
    """The desk's own certificate for `names` (host names and addresses) in folder: made
    once (and again when a name is missing from it) -> (cert path, key path)."""
    cert, key = os.path.join(folder, CERT), os.path.join(folder, KEY)
    names = sorted(set(n for n in names if n))
    if os.path.exists(cert) and os.path.exists(key) and set(names) <= set(_names_in(cert)):
        return cert, key
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        raise ValueError("没有 cryptography 包，无法自制证书 the cryptography package is missing, so the desk "
                         "cannot make its certificate: install requirements/desk.txt, or give --cert FILE --key FILE")
    k = ec.generate_private_key(ec.SECP256R1())  # from os.urandom (OpenSSL's generator)
    alt = []
    for n in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(n.strip("[]"))))
        except ValueError:
            alt.append(x509.DNSName(n))
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bobing prize desk")])
    now = datetime.datetime.now(datetime.timezone.utc)
    c = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(k.public_key())
         .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
         .not_valid_after(now + datetime.timedelta(days=DAYS))
         .add_extension(x509.SubjectAlternativeName(alt), critical=False)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .sign(k, hashes.SHA256()))
    fd = os.open(key + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()))
    os.replace(key + ".tmp", key)
    with open(cert + ".tmp", "wb") as f:
        f.write(c.public_bytes(serialization.Encoding.PEM))
    os.replace(cert + ".tmp", cert)
    return cert, key


def _names_in(cert):
    try:
        from cryptography import x509
    except ImportError:
        return []
    try:
        with open(cert, "rb") as f:
            c = x509.load_pem_x509_certificate(f.read())
        alt = c.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):  # unreadable, or not ours: made again
        return []
    return [str(v) for v in alt.get_values_for_type(x509.DNSName)] + \
        [str(v) for v in alt.get_values_for_type(x509.IPAddress)]
