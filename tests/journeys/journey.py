# What the journeys share: a person at the simulated bowl (host_sim/sim/player.py:
# the real app on the simulated board), reading the screen as text (the
# firmware's own drawing, the text it drew), and a check that says what was
# on the screen when it was not what the person expected.
import tempfile

from host_sim.sim.player import Player
from bowlrun import Stream


def bowl(root=None, seed=1):
    p = Player(root or tempfile.mkdtemp(prefix="bobing-journey-"), urandom=Stream(seed))
    p.step(200)  # the boot
    return p


def sees(p, *texts):
    """The screen shows every one of texts; -> the screen's text."""
    shown = p.screen_text()
    for t in texts:
        assert t in shown, "expected %r on the screen (%s), it shows:\n%s" % (t, p.view, shown)
    return shown


def never(p, *texts):
    shown = p.screen_text()
    for t in texts:
        assert t not in shown, "%r on the screen (%s):\n%s" % (t, p.view, shown)
    return shown


def qr_of(p):
    """The QR code on the bowl's screen, decoded by zxing-cpp from the panel's pixels."""
    import zxingcpp  # pinned in requirements

    from host_sim.cli import screens as cmd_screens
    img = cmd_screens.to_image(bytes(p.sim.frame), 2).convert("L")  # (at 2: no seams between pixels)
    found = zxingcpp.read_barcodes(img)
    assert found, "no QR code on the screen:\n%s" % p.screen_text()
    return found[0].text
