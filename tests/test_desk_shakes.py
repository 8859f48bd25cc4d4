"""Shakes granted at the counter, the desk's side (host_sim/desk/shakegrants.py,
views.shakes_page, bus.handle; firmware/PROTOCOL.md "Shakes from the counter"):
the page's form in Chinese and English, the record of grants, what the listener
publishes (signed so that the bowl's own decoder takes it), one grant at a time
per bowl, and the bowl's answers moving it on. Django's test client on SQLite."""
import deskkit


from django.test import Client

from bobing import grants
from host_sim.desk import bus, shakegrants
from host_sim.desk.models import ShakeGrant

SECRET = bytes(range(5, 21))
EV = "shakefest"


def _client(lang=None):
    deskkit.attendant("wang")
    c = Client(HTTP_ACCEPT_LANGUAGE=lang) if lang else Client()
    assert c.login(username="wang", password=deskkit.PASSWORD)
    return c


def _answer(bowl, gid, st, why=""):
    return bus.handle(EV, "bobing/%s/%s/shaken" % (EV, bowl), grants.ack_payload(gid, st, why))


def test_the_counter_grants_shakes_and_sees_the_bowl_answer():
    deskkit.bowl("3F-1", SECRET)
    deskkit.bowl("3F-2", SECRET[::-1])
    ShakeGrant.objects.all().delete()
    c = _client()
    page = c.get("/shakes").content.decode()
    assert "给碗发放摇碗次数" in page and "摇碗次数" in page and "小票号或备注" in page and "还没有发放过" in page
    r = c.post("/shakes", {"event": EV, "bowl": "3F-1", "shakes": 3, "ref": "R-1001"}, follow=True)
    page = r.content.decode()
    assert "已给碗 3F-1 发放 3 次摇碗" in page and "等待发送" in page and "R-1001" in page and "wang" in page
    c.post("/shakes", {"event": EV, "bowl": "3F-1", "shakes": 2, "ref": "R-1002"})
    c.post("/shakes", {"event": EV, "bowl": "3F-2", "shakes": 1, "ref": "R-1003"})
    # refused by the form: no bowl, too many shakes, a quote in the reference
    for bad in ({"event": EV, "bowl": "9Z", "shakes": 3}, {"event": EV, "bowl": "3F-1", "shakes": 100},
                {"event": EV, "bowl": "3F-1", "shakes": 3, "ref": 'a"b'},
                {"event": "a/b", "bowl": "3F-1", "shakes": 1, "ref": "R-1"},
                {"event": EV, "bowl": "3F-1", "shakes": 1, "ref": " "}):  # no receipt
        assert c.post("/shakes", bad).status_code == 400, bad
    assert ShakeGrant.objects.count() == 3
    # the listener publishes (sealed, bus._publish) the oldest open grant of each bowl, whose body the
    # bowl's decoder takes
    out = shakegrants.to_publish(EV)
    got = {t: grants.decode(EV, t, p, t.split("/")[2]) for _pk, t, p in out}
    assert got == {"bobing/shakefest/3F-1/shakes": (1, 3, "R-1001"), "bobing/shakefest/3F-2/shakes": (1, 1, "R-1003")}
    shakegrants.published([pk for pk, _t, _p in out])
    assert shakegrants.to_publish(EV) == []  # sent: not again until the bowl answers
    assert len(shakegrants.to_publish(EV, again=True)) == 2  # a listener's start: again (retained)
    assert _answer("3F-1", 1, "got") == ("shaken", [])
    assert "碗已收到" in c.get("/shakes").content.decode()
    assert shakegrants.to_publish(EV) == []  # the next waits until this one is used
    assert _answer("3F-1", 1, "used") == ("shaken", [])
    nxt = shakegrants.to_publish(EV)
    assert [grants.decode(EV, t, p, "3F-1") for _pk, t, p in nxt] == [(2, 2, "R-1002")]
    _answer("3F-1", 1, "got")  # an old answer said again after a reconnect changes nothing
    assert ShakeGrant.objects.get(bowl__bowl_id="3F-1", gid=1).state == "used"
    _answer("3F-2", 1, "no", "this bowl is not in a kiosk game")
    # an answer for a grant this desk never made is refused into the import log
    assert _answer("3F-1", 9, "used")[0] == "refused"
    en = _client("en").get("/shakes").content.decode()
    assert "Grant shakes to a bowl" in en and "used: the customer shook" in en
    assert "refused by the bowl: this bowl is not in a kiosk game" in en
    zh = c.get("/shakes").content.decode()
    assert "已使用：顾客已摇碗" in zh and "被碗拒绝" in zh
    assert "发放摇碗次数" in c.get("/").content.decode()  # the counter page leads there


def test_a_receipt_is_granted_once_per_event_and_a_second_needs_a_supervisor():
    """Receipt R-88 granted by two attendants on two bowls three times: before, all three
    were accepted (9 shakes). Now the second and third are refused, naming the first grant."""
    from django.contrib.auth import get_user_model
    deskkit.bowl("0881", SECRET)
    deskkit.bowl("0882", SECRET[::-1])
    amy, _bob = _client("en"), None
    deskkit.attendant("bob88")
    bob = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert bob.login(username="bob88", password=deskkit.PASSWORD)
    assert amy.post("/shakes", {"event": "r88", "bowl": "0881", "shakes": 3, "ref": "R-88"}).status_code == 302
    for c, bowl, ref in ((bob, "0882", "R-88"), (amy, "0881", " r-88 "), (bob, "0881", "r-88")):
        r = c.post("/shakes", {"event": "r88", "bowl": bowl, "shakes": 3, "ref": ref}, follow=True)
        page = r.content.decode()
        assert "was already granted 3 shakes on bowl 0881 by wang" in page, page[-1500:]
        assert "needs a supervisor" in page
    assert ShakeGrant.objects.filter(event="r88").count() == 1
    assert bob.post("/shakes", {"event": "r89", "bowl": "0881", "shakes": 3, "ref": "R-88"}).status_code == 302
    # the tick: believed only from a supervisor, and the record says who allowed it
    r = bob.post("/shakes", {"event": "r88", "bowl": "0882", "shakes": 3, "ref": "R-88", "again": "on"})
    assert r.status_code == 400 and ShakeGrant.objects.filter(event="r88").count() == 1
    get_user_model().objects.filter(username="bob88").update(is_staff=True)
    assert 'name="again"' in bob.get("/shakes").content.decode()
    assert 'name="again"' not in amy.get("/shakes").content.decode()
    r = bob.post("/shakes", {"event": "r88", "bowl": "0882", "shakes": 3, "ref": "R-88", "again": "on"},
                 follow=True)
    assert "again, allowed by bob88" in r.content.decode()
    assert ShakeGrant.objects.filter(event="r88", again_by="bob88").count() == 1


def test_eight_counters_granting_one_receipt_at_the_same_moment_grant_it_once():
    import threading
    from django.db import connection
    for i in range(8):
        deskkit.bowl("%04d" % (890 + i), SECRET)
    go = threading.Barrier(8)
    got = []

    def one(i):
        try:
            go.wait()
            got.append(shakegrants.grant("c%d" % i, "race88", "%04d" % (890 + i), 3, "R-7"))
        except shakegrants.AlreadyGranted as e:
            got.append(e.first.by)
        finally:
            connection.close()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    granted = [g for g in got if isinstance(g, ShakeGrant)]
    assert len(got) == 8 and len(granted) == 1
    assert set(got) - set(granted) == {granted[0].by}  # the seven refusals name the one who granted
