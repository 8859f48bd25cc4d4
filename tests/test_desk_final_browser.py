"""The desk's 状元王中王 page (/final) in a real browser (Debian's headless
Chromium, as tests/test_desk_browser.py), against the real server and the
real listener process (`python -m host_sim.desk listen`) on a real mosquitto:
two table champions arrive, the MC draws the order, the final's rolls and its
winner follow on the page. The messages are the firmware's own encodings
(bobing/champions.py). DESK_SHOTS=1 also writes host_sim/desk/shots/final.png."""
import os
import subprocess
import sys
import time

import deskkit
from deskkit import shot
from mqtt_broker import Broker, need_broker

from bobing import champions as CH
from bobing import final_play as F
from bobing import game

EVENT = "party"
SECRET = bytes(range(70, 86))


def _wait_for(d, text, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in d.page_source:
            return True
        time.sleep(0.3)
        d.refresh()
    return False


@need_broker
def test_the_final_page_follows_the_party(browser, tmp_path):
    from selenium.webdriver.common.by import By
    folder = str(tmp_path / "desk")
    os.makedirs(folder)
    s = deskkit.Server(folder)
    assert s.manage("attendant", "mc", "--password-stdin", stdin=deskkit.PASSWORD + "\n").returncode == 0
    for b in ("0101", "0102", "0109"):
        assert s.manage("addbowl", b, "--secret-hex", SECRET.hex()).returncode == 0
    broker = Broker(tmp_path)
    broker.start()
    s.start()
    log = open(os.path.join(folder, "listen.log"), "a")
    listen = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "listen", "--broker",
                               "127.0.0.1:%d" % broker.port, "--event", EVENT], cwd=deskkit.ROOT, env=s.env(),
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        tables = {"0101": (3, (4, 4, 4, 4, 1, 2)), "0102": (1, (2, 2, 2, 2, 2, 5))}
        for bowl, (seat, dice) in tables.items():
            t = game.Table("xiamen", 4)
            t.start_seat(seat)
            t.roll(dice)
            topic = "bobing/%s/%s/champion" % (EVENT, bowl)
            p = broker.publish(topic, deskkit.sealed(SECRET, topic, CH.champion_payload(1, t)), retain=True)
            assert p.returncode == 0, p.stderr
        d = browser
        d.get(s.url + "/final")
        d.find_element(By.ID, "id_username").send_keys("mc")
        d.find_element(By.ID, "id_password").send_keys(deskkit.PASSWORD)
        d.find_element(By.ID, "login").click()
        assert d.find_element(By.ID, "champions")
        assert _wait_for(d, "五子登科 wuzi") and "四红 sihong" in d.page_source
        # the tables' games are still on: the page says so, and the MC draws anyway (the box)
        assert "0101" in d.find_element(By.ID, "playing").text
        d.find_element(By.ID, "playing-ok").click()
        from selenium.webdriver.support.ui import Select
        Select(d.find_element(By.ID, "final-bowl")).select_by_value("0109")  # the final's bowl
        d.find_element(By.ID, "draw").click()
        assert "Order drawn: 2 champions" in d.find_element(By.CSS_SELECTOR, ".msg.success").text
        rows = d.find_elements(By.CSS_SELECTOR, "#champions tr")[1:]
        order = {r.find_elements(By.TAG_NAME, "td")[0].text: r.find_elements(By.TAG_NAME, "td")[1].text for r in rows}
        assert sorted(order.values()) == ["1", "2"], order
        # the final on bowl 0109: champion 1's 四红 带12 loses to champion 2's 带13
        fp = F.FinalPlay("", 808, 2, "xiamen")
        for dice in ((4, 4, 4, 4, 1, 2), (4, 4, 4, 4, 1, 3)):
            fp.apply(game.EV_ROLL, dice)
        for i in (1, 2):
            topic = "bobing/%s/0109/finalroll" % EVENT
            assert broker.publish(topic, deskkit.sealed(SECRET, topic, CH.roll_payload(fp, i))).returncode == 0
        topic = "bobing/%s/0109/final" % EVENT
        assert broker.publish(topic, deskkit.sealed(SECRET, topic, CH.final_payload(fp)), retain=True).returncode == 0
        assert _wait_for(d, 'id="winner"')
        winner = [b for b, n in order.items() if n == "2"][0]
        assert "champion 2 (%s seat %d)" % (winner, tables[winner][0]) in d.find_element(By.ID, "winner").text
        assert len(d.find_elements(By.CSS_SELECTOR, "table.rolls tr")) == 3  # the header and two rolls
        d.implicitly_wait(0)  # (an element that must not be there: do not wait for it)
        assert not d.find_elements(By.ID, "draw")  # the order stays as drawn
        d.implicitly_wait(30)
        shot(d, "final.png", str(tmp_path))
    finally:
        listen.terminate()
        listen.wait(15)
        log.close()
        s.stop()
        broker.stop()
