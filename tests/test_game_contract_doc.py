"""The game contract is in the repository (firmware/README.md), README and
game.py point at it, and nothing they say points outside the repository."""
import os
import re

from bobing import game
from conftest import ROOT

CONTRACT = os.path.join(ROOT, "firmware", "README.md")


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def test_contract_is_in_the_repository_and_pointed_at():
    text = read("firmware", "README.md")
    assert "## The game contract (`bobing.game.Table`)" in text
    for topic in ("Events in", "Outcome out", "Prizes are conserved", "No count is negative", "The holder",
                  "When the game ends", "changes nothing"):
        assert topic in text, topic
    # every event kind and every end reason the engine has is in it
    for name in ("EV_START_SEAT", "EV_START_TOTAL", "EV_ROLL", "EV_SPILL", "EV_TIMEUP", "EV_CUSTOMER", "EV_STOCK",
                 "EV_GRANT"):
        assert "`%s` (%d)" % (name, getattr(game, name)) in text, name
    for reason in game.REASONS:
        if reason != "champion":  # the Final's, not the table's
            assert "`%s`" % reason in text, reason
    assert "firmware/README.md" in read("README.md")
    assert "firmware/README.md" in read("firmware", "bobing", "game.py")


def test_no_pointer_outside_the_repository():
    # README, firmware and host code name repository paths only (a machine's /work/... is not shipped)
    files = [os.path.join(ROOT, "README.md"), CONTRACT, os.path.join(ROOT, "hardware", "README.md"),
             os.path.join(ROOT, "tests", "README.md")]
    for top in ("firmware", "host_sim"):
        for dirpath, _dirs, names in os.walk(os.path.join(ROOT, top)):
            files += [os.path.join(dirpath, n) for n in names if n.endswith((".py", ".md"))]
    bad = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if re.search(r"(^|[\s`'\"(])/(work|notes|shared)/", line):
                    bad.append("%s:%d: %s" % (os.path.relpath(path, ROOT), n, line.strip()))
    assert not bad, "\n".join(bad)


def test_every_rules_section_cited_is_in_the_repository():
    # "RULES.md §N" all over the code and the golden games: the page is firmware/RULES.md
    text = read("firmware", "RULES.md")
    have = set(re.findall(r"^## (\d+)\.", text, re.M))
    cited = {}
    for top in ("firmware", "host_sim", "tests", "README.md"):
        base = os.path.join(ROOT, top)
        walk = [(ROOT, [], [top])] if os.path.isfile(base) else os.walk(base)
        for dirpath, _dirs, names in walk:
            for n in names:
                if n.endswith((".py", ".md", ".txt")):
                    with open(os.path.join(dirpath, n), encoding="utf-8", errors="replace") as f:
                        for m in re.finditer(r"RULES\.md('s)? §(\d+)(?:-(\d+))?", f.read()):
                            for sec in range(int(m.group(2)), int(m.group(3) or m.group(2)) + 1):
                                cited.setdefault(str(sec), n)
    assert cited, "no RULES.md citation found: the pattern is out of date"
    missing = {s: n for s, n in cited.items() if s not in have}
    assert not missing, "RULES.md sections cited but not in firmware/RULES.md: %r" % missing
