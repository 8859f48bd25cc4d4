# Runs only on the MicroPython unix port: the roll path allocates nothing.
import micropython

from bobing import profiles, rules

ROLLS = [bytearray([4, 4, 4, 4, 1, 1]), bytearray([1, 2, 3, 4, 5, 6]), bytearray([5, 5, 5, 5, 5, 4]),
         bytearray([2, 2, 2, 2, 4, 4]), bytearray([6, 6, 6, 6, 6, 6]), bytearray([1, 1, 2, 3, 5, 6]),
         bytearray([4, 4, 4, 4, 6, 3]), bytearray([2, 2, 2, 2, 2, 6]), bytearray([1, 1, 1, 1, 1, 1]),
         bytearray([4, 4, 4, 4, 4, 2])]


def evaluate_locked(r):
    r.evaluate(ROLLS[0])  # warm up
    micropython.heap_lock()
    try:
        acc = 0
        for roll in ROLLS:
            v = r.evaluate(roll)
            acc += rules.rank_of(v) + rules.bonus_of(v) + rules.key_of(v)
        # a list/tuple roll works the same without allocating
        acc += r.evaluate(ROLLS[1])
    finally:
        micropython.heap_unlock()
    return acc


def test_evaluate_allocates_nothing():
    assert evaluate_locked(rules.Rules()) > 0


def test_every_rank_option_value_allocates_nothing():
    # each value of every option that changes the ranking (RULES.md §1-3, §9), one at a time
    n = 0
    for name in profiles.RANK_OPTIONS:
        allowed = profiles.option(name)[1]
        for v in (allowed[1] if allowed[0] == "+" else allowed):
            assert evaluate_locked(rules.Rules(profiles.Profile("xiamen", {name: v}))) > 0, (name, v)
            n += 1
    assert n >= 20


def test_heap_lock_is_real():
    # guard against a heap_lock that does nothing: allocating under it must fail
    micropython.heap_lock()
    try:
        try:
            x = [1, 2, 3] * 10  # noqa: F841 (the allocation is the test)
            ok = False
        except MemoryError:
            ok = True
    finally:
        micropython.heap_unlock()
    assert ok
