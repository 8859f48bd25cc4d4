"""verify-claim: check a kiosk claim code at the prize counter. Give the bowl's
secret, the bowl id, and what the bowl's claim screen shows: the game and award
number ("No.17-3" is --game 17 --award 3), the prize class and the code.
Prints "valid" (exit status 0) or "invalid" (exit 1); a bad argument is an error
(exit 2). Case, spaces and dashes in CODE do not matter; O reads as 0, I and L as 1."""
import binascii
import sys

from bobing import claim


def add_arguments(p):
    p.description = __doc__
    s = p.add_mutually_exclusive_group(required=True)
    s.add_argument("--secret", help="the bowl's secret, as text (at least %d bytes)" % claim.MIN_SECRET)
    s.add_argument("--secret-hex", metavar="HEX", help="the bowl's secret, as hex bytes (the bowl's 领奖密钥 screen)")
    p.add_argument("--bowl", required=True, metavar="ID", help="bowl id")
    p.add_argument("--game", required=True, type=int, metavar="N", help="game number (17 of No.17-3)")
    p.add_argument("--award", required=True, type=int, metavar="N", help="award number (3 of No.17-3)")
    p.add_argument("--class", dest="cls", required=True, metavar="CLASS", help="prize class id, e.g. yixiu")
    p.add_argument("code", metavar="CODE", help="the claim code, e.g. X1FZ-F78Z")


def run(args):
    # (arguments that are not UTF-8 never get here: options.Parser refuses them)
    if args.secret_hex is not None:
        try:
            secret = binascii.unhexlify(args.secret_hex.strip())
        except (binascii.Error, ValueError) as e:
            print("error: --secret-hex: %s (hex digits 0-9 a-f, two a byte)" % e, file=sys.stderr)
            return 2
    else:
        secret = args.secret.encode()
    try:
        ok = claim.verify(secret, args.bowl, args.game, args.award, args.cls, args.code)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("valid" if ok else "invalid")
    return 0 if ok else 1
