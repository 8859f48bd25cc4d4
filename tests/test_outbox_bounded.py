# micropython: yes
# The outbox on the bowl's real terms: it runs beside the game loop after the
# watchdog has started, so no next() may hold the loop for long, whatever lies
# on flash -- thousands of finished family-game events (a table bowl then
# provisioned for an event) or a kiosk game's backlog of thousands of events.
# Each next() replays at most STEP records, and the awards still go out
# in order, each once. Its position is on flash: a table bowl's cursor moves
# past finished games with nothing to send, so a boot reads none of them again.
# The cursor file carries a checksum; a damaged one, or one past the newest
# game, counts as none (everything is sent again; the desk counts each once).
import sys

from bobing import journal, outbox
from outboxkit import BOWL, EVENT, SECRET, all_awards, drain, kiosk_events, table_events, write_game
from ramflash import fresh_root

MP = sys.implementation.name == "micropython"
STEP = getattr(outbox, "STEP", 64)  # records one next() may replay at most


def test_a_table_bowl_provisioned_for_an_event_is_read_in_bounded_steps():
    root = fresh_root(blocks=32 if MP else 24)
    ev = table_events(3)
    games = (1200 if MP else 8000) // len(ev) + 1
    for gid in range(1, games + 1):
        write_game(root, journal.Config("xiamen", None, 10, game_id=gid), ev)
    # then the bowl is provisioned for an event and plays kiosk
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, games + 1),
                kiosk_events(4, 200, games + 1))
    box = outbox.Outbox(root, EVENT)
    sent, worst, calls = drain(root, box)
    assert sent == all_awards(root) and len(sent) > 20, (len(sent), sent[:3])
    assert worst <= STEP, worst
    # the cursor moved past the family games: a boot reads none of them again
    assert outbox.read_cursor(root) == sent[-1]
    journal.start(root, "xiamen", None, 4).close()  # a new family game: nothing to send
    assert drain(root, box)[0] == []
    assert outbox.read_cursor(root) == (games + 2, 0)  # past the kiosk game, now finished
    n0 = journal.replayed()
    box = outbox.Outbox(root, EVENT)  # a reboot
    assert drain(root, box)[0] == []
    assert journal.replayed() == n0


def test_a_kiosk_backlog_is_caught_up_in_bounded_steps():
    root = fresh_root(blocks=24)
    n = 3000 if not MP else 1500
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(5, n),
                ck_at=n - 40)
    want = all_awards(root)
    outbox.write_cursor(root, 1, 1)  # the broker took award 1, then went away for the game
    box = outbox.Outbox(root, EVENT)
    sent, worst, calls = drain(root, box)
    assert sent == want[1:] and len(sent) > 300, len(sent)
    assert worst <= STEP, worst
    # a reboot half way: it goes on from the cursor, each award once
    outbox.write_cursor(root, *want[len(want) // 2])
    box = outbox.Outbox(root, EVENT)
    sent, worst, calls = drain(root, box)
    assert sent == want[len(want) // 2 + 1:] and worst <= STEP


def _cursor_bytes(root):
    with open(root + "/" + outbox.CURSOR, "rb") as f:
        return f.read()


def test_a_damaged_cursor_that_still_parses_skips_nothing():
    root = fresh_root()
    ev = kiosk_events(6, 300)
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), ev)
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 2), kiosk_events(7, 300, 2))
    want = all_awards(root)
    outbox.write_cursor(root, 1, 3)
    good = _cursor_bytes(root)
    damaged = 0
    for at in range(len(good)):
        for bit in range(8):
            b = bytearray(good)
            b[at] ^= 1 << bit
            with open(root + "/" + outbox.CURSOR, "wb") as f:
                f.write(b)
            c = outbox.read_cursor(root)
            if c != (1, 3):
                assert c == (0, 0), (bytes(b), c)  # damage reads as none: sent again, never skipped
                damaged += 1
    assert damaged == 8 * len(good)
    # a cursor past the newest game on flash is damage too
    outbox.write_cursor(root, 3, 1)
    assert outbox.read_cursor(root) == (0, 0)
    box = outbox.Outbox(root, EVENT)
    assert drain(root, box)[0] == want


def test_a_new_game_never_prunes_awards_the_broker_has_not_taken():
    root = fresh_root(blocks=40)
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(8, 300))
    with open(root + "/net.txt", "w") as f:  # provisioned for an event; the broker is down
        f.write("ssid=x\npassword=y\nbroker=10.0.0.2\nevent=%s\n" % EVENT)
    for g in range(2, 5):  # game after game, far over the budget for finished games
        # (the console tells the journal which games hold awards not yet sent: outbox.unsent_from)
        journal.start(root, "xiamen", None, 4, keep_bytes=0, unsent=outbox.unsent_from(root)).close()
        j = journal.start(root, "kiosk", None, 1, {"yixiu": 20000}, BOWL, SECRET, keep_bytes=0,
                          unsent=outbox.unsent_from(root))
        for kind, arg in kiosk_events(8 + g, 40, j.game_id):
            j.play(kind, arg)
        j.close()
    ids = journal.inventory(root)[0]
    assert 1 in ids and 3 in ids and 5 in ids, ids  # every kiosk game kept: its awards wait
    assert 2 not in ids and 4 not in ids, ids  # family games have nothing to send: pruned
    want = all_awards(root)
    box = outbox.Outbox(root, EVENT)  # the broker is back
    assert drain(root, box)[0] == want
    journal.start(root, "xiamen", None, 4, keep_bytes=0, unsent=outbox.unsent_from(root)).close()
    assert journal.inventory(root)[0][:-1] == [7], journal.inventory(root)[0]  # all sent: pruned as before


def test_a_backlog_sent_one_at_a_time_reads_each_step_once_and_holds_little():
    # the net task with nothing in flight asks next() with no award after: what a step read
    # is handed out before the journal is read further (a read per award made the drain
    # CPU-bound, bench/outbox_warm.py), and the awards waiting in RAM stay a step's worth,
    # never the game's
    root = fresh_root(blocks=24)
    n = 3000 if not MP else 1500
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(5, n))
    want = all_awards(root)
    box = outbox.Outbox(root, EVENT)
    sent, reads, held = [], 0, 0
    while True:
        n0 = journal.replayed()
        item = box.next()
        reads += journal.replayed() != n0
        if box._awards is not None:
            held = max(held, len(box._awards.out))
        if item is None:
            if box.busy:
                continue
            break
        sent.append((item[2], item[3]))
        box.sent(item[2], item[3], later=True)
    assert sent == want and len(sent) > 300, len(sent)
    assert reads <= n // STEP + 3, (reads, n // STEP)
    assert held <= STEP, held
