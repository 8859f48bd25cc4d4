# Runs only on the MicroPython unix port: the roll path allocates nothing.
import micropython

from bobing import rules


def test_evaluate_allocates_nothing():
    r = rules.Rules()
    rolls = [bytearray([4, 4, 4, 4, 1, 1]), bytearray([1, 2, 3, 4, 5, 6]), bytearray([5, 5, 5, 5, 5, 4]),
             bytearray([2, 2, 2, 2, 4, 4]), bytearray([6, 6, 6, 6, 6, 6]), bytearray([1, 1, 2, 3, 5, 6])]
    r.evaluate(rolls[0])  # warm up
    micropython.heap_lock()
    try:
        acc = 0
        for roll in rolls:
            v = r.evaluate(roll)
            acc += rules.rank_of(v) + rules.bonus_of(v) + rules.key_of(v)
        # a list/tuple roll works the same without allocating
        acc += r.evaluate(rolls[1])
    finally:
        micropython.heap_unlock()
    assert acc > 0


def test_heap_lock_is_real():
    # guard against a heap_lock that does nothing: allocating under it must fail
    micropython.heap_lock()
    try:
        try:
            x = [1, 2, 3] * 10
            ok = False
        except MemoryError:
            ok = True
    finally:
        micropython.heap_unlock()
    assert ok
