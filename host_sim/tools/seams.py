"""Seam figures of the source tree: private names used across modules, import cycles,
host_sim's top-level module count. Rerun it after a refactor and compare.

    python host_sim/tools/seams.py            (summary)
    python host_sim/tools/seams.py --names    (also every private name, by user -> owner)

Method (static, by `ast`; nothing is imported):
- A module "owns" a private name (one leading underscore, not a dunder) when it defines it:
  a top-level def/class/assignment, a method or class attribute of one of its classes, or
  `self._x = ...` inside one of its classes' methods.
- A private use is `expr._name` or `from M import _name`. It is internal when `expr` is
  `self`/`cls` inside a method of a class of the same module, or a name the module itself
  owns; a use `M._name` through an imported module M counts for M; any other `x._name`
  counts for every other firmware module that owns `_name` (the owner is named from the
  definitions, since the object's type is unknown statically), or for "?" if none does.
  A module-level function that takes the object it works on as `self` is not a method:
  its `self._x` are uses of the object's module.
- Import graph: an edge A -> B for every `import`/`from ... import` of a module of the tree;
  "eager" when it runs at import time (module level, including inside if/try), "lazy" when
  inside a function. Cycles are the strongly connected components with more than one module,
  first over eager edges only, then over all edges.
"""
import argparse
import ast
import os
import sys
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def modules(root, prefix, top_level_aliases=False):
    """{module name: path} under root (a package folder or a plain folder of modules)."""
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "migrations", "static", "templates", "locale"))
        for f in sorted(files):
            if not f.endswith(".py") or f == "manifest.py":
                continue
            rel = os.path.relpath(os.path.join(d, f), root)[:-3].replace(os.sep, ".")
            if rel.endswith("__init__"):
                rel = rel[:-len(".__init__")] if rel != "__init__" else ""
            name = ".".join(x for x in (prefix, rel) if x)
            out[name] = os.path.join(d, f)
    return out


class Module:
    def __init__(self, name, path):
        self.name, self.path = name, path
        with open(path, encoding="utf-8") as f:
            self.tree = ast.parse(f.read(), path)
        self.owned = set()
        self.imported = {}  # local name -> module name (whole modules only)
        self.imports = []  # (target module text, level, names, eager)
        self.from_names = {}  # local name -> (module text, level, name) of `from ... import`
        self._scan()

    def _scan(self):
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.owned.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            self.owned.add(n.id)
        for cls in [n for n in ast.walk(self.tree) if isinstance(n, ast.ClassDef)]:
            for item in cls.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.owned.add(item.name)
                elif isinstance(item, ast.Assign):
                    for t in item.targets:
                        if isinstance(t, ast.Name):
                            self.owned.add(t.id)
            for n in ast.walk(cls):
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and \
                        isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"):
                    self.owned.add(n.attr)
        self.owned = {n for n in self.owned if _private(n)}
        self._imports(self.tree, eager=True)

    def _imports(self, node, eager):
        for child in ast.iter_child_nodes(node):
            inner = eager and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    self.imports.append((a.name, 0, None, eager))
                    if a.asname:
                        self.imported[a.asname] = a.name
                    else:
                        self.imported[a.name.split(".")[0]] = a.name.split(".")[0]
            elif isinstance(child, ast.ImportFrom):
                self.imports.append((child.module or "", child.level, [a.name for a in child.names], eager))
                for a in child.names:  # `from bobing import outbox`: resolved to a module later
                    self.from_names[a.asname or a.name] = (child.module or "", child.level, a.name)
            self._imports(child, inner)


def resolve(mod, target, level, names, known):
    """The tree's modules an import statement loads (for `from P import x`: P.x if a module, else P)."""
    if level:
        base = mod.name.split(".")
        is_pkg = mod.path.endswith("__init__.py")
        base = base if is_pkg else base[:-1]
        base = base[:len(base) - (level - 1)] if level > 1 else base
        target = ".".join(base + ([target] if target else []))
    out = []
    if names:
        for n in names:
            full = "%s.%s" % (target, n) if target else n
            if full in known:
                out.append(full)
            elif target in known:
                out.append(target)
    elif target in known:
        out.append(target)
    return sorted(set(out)), target


def scc(nodes, edges):
    """Tarjan's strongly connected components with more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def private_uses(mods, firmware_names):
    owners = defaultdict(set)
    for m in mods.values():
        if m.name in firmware_names:
            for n in m.owned:
                owners[n].add(m.name)
    uses = Counter()  # (user, owner, name) -> count
    for m in mods.values():
        if m.name not in firmware_names:
            continue
        for local, (target, level, name) in m.from_names.items():
            got, base = resolve(m, target, level, [name], mods)
            full = "%s.%s" % (base, name) if base else name
            if full in mods:
                m.imported[local] = full
        methods = set()
        for cls in [n for n in ast.walk(m.tree) if isinstance(n, ast.ClassDef)]:
            for item in cls.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods.update(id(x) for x in ast.walk(item))
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ImportFrom):
                tgt = resolve(m, node.module or "", node.level, None, mods)[1]
                for a in node.names:
                    if _private(a.name) and tgt != m.name:
                        uses[(m.name, tgt, a.name)] += 1
                continue
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            v = node.value
            if isinstance(v, ast.Name) and v.id in ("self", "cls") and id(node) in methods:
                continue
            if isinstance(v, ast.Name) and v.id in m.imported and m.imported[v.id] in mods:
                uses[(m.name, m.imported[v.id], node.attr)] += 1
                continue
            others = owners.get(node.attr, set()) - {m.name}
            if node.attr in m.owned and not (isinstance(v, ast.Name) and v.id == "self"):
                # the module owns the name too: its own object unless only another defines it
                if not others:
                    continue
            if node.attr in m.owned and isinstance(v, ast.Name) and v.id == "self" and not others:
                continue
            if not others:
                if node.attr in m.owned:
                    continue
                uses[(m.name, "?", node.attr)] += 1
            else:
                # the name's owner; several owners: shared with each (rare, listed with --names)
                uses[(m.name, "|".join(sorted(others)), node.attr)] += 1
    return uses


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--names", action="store_true", help="list every cross-module private name")
    args = ap.parse_args(argv)
    fw = modules(os.path.join(ROOT, "firmware"), "")
    hs = modules(os.path.join(ROOT, "host_sim"), "host_sim")
    # the fakes frozen as top-level modules are imported by their bare names too
    mods = {}
    for name, path in list(fw.items()) + list(hs.items()):
        mods[name] = Module(name, path)
    bare = {}
    for name in hs:
        if name.count(".") == 1 and name.split(".")[1] not in fw:
            bare[name.split(".")[1]] = name

    uses = private_uses(mods, set(fw))
    by_pair = Counter()
    for (user, owner, _), n in uses.items():
        by_pair[(user, owner)] += n
    total = sum(uses.values())
    print("cross-module private uses in firmware: %d (%d distinct names)" % (total, len(uses)))
    for (user, owner), n in sorted(by_pair.items(), key=lambda x: (-x[1], x[0])):
        print("  %4d  %-22s -> %s" % (n, user, owner))
    if args.names:
        for (user, owner, name), n in sorted(uses.items()):
            print("    %-22s -> %-22s %-16s %d" % (user, owner, name, n))

    eager, every = defaultdict(set), defaultdict(set)
    for m in mods.values():
        for target, level, names, is_eager in m.imports:
            got, _ = resolve(m, target, level, names, mods)
            if not got and not level:
                head = target.split(".")[0]
                if head in bare:  # `import hal` on either interpreter
                    got = [bare[head]]
                elif target.startswith("host_sim.") and target.split(".", 1)[1] in mods:
                    got = [target.split(".", 1)[1]]
            for g in got:
                if g == m.name or m.name.startswith(g + "."):
                    continue  # a package's own __init__ is not a cycle edge
                every[m.name].add(g)
                if is_eager:
                    eager[m.name].add(g)
    for label, edges in (("eager", eager), ("eager and lazy", every)):
        for area, test in (("firmware", lambda n: n in fw), ("host_sim", lambda n: n in hs),
                           ("across both", lambda n: True)):
            sub = {a: {b for b in bs if test(b)} for a, bs in edges.items() if test(a)}
            comps = scc([n for n in mods if test(n)], sub)
            if area == "across both":
                comps = [c for c in comps if not all(x in fw for x in c) and not all(x in hs for x in c)]
            print("import cycles, %s edges, %s: %d" % (label, area, len(comps)))
            for c in comps:
                inner = ["%s->%s" % (a, b) for a in c for b in sorted(sub.get(a, ())) if b in c]
                print("    {%s}  edges: %s" % (", ".join(c), " ".join(inner)))
    top = [n for n in hs if n.count(".") == 1 and not os.path.basename(hs[n]) == "__init__.py"]
    print("host_sim top-level modules: %d (%s)" % (len(top), " ".join(sorted(n.split(".")[1] for n in top))))
    pkgs = sorted({n.split(".")[1] for n in hs if n.count(".") >= 2})
    print("host_sim packages: %d (%s)" % (len(pkgs), " ".join(pkgs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
