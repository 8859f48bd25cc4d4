"""How the tests are laid out, so a developer can run any one file alone: fixtures in
tests/conftest.py, shared code in helper modules (bowlkit.py, bowlrun.py, mqttkit.py,
deskkit.py, outboxkit.py, powercut.py, ...), never one test module imported by another;
the markers follow the fixtures' names; each MicroPython binary's path is spelled once
(tests/portable.py)."""
import ast
import os
import re

import conftest
import portable

TESTS = portable.TESTS


def _py_files(*dirs):
    for d in dirs:
        for dirpath, _dirs, files in os.walk(os.path.join(portable.ROOT, d)):
            if "data" in os.path.relpath(dirpath, portable.ROOT).split(os.sep):
                continue
            for fn in sorted(files):
                if fn.endswith(".py"):
                    yield os.path.join(dirpath, fn)


def _imported(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not re.search(r"^\s*(?:from|import)\s+[\w.]*test_", text, re.M):  # (cheap: most files are not parsed)
        return
    for node in ast.walk(ast.parse(text, path)):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_no_test_module_imports_another():
    found = ["%s imports %s" % (os.path.relpath(p, portable.ROOT), m)
             for p in _py_files("tests", "bench") for m in _imported(p)
             if m.rpartition(".")[2].startswith("test_")]
    assert not found, "shared code belongs in a helper module or conftest.py:\n" + "\n".join(found)


def _conftest_fixtures():
    with open(conftest.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                d = d.func if isinstance(d, ast.Call) else d
                if isinstance(d, ast.Attribute) and d.attr == "fixture":
                    names.add(node.name)
    return names


def test_every_marking_fixture_is_a_shared_fixture():
    # a fixture renamed or moved would silently stop marking its tests (and make test-fast slow)
    missing = set(conftest.MARK_BY_FIXTURE) - _conftest_fixtures()
    assert not missing, "MARK_BY_FIXTURE names fixtures conftest.py does not define: %s" % sorted(missing)


def _binary_paths(path):
    """String literals in code (not comments or docstrings) that spell a binary's path."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "unix32-" not in text and "mpy-cross" not in text:
        return
    tree = ast.parse(text, path)
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            v = n.value
            if v in ("unix32-frozen", "unix32-stock", "mpy-cross") or "unix32-frozen/" in v or "unix32-stock/" in v:
                yield n.lineno, v


def test_each_micropython_binary_path_is_spelled_once():
    own = (os.path.join(TESTS, "portable.py"), os.path.abspath(__file__),
           os.path.join(portable.ROOT, "host_sim", "event", "__init__.py"))  # the frozen build's, for the demo
    spelled = ["%s:%d %r" % (os.path.relpath(p, portable.ROOT), line, v)
               for p in _py_files("tests", "bench", "host_sim") if p not in own for line, v in _binary_paths(p)]
    assert not spelled, "use tests/portable.py's MP32_FROZEN, MP32_STOCK, MPY_CROSS:\n" + "\n".join(spelled)
