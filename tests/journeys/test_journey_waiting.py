# A customer at a kiosk's waiting screen, alone with it: presses buttons in
# random sequences (short and long), shakes the bowl, waits. However he tries,
# no shake is ever granted without the attendant; the screen says it waits
# for the attendant. In Chinese and in English.
import random

import pytest

from journey import bowl, sees


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_customer_at_the_waiting_screen_gets_no_shake(lang):
    p = bowl(seed=31)
    if lang == "en":
        p.set_lang("en")
    p.set_mode("kiosk")
    p.set_pin("2468")
    p.new_game()
    c = p.console
    t = p.table
    assert p.view == "gate"
    sees(p, "等待服务员" if lang == "zh" else "attendant")
    r = random.Random(7)
    events = t.events
    for step in range(300):
        x = r.randrange(10)
        if x < 7:
            p.button(r.choice(("ok", "ok", "next", "menu")), 80 if r.randrange(4) else 1000)
        elif x < 9:
            p.shake(r.choice((300, 800, 2000)))
        else:
            p.step(r.choice((500, 3000)))
        assert t.customer == 0 and t.shakes_left == 0 and t.events == events, step
        assert p.view in ("gate", "pool", "digits", "notice"), (step, p.view)  # never a menu
        if p.view == "digits":  # the PIN entry: he does not know it
            assert c.arg[0] == "enter_pin"
    p._home()
    assert p.view == "gate"
    p.key()  # the attendant comes: now it starts
    assert p.view == "turn" and t.shakes_left == 3
