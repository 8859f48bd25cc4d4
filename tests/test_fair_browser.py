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
print(bus.handle("fairphone", "bobing/fairphone/PH-1/commit", fair.commit2_payload(4, 1, 1, dice.chain_at(root, 0)))[0])
"""
_ROW = """
import json
from host_sim.desk.models import Commitment
c = Commitment.objects.get(bowl__bowl_id="PH-1", game_no=4, q=1)
print(json.dumps({"useed": c.useed, "desk": c.desk, "anchor": c.commit}))
"""


def _row(s):
    r = s.manage("shell", "-c", _ROW)
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_phone_makes_keeps_and_sends_its_seed(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    s = deskkit.Server(str(tmp_path))
    assert s.manage("addbowl", "PH-1", "--secret-hex", SECRET.hex()).returncode == 0
    r = s.manage("shell", "-c", _SETUP)
    assert r.stdout.strip().endswith("commit"), (r.stdout, r.stderr)
    s.start()
    try:
        d = browser
        d.get(s.url + "/J/PH-1/4-1")
        row = _row(s)
        assert d.find_element(By.ID, "desk").text == row["desk"]
        assert d.find_element(By.ID, "anchor").text == row["anchor"]
        d.find_element(By.ID, "add").click()
        WebDriverWait(d, 10).until(lambda d: "已送出" in d.find_element(By.ID, "status").text)
        saved = json.loads(d.execute_script("return localStorage.getItem('bobing:PH-1:4:1')"))
        row = _row(s)
        assert len(saved["u"]) == 32 and saved["u"] == row["useed"] and saved["d"] == row["desk"], (saved, row)
        assert saved["u"][:8] in d.find_element(By.ID, "status").text
        d.get(s.url + "/J/PH-1/4-1")  # again: the phone still has it
        assert "您的种子 %s" % saved["u"][:8] in d.find_element(By.ID, "status").text
        d.find_element(By.ID, "add").click()  # sent again: the same seed, taken as the same
        WebDriverWait(d, 10).until(lambda d: "已送出" in d.find_element(By.ID, "status").text)
        assert _row(s)["useed"] == saved["u"]
    finally:
        s.stop()
