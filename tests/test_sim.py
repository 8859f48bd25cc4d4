# The simulator end to end: the real app (bowl/app.py) on the simulated board
# (host_sim/portable/fakes/bowl.py), driven through host_sim/sim/player.py by scripts, the line
# mode of `make sim` without a terminal, the terminal drawing and the pygame
# window (SDL_VIDEODRIVER=dummy).
import io
import json
import os
import subprocess
import sys
import tempfile

import pytest

from bobing import vocab
from bobing import journal
from host_sim import cli
from host_sim.portable.fakes import bowl as hal
from host_sim.sim import player
from host_sim.sim import terminal
from host_sim.sim import textview

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def flash():
    # the journal fsyncs every roll: a RAM disk keeps a whole game quick
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    d = tempfile.mkdtemp(prefix="bobing-flash-", dir=base)
    yield d
    import shutil
    shutil.rmtree(d, True)


def _script(flash, text, *extra):
    path = os.path.join(flash, "..", os.path.basename(flash) + ".script")
    with open(path, "w") as f:
        f.write(text)
    return ["play", "--script", path, "--root", flash, "--quiet"] + list(extra)


def test_a_whole_game_by_script(flash, capsys):
    # menus by their buttons, then a full 3-seat game shaken to its end
    text = """
    seats 3
    profile xiamen
    new            # menu > new game > confirm
    expect seats 3
    expect settings.seats 3
    expect started no
    play           # shake, OK through results, to the end
    expect ended yes
    expect view over
    state
    """
    assert cli.main(_script(flash, text, "--seed", "e2e")) == 0
    st = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert st["ended"] and st["reason"] in ("prizes_out", "liubohong")
    assert st["rolls_seen"] >= 20
    for c in st["classes"]:  # every prize is somewhere
        held = sum(a[c] for a in st["awards"].values())
        assert held + st["pool"][c] + st["grabbed"][c] == st["initial"][c]
    # what the screen showed is what the flash holds: replay the journal
    games = sorted(n for n in os.listdir(flash) if n.endswith(journal.SUFFIX))
    s = journal.scan(os.path.join(flash, games[-1]), journal.id_of(games[-1]))
    assert s.problem is None
    assert s.table.ended and s.table.pool == st["pool"]
    assert {str(k): v for k, v in s.table.awards.items()} == st["awards"]
    assert s.table.events == st["events"]


def test_kiosk_pin_menu_and_power_cut(flash, capsys):
    text = """
    mode kiosk       # the kiosk menu asks for the PIN: the macro types it
    expect settings.mode kiosk
    pin 2468         # a kiosk lets nobody in with the default PIN
    expect mode family
    new
    expect mode kiosk
    play 4
    state
    power            # pull the plug: the bowl resumes from its journal
    state
    """
    assert cli.main(_script(flash, text, "--seed", "kiosk")) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    a, b = json.loads(lines[-2]), json.loads(lines[-1])
    assert a["mode"] == "kiosk" and a["seats"] == 1 and a["events"] >= 5
    assert b["boots"] == a["boots"] + 1
    assert (b["events"], b["pool"], b["awards"]) == (a["events"], a["pool"], a["awards"])


def test_a_failed_expectation_fails_the_script(flash, capsys):
    assert cli.main(_script(flash, "expect view over\n")) == 1
    assert "expected view over" in capsys.readouterr().out
    assert cli.main(_script(flash, "seats 40\n")) == 1
    assert cli.main(_script(flash, "dance\n")) == 1
    assert "unknown command" in capsys.readouterr().out


def test_holding_the_key_shakes_longer(flash):
    p = player.Player(flash)
    try:
        durations = []
        for hold in (0, 1500, 4000):
            assert p.ready()
            t0 = p.now
            r0 = p.console.rolled
            p.shake_key()  # the press...
            while p.now - t0 < hold:
                p.step(30)
                p.shake_key()  # ...and the terminal's auto-repeat while held
            p.wait_ready()
            for _ in range(300):
                if p.console.rolled > r0:
                    break
                p.step()
            assert p.console.rolled == r0 + 1  # one shake, one roll
            durations.append(p.console.detector.duration)
        tap, mid, long_ = durations
        assert 500 <= tap <= 1000 and 1400 <= mid <= 2000 and 3900 <= long_ <= 4500, durations
    finally:
        p.close()


def test_screen_is_the_framebuffer(flash):
    p = player.Player(flash)
    try:
        p.shake(800)
        rows = p.sim.board.disp.text_rows()  # hal's own reading of the panel
        half = textview.oled_halfblocks(p.sim.frame)
        for y in range(0, 64, 2):
            for x in range(128):
                top, bottom = rows[y][x] == "#", rows[y + 1][x] == "#"
                assert half[y // 2][x] == " ▀▄█"[top | bottom << 1]
        quad = textview.oled_quadrants(p.sim.frame)
        assert len(quad) == 32 and all(len(r) == 64 for r in quad)
        assert any(ch != " " for r in half for ch in r)
        wide = textview.compose(p, 240, color=True)
        assert any("pool:" in x for x in wide) and any("\x1b[38;2;" in x for x in wide)
        narrow = textview.compose(p, 80, color=False)
        assert all(textview.width_of(x) <= 80 for x in narrow[:34])  # quadrants fit
        assert any("状元" in x for x in narrow)
    finally:
        p.close()


def test_make_sim_without_a_terminal(flash):
    # `make sim` with stdin from a pipe: line mode, an empty line shakes
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "host_sim", "play", "--root", flash],
                       input="\n\n\nstate\n", capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr
    assert "start: seat" in r.stdout and "seat " in r.stdout
    st = json.loads([x for x in r.stdout.splitlines() if x.startswith("{")][-1])
    assert st["events"] == 3  # the start and two rolls
    assert "┌" + "─" * 128 + "┐" in r.stdout  # the OLED, half-blocks


def test_line_mode_reports_errors_with_the_line(flash):
    p = player.Player(flash)
    out = io.StringIO()
    try:
        assert terminal.line_mode(p, ["wait 100\n", "profile nosuch\n"], out, echo=False) == 1
    finally:
        p.close()
    assert "line 2: profile nosuch" in out.getvalue() and "xiamen" in out.getvalue()


def test_window_shows_the_oled_pixels(flash, tmp_path, monkeypatch):
    import pygame  # noqa: F401  pinned in requirements.txt: missing is a failure, not a skip
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")  # the speaker plays into nothing
    shot = str(tmp_path / "win.png")
    args = _script(flash, "shake\nshake 1500\n", "--window", "--frames", "40", "--screenshot", shot,
                   "--seed", "window")
    assert cli.main(args) == 0
    from PIL import Image

    import dice_stats
    from host_sim.sim import window
    img = Image.open(shot).convert("RGB")
    # the same game again without the window gives the frame the window showed:
    # one command a frame, then a frame's time
    root2 = str(tmp_path / "flash2")
    p = player.Player(root2, dice_stats.SeededSource("window"))
    try:
        for line in ("shake", "shake 1500"):
            player.run_command(p, line, print)
            p.step(1000 // window.FPS)
        p.step((40 - 2) * 1000 // window.FPS)
    finally:
        p.close()
    x0, y0, _w, _h = window.oled_rect()
    frame = p.sim.frame
    lit_px = 0
    for y in range(hal.HEIGHT):
        for x in range(hal.WIDTH):
            px = img.getpixel((x0 + x * window.SCALE + window.SCALE // 2, y0 + y * window.SCALE + window.SCALE // 2))
            want = window.ON if textview.lit(frame, x, y) else window.OFF
            assert px == want, (x, y, px, want)
            lit_px += px == window.ON
    assert lit_px > 100
    assert vocab.VIEW_IDS[p.console.view] in ("result", "turn")



def test_a_window_with_no_display_to_open_is_a_clear_error(tmp_path):
    # a driver named in SDL_VIDEODRIVER that cannot start (x11 with no X server)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="x11", HOME=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "host_sim", "play", "--window", "--frames", "1"],
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert "error: no window (" in p.stderr and "drop --window" in p.stderr, p.stderr

def test_window_space_held_down_shakes_that_long(flash, monkeypatch):
    # the window sees real key down / key up: the shake lasts exactly as long
    import pygame  # pinned in requirements.txt: missing is a failure, not a skip
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")  # the speaker plays into nothing
    from host_sim.sim import window
    frames = {"n": 0}
    real_get = pygame.event.get

    def get():
        real_get()
        frames["n"] += 1
        n = frames["n"]
        if n == 5:
            return [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ")]
        if n == 5 + 100:  # 100 frames of 20 ms: 2 s
            return [pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE)]
        return []

    monkeypatch.setattr(pygame.event, "get", get)
    p = player.Player(flash)
    try:
        assert p.ready()
        r0 = p.console.rolled
        assert window.run(p, frames=200) == 0
        assert p.console.rolled == r0 + 1
        assert 1900 <= p.console.detector.duration <= 2200, p.console.detector.duration
    finally:
        p.close()


def test_a_second_simulator_on_the_same_flash_is_refused_and_a_killed_one_leaves_no_lock(flash, capsys):
    """Two simulators on one flash wrote the same journal (after a power cut: "记录已恢复
    损坏部分已另存 ... bad_checksum", the turn back at seat 1): the second now refuses to
    start, saying why and what to do, and leaves the flash as it was; a simulator that
    was killed leaves no lock behind."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    first = subprocess.Popen([sys.executable, "-m", "host_sim", "play", "--root", flash],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        first.stdin.write(b"\n")  # one roll; it waits for the next line
        first.stdin.flush()
        for line in first.stdout:  # until it says the roll (it has been written first)
            if line.startswith(b"start: seat"):
                break
        assert first.poll() is None, first.stderr.read()
        before = {n: open(os.path.join(flash, n), "rb").read() for n in os.listdir(flash)}
        for extra in ([], ["--fresh"], ["--window"]):
            capsys.readouterr()
            assert cli.main(_script(flash, "shake\n", *extra)) == 2
            err = capsys.readouterr().err
            assert "另一个模拟器正在用这块闪存 another simulator (pid %d) is playing on this flash" % first.pid in err
            assert "--root DIR" in err and "Traceback" not in err
            assert {n: open(os.path.join(flash, n), "rb").read() for n in os.listdir(flash)} == before
    finally:
        first.kill()  # no clean exit: the lock must not outlive it
        first.wait()
    assert cli.main(_script(flash, "shake\nexpect events 2\n")) == 0  # resumes the killed one's game
