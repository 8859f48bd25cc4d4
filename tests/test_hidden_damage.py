# micropython: yes
# Damage the checkpoint hides: a boot replays only the records after the
# game's checkpoint, so a flipped bit in a record before it is not seen there.
# The bowl checks those records a few a step after the boot
# (journal.Journal.check_step, from the console's tick) and mends one flipped
# bit on flash; the outbox reads through one flipped bit and, past worse
# damage, goes on from the checkpoint, saying which awards it cannot read back:
# it never stops sending for good at a damaged record.
from bobing import journal, outbox
from ramflash import fresh_root
from outboxkit import BOWL, EVENT, SECRET, all_awards, drain, kiosk_events, write_game

N = 300  # events of the kiosk game
CK = 260  # its checkpoint covers records 0..CK-1
BAD = 10  # the damaged record


def _game():
    root = fresh_root(blocks=24)
    write_game(root, journal.Config("kiosk", None, 1, {"yixiu": 20000}, BOWL, 1), kiosk_events(7, N), ck_at=CK)
    return root, journal.path_of(root, 1)


def _flip(path, index, masks):
    """XOR masks into record `index`'s bytes (bit flips as flash damage makes them)."""
    with open(path, "rb") as f:
        b = bytearray(f.read())
    at = len(b) - N * journal.RECORD + index * journal.RECORD
    for k, m in enumerate(masks):
        b[at + k] ^= m
    with open(path, "wb") as f:
        f.write(b)


def _check_all(j):
    """check_step until it has nothing left -> (problems, steps)."""
    out = []
    steps = 0
    while steps < N:
        p = j.check_step()
        steps += 1
        if p is not None:
            out.append(p)
        if j._chk >= j._chk_end:
            break
    return out, steps


def test_one_flipped_bit_before_the_checkpoint_is_found_mended_and_every_award_sent():
    root, path = _game()
    want = all_awards(root)
    _flip(path, BAD, (0, 0x04))
    r = journal.recover(root, SECRET)
    assert not r.problems and r.journal.count == N  # the boot does not see it (it replays from the checkpoint)
    sent = drain(root, outbox.Outbox(root, EVENT))[0]
    assert sent == want and len(want) > 10, (len(sent), len(want))  # none stalled behind the flipped bit
    problems, steps = _check_all(r.journal)
    assert steps <= CK // 16 + 1
    assert [(p.code, p.record) for p in problems] == [(journal.BAD_CHECKSUM, BAD)], problems
    assert "mended" in problems[0].text
    r.journal.close()
    s = journal.scan(path, 1, SECRET)  # the whole game reads again, as it was written
    assert s.problem is None and s.count == N


def test_worse_damage_is_reported_and_the_outbox_goes_on_from_the_checkpoint():
    root, path = _game()
    want = all_awards(root)
    _flip(path, BAD, (0, 0x05))  # two bits: no single mend
    r = journal.recover(root, SECRET)
    assert not r.problems
    problems = _check_all(r.journal)[0]
    assert [(p.code, p.record) for p in problems] == [(journal.BAD_CHECKSUM, BAD)]
    assert "goes on from the checkpoint" in problems[0].text
    r.journal.close()
    box = outbox.Outbox(root, EVENT)
    sent, worst, calls = drain(root, box)
    # the awards before the damage, then every one after the checkpoint: the sending never stops for good
    s = journal.scan(path, 1, SECRET)
    before = s.table.award_no
    c = journal.scan(path, 1, SECRET, checkpoint=True, limit=0)
    after_ck = c.table.award_no
    assert sent == [a for a in want if a[1] <= before or a[1] > after_ck]
    assert len(sent) > before
    assert len(box.notes) == 1 and "awards %d..%d cannot be read back" % (before + 1, after_ck) in box.notes[0]
    # the game goes on, and its new awards are sent too
    j = journal.recover(root, SECRET).journal
    a0 = j.table.award_no
    for e in kiosk_events(8, 60):
        try:
            j.play(*e)
        except ValueError:
            pass  # the generator's own table is not this one: an event out of turn is refused
    a1 = j.table.award_no
    j.close()
    more = drain(root, box, [])[0]
    assert a1 > a0 and more == [(1, k) for k in range(a0 + 1, a1 + 1)], (a0, a1, more)


def test_the_console_finds_it_after_the_boot_and_says_so():
    from bobing import console as C
    from bobing import vocab
    root, path = _game()
    _flip(path, BAD, (0, 0, 0x10))
    c = C.Console(root, 1000, lambda k: bytes(k), has_sensor=False)
    assert not [line for line in c.log if "record %d" % BAD in line]  # the boot does not see it
    for k in range(CK // 16 + 2):
        c.tick(1000 + 20 * k)
    said = [line for line in c.log if "record %d" % BAD in line]
    assert len(said) == 1 and "mended" in said[0], c.log
    said = (C.N_JOURNAL, vocab.J_IN_PLAY)  # its own words: nothing was set aside (tests/test_journal_notices.py)
    assert said in c._notices or c.view == C.V_NOTICE and c.arg == said, (c._notices, c.arg)
    s = journal.scan(path, 1, SECRET)
    assert s.problem is None and s.count >= N
