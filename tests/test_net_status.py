# The desk's view of what a bowl has left is current within seconds of its last award
# (bowl/net.py STATUS_SOON_MS), not at the next 30 s status: on the simulated kiosk (CPython)
# with TLS to the in-memory broker, a customer wins, and the retained status the broker holds
# says the stock left after his prize within STATUS_SOON_MS of his award's PUBACK, while a bowl
# whose stock did not move sends no status before its STATUS_MS.
import json

from bobing import console as C
from bowl import net
from test_net_quiet import kiosk, let_in


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
