# The screens' one label system: every word the game's screens show is a named label, a
# const into a tuple per language (_ZH, Chinese, first; _EN for visitors) in the module that
# draws it (bobing/screen.py's and final_play.py's _L_*, bobing/panels.py's _P_*, bowl/repair.py's
# _R_*); no word is spelled in a draw call, and each module's two tables agree with its names.
import ast
import os
import re

import portable
from bobing import final_play, panels, screen
from bowl import repair

DRAWN_BY = {"text", "en", "text_centred", "en_centred", "text_right", "en_right", "big_text", "big"}
WORD = re.compile(r"[A-Za-z\u3400-\u9fff]")  # a letter or a Chinese character (symbols may be spelled)
FORMAT = re.compile(r"%[-0-9]*[sdx]")  # ("%d-%d" is no word)
MODULES = {
    "bobing/screen.py": (screen, "_L_"), "bobing/panels.py": (panels, "_P_"),
    "bobing/final_play.py": (final_play, "_L_"), "bowl/repair.py": (repair, "_R_"),
}


def _tree(name):
    with open(os.path.join(portable.FIRMWARE, name), encoding="utf-8") as f:
        return ast.parse(f.read(), name)


def test_no_word_is_spelled_in_a_draw_call():
    spelled = []
    for name in MODULES:
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DRAWN_BY:
                for a in node.args:
                    for leaf in ast.walk(a):
                        v = leaf.value if isinstance(leaf, ast.Constant) else None
                        if isinstance(v, str) and WORD.search(FORMAT.sub("", v)):
                            spelled.append("%s:%d %r" % (name, node.lineno, v))
    assert not spelled, "words spelled in draw calls (make them labels):\n" + "\n".join(spelled)


def test_each_module_s_names_index_both_its_tables():
    for name, (mod, prefix) in MODULES.items():
        if mod is None:
            continue
        assert len(mod._ZH) == len(mod._EN), name
        # the names: module-level NAME = const(i), read from the source (const() leaves no trace at run time)
        names = {}
        for node in _tree(name).body:
            if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id.startswith(prefix) and isinstance(node.value, ast.Call)):
                names[node.targets[0].id] = node.value.args[0].value
        assert sorted(names.values()) == list(range(len(mod._ZH))), \
            "%s: its %s* names must number its labels 0..%d, once each" % (name, prefix, len(mod._ZH) - 1)
