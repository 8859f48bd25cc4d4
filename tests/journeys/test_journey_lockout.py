# Someone guesses a kiosk's PIN: each wrong PIN says how many tries are left
# and asks again; the third locks the PIN, and the lock says so and counts
# down; pulling the plug does not lift it; after the minute the right PIN
# opens the menu. In Chinese and in English.
import pytest

from bobing import console as C
from bobing import vocab
from journey import bowl, sees


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pin_lockout_across_a_power_cut(lang):
    zh = lang == "zh"
    p = bowl(seed=41)
    if not zh:
        p.set_lang("en")
    p.set_mode("kiosk")
    p.new_game()
    p.button("menu")
    for left in (2, 1):
        sees(p, "输入密码" if zh else "Enter PIN")
        p._enter_digits("9999")
        sees(p, "密码错误" if zh else "Wrong PIN", ("还可试%d次" % left) if zh else ("%d tr" % left))
        p.button("ok")  # asks again (a key pressed here never reaches the game)
        assert p.view == "digits"
    p._enter_digits("9999")
    shown = sees(p, "密码已锁定" if zh else "PIN locked", "请等 1:00" if zh else "wait 1:00")
    p.step(3000)
    sees(p, "0:57")  # counting down
    p.power_cut()
    p.step(200)
    p.button("menu")
    sees(p, "密码已锁定" if zh else "PIN locked")
    assert p.view == "notice" and p.console.arg[0] == C.N_LOCKED
    p.button("ok")
    assert p.view == "gate"  # the lock's notice leads back to the waiting screen, not further
    p.step(vocab.PIN_LOCK_MS)
    p.button("menu")
    p._enter_digits("1234")
    assert p.view == "menu"
    sees(p, "下一位顾客" if zh else "Next customer")
    assert shown
