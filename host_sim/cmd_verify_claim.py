"""verify-claim: check a kiosk claim code at the prize counter. Give the bowl's
secret, the bowl id, the award number and the prize class shown on the bowl's
screen, and the code. Prints "valid" (exit status 0) or "invalid" (exit 1).
Case, spaces and dashes in CODE do not matter; O reads as 0, I and L as 1."""
import binascii
import sys

from bobing import claim


def add_arguments(p):
    p.description = __doc__
    s = p.add_mutually_exclusive_group(required=True)
    s.add_argument("--secret", help="the bowl's secret, as text")
    s.add_argument("--secret-hex", metavar="HEX", help="the bowl's secret, as hex bytes")
    p.add_argument("--bowl", required=True, metavar="ID", help="bowl id")
    p.add_argument("--award", required=True, type=int, metavar="N", help="award number (1, 2, ...)")
    p.add_argument("--class", dest="cls", required=True, metavar="CLASS", help="prize class id, e.g. yixiu")
    p.add_argument("code", metavar="CODE", help="the claim code, e.g. X1FZ-F78Z")


def run(args):
    if args.secret_hex is not None:
        try:
            secret = binascii.unhexlify(args.secret_hex.strip())
        except (binascii.Error, ValueError) as e:
            print("error: --secret-hex: %s" % e, file=sys.stderr)
            return 2
    else:
        secret = args.secret.encode()
    try:
        ok = claim.verify(secret, args.bowl, args.award, args.cls, args.code)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("valid" if ok else "invalid")
    return 0 if ok else 1
