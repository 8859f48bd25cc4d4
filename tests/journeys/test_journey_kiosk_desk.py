# The kiosk's claims at the prize counter, as the people act: a fresh kiosk is
# set up (kiosk mode, the PIN, stock, the claim secret read off its screen and
# given to the desk with `addbowl`), three customers are let in by the
# attendant's key and shake; the counter clerk, in headless Chromium (Debian's,
# tests/conftest.py's fixtures) on the real desk server, scans each claim
# screen's QR code (a USB scanner types its text into the code field: no journal
# imported yet) and hands every prize over, in Chinese; a customer who comes back
# with the same claim is refused, in Chinese and in English.
import re

import pytest

import deskkit
from journey import bowl, qr_of, sees

pytestmark = pytest.mark.usefixtures("chromium_installed")


def _three_customers():
    """The kiosk of test_journey_kiosk.py, set up and played -> (bowl id, secret, [QR text])."""
    p = bowl(seed=21)
    c = p.console
    p.button("menu")
    p._choose("mode")
    p._choose("kiosk")
    p._choose("admin")
    p._enter_digits("1234")
    p._choose("pin")  # a kiosk plays only once its PIN is its own
    for pin in ("1234", "2468", "2468"):
        p._enter_digits(pin)
    p.button("ok")
    p.pin = "2468"
    p._choose("stock")
    p._choose("yixiu")
    p._enter_digits("050")
    p._choose("back")
    p._choose("secret")
    shown = sees(p, "领奖密钥")
    secret = bytes.fromhex("".join(re.findall(r"^[0-9a-f]{16}$", shown, re.M)))
    p.button("menu")
    p.button("menu")
    p._choose("new")
    p.button("ok")
    sees(p, "等待服务员")
    claims = []
    for customer in (1, 2, 3):
        p.key()
        for _ in range(3):
            p.shake(800)
            while p.view in ("result", "claim"):
                if p.view == "claim":
                    p.step(5200)  # the claim's QR page
                    claims.append(qr_of(p))
                p.button("ok")
    return c.settings.bowl_id, secret, claims


def _h1_becomes(d, text, timeout=20):
    """The page's heading comes to hold text (the login page's heading goes stale as the next
    page loads: reading it then raised StaleElementReferenceException)."""
    import time

    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if text in d.find_element(By.TAG_NAME, "h1").text:
                return True
        except (StaleElementReferenceException, NoSuchElementException):
            pass
        time.sleep(0.1)
    return False


def test_three_customers_claims_are_redeemed_at_the_counter_once(browser, tmp_path):
    from selenium.webdriver.common.by import By
    bowl_id, secret, claims = _three_customers()
    assert claims, "three customers won nothing"
    s = deskkit.Server(str(tmp_path))
    assert s.manage("attendant", "mei", "--password-stdin", stdin=deskkit.PASSWORD + "\n").returncode == 0
    assert s.manage("addbowl", bowl_id, "--secret-hex", secret.hex()).returncode == 0
    s.start()
    d = browser
    try:
        d.get(s.url + "/login")
        if d.find_element(By.ID, "lang-zh").is_enabled():  # headless Chromium asks for English
            d.find_element(By.ID, "lang-zh").click()
        deskkit.wait_lang(d, "zh")
        d.find_element(By.ID, "id_username").send_keys("mei")
        d.find_element(By.ID, "id_password").send_keys(deskkit.PASSWORD)
        d.find_element(By.ID, "login").click()
        assert _h1_becomes(d, "兑换领奖码")  # the counter's page, once the login's answer has loaded
        for qr in claims:
            _b, _bid, ga, cls_up, code = qr.split(":")
            d.get(s.url + "/")
            d.find_element(By.ID, "id_code").send_keys(qr)  # the scanner types the QR code's text
            d.find_element(By.ID, "check").click()
            assert d.find_element(By.ID, "cls").text.endswith(" " + cls_up.lower())
            assert ga in d.find_element(By.ID, "award").text
            assert "发放" in d.find_element(By.ID, "handover").text
            d.find_element(By.ID, "handover").click()
            assert "已兑奖" in d.find_element(By.ID, "handed").text
        # the first customer comes back with the same claim: refused, and the clerk sees who and when
        d.get(s.url + "/")
        d.find_element(By.ID, "id_code").send_keys(claims[0])
        d.find_element(By.ID, "check").click()
        assert "是您自己" in d.find_element(By.ID, "refused").text
        d.implicitly_wait(0)
        assert not d.find_elements(By.ID, "handover")
        d.implicitly_wait(30)
        d.find_element(By.ID, "lang-en").click()
        deskkit.wait_lang(d, "en")
        d.get(s.url + "/")
        d.find_element(By.ID, "id_code").send_keys(claims[0])
        d.find_element(By.ID, "check").click()
        assert "Already redeemed: YOU handed this prize over at" in d.find_element(By.ID, "refused").text
    finally:
        s.stop()
