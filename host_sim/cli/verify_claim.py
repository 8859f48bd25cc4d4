"""verify-claim: check a kiosk claim code at the prize counter (领奖核对).

Give the bowl's secret and what the bowl's claim screen shows, as it shows it:
the bowl id (碗号; `--bowl 1` and `--bowl 0001` are the same bowl: ids compare
as numbers, since a bowl's id is 1-8 digits), the game and award number
("No.17-3": `--game 17-3`, or `--game 17 --award 3`), the prize class (状元 or
its id zhuangyuan, "Yi Xiu" or yixiu) and the code; or the text of the screen's
QR code alone (BB1:0001:17-3:YIXIU:X1FZF78Z), with or without the other options
(given, they must agree with it). Full-width characters and case do not matter.
Prints "有效 valid" (exit status 0) or "无效 invalid" (exit 1). A class, bowl id
or number that no bowl can show is an error (exit 2), never a verdict. In the
code, spaces and dashes do not matter; O reads as 0, I and L as 1."""
import binascii
import unicodedata

from bobing import claim, profiles
from host_sim.cli.options import InputError

QR_TAG = "BB1"  # the claim QR's format: BB1:<bowl id>:<game>-<award>:<CLASS ID>:<code>
MAX_BOWL_DIGITS = 8  # a bowl's id: 1 to 8 digits (bobing/settings.py)


def add_arguments(p):
    p.description = __doc__
    s = p.add_mutually_exclusive_group(required=True)
    s.add_argument("--secret", help="the bowl's secret, as text (at least %d bytes)" % claim.MIN_SECRET)
    s.add_argument("--secret-hex", metavar="HEX", help="the bowl's secret, as hex bytes (the bowl's 领奖密钥 screen)")
    p.add_argument("--bowl", metavar="ID", help="碗号 bowl id, 1-8 digits (1 = 0001)")
    p.add_argument("--game", metavar="N[-M]", help="局号 game number: 17 of No.17-3, or 17-3 (then no --award)")
    p.add_argument("--award", metavar="M", help="奖号 award number: 3 of No.17-3")
    p.add_argument("--class", dest="cls", metavar="CLASS",
                   help="奖项 prize class as the screen shows it: 状元, 对堂, ... or its id zhuangyuan, duitang, ...")
    p.add_argument("code", metavar="CODE", help="领奖码 the claim code, e.g. X1FZ-F78Z, or the QR code's text")


def _norm(s):
    """What a person typed, as the bowl would write it: full-width forms and
    compatibility characters folded (NFKC), outer spaces off."""
    return unicodedata.normalize("NFKC", s).strip()


def class_names():
    """{what a screen may show, folded: class id} for every prize class of every
    prize spec: its id, its Chinese name, and the English screen's pinyin."""
    out = {}
    for name in profiles.prize_names():
        for cid, zh, _n, _ranks in profiles.prize_spec(name)["classes"]:
            out[cid] = cid
            out[zh] = cid
    return out


def parse_class(s):
    key = _norm(s).replace(" ", "").lower()  # "Yi Xiu", "YIXIU", "ｙｉｘｉｕ" -> yixiu
    names = class_names()
    if key not in names:
        zh = sorted(k for k in names if not k.isascii())
        raise InputError("--class %r: 没有这个奖项 no such prize class; 可用 allowed: %s, or the ids %s"
                   % (s, " ".join(zh), " ".join(sorted(set(names.values())))))
    return names[key]


def bowl_forms(s):
    """The bowl ids a typed id may stand for: the same number in 1 to 8 digits
    (a bowl signs its id as stored, "1" or "0001": they are one bowl)."""
    d = _norm(s)
    if not d or len(d) > MAX_BOWL_DIGITS or not (d.isascii() and d.isdigit()):
        raise InputError("--bowl %r: 碗号是1-8位数字 a bowl id is 1 to 8 digits (0-9), as the bowl's 碗号 shows it" % s)
    short = d.lstrip("0") or "0"
    return [short.rjust(n, "0") for n in range(len(short), MAX_BOWL_DIGITS + 1)]


def _whole(s, what, option):
    d = _norm(s)
    if not (d.isascii() and d.isdigit()) or len(d) > 9 or int(d) < 1:
        raise InputError("%s %r: %s must be a whole number >= 1 (数字, 从1起)" % (option, s, what))
    return int(d)


def parse_game(s):
    """'17', '17-3', 'No.17-3' -> (17, 3 or None)."""
    d = _norm(s)
    if d[:3].upper() == "NO.":
        d = d[3:]
    g, sep, a = d.partition("-")
    if sep:
        return _whole(g, "the game number", "--game"), _whole(a, "the award number", "--game")
    return _whole(d, "the game number", "--game"), None


def parse_qr(text):
    """The claim QR's text -> (bowl id, game, award, class id, code)."""
    parts = text.split(":")
    if len(parts) != 5:
        raise InputError("QR text %r: expected %s:<bowl id>:<game>-<award>:<CLASS>:<code>" % (text, QR_TAG))
    _tag, bowl, ga, cls, code = parts
    bowl_forms(bowl)
    g, a = parse_game(ga)
    if a is None:
        raise InputError("QR text %r: no award number in %r (expected <game>-<award>)" % (text, ga))
    return bowl, g, a, parse_class(cls), code


def _agree(name, given, want):
    if given is not None and given != want:
        raise InputError("%s %s does not match the QR code's %s: give one or the other" % (name, given, want))


def fields(args):
    """(bowl id forms, game, award, class id, code) from the arguments; InputError
    saying what is missing or allowed."""
    code = _norm(args.code)
    try:
        code = claim.bb1_of(code)  # a fair kiosk's claim link: the same fields
    except ValueError as e:
        raise InputError(str(e))
    g = a = None
    if args.game is not None:
        g, a = parse_game(args.game)
    if args.award is not None:
        aw = _whole(args.award, "the award number", "--award")
        if a is not None and a != aw:
            raise InputError("--game %s and --award %s name two awards: give one" % (args.game, args.award))
        a = aw
    cls = parse_class(args.cls) if args.cls is not None else None
    bowls = bowl_forms(args.bowl) if args.bowl is not None else None
    if code.upper().startswith(QR_TAG + ":"):
        qb, qg, qa, qc, code = parse_qr(code.upper())
        if bowls is not None and qb not in bowls:
            raise InputError("--bowl %s does not match the QR code's %s: give one or the other" % (args.bowl, qb))
        _agree("--game", g, qg)
        _agree("--award", a, qa)
        _agree("--class", cls, qc)
        return [qb], qg, qa, qc, code
    missing = [o for o, v in (("--bowl", bowls), ("--game", g), ("--award", a), ("--class", cls)) if v is None]
    if missing:
        raise InputError("missing %s: give what the claim screen shows (No.17-3 = --game 17-3), or its QR text as CODE"
                   % ", ".join(missing))
    return bowls, g, a, cls, code


def run(args):
    # (arguments that are not UTF-8 never get here: options.Parser refuses them)
    if args.secret_hex is not None:
        try:
            secret = binascii.unhexlify(args.secret_hex.strip())
        except (binascii.Error, ValueError) as e:
            raise InputError("--secret-hex: %s (hex digits 0-9 a-f, two a byte)" % e)
    else:
        secret = args.secret.encode()
    try:
        bowls, g, a, cls, code = fields(args)
        # any of the id's spellings (at most 8): a guess is still right once in 2^37
        ok = any([claim.verify(secret, b, g, a, cls, code) for b in bowls])
    except ValueError as e:  # (the secret: claim.verify says what is allowed)
        raise InputError(str(e))
    print("有效 valid" if ok else "无效 invalid")
    return 0 if ok else 1
