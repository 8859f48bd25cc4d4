"""The host's wiring is explicit: the import path is pytest's config (pytest.ini's pythonpath) and
each entry point's own set-up (host_sim.compat.install()), never an edit hidden in a module that
others import; and host_sim itself is imported for its names, not to patch the interpreter."""
import ast
import os

from conftest import ROOT

SKIP = {".git", ".venv", "build", "node_modules", "__pycache__", ".pytest_cache"}
# entry points: scripts started by name (bench, tools, harnesses, the MicroPython test runner and
# the modules only it runs), and the one function the host's entry points call
ENTRY_DIRS = ("bench/", "tests/mp/", "host_sim/tools/")
ENTRY_FILES = {"tests/mp_runner.py", "tests/oom_game.py", "tests/harness/event_sim.py", "host_sim/compat/__init__.py"}


def _is_sys_path(node):
    return (isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id in ("sys", "_sys"))


def _micropython_only(test):
    """An `if sys.implementation.name == "micropython":` body: the unix port has no pytest
    config, so a module run there sets its own path in that branch."""
    s = ast.unparse(test)
    return "micropython" in s and "==" in s and "not " not in s


def path_edits(source):
    """Line numbers of the sys.path edits outside a MicroPython-only branch."""
    out = []

    def walk(node, mp_only):
        if isinstance(node, ast.If):
            walk_all([node.test], mp_only)
            walk_all(node.body, mp_only or _micropython_only(node.test))
            walk_all(node.orelse, mp_only)
            return
        edit = False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_sys_path(node.func.value):
            edit = node.func.attr in ("insert", "append", "extend", "remove", "pop", "clear")
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            edit = any(_is_sys_path(t) or (isinstance(t, ast.Subscript) and _is_sys_path(t.value))
                       for t in targets)
        if edit and not mp_only:
            out.append(node.lineno)
        walk_all(ast.iter_child_nodes(node), mp_only)

    def walk_all(nodes, mp_only):
        for n in nodes:
            walk(n, mp_only)

    walk(ast.parse(source), False)
    return out


def python_files():
    for dirpath, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP)
        for fn in sorted(files):
            if fn.endswith(".py"):
                yield os.path.relpath(os.path.join(dirpath, fn), ROOT).replace(os.sep, "/")


def allowed(rel):
    return rel in ENTRY_FILES or rel.startswith(ENTRY_DIRS)


def test_no_module_edits_the_import_path_but_entry_points():
    found = []
    for rel in python_files():
        if allowed(rel):
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            found += ["%s:%d" % (rel, n) for n in path_edits(f.read())]
    assert not found, "sys.path edited outside the entry points (the tests' path: pytest.ini): %s" % found


def test_the_finder_sees_every_kind_of_edit():
    src = ("import sys\nsys.path.insert(0, 'a')\nsys.path[:0] = ['b']\nsys.path += ['c']\n"
           "if sys.implementation.name == 'micropython':\n    sys.path.append('d')\nelse:\n    sys.path.append('e')\n")
    assert path_edits(src) == [2, 3, 4, 8]


def test_importing_host_sim_patches_nothing():
    import subprocess
    import sys
    code = "import sys, time, host_sim; print('micropython' in sys.modules, hasattr(time, 'ticks_ms'))"
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert p.stdout.split() == ["False", "False"], p.stderr


def bare_fakes_imports(source):
    """Line numbers of imports of the simulated parts by the bare name `fakes`."""
    out = []
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or "").split(".")[0] == "fakes":
            out.append(n.lineno)
        elif isinstance(n, ast.Import) and any(a.name.split(".")[0] == "fakes" for a in n.names):
            out.append(n.lineno)
    return out


def test_the_simulated_parts_are_imported_by_their_package_path():
    # host_sim/portable is on the path for dice_stats and screen_cases: a bare `from fakes import bowl`
    # would load a second copy of the simulated board beside host_sim.portable.fakes.bowl
    found = []
    for rel in python_files():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            found += ["%s:%d" % (rel, n) for n in bare_fakes_imports(f.read())]
    assert not found, "import the simulated parts as host_sim.portable.fakes: %s" % found
    assert bare_fakes_imports("from fakes import bowl as hal\nimport fakes.wlan\n") == [1, 2]
