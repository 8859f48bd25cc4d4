# The person's hands at the simulated bowl (host_sim/portable/fakes/bowl.py's board, CPython):
# a fresh bowl, a shake, buttons, the attendant's key, walking the menus,
# entering digits, turning a bowl into a kiosk, and the battery at a voltage.
# Shared by the tests of the bowl around the game (test_bowl.py, test_board.py,
# test_grant_bowl.py, ...); what runs on both interpreters is in tests/bowlrun.py.
from bobing import console as C
from bobing import vocab
from bowlrun import Stream, hal, new_root  # noqa: F401  (the tests take them from here too)


def new_sim(tmp_path, seed=1, **kw):
    sim = hal.Sim(str(tmp_path), urandom=Stream(seed), **kw)
    sim.step(100)
    return sim


def roll(sim):
    """One shake; -> the Outcome on show (the pages are skipped with OK)."""
    sim.shake()
    assert sim.run_until(lambda s: s.console.view == C.V_RESULT, 15000), vocab.VIEW_IDS[sim.console.view]
    out = sim.console.out
    while sim.console.view in (C.V_RESULT, C.V_CLAIM):
        sim.press("ok")
        sim.step(150)
    return out


def press(sim, *buttons):
    for b in buttons:
        sim.press(b)
        sim.step(150)


PIN = "2468"  # the PIN to_kiosk gives a kiosk (one with the default 1234 lets nobody in)


def key(sim):
    """The attendant turns the key in the case's lock for a moment (spring return)."""
    sim.attendant_key()
    sim.step(450)


def goto(sim, item):
    """In a list view, move the cursor to `item` and choose it."""
    c = sim.console
    assert c.view == C.V_MENU
    for _ in range(len(c.arg[1])):
        if c.arg[1][c.arg[2]] == item:
            press(sim, "ok")
            return
        press(sim, "next")
    raise AssertionError("%r not in %r" % (item, c.arg[1]))


def enter(sim, digits):
    c = sim.console
    assert c.view == C.V_DIGITS
    for d in digits:
        cur = c.arg[1][c.arg[2]] - 48
        for _ in range((int(d) - cur) % 10):
            press(sim, "next")
        press(sim, "ok")


def to_kiosk(sim, pin=PIN):
    """A family bowl made a kiosk from its menu, then its PIN changed from the
    default, as the operator must before a customer can play."""
    press(sim, "menu")
    goto(sim, "mode")
    goto(sim, "kiosk")
    goto(sim, "new")
    press(sim, "ok")
    assert sim.console.table.kiosk
    press(sim, "menu")
    enter(sim, "1234")
    goto(sim, "admin")
    goto(sim, "pin")
    enter(sim, "1234")
    enter(sim, pin)
    enter(sim, pin)
    assert sim.console.arg[0] == vocab.N_DONE
    press(sim, "ok", "menu", "menu")  # the admin list, the main list, out
    assert sim.console.view in (C.V_GATE, C.V_WAIT)  # (an event kiosk: waiting for its first stock)


def battery_at(sim, mv):
    """Set the cell's charge so that it reads about `mv` at rest (the awake bowl's load)."""
    bat = sim.board.battery
    lo, hi = 0, bat.capacity * 1000
    while hi - lo > 1:
        bat.uah = (lo + hi) // 2
        if bat.mv() < mv:
            lo = bat.uah
        else:
            hi = bat.uah
    bat.uah = hi
    return bat


def desk_value(c, commit, d, event="e", u=None):
    """The prize desk's answer to one commit message of console c (firmware/PROTOCOL.md
    "Verifiable fairness", format 2; the real desk's handler: tests/test_desk_fair.py), in
    the bowl's own message formats: its value d sent back. -> (g, k, chain a, its anchor,
    the bowl took it). u: the customer's own 16 bytes passed on with it."""
    from bobing import fair
    bowl = c.settings.bowl_id
    f, _b, body = fair.form(event, "bobing/%s/%s/commit" % (event, bowl), commit, "commit")
    g, k, a, anchor, _pf, _left = fair.decode_commit2(body)
    return (g, k, a, anchor) + (customer_seed(c, g, k, d, u, event),)


def customer_seed(c, g, k, d, u, event="e"):
    """The desk's seed message for customer k (its value d, his own u or None) into
    console c, as bowl/net.py hands it over. -> the bowl took it."""
    from bobing import fair
    bowl = c.settings.bowl_id
    seed = fair.seed2_payload(g, k, d, u)
    return c.seed(*fair.decode_seed(event, "bobing/%s/%s/seed" % (event, bowl), seed, bowl))


def desk_answers(sim):
    """The prize desk's side of a fair event kiosk's turn: each commitment the bowl has
    queued gets a fresh desk value (desk_value). -> how many the bowl took."""
    import os
    c = sim.console
    if c.fair is None:
        return 0
    n = 0
    for leaf, p in list(c.fair.pending):
        if leaf != "commit":
            continue
        c.fair.pending.remove((leaf, p))
        if desk_value(c, p, os.urandom(16))[4]:
            n += 1
    sim.step(100)
    return n
