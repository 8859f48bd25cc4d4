"""The desk in a real browser: Debian's headless Chromium, driven by Selenium
through Debian's chromedriver (never a downloaded browser), against the real
server. An attendant logs in, imports a journal, redeems a code, is refused the
second time, and downloads the day's CSV, at a phone's screen width.
DESK_SHOTS=1 also writes the screenshots of host_sim/desk/README.md."""
import glob
import os
import shutil
import time

import pytest

import deskkit
from deskkit import CHROMIUM, DRIVER, shot
from mqtt_broker import need_broker

SECRET = bytes(range(50, 66))

pytestmark = pytest.mark.usefixtures("chromium_installed")


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("desk-browser"))
    s = deskkit.Server(folder)
    assert s.manage("attendant", "amy", "--password-stdin", stdin=deskkit.PASSWORD + "\n").returncode == 0
    assert s.manage("addbowl", "0301", "--secret-hex", SECRET.hex()).returncode == 0
    path, shown = deskkit.kiosk_game(os.path.join(folder, "flash"), "0301", SECRET, 40, 8)
    s.start()
    yield s, path, shown
    s.stop()


def test_log_in_import_redeem_refuse_and_download_csv(browser, desk, tmp_path):
    from selenium.webdriver.common.by import By
    d = browser
    s, path, shown = desk
    d.get(s.url + "/")
    assert "/login" in d.current_url
    d.find_element(By.ID, "id_username").send_keys("amy")
    d.find_element(By.ID, "id_password").send_keys("wrong password")
    d.find_element(By.ID, "login").click()
    assert "Wrong name or password" in d.find_element(By.ID, "error").text
    d.find_element(By.ID, "id_password").send_keys(deskkit.PASSWORD)
    shot(d, "login.png", str(tmp_path))
    d.find_element(By.ID, "login").click()
    # (each check waits for an element of the next page: a click does not wait for the page)
    assert d.find_element(By.ID, "id_code") and "Redeem a claim code" in d.page_source

    d.find_element(By.LINK_TEXT, "Import").click()
    d.find_element(By.ID, "id_journal").send_keys(path)
    d.find_element(By.ID, "upload").click()
    assert "%d new awards" % len(shown) in d.find_element(By.CSS_SELECTOR, ".msg.success").text
    shot(d, "import.png", str(tmp_path))

    g, n, cls, code = shown[1]
    for attempt in range(2):
        d.find_element(By.LINK_TEXT, "Counter").click()
        d.find_element(By.ID, "id_code").send_keys(code[:4] + "-" + code[4:].lower())
        d.find_element(By.ID, "check").click()
        assert d.find_element(By.ID, "cls").text.endswith(" " + cls)
        if attempt == 0:
            shot(d, "claim.png", str(tmp_path))
            d.find_element(By.ID, "handover").click()
            assert "Handed over" in d.find_element(By.ID, "handed").text
            shot(d, "handed.png", str(tmp_path))
        else:
            assert "Already redeemed: YOU handed this prize over at" in d.find_element(By.ID, "refused").text
            d.implicitly_wait(0)  # (an element that must not be there: do not wait for it)
            assert not d.find_elements(By.ID, "handover")
            d.implicitly_wait(30)
            shot(d, "refused.png", str(tmp_path))

    d.find_element(By.LINK_TEXT, "Stock").click()
    assert d.find_element(By.CSS_SELECTOR, "svg.chart")
    shot(d, "stock.png", str(tmp_path))
    d.find_element(By.ID, "csv").click()
    deadline = time.monotonic() + 20
    files = []
    while time.monotonic() < deadline:
        files = [f for f in glob.glob(os.path.join(d.downloads, "redemptions-*.csv"))]
        if files:
            break
        time.sleep(0.2)
    assert files, "the CSV was not downloaded"
    with open(files[0], encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == "\ufefftime,bowl,game,award,class,class id,attendant"  # a BOM: Excel reads UTF-8
    from host_sim.desk.forms import class_names
    assert lines[1].endswith(",0301,%d,%d,%s,%s,amy" % (g, n, class_names()[cls], cls))
    shutil.rmtree(d.downloads, ignore_errors=True)


@need_broker
def test_the_bowls_page_shows_a_bowl_live_as_its_status_arrives_through_the_broker(browser, tmp_path_factory):
    """The promoter's page, open in the browser, with `serve` and `listen` running
    on one database and a real mosquitto: a bowl's status published on the broker
    shows up (online, battery, stock left, grant) without reloading the page, and
    its will (offline) too."""
    import subprocess
    import sys
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    from mqtt_broker import Broker
    folder = str(tmp_path_factory.mktemp("desk-live"))
    broker = Broker(tmp_path_factory.mktemp("broker-live"))
    broker.start()
    s = deskkit.Server(folder)
    assert s.manage("attendant", "pat", "--password-stdin", stdin=deskkit.PASSWORD + "\n").returncode == 0
    for b in ("0211", "0212"):
        assert s.manage("addbowl", b, "--secret-hex", SECRET.hex()).returncode == 0
    assert s.manage("stock", "--event", "fair", "zhuangyuan=2", "duitang=30", "yixiu=200").returncode == 0
    s.start()
    listen = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "listen", "--broker",
                               "127.0.0.1:%d" % broker.port, "--event", "fair"], cwd=deskkit.ROOT, env=s.env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def pub(topic, payload):  # as the bowl seals it
        assert broker.publish(topic, deskkit.sealed(SECRET, topic, payload.encode()), retain=True).returncode == 0
    try:
        d = browser
        d.get(s.url + "/bowls")
        if "/login" in d.current_url:
            d.find_element(By.ID, "id_username").send_keys("pat")
            d.find_element(By.ID, "id_password").send_keys(deskkit.PASSWORD)
            d.find_element(By.ID, "login").click()  # and back to /bowls
        def live(element_id):
            """An element's text; the page swaps its table in every 2 s, so an element found just
            before a swap goes stale: found again."""
            for _ in range(50):
                try:
                    return d.find_element(By.ID, element_id).text
                except StaleElementReferenceException:
                    time.sleep(0.1)
            return d.find_element(By.ID, element_id).text
        row = lambda: live("bowl-0212")  # noqa: E731
        assert "never seen" in row()
        stock = live("event-stock")
        assert "对堂 duitang 30 8 0 0 0 30" in stock, stock
        d.execute_script("window.notReloaded = true")
        deadline = time.monotonic() + 120  # the listener subscribed (a loaded machine: it may take a while)
        while time.monotonic() < deadline and '"on":1' not in subprocess.run(
                ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port), "-t", "bobing/fair/desk/status",
                 "--retained-only", "-C", "1", "-W", "2"], capture_output=True, text=True).stdout:  # (-C: once it came)
            time.sleep(0.5)
        pub("bobing/fair/0212/status", '{"v":2,"on":1,"b":1,"c":1,"i":1,"fw":"1","g":3,"left":[["duitang",0]],'
            '"faults":["accel"],"bat":3712}')
        # the status, then the first grant the listener answers it with: two commits, and the page's
        # poll may come between them (a loaded machine's run saw "online" with no grant yet)
        WebDriverWait(d, 30, 0.2).until(lambda _d: "online" in row() and "3.71 V" in row() and "s=1" in row())
        text = row()
        assert "accel" in text and "s=1" in text and "duitang 8" in text, text  # its first grant (30 / (2 * 2))
        assert "对堂 duitang 30 8 8 0 0 22" in live("event-stock")
        shot(d, "bowls.png", str(tmp_path_factory.mktemp("shots")))
        # on a 375 px phone: a card per bowl, each value on its own labelled line (before, nine
        # columns squeezed Chinese to one character a line)
        d.set_window_size(375, 900)
        try:
            widths = lambda: d.execute_script(  # noqa: E731  (one call: the part is swapped every 2 s)
                "var w = document.documentElement.clientWidth; return [w, document.documentElement.scrollWidth]"
                ".concat([...document.querySelectorAll('#bowl-0212 td')].filter(function (e) {"
                "return e.offsetParent; }).map(function (e) { return e.getBoundingClientRect().width; }))")
            WebDriverWait(d, 10, 0.2).until(lambda _d: widths()[0] <= 380)
            w = widths()
            assert w[1] <= w[0] + 1, w  # nothing wider than the screen
            assert len(w) > 5 and min(w[2:]) >= 0.8 * w[0] - 40, w  # every value a line of the card's width
            assert "电量" in live("bowl-0212") or "battery" in d.page_source
            shot(d, "bowls-375.png", str(tmp_path_factory.mktemp("shots")))
        finally:
            d.set_window_size(412, 915)
        pub("bobing/fair/0212/status", '{"v":2,"on":0,"b":1,"c":1}')  # the broker's will for a bowl that vanished
        WebDriverWait(d, 30, 0.2).until(lambda _d: "offline" in row())
        assert d.execute_script("return window.notReloaded") is True  # the same page all along
    finally:
        listen.kill()
        listen.wait(10)
        s.stop()
        broker.stop()


def _qr_png(text, path, scale=8):
    import segno
    segno.make_qr(text, error="m").save(path, scale=scale, border=4)
    return path


def _login(d, s, name="amy"):
    from selenium.webdriver.common.by import By
    d.get(s.url + "/")
    if "/login" in d.current_url:
        d.find_element(By.ID, "id_username").send_keys(name)
        d.find_element(By.ID, "id_password").send_keys(deskkit.PASSWORD)
        d.find_element(By.ID, "login").click()
        assert d.find_element(By.ID, "id_code")


def _qr_text(shown_one):
    g, n, cls, code = shown_one
    return "BB1:0301:%d-%d:%s:%s" % (g, n, cls.upper(), code)


FULL = {ord(ch): ord(ch) - 0x21 + 0xFF01 for ch in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


def test_the_desk_in_chinese_and_english_with_a_full_width_code_a_qr_photo_and_a_too_large_upload(browser, desk,
                                                                                                     tmp_path):
    """An attendant switches the desk to Chinese (the switch on every page), types a
    code in her input method's full-width mode, hands the prize over, presses again
    and is told she did it herself; a photo of the claim screen's QR code fills the
    form; a 50 MB upload gets the desk's own page. Every page is shot in both languages."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    d = browser
    s, path, shown = desk
    tmp = str(tmp_path)
    _login(d, s)
    d.find_element(By.LINK_TEXT, "Import").click()
    d.find_element(By.ID, "id_journal").send_keys(path)  # again: changes nothing, so this test runs alone too
    d.find_element(By.ID, "upload").click()
    assert d.find_element(By.CSS_SELECTOR, ".msg.success")
    big = os.path.join(tmp, "g00000001.bbj")
    with open(big, "wb") as f:
        f.truncate(50 << 20)
    pages = {}
    for lang in ("zh", "en"):
        d.find_element(By.ID, "lang-" + lang).click()
        # the switch answers with a redirect that sets the cookie: wait for it before the next page
        deskkit.wait_lang(d, lang)
        want = {"zh": "兑换领奖码", "en": "Redeem a claim code"}[lang]
        d.get(s.url + "/")
        assert want in d.find_element(By.TAG_NAME, "h1").text
        shot(d, "counter-%s.png" % lang, tmp)
        if lang == "zh":
            g, n, cls, code = shown[2]
            d.find_element(By.ID, "id_code").send_keys(code.translate(FULL))  # ＡＢＣＤ１２３４
            d.find_element(By.ID, "check").click()
            assert d.find_element(By.ID, "cls").text.endswith(" " + cls)
            assert "发放" in d.find_element(By.ID, "handover").text
            shot(d, "claim-zh.png", tmp)
            d.find_element(By.ID, "handover").click()
            assert "已兑奖" in d.find_element(By.ID, "handed").text
            shot(d, "handed-zh.png", tmp)
            d.get(s.url + "/")
            d.find_element(By.ID, "id_code").send_keys(code.lower())
            d.find_element(By.ID, "check").click()
            assert "是您自己" in d.find_element(By.ID, "refused").text
            shot(d, "refused-zh.png", tmp)
            # a photo of the claim screen's QR code: decoded in the page, the form sent
            d.get(s.url + "/")
            png = _qr_png(_qr_text(shown[3]), os.path.join(tmp, "claim-qr.png"))
            d.find_element(By.ID, "qr-file").send_keys(png)
            assert d.find_element(By.ID, "cls").text.endswith(" " + shown[3][2])
            assert "%d-%d" % shown[3][:2] in d.find_element(By.ID, "award").text
        for url, name, marker in (("/import", "import", "id_journal"), ("/stock", "stock", "totals"),
                                  ("/forecast?bowl=0301", "forecast", "forecast-words"),
                                  ("/bowls", "bowls", "live"), ("/final", "final", "champions"),
                                  ("/shakes", "shakes", "shakes-form"), ("/mqtt", "mqtt", "mqtt"),
                                  ("/fair", "fair", "fair"),
                                  ("/logout", "logout", "logout-confirm"), ("/no-such-page", "404", "error")):
            d.get(s.url + url)
            assert d.find_element(By.ID, marker)
            pages[(lang, name)] = d.find_element(By.TAG_NAME, "main").text
            shot(d, "%s-%s.png" % (name, lang), tmp)
        d.get(s.url + "/import")
        d.find_element(By.ID, "id_journal").send_keys(big)
        d.find_element(By.ID, "upload").click()
        title = {"zh": "文件太大", "en": "Too large"}[lang]
        # (the import page's own h1 is there until the upload's answer replaces it)
        from selenium.common.exceptions import StaleElementReferenceException
        WebDriverWait(d, 60, 0.2, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda _d: title in _d.find_element(By.TAG_NAME, "h1").text)
        assert "<header>" in d.page_source  # the desk's page, not the server's plain text
        shot(d, "toolarge-%s.png" % lang, tmp)
    assert "probably gone in" in pages[("en", "forecast")] and "多半发完" in pages[("zh", "forecast")]
    assert "找不到页面" in pages[("zh", "404")] and "Not found" in pages[("en", "404")]
    # the login page in Chinese: logged out, the switch on the login page
    d.get(s.url + "/logout")
    d.find_element(By.ID, "logout-confirm").click()
    WebDriverWait(d, 30, 0.2).until(lambda _d: "/login" in _d.current_url)
    d.find_element(By.ID, "lang-zh").click()
    deskkit.wait_lang(d, "zh")
    assert "登录" in d.find_element(By.ID, "login").text
    shot(d, "login-zh.png", tmp)
    d.find_element(By.ID, "lang-en").click()  # (the browser stays in English for the next test)
    deskkit.wait_lang(d, "en")


def _y4m(png, path, frames=30):
    """A still image as a YUV4MPEG2 clip (grey: Y = the image, U = V = 128), what
    Chromium's fake camera plays (--use-file-for-fake-video-capture)."""
    from PIL import Image
    with Image.open(png) as im:
        g = im.convert("L")
        w, h = (g.width + 1) // 2 * 2, (g.height + 1) // 2 * 2
        canvas = Image.new("L", (w, h), 255)
        canvas.paste(g, (0, 0))
        y = canvas.tobytes()
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F10:1 Ip A1:1 C420jpeg\n" % (w, h))
        for _ in range(frames):
            f.write(b"FRAME\n" + y + bytes([128]) * (w * h // 2))
    return path


def test_the_phones_camera_reads_the_claim_screens_qr_code(desk, tmp_path):
    """The counter page's camera button on a fake camera that films the claim
    screen's QR code: the page decodes it and checks the award."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    s, path, shown = desk
    clip = _y4m(_qr_png(_qr_text(shown[4]), str(tmp_path / "qr.png"), scale=6), str(tmp_path / "qr.y4m"))
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--user-data-dir=" + str(tmp_path / "profile"), "--window-size=412,915",
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                 "--use-file-for-fake-video-capture=" + clip):
        o.add_argument(flag)
    d = webdriver.Chrome(options=o, service=Service(executable_path=DRIVER))
    d.implicitly_wait(30)
    try:
        _login(d, s)
        d.find_element(By.LINK_TEXT, "Import").click()
        d.find_element(By.ID, "id_journal").send_keys(path)
        d.find_element(By.ID, "upload").click()
        assert d.find_element(By.CSS_SELECTOR, ".msg.success")
        d.get(s.url + "/")
        d.find_element(By.ID, "camera").click()
        assert d.find_element(By.ID, "cls").text.endswith(" " + shown[4][2])
        assert "%d-%d" % shown[4][:2] in d.find_element(By.ID, "award").text
    finally:
        d.quit()
