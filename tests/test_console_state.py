"""The Console owns its state (bobing/console.py): no other firmware module assigns a
Console attribute; they change the state objects it holds (c.settings, c.menu,
c.grants, c.final, c.fair) or call its methods. Its defaults are declared in one
place: one block of class attributes at the top of the class, and __init__.

Read with `ast` (nothing is imported). A console is what the firmware calls one: a
name `c` or `con` (the modules the console loads take it as `c`), `<x>.con`
(bowl/app.py's, net.py's app.con), bowl/net.py's `self.gate`, `self.stock` and
`self.fair` (the console it was handed), and a local name assigned from one of these."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
CONSOLE = os.path.join(FIRMWARE, "bobing", "console.py")
# the modules where the state objects are defined (their own writes are theirs)
STATE_MODULES = (CONSOLE,)
HANDLE_NAMES = ("c", "con")
NET_HANDLES = ("self.gate", "self.stock", "self.fair")


def _is_handle(node, local, path):
    if isinstance(node, ast.Name):
        return node.id in HANDLE_NAMES or node.id in local
    if isinstance(node, ast.Attribute):
        if node.attr == "con":
            return True
        return path.endswith(os.path.join("bowl", "net.py")) and ast.unparse(node) in NET_HANDLES
    return False


def _targets(node):
    if isinstance(node, ast.Assign):
        todo = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        todo = [node.target]
    else:
        return
    while todo:
        t = todo.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            todo.extend(t.elts)
        else:
            yield t


def console_writes(path, source):
    """-> ["path:line: c.attr"] for each assignment to a console's attribute in `source`."""
    found = []
    tree = ast.parse(source)
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for scope in [tree] + scopes:
        local = set()  # names given a console in this scope (g = self.gate)
        for n in ast.walk(scope):
            if isinstance(n, ast.Assign) and _is_handle(n.value, local, path):
                local.update(t.id for t in n.targets if isinstance(t, ast.Name))
        for n in ast.walk(scope):
            for t in _targets(n):
                if isinstance(t, ast.Attribute) and _is_handle(t.value, local, path):
                    found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), n.lineno, ast.unparse(t)))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr") \
                    and n.args and _is_handle(n.args[0], local, path):
                found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), n.lineno, ast.unparse(n)))
    return sorted(set(found))


def _firmware_files():
    for d, dirs, files in os.walk(FIRMWARE):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(d, f)


def test_no_module_but_the_console_assigns_its_attributes():
    writes = []
    for path in _firmware_files():
        if path in STATE_MODULES:
            continue
        with open(path, encoding="utf-8") as f:
            writes += console_writes(path, f.read())
    assert writes == [], "Console attributes assigned outside console.py (use its state objects " \
                         "or a method of it):\n" + "\n".join(writes)


def test_the_check_sees_each_kind_of_write():
    src = ("def f(c):\n    c.edit = 1\n    c.changed += 1\n    c.a, c.b = 1, 2\n    setattr(c, 'x', 1)\n"
           "    c.menu.edit = 1\n    c.settings.lang = 'en'\n"  # (state objects: allowed)
           "class Net:\n    def g(self):\n        g = self.gate\n        g.acks = []\n        self.app.con.fair = 1\n")
    got = sorted(w.split(": ", 1)[1] for w in console_writes(os.path.join(FIRMWARE, "bowl", "net.py"), src))
    assert got == ["c.a", "c.b", "c.changed", "c.edit", "g.acks", "self.app.con.fair", "setattr(c, 'x', 1)"]


def _console_class():
    with open(CONSOLE, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Console")


def test_the_console_declares_its_defaults_in_one_place():
    cls = _console_class()
    declared, after_def, methods = set(), [], {}
    for i, n in enumerate(cls.body):
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            names = [t.id for t in _targets(n) if isinstance(t, ast.Name)]
            if methods:
                after_def += ["%s (line %d)" % (x, n.lineno) for x in names]
            declared.update(names)
        elif isinstance(n, ast.FunctionDef):
            methods[n.name] = n
    assert after_def == [], "class attributes of Console declared between its methods: " + ", ".join(after_def)
    for n in ast.walk(methods["__init__"]):
        for t in _targets(n):
            if isinstance(t, ast.Attribute) and ast.unparse(t.value) == "self":
                declared.add(t.attr)
    props = {name for name, m in methods.items() if m.decorator_list}
    late = []
    for name, m in methods.items():
        for n in ast.walk(m):
            for t in _targets(n):
                if isinstance(t, ast.Attribute) and ast.unparse(t.value) == "self" and t.attr not in declared:
                    late.append("%s.%s (line %d)" % (name, t.attr, n.lineno))
    assert late == [], "Console attributes first set outside __init__ and the class block: " + ", ".join(late)
    assert not props & declared
