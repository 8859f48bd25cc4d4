# The mutation check's table (host_sim/tools/mutants.py) kept true: each mutant's line is in
# its file exactly once and its tests exist, so a fix that moves or rewrites a guarded line
# breaks this test at once, not the mutation run some day later.
import os

from host_sim.tools import mutants

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_mutant_s_line_is_in_its_file_once_and_its_tests_exist():
    assert len(mutants.MUTANTS) >= 10
    for name, _fix, rel, old, new, tests in mutants.MUTANTS:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            text = f.read()
        assert text.count(old) == 1, "mutant %s: its line is in %s %d times" % (name, rel, text.count(old))
        assert new != old and tests, name
        for t in tests:
            if t.startswith("mp:"):
                path = os.path.join(ROOT, "tests", "mp", t[3:] + ".py")
            else:
                path = os.path.join(ROOT, t.split("::")[0])
            assert os.path.isfile(path), "mutant %s: no test %s" % (name, t)
            if "::" in t:
                with open(path, encoding="utf-8") as f:
                    assert "def %s(" % t.split("::")[1] in f.read(), "mutant %s: no test %s" % (name, t)
