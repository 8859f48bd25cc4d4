"""What the counter's code field takes, before the code is checked
(counter.py): a code as typed, in any case and in a Chinese input method's
full-width mode (Unicode NFKC folds ＡＢ１２－ to AB12-), or the QR text of the
bowl's claim screen, which a USB scanner types into the same field:

    BB1:<bowl id>:<game>-<award>:<CLASS ID IN UPPER CASE>:<code>

e.g. BB1:0001:2-1:ZHUANGYUAN:9AVF2S2Q, or a fair kiosk's claim link with the same
fields (bobing/claim.py's link: HTTP://DESK:8000/F/0001/2-1/ZHUANGYUAN#9AVF2S2Q).
The version prefix BB1 is fixed; a text that starts with it (or with http://)
and is not that shape is refused with what was wrong."""
import unicodedata

from django.utils.translation import gettext as _

from bobing import claim, profiles

QR_PREFIX = "BB1:"


def class_names():
    """{class id: Chinese name} over every prize spec of the firmware (the desk's
    forms offer them, a scanned code must name one)."""
    seen = {}
    for name in profiles.prize_names():
        for cid, zh, _n, _ranks in profiles.prize_spec(name)["classes"]:
            seen.setdefault(cid, zh)
    return seen


def normalize(text):
    """A code as typed -> NFKC, upper case, outer spaces gone (claim.normalize
    then ignores inner spaces and dashes, and reads O as 0, I and L as 1)."""
    return unicodedata.normalize("NFKC", str(text)).strip().upper()


def parse_qr(text, known_classes=None):
    """The claim screen's QR text -> {"code", "bowl", "game", "award", "cls"} as
    the full form's fields; None if `text` is not QR text (a plain code).
    ValueError (a translated sentence) for QR text that is damaged."""
    t = unicodedata.normalize("NFKC", str(text)).strip()
    try:
        t = claim.bb1_of(t)  # the claim's link: the same fields
    except ValueError:
        raise ValueError(_("The scanned link %(text)r is not a claim screen's QR code. Scan it again or type "
                           "the code.") % {"text": t[:80]})
    if not t.upper().startswith(QR_PREFIX):
        return None
    parts = t.split(":")
    if len(parts) != 5:
        raise ValueError(_("The scanned text %(text)r is not a claim screen's QR code (it has %(n)d parts, "
                           "BB1:bowl:game-award:CLASS:code has 5). Scan it again or type the code.")
                         % {"text": t[:80], "n": len(parts)})
    _v, bowl, ga, cls, code = parts
    game, dash, award = ga.partition("-")
    if not (dash and game.isascii() and game.isdigit() and award.isascii() and award.isdigit()
            and len(game) <= 9 and len(award) <= 9):
        raise ValueError(_("The scanned QR code's game and award %(ga)r are not two numbers like 17-3. "
                           "Scan it again or type the code.") % {"ga": ga[:20]})
    cls = cls.strip().lower()
    if known_classes is None:
        known_classes = class_names()
    if cls not in known_classes:
        raise ValueError(_("The scanned QR code names the prize class %(cls)r, which the desk does not know. "
                           "Scan it again or type the code.") % {"cls": cls[:20]})
    return {"code": code.strip(), "bowl": bowl.strip(), "game": str(int(game)), "award": str(int(award)),
            "cls": cls}
