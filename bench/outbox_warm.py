# The outbox draining a kiosk backlog on a bowl that was already up (the warm case of
# bench/budget.py's backlog line, which starts from a cold boot): budget.py's kiosk backlog
# (3,000 events, 1,590 awards unsent), the bowl booted with its broker down (refusing: the
# publisher backs off, bowl/net.py BACKOFF_MS doubling to BACKOFF_MAX_MS) for DOWN_S, then the
# broker comes back. Prints, on the simulated ESP32 (bench/budget.py's counted work at the
# factor, TLS), when the bowl connected again and when the last award reached the broker,
# both from the broker's return, and the longest round meanwhile. Asserts nothing.
#   python bench/outbox_warm.py [DOWN_S [FACTOR]]     (default 60 s, budget.py's factor; its 1.5x: 157)
import gc
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import budget as B  # noqa: E402  (its paths and helpers; it puts the project on the path)


def main(argv):
    if argv and not argv[0].isdigit():
        sys.exit("outbox_warm: %r is not a number of seconds (the broker's time away)" % argv[0])
    if len(argv) > 1 and not argv[1].isdigit():
        sys.exit("outbox_warm: %r is not a CPU factor (a whole number, budget.py's is %d)" % (argv[1], B.FACTOR))
    down_s = int(argv[0]) if argv else 60
    factor = int(argv[1]) if len(argv) > 1 else B.FACTOR
    B.set_cpu(factor)
    B.chiptime.FLASH[:] = B.chiptime.FLASH_TYP
    root = B.new_root("warm")
    sim = B.make_sim(root, 5, cpu=False)
    sim.step(100)
    events, awards = B.kiosk_backlog(sim, 3000)
    del sim
    gc.collect()
    open(root + "/net.txt", "w").write(B.NET % "bowl")
    air, br = B.event_air()
    br.up = False  # the broker's host answers, its port refuses
    sim = B.make_sim(root, 5, air)
    w = B.Watch(sim)
    sim.step(down_s * 1000)
    w.take()
    fails = sim.net._fails
    br.up = True
    t = 0
    connected = None
    sent = 0
    while sent < awards and t < 300:
        sim.step(1000)
        t += 1
        if connected is None and sim.net.client is not None:
            connected = t
        sent = len(set(p[:p.find(b',"mac"')] for _t, p, _r in br.published if _t.endswith("/award")))
        if t == 30:
            in30 = sent
    print("outbox warm: %d events, %d awards unsent; the broker away %d s (%d refused attempts), then back:"
          " connected within %s s, %d sent in 30 s, all in %s s; longest round %d ms; resets %d (factor %d)"
          % (events, awards, down_s, fails, connected, in30 if t >= 30 else sent, t if sent >= awards else "> 300",
             w.take(), len(sim.resets), factor))


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":  # the same counted work at every run (budget.py's reason)
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.argv)
    main(sys.argv[1:])
