"""How fast the command line answers at the prize counter: `python -m host_sim
verify-claim --help` and a real claim check, each started afresh as the counter
starts it (a new process, the byte code cached), against `python -c pass` (the
interpreter alone). Wall and CPU seconds, least and median of RUNS; the machine
is shared, so wall time grows with the load (printed). The target: under 0.15 s."""
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = 15
SECRET = "counter bench secret"
CASES = (
    ("verify-claim --help", ["-m", "host_sim", "verify-claim", "--help"]),
    ("verify-claim CODE", ["-m", "host_sim", "verify-claim", "--secret", SECRET, "BB1:0001:17-3:YIXIU:X1FZF78Z"]),
    ("python -c pass", ["-c", "pass"]),
)


def run(argv, env):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([sys.executable] + argv, cwd=ROOT, capture_output=True, env=env)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):  # (1: the made-up code is invalid, as it should be)
        sys.exit("%s failed (%d): %s" % (argv, p.returncode, p.stderr.decode()[-500:]))
    return wall, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime


def main():
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the counter's install has its byte code cached
    for _name, argv in CASES:
        run(argv, env)  # (writes the cache)
    for name, argv in CASES:
        walls, cpus = zip(*[run(argv, env) for _ in range(RUNS)])
        print("cli_start %-20s wall least %.3f s median %.3f s, CPU least %.3f s median %.3f s (load %.1f)"
              % (name, min(walls), statistics.median(walls), min(cpus), statistics.median(cpus),
                 os.getloadavg()[0]))


if __name__ == "__main__":
    main()
