"""The mutation check (tests/README.md "Mutation check"): each of the project's most
important fixes reverted by a one-line mutant, and the smallest test set that should
catch it run against the mutant. A copy of the committed tree (git archive HEAD) in a
temporary folder takes each mutant in turn, so the checkout itself is never changed.

    python host_sim/tools/mutants.py            (every mutant; prints the table)
    python host_sim/tools/mutants.py rearm pin  (those whose name starts so)
    python host_sim/tools/mutants.py --baseline (each test set on the unmutated copy first)

A test set is pytest node ids (CPython), or "mp:<module>": a tests/mp module on the
32-bit stock unix build of `make mp` with the copy's firmware/ on its path (the frozen
build holds the unmutated firmware). Exit 1 if a mutant survives."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]  # (an entry point: tests/portable.py names the builds)
import portable  # noqa: E402

STOCK = portable.MP32_STOCK

# (name, the fix it reverts, file, the line as it is, the mutant, the tests that catch it)
MUTANTS = (
    ("rearm", "a shake while a result's pages show is not lost (the detector rearmed in _reveal)",
     "firmware/bobing/console.py",
     "            self.rearm()  # the next shake may begin while the pages show: it is not lost",
     "            pass",
     ["tests/test_bowl.py::test_a_shake_while_the_result_pages_show_is_not_lost"]),
    ("flush", "power cuts: every journal record is flushed to flash before play() returns",
     "firmware/bobing/journal.py",
     "            store.fsync(f)  # one commit: the records and the count that takes them in\n",
     "            pass\n",
     ["mp:test_journal_powercut"]),
    ("pin-count", "the PIN: an unreadable count of wrong PINs is a lock (deleting pin.txt resets nothing)",
     "firmware/bobing/menu.py",
     "            n = PIN_TRIES\n",
     "            n = 0\n",
     ["tests/test_settings.py", "tests/test_settings_cuts.py"]),
    ("default-pin", "a kiosk lets no customer in while its PIN is the default 1234",
     "firmware/bobing/console.py",
     "        if self.pin_default():",
     "        if False:",
     ["tests/test_kiosk_guard.py::test_a_kiosk_with_the_default_pin_lets_nobody_in_until_it_is_changed"]),
    ("grant-mac", "the desk's grant of shakes is refused unless its seal (HMAC) matches",
     "firmware/bobing/wire.py",
     "    if diff:\n        raise ValueError(\"seal does not match",
     "    if False:\n        raise ValueError(\"seal does not match",
     ["tests/test_shakes.py", "tests/test_shakes_bowl.py"]),
    ("grant-replay", "a grant of shakes already used is never used again (its id at or below the floor)",
     "firmware/bobing/console.py",
     "        if gid <= floor:",
     "        if gid < floor:",
     ["tests/test_shakes_bowl.py"]),
    ("claim-full", "a claim code is compared in full (every character)",
     "firmware/bobing/claim.py",
     "    for i in range(CODE_LEN):\n        diff |= ord(got[i]) ^ ord(want[i])",
     "    for i in range(CODE_LEN - 1):\n        diff |= ord(got[i]) ^ ord(want[i])",
     ["tests/test_claim.py"]),
    ("settings-kiosk", "a damaged settings.txt on a bowl set up is a kiosk's, never family with PIN 1234",
     "firmware/bobing/settings.py",
     "        s.mode = \"kiosk\"  # the safe side",
     "        pass  # the safe side",
     ["tests/test_settings_cuts.py"]),
    ("dice-bias", "dice by rejection sampling: no face more likely (256 is no multiple of 6)",
     "firmware/bobing/dice.py",
     "        if b < _ACCEPT:",
     "        if True:",
     ["tests/test_dice.py"]),
    ("fair-late-seed", "fairness: a customer's own seed that comes after his first shake changes no dice",
     "firmware/bobing/fair.py",
     "        if u is None or tu[4] or tu[8] != _NO_USER or d != tu[9]:",
     "        if u is None or tu[8] != _NO_USER or d != tu[9]:",
     ["tests/test_fair.py::test_a_customer_s_own_seed_counts_when_it_comes_before_his_first_shake"]),
)


def _copy(dst):
    """The committed tree into dst, with the checkout's .venv and build beside it."""
    git = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", dst], input=git.stdout, check=True)
    for name in (".venv", "build"):
        os.symlink(os.path.realpath(os.path.join(ROOT, name)), os.path.join(dst, name))


def _run(tree, tests):
    """-> (caught: a test failed, the last lines said)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPYCACHEPREFIX", None)  # (nothing compiled from another tree is reused)
    failed, said = False, []
    mp = [t[3:] for t in tests if t.startswith("mp:")]
    py = [t for t in tests if not t.startswith("mp:")]
    if py:
        p = subprocess.run([os.path.join(tree, ".venv", "bin", "python"), "-m", "pytest", "-x", "-q",
                            "-p", "no:cacheprovider", "-m", "not micropython"] + py,
                           cwd=tree, env=env, capture_output=True, text=True)
        if p.returncode not in (0, 1):
            raise RuntimeError("pytest could not run %s:\n%s%s" % (py, p.stdout[-2000:], p.stderr[-2000:]))
        failed = p.returncode == 1
        said += [x for x in p.stdout.splitlines() if x.startswith("FAILED")] or p.stdout.splitlines()[-1:]
    for name in mp:
        p = subprocess.run([STOCK, "tests/mp_runner.py", os.path.join(tree, "firmware"), "tests/mp", name],
                           cwd=tree, env=env, capture_output=True, text=True)
        failed = failed or p.returncode != 0
        said += [x for x in p.stdout.splitlines() if x.startswith("FAIL ")] or p.stdout.splitlines()[-1:]
    return failed, said


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="run only the mutants whose name starts with one of these")
    ap.add_argument("--baseline", action="store_true", help="check each test set passes unmutated first")
    a = ap.parse_args(argv)
    chosen = [m for m in MUTANTS if not a.names or any(m[0].startswith(n) for n in a.names)]
    tree = tempfile.mkdtemp(prefix="bobing-mutants-")
    survived = 0
    try:
        _copy(tree)
        print("| mutant | fix reverted | file | caught | by |\n|---|---|---|---|---|")
        for name, fix, rel, old, new, tests in chosen:
            path = os.path.join(tree, rel)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if text.count(old) != 1:
                raise SystemExit("mutant %s: its line is in %s %d times, not once: update MUTANTS"
                                 % (name, rel, text.count(old)))
            if a.baseline:
                bad, said = _run(tree, tests)
                if bad:
                    raise SystemExit("mutant %s: its tests fail unmutated: %s" % (name, said))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new))
            try:
                caught, said = _run(tree, tests)
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            survived += not caught
            print("| %s | %s | %s | %s | %s |" % (name, fix, rel, "caught" if caught else "NOT CAUGHT",
                                                  "; ".join(said)[:300]))
            sys.stdout.flush()
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
