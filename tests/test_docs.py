"""The docs stay true and where their readers look: README.md is a front door of at most 150
lines with a paragraph and a link per user; every path the front door and the guides name
exists, every `make TARGET` is a Makefile target, every `python -m host_sim COMMAND` and
`python -m host_sim.desk COMMAND` is a command; no text cites the tracker's issue numbers."""
import os
import re
import subprocess

from conftest import ROOT

GUIDES = ["README.md", "firmware/README.md", "firmware/GUIDE.md", "host_sim/README.md", "host_sim/desk/README.md",
          "hardware/README.md", "tests/README.md"]
TOPS = ("firmware", "host_sim", "hardware", "tests", "bench", "requirements")
DESK_THIRD_PARTY = {"axes_reset_ip", "axes_reset_username", "check", "migrate"}  # axes' and Django's own commands


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def code_of(text):
    """The text of every code span and code block, lines joined (a span may wrap)."""
    blocks = re.findall(r"```.*?\n(.*?)```", text, re.S)
    rest = re.sub(r"```.*?```", "", text, flags=re.S)
    spans = re.findall(r"`([^`]+)`", rest)
    return [" ".join(b.split()) for b in blocks] + [" ".join(s.split()) for s in spans]


def test_the_front_door_is_short_and_sends_each_reader_to_a_guide():
    text = read("README.md")
    assert len(text.splitlines()) <= 150, len(text.splitlines())
    assert "make sim" in text.split("## Map")[0] and "make test" in text.split("## Map")[0]
    heads = re.findall(r"^## (.+)$", text, re.M)
    for reader, guide in (("family", "firmware/GUIDE.md"), ("family", "host_sim/README.md"),
                          ("mall promoter", "host_sim/desk/README.md"), ("mall promoter", "firmware/GUIDE.md"),
                          ("building a bowl", "hardware/README.md"), ("developer", "firmware/README.md")):
        head = [h for h in heads if reader in h]
        assert head, (reader, heads)
        section = text.split("## " + head[0], 1)[1].split("\n## ", 1)[0]
        assert guide in section, (reader, guide)
    assert "tests/README.md" in text


def test_the_bowl_has_its_own_users_guide_and_the_desk_guide_opens_with_a_checklist():
    # the bowl's manual apart from the simulator's guide, which sends its reader there first
    guide = read("firmware/GUIDE.md")
    assert re.findall(r"^## (.+)$", guide, re.M)[:2] == ["At the table", "At a kiosk"]
    for words in ("MENU", "NEXT", "OK", "PIN", "等待服务员"):
        assert words in guide, words
    sim = read("host_sim/README.md")
    assert "firmware/GUIDE.md" in sim.split("\n## ", 1)[0]
    assert "## Playing at the table" not in sim
    # a promoter's page first: numbered steps, at most a page, before any reference section
    desk = read("host_sim/desk/README.md")
    heads = re.findall(r"^## (.+)$", desk, re.M)
    assert heads[0] == "Set-up checklist", heads
    checklist = desk.split("## Set-up checklist", 1)[1].split("\n## ", 1)[0]
    assert len(checklist.splitlines()) <= 60 and re.search(r"^1\. ", checklist, re.M)


def test_every_path_the_docs_name_exists():
    missing = []
    for rel in GUIDES:
        text = read(rel)
        for m in re.finditer(r"(?<![\w/.~-])((?:%s)/[\w./*-]*)" % "|".join(TOPS), text):
            path = m.group(1).rstrip(".,:;")
            if "*" in path or re.search(r"/[A-Z][A-Z_]*[A-Z](/|$)", path.replace("BOBING_ESP32", "")):
                continue  # a pattern (tests/test_desk*.py) or a placeholder (data/broker/NAME)
            if not os.path.exists(os.path.join(ROOT, path)):
                missing.append("%s: %s" % (rel, path))
        for link in re.findall(r"\]\(([^)#\s]+)\)", text):  # markdown links and images, relative
            if "://" not in link and not os.path.exists(os.path.join(ROOT, os.path.dirname(rel), link)):
                missing.append("%s: link %s" % (rel, link))
    assert not missing, "\n".join(missing)


def test_every_make_target_the_docs_name_is_in_the_makefile():
    targets = set(re.findall(r"^([\w-]+):", read("Makefile"), re.M))
    bad = []
    for rel in GUIDES:
        for code in code_of(read(rel)):
            for m in re.finditer(r"(?:^|[\s;(|])make ([a-z][\w-]*)", code):
                if m.group(1) not in targets:
                    bad.append("%s: make %s" % (rel, m.group(1)))
    assert not bad, "\n".join(bad)


def _host_commands():
    p = subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"), "-m", "host_sim", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    return set(re.findall(r"^\s{2,}([a-z][a-z-]+)\s", p.stdout, re.M)) | {"--help"}


def test_every_command_the_docs_name_exists():
    host = _host_commands()
    assert {"play", "plan", "rank", "verify-claim"} <= host, host
    desk = {n[:-3] for n in os.listdir(os.path.join(ROOT, "host_sim", "desk", "management", "commands"))
            if n.endswith(".py") and not n.startswith("_")} | DESK_THIRD_PARTY
    bad = []
    for rel in GUIDES:
        for code in code_of(read(rel)):
            for m in re.finditer(r"-m host_sim(\.desk)? ([a-z][\w-]*)", code):
                known = desk if m.group(1) else host
                if m.group(2) not in known:
                    bad.append("%s: %s" % (rel, m.group(0)))
            for m in re.finditer(r'make run ARGS="([a-z][\w-]*)', code):
                if m.group(1) not in host:
                    bad.append("%s: %s" % (rel, m.group(0)))
    assert not bad, "\n".join(bad)


def test_no_text_cites_the_trackers_issue_numbers():
    # the tracker is not in the repository: a comment says why, not which issue
    p = subprocess.run(["git", "grep", "-nE", r"[Ii]ssue [0-9]+|#[0-9]{2}\b", "--", "*.py", "*.md", "Makefile",
                        "*.txt", ":!tests/data"], cwd=ROOT, capture_output=True, text=True)
    if p.returncode > 1:  # not a git checkout: nothing to check against
        return
    assert p.stdout == "", p.stdout


def test_only_board_py_imports_machine_as_the_docs_say():
    import ast
    found = set()
    for dirpath, _dirs, names in os.walk(os.path.join(ROOT, "firmware")):
        for n in names:
            if n.endswith(".py"):
                path = os.path.join(dirpath, n)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read())
                for node in ast.walk(tree):
                    mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                        [node.module] if isinstance(node, ast.ImportFrom) else []
                    if any(m and m.split(".")[0] == "machine" for m in mods):
                        found.add(os.path.relpath(path, ROOT))
    assert found == {"firmware/board.py"}, found
    assert "only firmware/board.py imports `machine`" in " ".join(read("README.md").split())


def _markdown_files():
    out = []
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("build", "node_modules", "data", "out")]
        out += [os.path.relpath(os.path.join(d, f), ROOT) for f in files if f.endswith(".md")]
    return sorted(out)


def unclosed_spans(text):
    """The paragraphs of a markdown text (outside fenced blocks) with an odd number of
    backticks: a code span opened and never closed swallows the rest of the paragraph."""
    text = re.sub(r"^(\s*)```.*?^\s*```", "", text, flags=re.S | re.M)
    return [p.strip()[:80] for p in re.split(r"\n\s*\n", text) if p.count("`") % 2]


def test_no_code_span_is_left_open():
    assert unclosed_spans("run `make x\n7. next") and not unclosed_spans("run `make x`\n\n```\n`\n```\n")
    bad = ["%s: %s" % (rel, p) for rel in _markdown_files() for p in unclosed_spans(read(rel))]
    assert not bad, "\n".join(bad)
