# The shared stock on the simulated bowl (host_sim/portable/fakes/bowl.py, CPython): a kiosk
# provisioned with an event (net.txt) starts its games from the prize desk's
# grants, waits for stock on its own screen, applies a grant between rolls
# through the journal, keeps it across power cuts and new games, and says when
# it runs low (the ask bowl/net.py publishes).
from bobing import game
from bobing import console as C
from bowlkit import desk_answers, key, new_sim, press, roll, to_kiosk

NET = "ssid=mall\npassword=secret123\ntls=off\nbroker=127.0.0.1\nevent=midautumn\n"


def _event_kiosk(tmp_path):
    (tmp_path / "net.txt").write_text(NET)
    sim = new_sim(tmp_path)
    to_kiosk(sim)
    return sim


def test_an_event_kiosk_waits_for_stock_then_plays_on_its_grant(tmp_path):
    sim = _event_kiosk(tmp_path)
    c = sim.console
    t = c.table
    assert t.event and c.j.config.plays and c.event == "midautumn" and not t.stocked()
    assert c.view == C.V_WAIT and c.stock_low()
    waiting = bytes(sim.frame)
    press(sim, "ok")  # the attendant cannot start a customer on nothing
    assert c.view == C.V_WAIT and t.customer == 0
    sim.shake()
    sim.step(3000)
    assert t.events == 0 and c.view == C.V_WAIT
    assert c.allot(2, (("sanhong", 4), ("yixiu", 8))) and not c.allot(2, (("yixiu", 9),))
    sim.step(100)
    assert t.grant_s == 2 and t.pool["yixiu"] == 8 and c.view == C.V_GATE and bytes(sim.frame) != waiting
    assert not c.stock_low()
    assert any("grant 2 applied" in line for line in sim.board.lines)
    assert not c.allot(1, (("yixiu", 99),))  # older than the one applied
    press(sim, "ok")  # OK alone starts no customer
    assert c.view == C.V_GATE and t.customer == 0
    key(sim)  # the attendant's key: the next customer
    # an event kiosk plays verifiable dice by default: the customer shakes once the desk answered
    assert c.view == C.V_SEED and t.customer == 1
    assert desk_answers(sim) == 1
    assert c.view == C.V_TURN and t.customer == 1
    # a grant that arrives while the customer shakes waits until he is done shaking
    c.allot(3, (("sanhong", 4), ("yixiu", 9)))
    c.view = C.V_SHAKING
    c.tick(sim.now)
    assert t.grant_s == 2, "a grant was applied while the customer shook the bowl"
    c.view = C.V_TURN
    for _ in range(3):
        roll(sim)
    sim.step(100)
    assert t.grant_s == 3 and t.granted["yixiu"] == 9
    # a power cut: the grant is on flash, not applied twice
    sim.power_cut()
    sim.step(100)
    t2 = sim.console.table
    assert t2.grant_s == 3 and t2.granted["yixiu"] == 9 and t2.pool == t.pool


def test_a_refused_grant_is_said_and_changes_nothing(tmp_path):
    sim = _event_kiosk(tmp_path)
    c = sim.console
    assert c.allot(1, (("jinhua", 1),))
    sim.step(100)
    assert c.table.events == 0 and c.view == C.V_WAIT
    assert any("grant 1 refused" in line and "jinhua" in line for line in sim.board.lines)


def test_low_stock_asks_and_stock_out_waits(tmp_path):
    sim = _event_kiosk(tmp_path)
    c = sim.console
    c.allot(1, (("yixiu", 1), ("erju", 8)))
    sim.step(100)
    t = c.table
    assert c.stock_low()  # yixiu: 1 left of a step of 1
    c.allot(2, (("yixiu", 9), ("erju", 8)))
    sim.step(100)
    assert not c.stock_low()  # 9 yixiu left, low mark 2 (a quarter of the 8 just granted)
    c.j.play(game.EV_CUSTOMER, None)
    for _ in range(3):
        c.j.play(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    assert t.pool["yixiu"] == 6 and not c.stock_low()
    c.j.play(game.EV_CUSTOMER, None)
    for _ in range(3):
        c.j.play(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    assert t.pool["yixiu"] == 3 and not c.stock_low()
    c.j.play(game.EV_CUSTOMER, None)
    c.j.play(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    assert t.pool["yixiu"] == 2 and c.stock_low()


def test_a_new_game_carries_the_stock_and_a_family_game_passes_it_on(tmp_path):
    sim = _event_kiosk(tmp_path)
    c = sim.console
    c.allot(4, (("yixiu", 5),))
    sim.step(100)
    g1 = c.j.game_id
    c.new_game()  # as the PIN-protected menu's 新游戏 does
    sim.step(100)
    t = c.table
    assert c.j.game_id == g1 + 1 and t.grant_s == 4 and t.pool["yixiu"] == 5 and t.awards[1]["yixiu"] == 0
    c.settings.mode = "family"
    c.new_game()
    assert not c.table.event and c.j.config.stock[2] == 4 and not c.j.config.plays
    c.allot(5, (("yixiu", 6),))
    sim.step(100)  # a family game takes no grant: it waits for the next event game
    c.settings.mode = "kiosk"
    c.new_game()
    sim.step(100)
    t = c.table
    assert t.grant_s == 5 and t.pool["yixiu"] == 6 and t.granted["yixiu"] == 6


def test_stock_bowl_in_net_txt_keeps_the_kiosk_on_its_own_stock(tmp_path):
    (tmp_path / "net.txt").write_text(NET + "stock=bowl\n")
    sim = new_sim(tmp_path)
    to_kiosk(sim)
    c = sim.console
    assert c.event == "" and not c.table.event and c.table.stocked() and c.view == C.V_GATE
    from bowl import net
    assert net.parse_config(NET)["stock"] == "desk"
    try:
        net.parse_config(NET + "stock=shared\n")
    except ValueError as e:
        assert "stock='shared': desk (the event's shared stock) or bowl" in str(e)
    else:
        raise AssertionError("stock=shared accepted")
