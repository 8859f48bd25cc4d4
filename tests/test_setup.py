"""Set-up as each user meets it: `make sim` installs only what playing needs
(requirements split by role), `make test` everything, and a host_sim command
run by a Python without a package says which and how to install it, never a
traceback."""
import os
import re
import subprocess
import sys

from conftest import ROOT

REQ = os.path.join(ROOT, "requirements")


def pins(path):
    """{package: version} a requirements file installs, its -r includes followed."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("-r "):
                sub = pins(os.path.join(os.path.dirname(path), line[3:].strip()))
                for k, v in sub.items():  # a file included twice (plan.txt) pins the same
                    assert out.setdefault(k, v) == v, (path, k, v, out[k])
            elif line:
                name, sep, ver = line.partition("==")
                assert sep and ver, "%s: %r is not pinned" % (path, line)
                assert name.lower() not in out, (path, name)
                out[name.lower()] = ver
    return out


def test_playing_installs_only_what_playing_needs():
    play = pins(os.path.join(REQ, "play.txt"))
    assert {"pygame", "pillow"} <= set(play)
    heavy = {"numpy", "django", "selenium", "matplotlib", "esptool", "pytest", "hypothesis", "mpremote", "aiomqtt"}
    assert not heavy & set(play), heavy & set(play)
    desk = pins(os.path.join(REQ, "desk.txt"))
    assert {"django", "waitress", "argon2-cffi", "aiomqtt", "paho-mqtt", "numpy"} <= set(desk)
    assert not {"pygame", "selenium", "matplotlib"} & set(desk)
    # the tests' (and requirements.txt's) set is every role's, and the test tools
    every = pins(os.path.join(ROOT, "requirements.txt"))
    for role in ("play", "dev", "desk", "test"):
        assert set(pins(os.path.join(REQ, role + ".txt"))) <= set(every), role
    assert {"pytest", "hypothesis", "selenium", "tqdm", "matplotlib"} <= set(every)


def _make_n(target, tmp_path):
    # a dry run against a venv that does not exist: what make would run to set it up
    p = subprocess.run(["make", "-n", target, "VENV=%s" % (tmp_path / "venv")], cwd=ROOT,
                       capture_output=True, text=True)
    return p.stdout


def test_make_sim_and_make_test_install_their_roles(tmp_path):
    sim = _make_n("sim", tmp_path)
    assert re.search(r"pip install .*-r requirements/play.txt", sim), sim
    assert "requirements.txt" not in sim and "-m host_sim play" in sim
    run = _make_n("run", tmp_path)  # make run ARGS="plan ...": the planner's numpy too
    assert re.search(r"pip install .*-r requirements/plan.txt", run), run
    desk = _make_n("desk", tmp_path)
    assert re.search(r"pip install .*-r requirements/desk.txt", desk), desk
    test = _make_n("test", tmp_path)
    assert re.search(r"pip install .*-r requirements.txt", test), test


def _without(tmp_path, module):
    """An environment in which `import module` fails as if it were not installed."""
    d = tmp_path / ("no_" + module)
    (d / module).mkdir(parents=True)
    (d / module / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named '%s'\", name=%r)\n" % (module, module))
    env = dict(os.environ)
    env["PYTHONPATH"] = str(d)
    return env


def test_a_missing_package_is_named_with_the_line_that_installs_it(tmp_path):
    for argv, module, package, role in ((["play", "--window"], "pygame", "pygame", "play"),
                                        (["stats", "--games", "2"], "tqdm", "tqdm", "dev"),
                                        (["plan", "--seats", "4"], "numpy", "numpy", "plan")):
        p = subprocess.run([sys.executable, "-m", "host_sim"] + argv, cwd=ROOT, capture_output=True,
                           text=True, env=_without(tmp_path, module), stdin=subprocess.DEVNULL, timeout=120)
        assert p.returncode == 2 and "Traceback" not in p.stderr, (argv, p.stderr)
        assert "缺少 Python 包 %s" % package in p.stderr and "missing the Python package %s" % package in p.stderr
        assert "pip install -r requirements/%s.txt" % role in p.stderr, p.stderr


def test_playing_runs_with_only_the_play_packages(tmp_path):
    # everything but requirements/play.txt made missing: the simulator still plays
    d = tmp_path / "only_play"
    for module in ("numpy", "tqdm", "matplotlib", "django", "selenium", "hypothesis", "esptool", "mpremote",
                   "aiomqtt", "paho", "waitress", "argon2"):
        (d / module).mkdir(parents=True)
        (d / module / "__init__.py").write_text(
            "raise ModuleNotFoundError(\"No module named '%s'\", name=%r)\n" % (module, module))
    (tmp_path / "script.txt").write_text("shake\nstate\n")
    env = dict(os.environ, PYTHONPATH=str(d))
    p = subprocess.run([sys.executable, "-m", "host_sim", "play", "--root", str(tmp_path / "flash"), "--quiet",
                        "--script", str(tmp_path / "script.txt")], cwd=ROOT, capture_output=True, text=True,
                       env=env, stdin=subprocess.DEVNULL, timeout=120)
    assert p.returncode == 0 and '"started": true' in p.stdout, p.stderr
    p = subprocess.run([sys.executable, "-m", "host_sim", "rank", "444411", "123456"], cwd=ROOT,
                       capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
    assert p.returncode == 0 and "胜" in p.stdout, p.stderr
