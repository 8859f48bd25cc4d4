# Shakes granted at the prize desk on the simulated bowl (host_sim/portable/fakes/bowl.py,
# CPython; firmware/PROTOCOL.md "Shakes from the counter"): a kiosk provisioned for
# an event takes an authenticated grant onto its flash, lets exactly that many
# shakes through the attendant's gate, uses each grant once, refuses repeats,
# and keeps a grant taken before a power cut.
import binascii

from bobing import grants, wire
from bobing import console as C
from bowlkit import key, new_sim, roll, to_kiosk

NET = "ssid=mall\npassword=secret123\ntls=off\nbroker=127.0.0.1\nevent=midautumn\nstock=bowl\n"


def _kiosk(tmp_path):
    (tmp_path / "net.txt").write_text(NET)
    sim = new_sim(tmp_path)
    to_kiosk(sim)
    return sim


def _grant(sim, gid, n, ref="R-1", secret=None, bowl=None):
    c = sim.console
    bowl = bowl or c.settings.bowl_id
    secret = secret or binascii.unhexlify(c.settings.secret)
    msg = wire.seal(wire.key(secret), wire.FROM_DESK, "midautumn", bowl, "shakes", grants.payload(gid, n, ref))
    try:  # as bowl/net.py's _on_msg: the seal under this bowl's key, then the body
        msg = wire.open_sealed(wire.key(binascii.unhexlify(c.settings.secret)), wire.FROM_DESK, "midautumn",
                               c.settings.bowl_id, "shakes", msg)
        gid, n, ref = grants.decode("midautumn", "bobing/midautumn/%s/shakes" % bowl, msg, c.settings.bowl_id)
    except ValueError as e:
        return "refused", str(e)
    return c.grant_shakes(gid, n)


def _shakes_used(sim, most=12):
    """The customer shakes until his shakes are done -> shakes rolled."""
    c = sim.console
    k = 0
    who = c.table.customer
    while c.view != C.V_GATE and c.table.shakes_left and c.table.customer == who and k < most:
        roll(sim)
        k += 1
    return k


def test_a_desk_grant_lets_exactly_its_shakes_once(tmp_path):
    sim = _kiosk(tmp_path)
    c = sim.console
    assert c.view == C.V_GATE and c.table.customer == 0
    assert _grant(sim, 1, 2) == ("got", "")
    sim.step(100)
    assert c.view == C.V_TURN and c.table.customer == 1 and c.table.shakes_left == 2
    assert c.grants.acks == [(1, "used", "")]
    assert _shakes_used(sim) == 2 and c.view == C.V_GATE
    # the same grant again (the retained message after a reconnect, a replay): nothing
    assert _grant(sim, 1, 2) == ("used", "")
    sim.step(200)
    assert c.view == C.V_GATE and c.table.customer == 1
    assert _grant(sim, 2, 5)[0] == "got"
    sim.step(100)
    assert c.table.customer == 2 and c.table.shakes_left == 5
    assert any("grant 2 used by customer 2" in line for line in sim.board.lines)


def test_forged_foreign_and_malformed_grants_are_refused(tmp_path):
    sim = _kiosk(tmp_path)
    c = sim.console
    st, why = _grant(sim, 1, 3, secret=bytes(32))
    assert st == "refused" and "seal does not match" in why
    st, why = _grant(sim, 1, 3, bowl="9999")
    assert st == "refused" and "seal does not match" in why
    for bad in (b'{"v":2,"id":1,"n":3,"ref":"","mac":"00"}', b'{"v":2,"id":1,"n":3}', b"nonsense",
                b'{"v":2,"id":0,"n":3,"ref":"","mac":"00"}', b'{"v":2,"id":1,"n":100,"ref":"","mac":"00"}'):
        try:
            body = wire.open_sealed(wire.key(binascii.unhexlify(c.settings.secret)), wire.FROM_DESK, "midautumn",
                                    c.settings.bowl_id, "shakes", bad)  # (as bowl/net.py's _on_msg)
            grants.decode("midautumn", "bobing/midautumn/%s/shakes" % c.settings.bowl_id, body, c.settings.bowl_id)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % bad)
    sim.step(300)
    assert c.table.customer == 0 and c.view == C.V_GATE


def test_a_power_cut_after_receipt_keeps_the_grant_and_after_use_never_doubles_it(tmp_path):
    sim = _kiosk(tmp_path)
    key(sim)  # a customer on the attendant's key is shaking: the grant waits for the next
    c = sim.console
    assert c.table.customer == 1
    assert _grant(sim, 4, 1) == ("got", "")
    sim.power_cut()
    c = sim.console
    sim.step(200)
    assert c.table.customer == 1 and c.table.shakes_left  # the key's customer goes on
    _shakes_used(sim)
    sim.step(100)
    assert c.table.customer == 2 and c.table.shakes_left == 1, "the grant taken before the cut was lost"
    sim.power_cut()  # after its use: the retained grant comes again and grants nothing
    c = sim.console
    sim.step(100)
    assert _grant(sim, 4, 1) == ("used", "")
    _shakes_used(sim)
    sim.step(200)
    assert c.table.customer == 2 and c.view == C.V_GATE


def test_the_key_lets_a_granted_customer_in_with_the_desks_shakes(tmp_path):
    sim = _kiosk(tmp_path)
    c = sim.console
    key(sim)
    assert _grant(sim, 1, 7)[0] == "got"
    _shakes_used(sim)
    # the grant's customer is next whoever opens the gate; it is used once
    assert c.table.customer == 2 and c.table.shakes_left == 7
    assert c.grants.acks[-1] == (1, "used", "")
