# The desk's view of what a bowl has left is current within seconds of its last award
# (bowl/net.py STATUS_SOON_MS), not at the next 30 s status: on the simulated kiosk (CPython)
# with TLS to the in-memory broker, a customer wins, and the retained status the broker holds
# says the stock left after his prize within STATUS_SOON_MS of his award's PUBACK, while a bowl
# whose stock did not move sends no status before its STATUS_MS.
import binascii
import json

from bobing import console as C
from bowl import net
from bowlkit import to_kiosk
from bowlrun import Stream, hal
from host_sim.portable.fakes import wlan as fake_wlan

CERT = b"\x30\x82\x00\xfc" + bytes(range(252))  # a DER SEQUENCE of 256 bytes: net.txt's tls_ca= takes it
NET = ("ssid=mall\npassword=secret123\nbroker=10.0.0.2\nevent=midautumn\nstock=bowl\nfair=off\ntls_ca=%s\n"
       % binascii.b2a_base64(CERT).decode().strip())


def kiosk(tmp_path):
    """A kiosk (made from its menu), then provisioned for the event (TLS) and started again."""
    sim = hal.Sim(str(tmp_path), urandom=Stream(3))
    sim.step(100)
    to_kiosk(sim)
    (tmp_path / "net.txt").write_text(NET)
    br = fake_wlan.FakeBroker(CERT)
    br.retain("bobing/midautumn/desk/status", b'{"v":2,"on":1}')
    sim = hal.Sim(str(tmp_path), urandom=Stream(3), air=fake_wlan.Air({"mall": "secret123"}, broker=br))
    sim.step(100)
    return sim, br


def let_in(sim):
    sim.console.next_customer()  # the attendant's key (its menu item)
    sim.step(100)
    assert sim.console.view == C.V_TURN


def retained_left(br):
    """The stock left the bowl's retained status on the broker says: [[class, n], ...], or None."""
    for t, p in br.retained.items():
        if t.endswith("/status") and "/desk/" not in t:
            return json.loads(bytes(p))["left"]
    return None


def pages(sim):
    """The customer reads his result's pages through (OK) to the next shake or the gate."""
    n = 0
    while sim.console.view in (C.V_RESULT, C.V_CLAIM, C.V_NOTICE) and n < 30:
        sim.press("ok")
        sim.step(150)
        n += 1


def statuses(br):
    return [p for t, p, _r in br.published if t.endswith("/status") and "/desk/" not in t]


def test_the_status_says_the_stock_left_soon_after_an_award_and_not_before_it_moved(tmp_path):
    sim, br = kiosk(tmp_path)
    c = sim.console
    sim.step(5000)
    assert sim.net.client is not None
    before = len(statuses(br))
    sim.step(net.STATUS_SOON_MS + 2000)
    assert len(statuses(br)) == before  # nothing moved: no status before STATUS_MS
    won = c.table.award_no
    for _ in range(12):  # customers until one wins a prize
        let_in(sim)
        while c.table.shakes_left and c.table.award_no == won:
            rolled = c.rolled
            sim.shake()
            assert sim.run_until(lambda s: s.console.rolled != rolled, 15000)
            if c.table.award_no != won:
                break
            pages(sim)
        if c.table.award_no != won:
            break
        pages(sim)
    assert c.table.award_no > won
    # he reads his result; the desk learns what is left meanwhile
    want = [[cls, n] for cls, n in c.table.left()]
    assert retained_left(br) != want  # the status the desk has is the one from before his prize
    t0 = sim.board.ms
    assert sim.run_until(lambda s: retained_left(br) == want, net.STATUS_SOON_MS + 3000), (retained_left(br), want)
    assert sim.board.ms - t0 < net.STATUS_MS // 2
