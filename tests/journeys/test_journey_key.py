# The attendant's key, tried as an attacker and used as the attendant. The old key
# was a reed switch any magnet closed: a customer with a magnet (a phone case, a bag
# clasp) started ten customers in a row and read past claim codes off the screen. Now
# the key is a keylock switch through the case wall (hardware/bom.md): a customer
# holding a magnet or a phone to every part of the case, trying another key and
# pressing every button gets nothing; the attendant's key starts the next customer and
# nothing else, and each customer it starts is on the journal with the game's minute.
import pytest

from bobing import journal
from journey import bowl, never, sees

GATE = {"zh": "等待服务员", "en": "attendant"}


def _through(p):
    """OK through the last roll's pages and claims, back to the attendant's gate."""
    for _ in range(20):
        if p.view not in ("result", "claim", "notice"):
            return
        p.button("ok")


def _kiosk(lang, seed):
    p = bowl(seed=seed)
    if lang == "en":
        p.set_lang("en")
    p.set_mode("kiosk")
    p.set_pin("2468")  # the operator's own PIN: a kiosk with 1234 lets nobody in
    p.new_game()
    assert p.view == "gate"
    return p


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_customer_with_a_magnet_a_phone_and_another_key_opens_nothing(lang):
    p = _kiosk(lang, 31)
    t = p.table
    for spot in range(40):  # held everywhere on the case, the old reed's spot too
        p.sim.magnet()
        p.step(300)
        assert not p.sim.attendant_key(300, key_no="1002")  # another lock's key (or a blank): it does not turn
        p.button(("ok", "next", "menu")[spot % 3], 80 if spot % 2 else 1000)
        p.shake(500)
        if p.view == "digits":  # MENU asks the PIN he does not know
            p.button("menu")
        p.step(100)
    assert p.sim.board.key_switch.magnets == 40
    assert t.customer == 0 and t.shakes_left == 0 and p.view in ("gate", "pool")
    p._home()
    sees(p, GATE[lang])
    never(p, "领奖码" if lang == "zh" else "Claim codes")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_attendant_s_key_starts_the_next_customer_and_nothing_else_on_the_journal(lang):
    p = _kiosk(lang, 32)
    c = p.console
    t = p.table
    minutes = []
    for customer in (1, 2, 3):
        sees(p, GATE[lang])
        p.key()  # the attendant turns the key: the next customer, at once (no list to choose from)
        assert p.view == "turn" and t.customer == customer and t.shakes_left == 3
        sees(p, "还有3次" if lang == "zh" else "3")
        minutes.append(customer * 3 - 3)
        p.key()  # again while he shakes: nothing
        assert t.customer == customer and t.shakes_left == 3 and p.view == "turn"
        p.play(3)
        _through(p)
        p.step(3 * 60000 - 4000)  # three minutes to the next customer
    p.power_cut()  # the journal goes on across a power cut: the game's minute from the last customer's
    p.step(200)
    _through(p)  # the last roll is shown again after the cut
    p.key()
    assert p.table.customer == 4
    path = journal.path_of(p.sim.board.root, c.j.game_id)
    s = journal.scan(path, c.j.game_id, bytes.fromhex(p.console.settings.secret), keep=[])
    assert s.problem is None and s.config.version == journal.KEYED
    assert s.keyed == 4 and s.key_minutes[:3] == minutes and s.key_minutes[3] >= minutes[2]
    # a customer let in from the PIN's menu is the PIN's, not the key's
    p.play(3)
    _through(p)
    p.button("menu")
    p._enter_digits("2468")
    p._choose("customer")
    assert p.table.customer == 5
    s = journal.scan(path, c.j.game_id, bytes.fromhex(p.console.settings.secret), keep=[])
    assert s.keyed == 4 and len(s.key_minutes) == 4
