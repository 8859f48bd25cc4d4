"""The terminal simulator's layout (host_sim/terminal.py compose)."""
from host_sim import player, terminal


def test_the_terminal_draws_every_led_once(tmp_path):
    """The ring (12 LEDs) is drawn once, and never over the status line, at every
    terminal size (issue 12: in a 200-column terminal its row was drawn at
    column 0 over the status line, the ring twice)."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        p.step(100)
        for w, h in ((200, 50), (200, 44), (200, 40), (140, 60), (100, 60), (100, 30), (80, 24), (300, 80)):
            lines = terminal.compose(p, w, color=False, height=h)
            dots = sum(line.count("●") + line.count("○") for line in lines)
            assert dots == len(p.sim.leds), (w, h, dots)
            for line in lines:
                if "shake to start" in line and ("●" in line or "○" in line):
                    # the one-row ring beside the state: whole, not a piece of the clock face
                    assert line.count("●") + line.count("○") == len(p.sim.leds), (w, h, line)
    finally:
        p.close()
