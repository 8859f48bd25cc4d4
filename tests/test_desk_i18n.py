"""The desk in Chinese first: zh-Hans when the browser says nothing (or asks for
Chinese), English beside it (the browser's Accept-Language, or the switch on
every page, kept in a cookie); every page, message, error page and the CSV; the
catalogue complete and compiled. Django's test client on a real SQLite database."""
import gettext
import html
import os
import re

import deskkit

FOLDER = deskkit.folder()

from django.test import Client  # noqa: E402

from host_sim.desk.ingest import GameState, ingest  # noqa: E402

SECRET = bytes(range(16))
OTHER = bytes(range(1, 17))
PO = os.path.join(deskkit.ROOT, "host_sim", "desk", "locale", "zh_Hans", "LC_MESSAGES", "django.po")


def client(lang=None, name="li"):
    deskkit.attendant(name)
    c = Client(HTTP_ACCEPT_LANGUAGE=lang) if lang else Client()
    assert c.login(username=name, password=deskkit.PASSWORD)
    return c


def text_of(page):
    """The words a person sees: tags, scripts, styles and code samples gone."""
    page = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", "\n", page)
    return html.unescape(page)


def english_left(page):
    """Runs of three or more English words a Chinese page still shows."""
    return [m.group(0) for m in re.finditer(r"[A-Za-z]{2,}(?:[ ,']+[A-Za-z]{2,}){2,}", text_of(page))]


def _some_data():
    deskkit.bowl("Z1", SECRET)
    path, shown = deskkit.kiosk_game(os.path.join(FOLDER, "flash-Z1"), "Z1", SECRET, 20, 5)
    from host_sim.desk.ingest import ingest_file
    ingest_file(path)
    return shown


def test_chinese_is_the_default_and_english_is_beside_it():
    c = client()
    page = c.get("/").content.decode()
    assert '<html lang="zh-Hans">' in page and "兑换领奖码" in page and "退出登录" in page
    en = client("en").get("/").content.decode()
    assert '<html lang="en">' in en and "Redeem a claim code" in en
    zh = client("zh-CN,zh;q=0.9,en;q=0.5").get("/").content.decode()  # a Chinese phone's browser
    assert "兑换领奖码" in zh
    # the switch: English chosen on a Chinese browser, kept for the next pages (an attendant of its own:
    # the choice is kept as this attendant's, and li's pages here follow the browser)
    c = client("zh-CN", name="zhao")
    r = c.post("/language", {"language": "en", "next": "/stock"})
    assert r.status_code == 302 and r["Location"] == "/stock"
    assert "Handed out on" in c.get("/stock").content.decode()
    c.post("/language", {"language": "zh-hans", "next": "/"})
    assert "兑换领奖码" in c.get("/").content.decode()


def test_an_attendant_s_language_follows_them_to_any_browser_from_the_login_on():
    """Before: only the browser's cookie or Accept-Language chose; an attendant who switched to
    English got Chinese again on the next device (and a Chinese-reading one got English there)."""
    c = client("zh-CN", name="i18n-tom")
    c.post("/language", {"language": "en", "next": "/"})
    other = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")  # another counter's browser, Chinese, no cookie
    login = other.get("/login").content.decode()
    assert "登录" in login  # nobody logged in yet: the browser's language
    r = other.post("/login", {"username": "i18n-tom", "password": deskkit.PASSWORD})
    assert r.status_code == 302
    page = other.get("/").content.decode()
    assert '<html lang="en">' in page and "Redeem a claim code" in page
    assert "Handed out on" in other.get("/stock").content.decode()  # every page
    # a Chinese-reading attendant on a browser left in English (its cookie) gets Chinese (names of
    # this file only: the choice is kept in the database other desk tests share)
    mei = client("en", name="i18n-mei")
    mei.post("/language", {"language": "zh-hans", "next": "/"})
    shared = Client()
    shared.post("/language", {"language": "en", "next": "/login"})  # someone set this browser to English
    assert "Log in" in shared.get("/login").content.decode()
    assert shared.login(username="i18n-mei", password=deskkit.PASSWORD)
    assert "兑换领奖码" in shared.get("/").content.decode()
    # an attendant who never chose: the browser decides, as before
    assert "Redeem a claim code" in client("en", name="new-one").get("/").content.decode()
    assert "兑换领奖码" in client("zh-CN", name="new-one").get("/").content.decode()


def test_a_supervisor_sets_an_attendant_s_language_and_role_with_the_command():
    """Before: only the attendant could choose (the switch, once logged in); `attendant` took no
    --language, so a supervisor could not set up a Chinese-only attendant's desk in advance."""
    import io
    from django.core.management import CommandError, call_command
    deskkit.attendant("wu")
    out = io.StringIO()
    call_command("attendant", "wu", "--language", "zh", stdout=out)  # no password asked: it stays
    assert "wu" in out.getvalue() and "简体中文" in out.getvalue(), out.getvalue()
    c = Client(HTTP_ACCEPT_LANGUAGE="en")  # an English browser at the counter
    assert c.login(username="wu", password=deskkit.PASSWORD)
    assert "兑换领奖码" in c.get("/").content.decode()
    call_command("attendant", "wu", "--language", "en", stdout=io.StringIO())
    zh_browser = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")  # a Chinese browser, for an English reader
    assert zh_browser.login(username="wu", password=deskkit.PASSWORD)
    assert "Redeem a claim code" in zh_browser.get("/").content.decode()
    call_command("attendant", "wu", "--language", "browser", stdout=io.StringIO())
    assert "兑换领奖码" in zh_browser.get("/").content.decode()
    # a supervisor: the Import page's tick for journals without seals appears
    assert 'id="id_unsealed"' not in zh_browser.get("/import").content.decode()
    call_command("attendant", "wu", "--supervisor", stdout=io.StringIO())
    assert 'id="id_unsealed"' in zh_browser.get("/import").content.decode()
    call_command("attendant", "wu", "--no-supervisor", stdout=io.StringIO())
    assert 'id="id_unsealed"' not in zh_browser.get("/import").content.decode()
    # a language the desk does not have: said, and nothing changed
    try:
        call_command("attendant", "wu", "--language", "fr", stdout=io.StringIO())
        raise AssertionError("accepted")
    except CommandError as e:
        assert "zh" in str(e) and "en" in str(e) and "nothing changed" in str(e), e
    assert "兑换领奖码" in zh_browser.get("/").content.decode()
    assert zh_browser.login(username="wu", password=deskkit.PASSWORD)  # the password never changed


def test_the_login_page_has_the_switch_too():
    c = Client()
    page = c.get("/login").content.decode()
    assert "登录" in page and 'id="lang-en"' in page
    r = c.post("/language", {"language": "en", "next": "/login"})
    assert r.status_code == 302 and "Log in" in c.get("/login").content.decode()


MQTT_EV = "i18n-ev"


def _mqtt_refusals():
    """Messages of every kind the listener refuses, and an award beyond its bowl's grant (the
    Bowls page's note): their reasons are kept as codes and said in the page's language. Once."""
    from host_sim.desk.models import Import
    if Import.objects.filter(name__startswith="bobing/%s/" % MQTT_EV).exists():
        return
    from django.core.management import call_command
    from bobing import outbox
    from host_sim.desk import allot, mqttlog
    call_command("stock", "--event", MQTT_EV, "zhuangyuan=1", "--step", "zhuangyuan=1")
    allot.answer(MQTT_EV, "Z1", 0, {}, first=True)
    for b in ("Z2", "Z4", "Z5"):
        deskkit.bowl(b, SECRET)
    t = lambda b, leaf: outbox.topic(MQTT_EV, b, leaf)  # noqa: E731
    s = lambda b, leaf, body, secret=SECRET: (t(b, leaf), deskkit.sealed(secret, t(b, leaf), body))  # noqa: E731
    good = lambda n: s("Z1", "award", outbox.award_payload(900, n, "zhuangyuan", n))  # noqa: E731
    sent = [s("Z1", "award", outbox.award_payload(1, 5, "yixiu", 1), OTHER),  # forged: another secret's seal
            s("Z1", "award", outbox.award_payload(1, 6, "yixiu", 1), OTHER),  # again: one row, counted
            s("Z2", "award", b"{not json}"), s("NOPE", "award", outbox.award_payload(1, 1, "yixiu", 1)),
            s("Z5", "status", b'{"v":2}'),
            s("Z5", "ask", b'{"v":2,"s":0,"left":[["bogus",0]]}'), s("Z4", "ask", b'{"v":2,"s":9,"left":[]}'),
            s("Z5", "final", b'{"v":2,"id":1,"n":4,"round":1,"turn":0,"ev":0,"win":0}'),
            s("Z2", "champion", b"{}"),
            good(1), good(2)]  # the 2nd 状元: beyond its grant of 1
    results = [deskkit.receive(MQTT_EV, topic, payload)[0] for topic, payload in sent]
    assert results == ["refused"] * 9 + ["award", "refused"], results
    mqttlog.flush()


def test_mqtt_refusals_and_the_bowls_note_are_said_in_the_page_language():
    _some_data()
    _mqtt_refusals()
    zh = client().get("/mqtt").content.decode()
    for said in ("封印不是碗 Z1 的", "同样的还有 1 条", "不是有效的中奖消息", "兑奖台不认识碗 NOPE",
                 "不是有效的状态消息", "奖项 bogus 不是固件的奖项", "补货请求被拒绝", "不是决赛用的碗",
                 "不是有效的状元消息"):
        assert said in zh, said
    assert "超出发放额度" in client().get("/bowls?event=" + MQTT_EV).content.decode()
    en = client("en").get("/mqtt").content.decode()
    assert "its seal is not bowl Z1&#x27;s" in en and "(and 1 more like it)" in en
    assert "not a valid award message: payload is not JSON" in en  # the firmware's own detail, in English
    assert "beyond its grant of 1" in client("en").get("/bowls?event=" + MQTT_EV).content.decode()


def test_every_page_is_chinese_with_no_english_sentence_left():
    _some_data()
    _mqtt_refusals()  # the MQTT page with refusals of every kind on it, the Bowls page with its note
    st = GameState("kiosk", [["zhuangyuan", 2], ["yixiu", 9]], [["zhuangyuan", 1], ["yixiu", 4]], 8, 30, False)
    ingest("Z1", 7, [], st)
    c = client()
    for url in ("/", "/import", "/mqtt", "/stock", "/forecast?bowl=Z1", "/bowls", "/final", "/logout", "/nothing-here",
                "/forecast?bowl=nobody"):
        page = c.get(url).content.decode()
        left = english_left(page)
        assert not left, (url, left)
    page = c.post("/check", {"code": "ZZZZZZZZ"}).content.decode()
    assert "兑奖台还没有这个领奖码的奖" in page and not english_left(page)
    page = Client().get("/login").content.decode()
    assert not english_left(page), english_left(page)


def test_the_catalogue_is_complete_and_its_mo_is_compiled_from_it():
    with open(PO, encoding="utf-8") as f:
        po = f.read()
    ids = []
    for block in po.split("\n\n")[1:]:
        m = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        if m:
            ids.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))).encode().decode("unicode_escape")
                       .encode("latin1").decode("utf-8"))
    assert len(ids) > 150
    with open(PO[:-3] + ".mo", "rb") as f:
        mo = gettext.GNUTranslations(f)
    for msgid in ids:
        assert mo._catalog.get(msgid) or mo._catalog.get((msgid, 0)), "not translated or .mo stale: %r" % msgid


def test_error_pages_are_styled_and_translated():
    c = client()
    r = c.get("/no/such/page")
    page = r.content.decode()
    assert r.status_code == 404 and "找不到页面" in page and "<header>" in page and "回到兑奖页" in page
    r = client("en").get("/no/such/page")
    assert "Not found" in r.content.decode()
    from django.test import RequestFactory
    from django.utils import translation
    from django.views.defaults import server_error
    with translation.override("zh-hans"):
        r = server_error(RequestFactory().get("/"))
    assert r.status_code == 500 and "出错了" in r.content.decode() and "<header>" in r.content.decode()


def test_get_logout_asks_and_the_form_logs_out():
    c = client()
    r = c.get("/logout")
    page = r.content.decode()
    assert r.status_code == 200 and 'id="logout-confirm"' in page and "退出" in page
    assert c.get("/").status_code == 200  # asking logged nobody out
    r = c.post("/logout")
    assert r.status_code == 302 and c.get("/").status_code == 302  # now logged out: to the login


def test_the_csv_has_a_bom_and_the_class_names_in_the_page_language():
    shown = _some_data()
    c = client()
    g, n, cls, code = shown[0]
    assert c.post("/redeem", {"code": code, "bowl": "Z1", "game": g, "award": n, "cls": cls}).status_code in (200, 409)
    raw = c.get("/report.csv").content
    assert raw.startswith(b"\xef\xbb\xbf")
    lines = raw.decode("utf-8-sig").splitlines()
    assert lines[0] == "时间,bowl,game,award,class,class id,attendant".replace(
        "bowl", "碗").replace("game", "局").replace("award", "奖号").replace("class id", "奖级代号").replace(
        "class", "奖级").replace("attendant", "兑奖员")
    from host_sim.desk.forms import class_names
    assert any(",Z1,%d,%d,%s,%s," % (g, n, class_names()[cls], cls) in line for line in lines[1:])


def test_messages_are_translated():
    c = client()
    page = c.post("/check", {"code": "ABCU1234"}).content.decode()
    assert "不是领奖码" in page
    r = c.get("/stock?day=yesterday", follow=True)
    assert "不是日期" in r.content.decode()
    from django.core.files.uploadedfile import SimpleUploadedFile
    r = c.post("/import", {"journal": SimpleUploadedFile("g00000001.bbj", b"hello")}, follow=True)
    assert "什么都没有导入" in r.content.decode()


def test_the_import_log_says_refusals_and_damage_in_chinese():
    """Before: the import log showed the desk's refusals and the firmware's damage texts in
    English only ("bowl 'nobody' is not known to the desk...", "...fails its checksum...")."""
    import pytest
    from django.core.files.uploadedfile import SimpleUploadedFile
    from host_sim.desk.ingest import Refused
    with pytest.raises(Refused, match="not known to the desk"):  # the log stays English
        ingest("nobody-zh", 1, [(1, "yixiu", 1)])
    deskkit.bowl("Z3", SECRET)
    path, _shown = deskkit.kiosk_game(os.path.join(FOLDER, "flash-Z3"), "Z3", SECRET, 20, 7)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[-3] ^= 0x55  # the last seal fails (bobing/seal.py): what it sealed is left out, and said
    c = client()
    r = c.post("/import", {"journal": SimpleUploadedFile("g00000001.bbj", bytes(data))}, follow=True)
    page = r.content.decode()
    assert "兑奖台不认识碗 'nobody-zh'" in text_of(page) and "之后的封印不符：已损坏" in text_of(page)
    assert "<code>python -m host_sim.desk addbowl nobody-zh" in page
    assert not english_left(page), english_left(page)
    # a journal cut short: the kind of damage in the page's language (the host's tools' table)
    r = c.post("/import", {"journal": SimpleUploadedFile("g00000001.bbj", bytes(data[:8]))}, follow=True)
    assert "（记录不完整）" in text_of(r.content.decode()), text_of(r.content.decode())[-600:]
    en = text_of(client("en").get("/import").content.decode())
    assert "bowl 'nobody-zh' is not known to the desk" in en and "fails its seal" in en
    assert "(a record cut short)" in en and "记录不完整" not in en


def ascii_marks_in_chinese(page):
    """ASCII commas, full stops, colons or semicolons touching Chinese text a page shows."""
    return [m.group(0) for m in re.finditer(r"[\u4e00-\u9fff][,.;:!?]|[,.;:!?] ?[\u4e00-\u9fff]", text_of(page))]


def test_chinese_pages_use_chinese_punctuation_and_one_name_for_the_counter():
    """Before: "已导入 3 份日志, 1 份被拒绝." and the like, where the page joined its
    translated parts with English marks; and 兑奖台 / 服务台 / 奖台 for one counter."""
    from host_sim.desk import shakegrants
    _some_data()
    _mqtt_refusals()
    st = GameState("kiosk", [["zhuangyuan", 2], ["yixiu", 9]], [["zhuangyuan", 1], ["yixiu", 4]], 8, 30, False)
    ingest("Z1", 7, [], st)
    c = client()
    from django.core.files.uploadedfile import SimpleUploadedFile
    c.post("/import", {"journal": SimpleUploadedFile("g00000009.bbj", b"not a journal")})
    g = shakegrants.grant("li", "punct", "Z1", 2, "R-77")
    shakegrants.acked("punct", "bobing/punct/Z1/shaken", __import__("bobing.grants").grants.ack_payload(
        g.gid, "no", "not in a kiosk game"))
    for url in ("/", "/import", "/mqtt", "/stock", "/forecast?bowl=Z1", "/bowls", "/final", "/shakes", "/fair",
                "/nothing-here"):
        page = c.get(url).content.decode()
        assert not ascii_marks_in_chinese(page), (url, ascii_marks_in_chinese(page))
        assert "服务台" not in text_of(page) and not re.search(r"(?<!兑)奖台", text_of(page)), url
    with open(PO, encoding="utf-8") as f:
        po = f.read()
    po = po.replace('"\n"', "")  # a msgstr's lines joined
    assert "服务台" not in po and not re.search(r"(?<!兑)奖台", po)
    en = client("en").get("/import").content.decode()
    assert re.search(r"journal uploads? so far, \d+ refused\.", text_of(en).replace("\n", " ")), text_of(en)[:2000]
