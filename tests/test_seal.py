# micropython: yes
# A kiosk journal's seals (bobing/seal.py): written by the journal as the game is
# played, resumed after a reboot, and checked with the bowl's secret: a journal
# made with another key, altered, or extended without the key fails; one cut
# short only leaves its tail unauthenticated. On the unix port in a real
# littlefs on a RAM block device.
from bobing import game, journal, seal
from journal_probes import read_file as _read
from journal_probes import write_file as _write
from ramflash import fresh_root

SECRET = b"bowl-secret-0123"
OTHER = b"forger-key-45678"
STOCK = {"zhuangyuan": 1, "yixiu": 40, "erju": 20}
ROLLS = [(4, 1, 2, 3, 5, 6), (1, 2, 2, 3, 5, 6), (4, 4, 1, 2, 3, 5), (2, 3, 5, 6, 6, 1), (4, 4, 4, 1, 2, 3)]


def _play(j, customers, at=0):
    for c in range(customers):
        if j.table.ended:
            return
        j.play(game.EV_CUSTOMER, None)
        k = 0
        while j.table.shakes_left and not j.table.ended:
            j.play(game.EV_ROLL, ROLLS[(at + c + k) % len(ROLLS)])
            k += 1


def _game(root, secret=SECRET, customers=8):
    j = journal.start(root, "kiosk", None, 1, STOCK, "S1", secret)
    _play(j, customers)
    j.close()
    return j


def test_a_kiosk_journal_is_sealed_and_checks_out():
    root = fresh_root("games")
    j = _game(root)
    data = _read(j.path)
    assert data[3] == journal.KEYED  # format 3's seals, with who let each customer in
    c = seal.verify(j.path, SECRET)
    assert c.end == len(data) and c.tail == 0 and c.bad is None and c.sealed == j.count
    # the game reads back as played: seals are no events
    s = journal.scan(j.path, j.game_id, SECRET)
    assert s.problem is None and s.count == j.count and s.table.events < j.count


def test_without_the_secret_nothing_checks_out():
    root = fresh_root("games")
    j = _game(root, OTHER)
    try:
        seal.verify(j.path, SECRET)
        raise AssertionError("a journal sealed with another key passed")
    except ValueError as e:
        assert "record 0" in str(e)


def test_an_altered_record_ends_what_is_authenticated():
    root = fresh_root("games")
    j = _game(root)
    good = _read(j.path)
    head = len(j.config.encode())
    whole = seal.verify(j.path, SECRET)
    # a roll's die changed (its CRC fixed as a forger would): the seal after it fails
    b = bytearray(good)
    at = head + 5 * journal.RECORD
    assert b[at] == game.EV_ROLL
    b[at + 1] ^= 1
    w = bytearray(12)
    journal.put32(w, 0, j.game_id)
    w[8:12] = b[at:at + 4]
    c = journal.record_crc(w, journal.crc16(w, 0, 4), 5)
    b[at + 4] = c & 255
    b[at + 5] = c >> 8
    _write(j.path, bytes(b))
    c = seal.verify(j.path, SECRET)
    assert c.bad is not None and c.sealed == journal.SEAL_SLOTS and c.end == head + journal.SEAL_SLOTS * journal.RECORD
    # records appended without the key (another key's seal after them): left out
    _write(j.path, good + bytes(good[head + 3 * journal.RECORD:head + 9 * journal.RECORD]))
    c = seal.verify(j.path, SECRET)
    assert c.end == len(good) and c.sealed == whole.sealed and (c.bad is not None or c.tail)
    # cut short inside the last seal: only the last customer's records are not authenticated
    _write(j.path, good[:-4])
    c = seal.verify(j.path, SECRET)
    assert c.bad is None and 0 < c.tail <= journal.SEAL_EVERY and c.end < len(good) - 4


def test_the_seals_go_on_after_a_reboot_and_old_formats_still_read():
    root = fresh_root("games")
    j = journal.start(root, "kiosk", None, 1, STOCK, "S1", SECRET)
    _play(j, 3)
    j.play(game.EV_CUSTOMER, None)
    j.play(game.EV_ROLL, ROLLS[0])  # a power cut in the middle of a customer's turn
    j.close()
    c = seal.verify(j.path, SECRET)
    assert c.tail == 2 and c.bad is None
    r = journal.recover(root, SECRET)
    assert not r.problems and not r.notes
    j = r.journal
    _play(j, 0)
    while j.table.shakes_left:
        j.play(game.EV_ROLL, ROLLS[1])
    _play(j, 2, 3)
    j.close()
    c = seal.verify(j.path, SECRET)
    assert c.tail == 0 and c.bad is None and c.end == len(_read(j.path))
    # a journal of older firmware (a game without the secret: format 1) reads as before
    root2 = fresh_root("old")
    o = journal.start(root2, "kiosk", None, 1, STOCK, "S1")
    _play(o, 3)
    o.close()
    assert _read(o.path)[3] == 1
    s = journal.scan(o.path, o.game_id, SECRET)
    assert s.problem is None and s.count == s.table.events
    try:
        seal.verify(o.path, SECRET)
        raise AssertionError("an unsealed journal passed")
    except ValueError as e:
        assert "no seals" in str(e)
