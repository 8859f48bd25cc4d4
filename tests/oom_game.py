# Played by tests/test_oom_heaps.py on the frozen unix build at one -X heapsize: a fresh bowl
# boots and plays ROLLS rolls of one game by shakes. Out of memory anywhere in a round makes
# the app say so and restart into the same game (fakes' machine.reset: the same heap here,
# harder than the bowl's fresh one); a boot that finds no memory is the watchdog's reset
# (bowl.app.main), redone here. Prints "booted 0|1", then "events N game G restarts R".
#   micropython -X heapsize=56K tests/oom_game.py ROOT ROLLS [net]
# net: the bowl is provisioned (net.txt) and its network task runs beside the game against
# fakes/wlan.py's radio and in-memory broker: out of memory may then strike in that task too.
import gc
import sys

sys.path.insert(0, "tests")
sys.path.append("host_sim/portable")
sys.path.append(".")  # host_sim.portable.fakes

from bowlrun import Stream, hal

from bobing import console as C


def main(root, rolls, with_net=False):
    air = None
    try:  # (the simulated radio and broker live in this heap too: short of it, no boot)
        if with_net:
            from host_sim.portable.fakes import wlan as fake_wlan
            with open(root + "/net.txt", "w") as f:
                f.write("ssid=mall\npassword=secret123\ntls=off\nbroker=10.0.0.2\nevent=e\nstock=bowl\n")
            br = fake_wlan.FakeBroker()
            br.retain("bobing/e/desk/status", b'{"v":2,"on":1}')
            air = fake_wlan.Air({"mall": "secret123"}, broker=br)
        sim = hal.Sim(root, urandom=Stream(7), air=air)
    except MemoryError:
        print("booted 0")
        return
    print("booted 1")
    boots = 0
    game = sim.console.j.path
    for _ in range(rolls * 3):
        try:
            if sim.console is None:  # a restart that has not come back yet
                raise MemoryError("no console")
            if sim.console.table.events >= rolls or sim.console.table.ended:
                break
            while sim.console.view in (C.V_RESULT, C.V_CLAIM):
                sim.press("ok")
                sim.step(150)
            sim.shake()
            sim.run_until(lambda s: s.console.view == C.V_RESULT, 15000)
        except MemoryError:  # a boot short of memory: the watchdog resets the bowl
            boots += 1
            if boots > 20:
                break
            sim.app = None
            gc.collect()
            try:
                sim._start()
            except MemoryError:
                pass
    if with_net and sim.console is not None:
        try:  # the players rest: a connect starts only while nobody plays (bowl/net.py's quiet)
            sim.step(20000)
        except MemoryError:
            boots += 1
    for line in sim.log():
        if "out of memory" in line or line.startswith("net: connected"):
            print("said:", line)
    c = sim.console
    if c is None:  # no boot came back in this process's heap (a real reset starts a fresh one)
        print("no console after %d boots short of memory" % boots)
    else:
        print("view %d ended %s" % (c.view, c.table.ended))
    print("events %d game %s restarts %d" % (c.table.events if c else -1,
                                             "same" if c and c.j.path == game else "other",
                                             sim.resets.count("reset") + boots))


main(sys.argv[1], int(sys.argv[2]), sys.argv[3:] == ["net"])
