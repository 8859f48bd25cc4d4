# What the tests of the simulated bowl share on both interpreters (CPython and
# the unix ports): host_sim/portable/fakes/bowl.py's simulated board under one name, a fixed
# stand-in for os.urandom, a fresh flash folder, and a whole game played by
# shakes. Kept small: the e2e game's heap on the frozen build counts it.
# The person's hands at the bowl (CPython tests) are in tests/bowlkit.py.
import gc
import hashlib
import sys

if sys.implementation.name == "micropython":
    sys.path.append("host_sim/portable")
    sys.path.append(".")  # host_sim.portable.fakes
    from host_sim.portable.fakes import bowl as hal
    import os

    def new_root(name):
        import binascii
        root = "/tmp/bobing-e2e-%s-%s" % (name, binascii.hexlify(os.urandom(4)).decode())
        try:
            os.mkdir(root)
        except OSError:
            for f in os.listdir(root):
                os.remove(root + "/" + f)
        return root
else:
    import os
    import tempfile

    from host_sim.portable.fakes import bowl as hal  # noqa: F401  (the tests take it from here: one name on both)

    def new_root(name):
        return tempfile.mkdtemp(prefix="bobing-e2e-%s-" % name)

from bobing import console as C
from bobing import vocab


class Stream:
    """A fixed stand-in for os.urandom (SHA-256 of a counter), so a test game
    is the same game every time on both interpreters."""

    def __init__(self, seed):
        self.seed = seed
        self.n = 0

    def __call__(self, k):
        out = b""
        while len(out) < k:
            self.n += 1
            out += hashlib.sha256(b"%d:%d" % (self.seed, self.n)).digest()
        return out[:k]


def live():
    """Live heap in bytes after a collection (0 on CPython, which has no such figure)."""
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def play_to_end(sim, figures=None, max_rolls=600):
    """Shake for every turn (OK skips the result pages, as players do) until the
    game ends; -> rolls made. figures: a dict that gets the live-heap high-water."""
    rolls = 0
    while not sim.console.table.ended:
        assert rolls < max_rolls, "game did not end"
        sim.shake()
        assert sim.run_until(lambda s: s.console.view in (C.V_RESULT, C.V_NOTICE), 15000), \
            "no result %r" % (vocab.VIEW_IDS[sim.console.view],)
        rolls += 1
        while sim.console.view in (C.V_RESULT, C.V_CLAIM):
            sim.press("ok")
            sim.step(150)
        if figures is not None and rolls % 10 == 0:
            figures["live_max"] = max(figures.get("live_max", 0), live())
    return rolls
