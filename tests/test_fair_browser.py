"""A customer's own seed from his phone, in a real browser (Debian's headless Chromium
through Selenium, against the real desk server): the waiting screen's link (/J/...)
shows the chain's anchor and the desk's value; the button makes 16 random bytes with
Web Crypto, keeps them in the phone's storage with what the page showed, and posts
them to the desk, which records them for the bowl; a second visit shows the saved seed."""
import ast
import json
import os

import pytest

import deskkit

pytestmark = pytest.mark.usefixtures("chromium_installed")

SECRET = bytes(range(70, 86))
_SETUP = """
from bobing import dice, fair
from host_sim.desk import bus
root = bytes(range(32))
print(bus.handle("fairphone", "bobing/fairphone/0081/commit", fair.commit2_payload(4, 1, 1, dice.chain_at(root, 0),
                                                                                        "kiosk", [1] * 6))[0])
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
import os
from django.utils import timezone
from bobing import dice, fair, game
from host_sim.desk import bus
from host_sim.desk.models import Award, Bowl
root = bytes(range(32))
anchor = dice.chain_at(root, 0)
b = Bowl.objects.get(bowl_id="0082")
n = 0
first = {}  # each customer's first award: his claim page
for k in range(1, 9):
    r, pub = bus.handle("fairphone", "bobing/fairphone/0082/commit", fair.commit2_payload(6, k, 1, anchor, "kiosk",
                                                                                          STOCK))
    d = fair.decode_seed("fairphone", pub[0][0], pub[0][1], "0082")[3]
    s = dice.chain_at(root, k) if k != 3 else bytes(32)  # 3: a secret of the bowl's choosing, not the chain's
    u = bytes(range(16)) if k == 6 else None  # 6: a seed that is not the one the customer's phone saved
    der = dice.Derived(s, d, 6, k, u or bytes(16))
    rolls = []
    while len(rolls) < 3 or not any(game.turn_awards("kiosk", STOCK, rolls)):  # (a turn that pays)
        rolls.append("".join(str(f) for f in der.roll(len(rolls), bytearray(6))))
    if k == 7:  # 7: "the desk's value did not come", though it had been sent: the bowl's own dice
        rolls = ["444444", "123456", "444412"]
    won = [c for w in game.turn_awards("kiosk", STOCK, rolls) for c in w]
    if k == 2:
        rolls[1] = "444444" if rolls[1] != "444444" else "111111"  # a cheating bowl's roll
    if k == 5:  # a prize roll paid as a lesser class (a 四红 paid as a 一秀)
        won[0] = "yixiu" if won[0] != "yixiu" else "erju"
    if k == 8:
        rolls.insert(1, "-")  # a shake voided as a spill, in a game whose rules detect none
    first[k] = n + 1
    for c in won:
        n += 1
        Award.objects.create(bowl=b, game_no=6, award_no=n, cls=c, customer=k, code="B%d" % n, source="mqtt",
                             seen=timezone.now())
    if k != 4:  # 4: never revealed
        print(bus.handle("fairphone", "bobing/fairphone/0082/reveal", fair.reveal2_payload(6, k, s, rolls, k == 7,
                                                                                            u))[0])
print("FIRST", first)
""".replace("STOCK", "[1, 2, 5, 10, 20, 40]")
# what /fair and each customer's claim page say of the turns above (6: only his phone knows)
AT_DESK = {1: None, 2: "骰子与公开的秘密不符", 3: "公开的秘密不在链上", 4: "承诺从未公开",
           5: "奖品不是这一局的规则和库存给这些摇骰的", 6: None, 7: "兑奖台已发出随机数却说没收到",
           8: "这一局不检测出界，却有出界"}

SHOTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "fair-screens")


def _verdict(d, url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    d.get(url)
    WebDriverWait(d, 60).until(lambda d: d.find_element(By.ID, "verdict").get_attribute("data-done"))
    return d.find_element(By.ID, "verdict")


def test_the_phone_checks_its_turn_itself_with_the_bowl_s_code_in_micropython_webassembly(browser, tmp_path):
    """The receipt page /V/...: the phone loads MicroPython's WebAssembly port (served by
    the desk, pinned) and the bowl's dice.py, rules.py and game.py, and checks the turn
    itself, awards too: an honest turn says 已验证 and names its awards; each cheat says
    未验证 with its reason, Chinese first, English beside. Opened once, the page checks
    again with the desk gone (its service worker's copy). Screenshots of an honest and a
    cheated turn go to build/fair-screens/."""
    from selenium.webdriver.support.ui import WebDriverWait
    s = deskkit.Server(str(tmp_path))
    assert s.manage("addbowl", "0082", "--secret-hex", SECRET.hex()).returncode == 0
    r = s.manage("shell", "-c", _TURNS)
    assert r.stdout.split().count("reveal") == 7, (r.stdout, r.stderr)
    first = ast.literal_eval(r.stdout.split("FIRST", 1)[1].strip())
    s.start()
    os.makedirs(SHOTS, exist_ok=True)
    d = browser
    no, not_ = "未验证（在您的手机上）：", "Not verified (in your phone): "
    try:
        # 6: the customer's phone saved his own seed; the bowl rolled with another
        d.get(s.url + "/J/0082/6-6")
        d.execute_script("localStorage.setItem('bobing:0082:6:6', JSON.stringify({anchor: arguments[0], u: "
                         "'ab'.repeat(16)}))", _row6(s))
        for k, zh, en in ((1, "已验证（在您的手机上）：", "Verified (in your phone): all"),
                          (3, no + "秘密不在链上", not_ + "the secret is not the chain's"),
                          (4, no + "秘密从未公开", not_ + "never revealed"),
                          (2, no + "第 2 次摇骰不符", not_ + "roll 2 does not match"),
                          (5, no + "奖品与规则不符", not_ + "awards not the rules'"),
                          (6, no + "您的种子没有被使用", not_ + "your seed was not the one used"),
                          (7, no + "没有兑奖台随机数", not_ + "played without the desk's value"),
                          (8, no + "这一局的规则不检测出界，却有出界",
                           not_ + "a spill in a game whose rules detect none")):
            text = _verdict(d, s.url + "/V/0082/6-%d" % k).text
            assert zh in text and en in text and text.index(zh) < text.index(en), (k, text)
            zh_line = text.splitlines()[0]
            assert not any("a" <= ch.lower() <= "z" for ch in zh_line), (k, zh_line)  # (no English in the Chinese)
            print("phone check of customer %d: %s ms" % (k, d.find_element("id", "verdict").get_attribute("data-ms")))
            if k in (1, 5):
                d.save_screenshot(os.path.join(SHOTS, "phone-%s.png" % ("honest" if k == 1 else "cheated")))
        el = _verdict(d, s.url + "/V/0082/6-1")
        assert "正是规则所给" in el.text  # his awards named: the rules' own
        WebDriverWait(d, 30).until(lambda d: d.find_element("id", "verdict").get_attribute("data-kept"))
        _public_page_fits(d, s.url)
        _desk_pages_name_each_cheat(s.url, first)
    finally:
        s.stop()
    # the desk is gone (the mall's network, the event over): the page opened before checks again
    text = _verdict(d, s.url + "/V/0082/6-1").text
    assert "已验证（在您的手机上）" in text, text
    from selenium.common.exceptions import WebDriverException
    with pytest.raises(WebDriverException, match="ERR_CONNECTION_REFUSED"):
        d.get(s.url + "/fair")  # (the desk really is gone: only the saved page answers)
    # the desk is back, and its operator has cut customer 4's value out of the log and
    # recomputed every head after it: the log holds together again, customer 5's receipt does not
    s.start()
    try:
        assert "rewritten" in s.manage("shell", "-c", _REWRITE).stdout
        text = _verdict(d, s.url + "/V/0082/6-5").text  # (his receipt, kept at his first visit, is after the cut)
        assert no + "您保存的收据已不在兑奖台的日志里" in text and "no longer in the desk's log" in text, text
    finally:
        s.stop()
    _published_receipts_verify_on_any_host(d, s, tmp_path, no)


def _published_receipts_verify_on_any_host(d, s, tmp_path, no):
    """After the event: `publish DIR` put on a plain web host (no desk behind it) — a
    receipt link on that host checks the turn in the phone as the desk's page did."""
    import functools
    import http.server
    import threading
    site = tmp_path / "site"
    r = s.manage("publish", str(site))
    assert r.returncode == 0 and "receipt pages" in r.stdout, (r.stdout, r.stderr)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a: None
    host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    try:
        url = "http://127.0.0.1:%d" % host.server_address[1]
        text = _verdict(d, url + "/V/0082/6-1/").text
        assert "已验证（在您的手机上）" in text and "正是规则所给" in text, text
        text = _verdict(d, url + "/V/0082/6-3/").text
        assert no + "秘密不在链上" in text, text
    finally:
        host.shutdown()


_REWRITE = """
from host_sim.analysis import fair_check
from host_sim.desk.models import FairLog
FairLog.objects.filter(kind="value", body__contains='"g":6,"k":4').delete()
prev = "0" * 64
for n, e in enumerate(list(FairLog.objects.order_by("pk")), 1):
    prev = fair_check.log_head(prev, e.body)
    FairLog.objects.filter(pk=e.pk).delete()
    FairLog.objects.create(pk=n, kind=e.kind, body=e.body, head=prev, at=e.at)
print("rewritten")
"""


def _row6(s):
    r = s.manage("shell", "-c", "from host_sim.desk.models import FairChain\n"
                 "print(FairChain.objects.get(bowl__bowl_id='0082', game_no=6).anchor)")
    return r.stdout.strip().splitlines()[-1]


def _public_page_fits(d, url):
    """/fair in Chinese on a phone (390 px) and a laptop (1280 px): nothing wider than the
    window, the first customer's verdict in the first screen, every reason Chinese first."""
    d.get(url + "/fair")
    d.add_cookie({"name": "django_language", "value": "zh-hans"})
    try:
        for w, h in ((390, 844), (1280, 800)):
            d.set_window_size(w, h)
            d.get(url + "/fair?bowl=0082")
            m = d.execute_script("""const v = document.querySelector('#fair td.on, #fair td.off')
                    .getBoundingClientRect();
                const t = document.getElementById('fair').getBoundingClientRect();
                return [document.documentElement.scrollWidth, window.innerWidth, v.top, v.bottom, t.right,
                        window.innerHeight, document.documentElement.lang]""")
            sw, iw, top, bottom, right, ih, lang = m
            # no sideways scrolling: neither the page nor the table (a scrolling box would hide its columns)
            assert lang == "zh-Hans" and sw <= iw and right <= iw, (w, m)
            assert 0 <= top and bottom <= ih, (w, m)  # the verdict is in the first screen
            cells = [e.text for e in d.find_elements("css selector", "#fair td.off")]
            assert len(cells) == 6, cells  # (6's seed is another than his phone saved: only his phone knows)
            for text in cells:  # each reason: its Chinese first, then its English
                assert text.startswith("未验证"), (w, text)
                for part in text.split("\n")[1].split("; "):
                    assert "\u4e00" <= part[0] <= "\u9fff" and any("a" <= ch <= "z" for ch in part), (w, part)
    finally:
        d.set_window_size(412, 915)
        d.delete_cookie("django_language")


def _desk_pages_name_each_cheat(url, first):
    """/fair's row and the claim page of each customer above: the honest ones verified,
    each cheat unverified with its reason, Chinese first."""
    import html
    import re
    import urllib.request

    def get(path):
        req = urllib.request.Request(url + path, headers={"Cookie": "django_language=zh-hans"})
        with urllib.request.urlopen(req) as r:
            return html.unescape(r.read().decode())
    page = get("/fair?bowl=0082")
    cells = re.findall(r'<tr><td class="(on|off)">(.*?)</td><td data-label="[^"]*">0082</td>'
                       r'<td data-label="[^"]*">6</td><td data-label="[^"]*">(\d+) ', page, re.S)
    assert sorted(int(k) for _c, _t, k in cells) == list(range(1, 9)), cells
    for mark, text, k in cells:
        want = AT_DESK[int(k)]
        claim = get("/F/0082/6-%d/YIXIU" % first[int(k)])
        if want is None:
            assert mark == "on" and "已验证" in claim and "未验证" not in claim, (k, text, claim[-2000:])
        else:
            assert mark == "off" and want in text, (k, text)
            assert "未验证" in claim and want in claim and claim.index(want) < claim.index("Not verified"), (k, claim)
