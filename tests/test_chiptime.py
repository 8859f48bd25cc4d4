# What the simulated clock charges for flash and the radio (host_sim/portable/fakes/
# chiptime.py): every littlefs commit -- the journal's flush after each record as
# well as a close -- at littlefs's programs and erases for the file's size, once;
# and the first radio start's RF calibration, once per bowl.
from bobing import store
from host_sim.portable.fakes import bowl as hal
from host_sim.portable.fakes import chiptime
from bowlrun import Stream


def board(tmp_path):
    b = hal.SimBoard(str(tmp_path), flash=True)
    return b, b.open_metered(open)


def clock_us(b):
    return b.ms * 1000 + b._us


def test_a_flushed_append_costs_its_commit_and_the_close_after_it_nothing(tmp_path):
    b, op = board(tmp_path)
    f = op(str(tmp_path / "g.bbj"), "wb")
    f.write(b"h" * 300)  # a header past littlefs's inline limit: a block of its own
    t0 = clock_us(b)
    store.fsync(f)  # as Journal.append commits
    assert clock_us(b) - t0 >= 45000, "the flush's commit was not charged"
    first = chiptime.commit_us(300, True)
    assert clock_us(b) - t0 == first and first >= chiptime.FLASH[1]  # the block's erase
    f.write(b"r" * 6)  # one record
    t1 = clock_us(b)
    store.fsync(f)
    assert clock_us(b) - t1 == chiptime.commit_us(306, False)
    assert chiptime.commit_cost(306, False) == (4, 1)  # the last block copied: 306 B in 128-byte programs, + 1
    t2 = clock_us(b)
    f.close()  # nothing written since the flush: nothing to commit
    assert clock_us(b) == t2
    assert b.flash_writes == 2


def test_a_small_file_stays_inline_and_erases_nothing(tmp_path, monkeypatch):
    b, op = board(tmp_path)
    monkeypatch.setattr("builtins.open", op)  # as the simulator meters the firmware's files
    t0 = clock_us(b)
    store.write_whole(str(tmp_path / "s.txt"), str(tmp_path / "s.tmp"), [b"x" * 100])
    assert clock_us(b) - t0 == 2 * chiptime.FLASH[0]
    assert chiptime.commit_cost(128, True) == (2, 0) and chiptime.commit_cost(129, True)[1] == 1


def test_the_budget_switches_to_the_datasheet_maxima():
    p, e = chiptime.commit_cost(2000, False)
    assert (p, e) == (17, 1)
    assert chiptime.commit_us(2000, False) == 17 * 700 + 45000  # GD25Q32C tPP typ, W25Q32JV tSE typ
    try:
        chiptime.FLASH[:] = chiptime.FLASH_MAX
        assert chiptime.commit_us(2000, False) == 17 * 3000 + 400000  # W25Q32JV maxima
    finally:
        chiptime.FLASH[:] = chiptime.FLASH_TYP


def test_the_first_radio_start_pays_the_rf_calibration_once(tmp_path):
    sim = hal.Sim(str(tmp_path), urandom=Stream(1))
    esp = sim.board.esp
    assert esp.rf_calibrated  # a new bowl drew its claim secret with the radio on at its first boot
    t0 = clock_us(sim.board)
    sim.board.strong_random(16)  # later starts: no full calibration
    assert clock_us(sim.board) - t0 < chiptime.RF_FULL_CAL_US
    fresh = hal.SimBoard(str(tmp_path / "other"))
    t1 = clock_us(fresh)
    fresh.esp.active(True)
    assert clock_us(fresh) - t1 == chiptime.RF_FULL_CAL_US
