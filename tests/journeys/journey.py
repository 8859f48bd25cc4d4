# What the journeys share: a person at the simulated bowl (host_sim/sim/player.py:
# the real app on the simulated board), reading the screen as text (the
# firmware's own drawing, the text it drew), and a check that says what was
# on the screen when it was not what the person expected.
import tempfile

from host_sim.sim.player import Player
from test_bowl_e2e import Stream


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
