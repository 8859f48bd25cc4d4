"""A customer's own seed from his phone, in a real browser (Debian's headless Chromium
through Selenium, against the real desk server): the waiting screen's link (/J/...)
shows the chain's anchor and the desk's value; the button makes 16 random bytes with
Web Crypto, keeps them in the phone's storage with what the page showed, and posts
them to the desk, which records them for the bowl; a second visit shows the saved seed."""
import json

import pytest

import deskkit

pytestmark = pytest.mark.usefixtures("chromium_installed")

SECRET = bytes(range(70, 86))
_SETUP = """
from bobing import dice, fair
from host_sim.desk import bus
root = bytes(range(32))
print(bus.handle("fairphone", "bobing/fairphone/0081/commit", fair.commit2_payload(4, 1, 1, dice.chain_at(root, 0)))[0])
"""
_ROW = """
import json
from host_sim.desk.models import Commitment
c = Commitment.objects.get(bowl__bowl_id="0081", game_no=4, q=1)
print(json.dumps({"useed": c.useed, "desk": c.desk, "anchor": c.commit}))
"""


def _row(s):
    r = s.manage("shell", "-c", _ROW)
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_phone_makes_keeps_and_sends_its_seed(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    s = deskkit.Server(str(tmp_path))
    assert s.manage("addbowl", "0081", "--secret-hex", SECRET.hex()).returncode == 0
    r = s.manage("shell", "-c", _SETUP)
    assert r.stdout.strip().endswith("commit"), (r.stdout, r.stderr)
    s.start()
    try:
        d = browser
        d.get(s.url + "/J/0081/4-1")
        row = _row(s)
        assert d.find_element(By.ID, "desk").text == row["desk"]
        assert d.find_element(By.ID, "anchor").text == row["anchor"]
        d.find_element(By.ID, "add").click()
        WebDriverWait(d, 10).until(lambda d: "已送出" in d.find_element(By.ID, "status").text)
        saved = json.loads(d.execute_script("return localStorage.getItem('bobing:0081:4:1')"))
        row = _row(s)
        assert len(saved["u"]) == 32 and saved["u"] == row["useed"] and saved["d"] == row["desk"], (saved, row)
        assert saved["u"][:8] in d.find_element(By.ID, "status").text
        d.get(s.url + "/J/0081/4-1")  # again: the phone still has it
        assert "您的种子 %s" % saved["u"][:8] in d.find_element(By.ID, "status").text
        d.find_element(By.ID, "add").click()  # sent again: the same seed, taken as the same
        WebDriverWait(d, 10).until(lambda d: "已送出" in d.find_element(By.ID, "status").text)
        assert _row(s)["useed"] == saved["u"]
    finally:
        s.stop()


_TURNS = """
from bobing import dice, fair
from host_sim.desk import bus
root = bytes(range(32))
anchor = dice.chain_at(root, 0)
for k in (1, 2, 3, 4):
    r, pub = bus.handle("fairphone", "bobing/fairphone/0082/commit", fair.commit2_payload(6, k, 1, anchor))
    d = fair.decode_seed("fairphone", pub[0][0], pub[0][1], "0082")[3]
    s = dice.chain_at(root, k) if k != 3 else bytes(32)  # 3: a secret of the bowl's choosing, not the chain's
    der = dice.Derived(s, d, 6, k, bytes(16))
    rolls = ["".join(str(f) for f in der.roll(i, bytearray(6))) for i in range(3)]
    if k == 2:
        rolls[1] = "444444" if rolls[1] != "444444" else "111111"  # a cheating bowl's roll
    if k != 4:  # 4: never revealed
        print(bus.handle("fairphone", "bobing/fairphone/0082/reveal", fair.reveal2_payload(6, k, s, rolls))[0])
"""


def test_the_phone_checks_its_turn_itself_with_the_bowl_s_code_in_micropython_webassembly(browser, tmp_path):
    """The receipt page /V/...: the phone loads MicroPython's WebAssembly port (served by
    the desk, pinned) and the bowl's bobing/dice.py, and checks the turn itself: an
    honest turn says 已验证; a secret not of the chain, a turn never revealed and a roll
    the derivation does not give each say 未验证 with the reason."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    s = deskkit.Server(str(tmp_path))
    assert s.manage("addbowl", "0082", "--secret-hex", SECRET.hex()).returncode == 0
    r = s.manage("shell", "-c", _TURNS)
    assert r.stdout.split()[-3:] == ["reveal"] * 3, (r.stdout, r.stderr)
    s.start()
    try:
        d = browser
        for k, want in ((1, "已验证（在您的手机上）：3 次"), (3, "未验证（在您的手机上）：秘密不在链上"),
                        (4, "未验证（在您的手机上）：秘密从未公开"), (2, "未验证（在您的手机上）：第 2 次摇骰不符")):
            d.get(s.url + "/V/0082/6-%d" % k)
            WebDriverWait(d, 30).until(lambda d: "验证（" in d.find_element(By.ID, "verdict").text
                                       or "无法" in d.find_element(By.ID, "verdict").text)
            text = d.find_element(By.ID, "verdict").text
            assert want in text, (k, text)
            ms = d.find_element(By.ID, "verdict").get_attribute("data-ms")  # (time to the verdict, for the record)
            print("phone check of customer %d: %s ms" % (k, ms))
        assert "does not match" in text
    finally:
        s.stop()
