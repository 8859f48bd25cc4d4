# PIN hygiene on the simulated bowl, as the operator and a customer act: a kiosk
# lets no customer in while its PIN is the default 1234 (not by the key, the PIN's
# menu or a desk's grant), the default is refused as a new PIN, and any menu
# closes itself two minutes after its last button, whatever idle_min says.
from bobing import console as C
from bobing import settings as S
from bobing import vocab
from bowlkit import PIN, enter, goto, key, new_sim, press

LOCK = vocab.MENU_LOCK_MS


def _kiosk_with_the_default_pin(tmp_path):
    sim = new_sim(tmp_path)
    press(sim, "menu")
    goto(sim, "mode")
    goto(sim, "kiosk")
    goto(sim, "new")
    press(sim, "ok")
    c = sim.console
    assert c.table.kiosk and c.view == C.V_GATE and S.pin_check(c.settings.pin, S.DEFAULT_PIN)
    return sim


def test_a_kiosk_with_the_default_pin_lets_nobody_in_until_it_is_changed(tmp_path):
    sim = _kiosk_with_the_default_pin(tmp_path)
    c = sim.console
    t = c.table
    key(sim)  # the attendant's key
    assert c.view == C.V_NOTICE and c.arg[0] == vocab.N_PIN_DEFAULT and t.customer == 0
    assert any("default 1234" in line for line in sim.log())
    press(sim, "ok")
    press(sim, "menu")
    enter(sim, "1234")
    goto(sim, "customer")  # the PIN's menu cannot either
    assert c.view == C.V_NOTICE and c.arg[0] == vocab.N_PIN_DEFAULT and t.customer == 0
    press(sim, "ok")
    assert c.grant_shakes(1, 3) == ("got", "")  # a desk's grant waits for a PIN of the kiosk's own
    sim.step(500)
    assert t.customer == 0
    # the operator changes it; 1234 again is refused
    press(sim, "ok")
    press(sim, "menu")
    enter(sim, "1234")
    goto(sim, "admin")
    goto(sim, "pin")
    enter(sim, "1234")
    enter(sim, "1234")
    enter(sim, "1234")
    assert c.view == C.V_NOTICE and c.arg[0] == vocab.N_PIN_DEFAULT and S.pin_check(c.settings.pin, "1234")
    press(sim, "ok")  # the admin list again
    goto(sim, "pin")
    enter(sim, "1234")
    enter(sim, PIN)
    enter(sim, PIN)
    assert c.arg[0] == vocab.N_DONE
    press(sim, "ok", "menu", "menu")
    sim.step(500)  # the desk's grant is used now
    assert t.customer == 1 and t.shakes_left == 3 and c.view == C.V_TURN


def _menu_stays_until(sim, view, ms):
    sim.step(ms - 1000)
    assert sim.console.view == view, vocab.VIEW_IDS[sim.console.view]
    sim.step(1500)


def test_an_open_kiosk_menu_locks_itself_after_two_minutes_without_a_button(tmp_path):
    # idle_min=0 (never sleep, natural for a kiosk) once left the admin list open for good
    (tmp_path / "x").mkdir()
    sim = _kiosk_with_the_default_pin(tmp_path / "x")
    c = sim.console
    c.settings.idle_min = 0
    press(sim, "menu")
    enter(sim, "1234")
    goto(sim, "admin")
    assert c.view == C.V_MENU and c.arg[0] == "admin"
    _menu_stays_until(sim, C.V_MENU, LOCK)
    assert c.view == C.V_GATE and not c.menu.authed
    assert any("menu closed" in line for line in sim.log())
    press(sim, "menu")  # the customer who comes by: the PIN is asked again
    assert c.view == C.V_DIGITS and c.arg[0] == "enter_pin"
    _menu_stays_until(sim, C.V_DIGITS, LOCK)  # a PIN entry left half done closes too
    assert c.view == C.V_GATE
    press(sim, "menu")
    enter(sim, "1234")
    goto(sim, "admin")
    for _ in range(3):  # a button now and then keeps it open
        sim.step(LOCK - 5000)
        press(sim, "next")
    assert c.view == C.V_MENU and c.arg[0] == "admin"
    goto(sim, "secret")
    _menu_stays_until(sim, C.V_SECRET, LOCK)  # the claim secret on show too
    assert c.view == C.V_GATE


def test_a_family_menu_closes_after_two_minutes_even_with_a_long_idle(tmp_path):
    sim = new_sim(tmp_path)
    c = sim.console
    c.settings.idle_min = 240
    press(sim, "menu")
    goto(sim, "admin")
    enter(sim, "1234")
    assert c.view == C.V_MENU and c.arg[0] == "admin"
    _menu_stays_until(sim, C.V_MENU, LOCK)
    assert c.view == C.V_TURN and not c.menu.authed and not sim.sleeps
