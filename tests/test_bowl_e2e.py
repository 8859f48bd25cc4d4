# micropython: -X heapsize=320K; frozen: -X heapsize=68K
# The whole bowl without hardware: bowl/app.py on host_sim/portable/fakes/bowl.py (board.py's
# bring-up on the simulated ESP32, the real MPU6050 driver on the
# register-checked fake chip replaying a recorded shake trace, the real display driver
# (bowl/oled.py over micropython-lib's ssd1306) on a fake SSD1306 controller, a fake ring,
# buttons and watchdog), playing a
# complete 10-seat default game to its end by shakes alone, then a power cut,
# and the game read back from the journal. Runs on CPython and on both 32-bit
# unix ports (tests/test_micropython.py); there it prints the heap figures (see
# the report in the test's output).
#
# Heap: on the frozen build (firmware and simulated hardware frozen in, as the bowl holds its
# code in flash) the game passes in 63K (68K for a margin). Of the live heap after its boot
# (bench/app_heap.py's split, measured 2026-12-02) ~30.5K is the bowl's own (its imports 22.1K,
# the display's and accelerometer's drivers 1.5K, the app's boot 6.9K) and ~23.3K the test's,
# which a bowl does not carry: the simulated ESP32 (host_sim/portable/fakes: 13.9K imported,
# its parts 5.3K, the machine objects board.py makes on it 1.1K) and this module with
# tests/bowlrun.py compiled into the heap (3.0K); the ESP32 port's initial GC heap is 56K
# (MicroPython v1.28.0 ports/esp32/mpconfigport.h, MICROPY_GC_INITIAL_HEAP_SIZE); that port also
# sets MICROPY_GC_SPLIT_HEAP_AUTO, so a failed allocation adds a heap area from ESP-IDF's largest
# free block (py/gc.c gc_try_add_heap, ports/esp32/gccollect.c gc_get_max_new_split) rather
# than failing at 56K.
# The power cut drops the test's hold on the old game's table: a bowl reboots
# into an empty heap (holding it left the reboot 4K short; copies of its pool and
# awards dicts, 64K against 63K with them held as bytes).
# The stock-firmware route loads the firmware as .mpy and compiles hal.py
# (with its simulated ESP32 and counted-CPU model, ~1,700 lines, as the fakes
# package) into the heap: at 256K that compile no longer finds its blocks, so
# the run has 320K. `make bench` (bench/app_heap.py) finds the smallest
# heap for each build.
import gc
import sys

from bobing import console as C
from bobing import game
from bowlrun import Stream, hal, live, new_root, play_to_end


def _standing(t):
    """The pool and every seat's prizes, class by class (each a count below 256), as bytes."""
    out = bytearray()
    for c in t.classes:
        out.append(t.pool[c])
        for s in range(1, t.seats + 1):
            out.append(t.awards[s][c])
    return bytes(out)


def test_whole_game_by_shakes_then_power_cut():
    figures = {"start": live()}
    root = new_root("game")
    sim = hal.Sim(root, urandom=Stream(7))
    figures["booted"] = live()
    assert sim.board.errors == []
    sim.step(200)
    assert sim.console.view == C.V_TURN and any(sim.frame), "no first frame"
    t = sim.console.table
    assert t.seats == 10 and not t.started
    rolls = play_to_end(sim, figures)
    t = sim.console.table
    assert t.ended and t.reason in game.REASONS
    assert sim.console.view == C.V_OVER
    for c in t.classes:  # prizes conserved
        awarded = 0
        for s in range(1, t.seats + 1):
            awarded += t.awards[s][c]
        assert awarded + t.pool[c] + t.grabbed[c] == t.initial[c]
    assert sim.board.disp.shows > rolls, "the display was not updated for every roll"
    assert sim.board.ring.writes > rolls and sim.board.wdt.feeds > 0
    assert sim.resets == [] and not sim.asleep
    # what the game stands at, held through the reboot as bytes (copies of the table's dicts
    # would be ~1.2K of the test's in the heap the bowl boots again in)
    stands, events, holder = _standing(t), t.events, t.holder
    last = sim.console.out
    last = (last.dice[:], last.rank, last.won[:])
    # a power cut wipes the RAM: nothing of the old game may stay alive in the test either
    # (the bowl boots again in the same heap, which on the bowl would be empty)
    t = None
    figures["end"] = live()

    # pull the plug: the bowl comes back with the same finished game from flash
    sim.power_cut()
    sim.step(100)
    t2 = sim.console.table
    assert sim.resets == ["power"] and sim.boots == 2
    assert t2.ended and t2.events == events and t2.holder == holder and _standing(t2) == stands
    # the last roll, seen just before the cut, is shown again as it stands
    assert sim.console.view == C.V_RESULT and sim.console.out.dice == last[0]
    assert sim.console.out.rank == last[1] and sim.console.out.won == last[2]
    while sim.console.view == C.V_RESULT:
        sim.press("ok")
        sim.step(150)
    assert sim.console.view == C.V_OVER

    if sys.implementation.name == "micropython":
        import micropython
        print("bowl e2e on the unix port: %d rolls, %d events, ended by %s" % (rolls, events, t2.reason))
        print("heap: before the app %d B; after boot (firmware .mpy + hal + fakes loaded) %d B; "
              "live high-water while playing %d B; at the end %d B; heap %d B"
              % (figures["start"], figures["booted"], figures["live_max"], figures["end"],
                 gc.mem_alloc() + gc.mem_free()))
        print("game working set (live high-water - after boot): %d B" % (figures["live_max"] - figures["booted"]))
        micropython.mem_info()

