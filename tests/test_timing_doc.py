# hardware/timing.md's generated block against the command that writes it
# (`make timing`: bench/budget.py --write): the figures the budget charges, each
# with its source, rendered from host_sim/portable/fakes/chiptime.py (instant),
# and the budget's figures for a new bowl's first power-on and six rolls run
# again here (bench/budget.py --first, a few seconds: the counted work gives the
# same figures at every run, whatever the host's load).
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from bench import budget  # noqa: E402


def doc_block():
    with open(budget.DOC, encoding="utf-8") as f:
        block = budget.generated_block(f.read())
    assert block is not None, "hardware/timing.md lost its generated block's markers"
    return block


def test_the_sources_table_is_the_one_the_budget_charges():
    assert doc_block().startswith(budget.render_sources()), \
        "hardware/timing.md's table of charged figures is stale: run make timing"


def test_the_printed_figures_are_what_the_command_prints_now(mp_built):
    # (mp_built: the budget's network paths import micropython-lib's umqtt as `make mp` builds it)
    block = doc_block()
    p = subprocess.run([sys.executable, os.path.join("bench", "budget.py"), "--first"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-800:]
    now = dict(re.findall(r"^budget (\w+) worst_step_ms=(\d+)$", p.stdout, re.M))
    assert set(now) == {"first_power_on", "roll", "result_pages"}, p.stdout
    for name, ms in now.items():
        m = re.search(r"^budget %s worst_step_ms=(\d+) " % name, block, re.M)
        assert m is not None, "hardware/timing.md has no %s line: run make timing" % name
        assert m.group(1) == ms, "hardware/timing.md says %s %s ms, bench/budget.py prints %s: run make timing" % (
            name, m.group(1), ms)
    for line in p.stdout.splitlines()[:2]:  # the charged figures' summary lines
        assert line + "\n" in block, "hardware/timing.md's summary %r is stale: run make timing" % line[:60]
