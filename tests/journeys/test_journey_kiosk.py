# A mall kiosk's first day, as the people act: the operator sets it up (kiosk
# mode, a PIN of their own, the stock, the claim secret read off the screen),
# three customers are let in by the attendant's key, each shakes three times,
# and every claim shown (text and QR code) is checked the way the counter
# checks it (bobing.claim, the verify-claim path). The attendant can show the
# last codes again. In Chinese and in English.
import re

import pytest

from bobing import claim
from journey import bowl, never, qr_of, sees

WORDS = {
    "zh": {"gate": "等待服务员", "shakes": "还有3次", "admin": "管理", "secret": "领奖密钥", "done": "密码已改",
           "codes": "领奖码", "pin": "输入密码"},
    "en": {"gate": "attendant", "shakes": "Shakes left", "admin": "Admin", "secret": "Claim secret",
           "done": "PIN changed", "codes": "Claim codes", "pin": "Enter PIN"},
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_fresh_kiosk_is_set_up_and_serves_three_customers(lang):
    w = WORDS[lang]
    p = bowl(seed=21)
    if lang == "en":
        p.set_lang("en")
    c = p.console
    # kiosk mode from a family bowl's menu: no admin item shows without the PIN
    p.button("menu")
    p._choose("mode")
    p._choose("kiosk")
    assert p.view == "menu"
    assert not {"secret", "pin", "stock", "bowl_id"} & set(c.arg[1]), c.arg[1]
    p._choose("admin")
    sees(p, w["pin"])
    p._enter_digits("1234")  # the PIN the bowl comes with
    # a PIN of their own: the old one, then the new one twice
    p._choose("pin")
    p._enter_digits("1234")
    p._enter_digits("2468")
    p._enter_digits("2468")
    sees(p, w["done"])
    p.button("ok")
    p.pin = "2468"
    p._choose("stock")
    sees(p, "zhuangyuan" if lang == "en" else "状元")
    p._choose("yixiu")
    sees(p, "一秀" if lang == "zh" else "yixiu")  # the entry names the class
    p._enter_digits("050")
    p._choose("back")
    p._choose("secret")
    shown = sees(p, w["secret"])
    secret = bytes.fromhex("".join(re.findall(r"^[0-9a-f]{16}$", shown, re.M)))
    assert secret == bytes.fromhex(c.settings.secret)  # what the counter copies
    p.button("menu")
    p.button("menu")
    p._choose("new")
    p.button("ok")
    assert p.view == "gate"
    sees(p, w["gate"])
    t = p.table
    bowl_id = c.settings.bowl_id
    codes = []
    for customer in (1, 2, 3):
        p.button("ok")  # a customer's OK alone starts nothing
        p.shake(800)
        assert p.view == "gate" and t.customer == customer - 1
        p.key()  # the attendant turns the key: the next customer, at once
        sees(p, w["shakes"] if lang == "zh" else "3")
        for _ in range(3):
            p.shake(800)
            while p.view in ("result", "claim"):
                if p.view == "claim":
                    shown = p.screen_text()
                    m = re.search(r"No\.(\d+)-(\d+)", shown)
                    g, n = int(m.group(1)), int(m.group(2))
                    code = re.search(r"^([0-9A-Z]{8})$", shown, re.M).group(1)
                    cls = c.arg[0]
                    assert bowl_id in shown and cls in shown
                    if lang == "zh":
                        assert t.class_zh[cls] in shown
                    p.step(5200)  # its other page: the QR code of the same for the desk
                    assert qr_of(p) == "BB1:%s:%d-%d:%s:%s" % (bowl_id, g, n, cls.upper(), code)
                    assert claim.verify(secret, bowl_id, g, n, cls, code), (g, n, cls, code)
                    assert not claim.verify(secret, bowl_id, g, n + 1, cls, code)
                    codes.append((g, n, cls, code))
                p.button("ok")
        assert p.view == "gate"
    assert codes, "three customers won nothing"
    assert len({x[3] for x in codes}) == len(codes)
    # the attendant shows the last codes again (a customer who did not copy his): from
    # the PIN's menu (the key lets the next customer in, and nothing else)
    p.button("menu")
    p._enter_digits(p.pin)
    p._choose("codes")
    sees(p, w["codes"], codes[-1][3])
    p.step(300)  # the attendant reads the list before pressing OK
    p.button("ok")
    assert p.view == "claim" and c.arg[1] == codes[-1][3]
    p.button("ok")
    for _ in range(3):  # MENU backs out a list at a time: the codes, the PIN's menu, the gate
        if p.view == "gate":
            break
        p.button("menu")
    assert p.view == "gate"
    never(p, "OK:")


def test_a_customer_who_wins_with_shakes_left_shakes_on_from_the_claim_screen():
    """A customer sees his claim code and shakes again: the shake is his next roll
    (the claim screen ignored it: he stood shaking at "2 shake(s) left" until
    someone said OK), and the code stays in the PIN menu's list of codes."""
    p = bowl(seed=5)
    p.set_mode("kiosk")
    p.set_pin("2468")  # a kiosk with the default PIN lets nobody in
    p.new_game()
    c = p.console
    t = p.table
    for _ in range(40):  # customers until one wins with shakes left
        p.ready()
        left = t.shakes_left
        p.shake(800)
        while p.view == "result":
            p.button("ok")
        if p.view == "claim" and t.shakes_left:
            break
    else:
        raise AssertionError("no claim with shakes left in 40 rolls")
    code = c.arg[1]
    assert left - 1 == t.shakes_left
    rolled = c.rolled
    p.shake(800)  # on the claim screen, no OK
    assert c.rolled == rolled + 1 and t.shakes_left == left - 2, (p.view, t.shakes_left)
    p.ready()
    p.button("menu")  # the codes sit behind the PIN (the key only lets the next customer in)
    p._enter_digits(p.pin)
    p._choose("codes")
    sees(p, code)
