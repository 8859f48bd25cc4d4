# The tree's import graph has no circle, eager or lazy (an import inside a function),
# in firmware/, in host_sim/ and across both: host_sim/tools/seams.py reads every module's
# imports by ast and prints the strongly connected components it finds.
import contextlib
import io
import re

from host_sim.tools import seams


def test_no_import_circle_eager_or_lazy_anywhere():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert seams.main([]) == 0
    text = out.getvalue()
    counts = re.findall(r"^import cycles, (.+): (\d+)$", text, re.M)
    assert len(counts) == 6, text  # eager / eager and lazy x firmware / host_sim / across both
    circles = [line for line in text.splitlines() if line.startswith("    {")]
    assert all(n == "0" for _, n in counts), "import circles:\n" + "\n".join(circles)
