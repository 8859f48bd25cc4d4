"""状元王中王 from the bowls to the desk's final page, end to end on a real
mosquitto: two table bowls and the final's bowl, each the whole app on the
32-bit frozen MicroPython unix port (tests/test_final_mqtt.py), the desk's
listener (host_sim/desk/bus.py) storing what they report, the page listing the
table champions, drawing their order, and showing the final's rolls and winner;
a bowl booting again re-sends the final's rolls, each kept once; bad messages
are refused into the import log."""
import subprocess

import deskkit
from mqtt_broker import need_broker
from mqttkit import EVENT, NONE, SECRET, SIHONG_12, SIHONG_13, app_flash, run_app

from bobing import final_play as F
from bobing import game, journal


from django.test import Client

from host_sim.desk.models import Champion, Final, Import

WUZI = (2, 2, 2, 2, 2, 5)


def _table(root, rolls):
    j = journal.start(str(root), "xiamen", None, 4)
    j.play(game.EV_START_SEAT, 1)
    for d in rolls:
        j.play(game.EV_ROLL, d)
    j.close()


def _login():
    deskkit.attendant("mc")
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username="mc", password=deskkit.PASSWORD)
    return c


@need_broker
def test_champions_and_the_final_on_the_desk_page(mp_built, broker, listener, tmp_path):
    Champion.objects.all().delete()  # another file's final (the counter's draw test) shares the desk
    for b in ("0101", "0102", "0109"):
        deskkit.bowl(b, SECRET)
    listener.start()
    t1 = app_flash(tmp_path, "t1", "0101", broker.port)
    _table(t1, (NONE, NONE, SIHONG_12, NONE))  # seat 3 holds the 状元
    t2 = app_flash(tmp_path, "t2", "0102", broker.port)
    _table(t2, (WUZI, NONE))  # seat 1's 五子
    out = run_app(t1) + run_app(t2)
    assert listener.wait(2, skip=("status",)).count("champion") == 2, (listener.results, out)
    c = _login()
    page = c.get("/final").content.decode()
    assert "0101" in page and "0102" in page and "四红 sihong" in page and "五子登科 wuzi" in page
    c.post("/final/draw", {"playing_ok": "1"})  # the final's bowl not named: nothing drawn
    assert not Champion.objects.exclude(final_no=None).exists()
    assert c.post("/final/draw", {"playing_ok": "1", "bowl": "0109"}).status_code == 302
    order = {x.bowl.bowl_id: x.final_no for x in Champion.objects.select_related("bowl")}
    assert sorted(order.values()) == [1, 2], order
    by_no = {n: b for b, n in order.items()}
    seat = {"0101": 3, "0102": 1}

    # the final on bowl 0109: champion 1 and 2 tie, then champion 2 wins; a power cut after 3 rolls
    t9 = app_flash(tmp_path, "t9", "0109", broker.port)
    events = [(game.EV_ROLL, d) for d in (SIHONG_12, SIHONG_12, NONE, SIHONG_13)]
    with open(str(t9 / F.FILE), "wb") as f:
        f.write(F.encode(321, 2, "xiamen", events[:3]))
    run_app(t9)
    with open(str(t9 / F.FILE), "wb") as f:
        f.write(F.encode(321, 2, "xiamen", events))
    run_app(t9)
    # the cut run's 3 rolls and its final, then the 4 rolls and the final of the run after it (a count
    # the listener never reached waited out its 20 s)
    assert listener.wait(3 + 1 + 4 + 1, skip=("status", "champion")) == ["finalroll"] * 3 + ["final"] + [
        "finalroll"] * 4 + ["final"]
    f = Final.objects.get(fid=321)
    assert (f.players, f.events, f.winner, f.dice, f.rank) == (2, 4, 2, list(SIHONG_13), "sihong")
    assert sorted(f.rolls, key=int) == ["1", "2", "3", "4"] and f.rolls["4"] == [2, 2, list(SIHONG_13), "sihong"]
    page = c.get("/final").content.decode()
    assert 'id="winner"' in page and "champion 2 (%s seat %d)" % (by_no[2], seat[by_no[2]]) in page, page
    assert page.count("<tr><td>") >= 4 and 'id="draw"' not in page  # the order is fixed now
    r = c.post("/final/draw", follow=True)
    assert "under way" in r.content.decode()
    finals = {x.bowl.bowl_id: x.final_no for x in Champion.objects.select_related("bowl")}
    assert finals == dict(order, **{"0109": None})

    # bad messages: refused into the import log, the listener goes on
    before = Import.objects.filter(source="mqtt").count()
    late = ("status",)  # (a bowl's last status may still come in: it is not one of these five)
    n = len(listener.wait(0, skip=late))
    for topic, payload in (("bobing/%s/0101/champion" % EVENT, b'{"v":2,"g":1,"seat":99,"end":0}'),
                           ("bobing/%s/0109/finalroll" % EVENT, b'{"v":2,"id":321,"i":5,"k":1,"r":2}'),
                           ("bobing/%s/nobody/final" % EVENT,
                            b'{"v":2,"id":1,"n":2,"round":1,"turn":1,"ev":0,"win":0}'),
                           # a table's bowl (not the final's) publishing a final: before, a false winner
                           ("bobing/%s/0101/final" % EVENT,
                            b'{"v":2,"id":5,"n":2,"round":1,"turn":0,"ev":1,"win":1,"dice":[4,4,4,4,4,4],'
                            b'"rank":"liubohong"}'),
                           ("bobing/%s/0101/finalroll" % EVENT,
                            b'{"v":2,"id":5,"i":1,"k":1,"r":1,"dice":[4,4,4,4,4,4],"rank":"liubohong"}')):
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", "1", "-t", topic, "-s"],
                       input=deskkit.sealed(SECRET, topic, payload), check=True, timeout=10)
    assert listener.wait(n + 5, skip=late)[n:] == ["refused"] * 5
    assert Import.objects.filter(source="mqtt").count() - before == 5
    assert not Final.objects.filter(bowl__bowl_id="0101").exists()
    assert "not the final's bowl" in Import.objects.filter(source="mqtt").order_by("-id").first().message
    assert Final.objects.get(fid=321).rolls == f.rolls and Champion.objects.get(bowl__bowl_id="0101").seat == 3


def test_the_final_page_needs_a_login_and_a_draw_needs_champions():
    assert Client().get("/final").status_code == 302
    assert Client().post("/final/draw").status_code == 302  # to the login, nothing drawn
    Champion.objects.all().delete()
    Final.objects.all().delete()
    c = _login()
    r = c.post("/final/draw", follow=True)
    assert "No table has reported a 状元 yet" in r.content.decode()
    assert "no table has reported yet" in c.get("/final").content.decode()
