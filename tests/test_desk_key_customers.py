"""The desk's Bowls page shows per bowl the customers the attendant's key let in
(from the bowl's imported journals, format 4) beside the customers on shakes granted
at the counter against a receipt: an attendant letting friends play shows. The
journal is the firmware's own (journal.py), played as the console plays it."""
import os
import random
import re

import deskkit

FOLDER = deskkit.folder()

from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from bobing import game, journal  # noqa: E402
from host_sim.desk.ingest import ingest_journal  # noqa: E402
from host_sim.desk.models import Game, ShakeGrant  # noqa: E402

SECRET = bytes(range(40, 56))


def _journal(who_minutes, bowl="0071"):
    """A kiosk game whose customers were let in by (who, minute) -> the journal's bytes and name."""
    root = os.path.join(FOLDER, "key-customers-" + bowl)
    os.makedirs(root, exist_ok=True)
    j = journal.start(root, "kiosk", None, 1, None, bowl, SECRET)
    rng = random.Random(4)
    for who, minute in who_minutes:
        j.play(game.EV_CUSTOMER, 3 if who == journal.BY_DESK else None, journal.customer_meta(who, minute))
        while j.table.shakes_left and not j.table.ended:
            j.play(game.EV_ROLL, tuple(rng.randint(1, 6) for _ in range(6)))
    j.close()
    with open(j.path, "rb") as f:
        return f.read(), os.path.basename(j.path)


def _row(lang, bowl="0071"):
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    assert c.login(username="kai", password=deskkit.PASSWORD)
    part = c.get("/bowls?part=1").content.decode()
    row = re.search(r'<tr id="bowl-%s">(.*?)</tr>' % bowl, part, re.S).group(1)
    return part, row


def test_the_bowls_page_shows_customers_by_key_beside_those_against_receipts():
    deskkit.bowl("0071", SECRET)
    deskkit.attendant("kai")
    data, name = _journal([(journal.BY_KEY, 0), (journal.BY_KEY, 4), (journal.BY_DESK, 6), (journal.BY_PIN, 7),
                           (journal.BY_KEY, 9)])
    r = ingest_journal(data, name)
    assert r.game_no == 1
    g = Game.objects.get(bowl__bowl_id="0071", game_no=1)
    assert (g.customers, g.by_key, g.key_minutes) == (5, 3, [0, 4, 9])
    ShakeGrant.objects.create(event="ev", bowl=g.bowl, gid=1, n=3, ref="R-881", by="kai", at=timezone.now(),
                              state="used")
    ShakeGrant.objects.create(event="ev", bowl=g.bowl, gid=2, n=3, ref="R-882", by="kai", at=timezone.now(),
                              state="sent")  # not used yet: no customer shook on it
    part, row = _row("en")
    assert "customers let in by the key" in part and "against receipts" in part
    key = re.search(r'<td[^>]*class="by-key"[^>]*>(.*?)</td>', row, re.S).group(1)
    assert key.startswith("3") and "last: game 1, minute 9" in key
    assert re.search(r'<td[^>]*class="by-receipt"[^>]*>(.*?)</td>', row, re.S).group(1) == "1"
    part, row = _row("zh-hans")  # Chinese first
    assert "钥匙放行的顾客" in part and "最近：第1局第9分钟" in row


def _key_cell(bowl):
    _part, row = _row("en", bowl)
    return re.search(r'<td[^>]*class="by-key"[^>]*>(.*?)</td>', row, re.S).group(1)


def test_customers_let_in_by_the_key_show_live_from_their_sealed_messages_and_count_once():
    from bobing import outbox, wire
    deskkit.bowl("0072", SECRET)
    deskkit.attendant("kai")
    t = "bobing/keyfest/0072/key"

    def sent(g, k, m, secret=SECRET):
        return deskkit.receive("keyfest", t, wire.seal(wire.key(secret), wire.FROM_BOWL, "keyfest", "0072", "key",
                                                       outbox.key_payload(g, k, m)))
    assert sent(1, 1, 0)[0] == "key" and sent(1, 2, 4)[0] == "key"
    cell = _key_cell("0072")
    assert cell.startswith("2") and "last: game 1, minute 4" in cell  # live: no journal imported yet
    assert sent(1, 2, 4)[0] == "known"  # replayed (or sent again after a reconnect): counted once
    assert sent(1, 3, 9, secret=bytes(range(16)))[0] == "refused"  # forged: another bowl's key
    assert _key_cell("0072").startswith("2")
    # the game's journal imported later holds the same customers and one more: never added twice
    data, name = _journal([(journal.BY_KEY, 0), (journal.BY_KEY, 4), (journal.BY_PIN, 6), (journal.BY_KEY, 9)],
                          "0072")
    ingest_journal(data, name)
    cell = _key_cell("0072")
    assert cell.startswith("3") and "last: game 1, minute 9" in cell
