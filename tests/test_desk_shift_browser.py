"""A change of shift, in Debian's headless Chromium against the real desk server: the attendant
going off (sh-amy) hands a prize over at the counter, then counts the shelf and enters it on
/shift without seeing what the desk expects; the one coming on (sh-bo) confirms with his password
(a wrong one records nothing); the desk shows the difference per class; a supervisor sees it open,
closes it with a note, and the workbook (`report FILE.xlsx`) lists the hand-over with both
attendants, the counts and who closed it."""

import pytest
from openpyxl import load_workbook

import deskkit

SECRET = bytes(range(140, 156))
EV = "sh-fest"

pytestmark = pytest.mark.usefixtures("chromium_installed")

# the event's stock granted to bowl 3501 as its first status asks, and one 一秀 it paid (as the
# listener records them): prints the award's claim code for the counter
SETUP = """
from host_sim.desk import allot
from host_sim.desk.ingest import ingest
from host_sim.desk.models import Award
allot.answer(%r, "3501", 0, {}, first=True)
ingest("3501", 1, [(1, "yixiu", 1)], None, "mqtt", event=%r)
print("CODE", Award.objects.get(bowl__bowl_id="3501").code)
""" % (EV, EV)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("desk-shift"))
    s = deskkit.Server(folder)
    for name, extra in (("sh-amy", []), ("sh-bo", []), ("sh-boss", ["--supervisor"])):
        assert s.manage("attendant", name, "--password-stdin", *extra, stdin=deskkit.PASSWORD + "\n").returncode == 0
    assert s.manage("addbowl", "3501", "--secret-hex", SECRET.hex()).returncode == 0
    assert s.manage("stock", "--event", EV, "zhuangyuan=1", "duitang=2", "yixiu=8").returncode == 0
    p = s.manage("shell", "-c", SETUP)
    code = [w.split()[1] for w in p.stdout.splitlines() if w.startswith("CODE ")]
    assert p.returncode == 0 and code, p.stdout + p.stderr
    s.start()
    yield s, code[0]
    s.stop()


def login(d, s, name):
    from selenium.webdriver.common.by import By
    d.delete_all_cookies()
    d.get(s.url + "/login")
    d.find_element(By.ID, "id_username").send_keys(name)
    d.find_element(By.ID, "id_password").send_keys(deskkit.PASSWORD)
    d.find_element(By.ID, "login").click()
    assert d.find_element(By.ID, "id_code")  # the counter page


def test_a_shift_hand_over_records_the_difference_and_a_supervisor_closes_it(browser, desk, tmp_path):
    from selenium.webdriver.common.by import By
    s, code = desk
    d = browser
    login(d, s, "sh-amy")
    d.find_element(By.ID, "id_code").send_keys(code)
    d.find_element(By.ID, "check").click()
    d.find_element(By.ID, "handover").click()
    assert d.find_element(By.ID, "handed")
    d.find_element(By.ID, "nav-shift").click()
    form = d.find_element(By.ID, "shift-form").text
    assert "7" not in form and "4" not in form  # a blind count: the expected numbers are not shown
    d.implicitly_wait(0)  # (an element that must not be there: do not wait 30 s for it; the form is shown)
    assert not d.find_elements(By.ID, "open")  # not a supervisor: no open differences here
    d.implicitly_wait(30)

    def count(zy, dt, yx, on, password):
        for cls, n in (("zhuangyuan", zy), ("duitang", dt), ("yixiu", yx)):
            d.find_element(By.ID, "count_" + cls).clear()
            d.find_element(By.ID, "count_" + cls).send_keys(str(n))
        d.find_element(By.ID, "on_by").send_keys(on)
        d.find_element(By.ID, "on_password").send_keys(password)
        d.find_element(By.ID, "hand-over").click()
    count(1, 1, 2, "sh-bo", "not his password")
    assert "sh-bo" in d.find_element(By.CSS_SELECTOR, ".msg.error").text  # nothing recorded
    assert d.find_element(By.ID, "count_yixiu").get_attribute("value") == "2"  # what was typed stays
    d.find_element(By.ID, "on_by").clear()
    count(1, 1, 2, "sh-bo", deskkit.PASSWORD)
    said = d.find_element(By.ID, "handed-over").text
    assert "sh-amy" in said and "sh-bo" in said
    # granted 1 状元, 1 对堂, 4 一秀 (a bowl's step: half the total), one 一秀 handed over: 3 should remain
    got = {r.get_attribute("data-cls"): [td.text for td in r.find_elements(By.TAG_NAME, "td")[1:]]
           for r in d.find_elements(By.CSS_SELECTOR, "#result tr[data-cls]")}
    assert got == {"zhuangyuan": ["1", "1", "0"], "duitang": ["1", "1", "0"], "yixiu": ["3", "2", "-1"]}, got

    login(d, s, "sh-boss")
    d.find_element(By.ID, "nav-shift").click()
    rows = d.find_elements(By.CSS_SELECTOR, "#open tr[data-cls]")
    assert [(r.get_attribute("data-cls"), r.find_element(By.CLASS_NAME, "diff").text) for r in rows] == [
        ("yixiu", "-1")]
    assert "sh-amy" in rows[0].text and "sh-bo" in rows[0].text
    rows[0].find_element(By.NAME, "note").send_keys("one fell behind the shelf, found")
    rows[0].find_element(By.TAG_NAME, "button").click()
    assert d.find_element(By.CSS_SELECTOR, ".msg.success")
    d.implicitly_wait(0)  # (the page after the close is shown: no row must be left, none waited for)
    assert not d.find_elements(By.CSS_SELECTOR, "#open tr[data-cls]")
    d.implicitly_wait(30)

    out = str(tmp_path / "event.xlsx")
    p = s.manage("report", out)
    assert p.returncode == 0, p.stdout + p.stderr
    ws = load_workbook(out)["交班 hand-overs"]
    rows = [r for r in ws.iter_rows(min_row=2, values_only=True)]
    assert [(r[2], r[3], r[4], r[5], r[6], r[7], r[8]) for r in rows] == [
        ("sh-amy", "sh-bo", "状元 zhuangyuan", 1, 1, 0, None), ("sh-amy", "sh-bo", "对堂 duitang", 1, 1, 0, None),
        ("sh-amy", "sh-bo", "一秀 yixiu", 3, 2, -1, "sh-boss")], rows
