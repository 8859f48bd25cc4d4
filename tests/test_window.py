"""The simulator's pygame window as a developer sees it (SDL's dummy driver):
the prize table in aligned columns, the last history line whole, the idle
ring plainly lit, a 一秀's red dot seen going round, and no redrawing of a
screen that did not change (its idle CPU: bench/window_idle.py)."""
import pytest

from bobing import leds
from host_sim.sim import player
from host_sim.sim import window


@pytest.fixture
def pg(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame  # pinned (requirements/play.txt): missing is a failure, not a skip
    pygame.display.init()
    pygame.font.init()
    yield pygame
    pygame.quit()


class Screen:
    """A pygame surface that remembers where each text and disc went."""

    def __init__(self, pygame, size):
        self.surface = pygame.Surface(size)
        self.texts = []

    def __getattr__(self, name):
        return getattr(self.surface, name)

    def blit(self, img, pos):
        self.texts.append((img, pos))
        return self.surface.blit(img, pos)


def test_prize_table_in_columns_and_the_last_line_whole(pg, tmp_path):
    p = player.Player(str(tmp_path / "flash"))
    try:
        player.run_command(p, "seats 12", lambda s: None)
        player.run_command(p, "new", lambda s: None)
        player.run_command(p, "play 40", lambda s: None)
        p.history.append("seat 12: 444411 状元插金花 (Cha Jin Hua) -> 状元 and a very long line " * 3)
        font, cjk = window._font(pg, 16)
        rows = window.panel_rows(p, cjk)
        w, h = window.size()
        assert w <= 1280 and h <= 720 - 60, (w, h)  # a 1,280 x 720 screen, its title bar and a task bar
        screen = Screen(pg, (w, h))
        px = window.MARGIN + 128 * window.SCALE + window.MARGIN
        window.draw_panel(screen, font, rows, px, window.MARGIN, w - px - window.MARGIN, h - 2 * window.MARGIN)
        # the seat table: a row a seat, each class's counts right-aligned in one column
        by_row = {}
        for img, (x, y) in screen.texts:
            by_row.setdefault(y, []).append((x, x + img.get_width()))
        table = [sorted(v) for y, v in sorted(by_row.items()) if len(v) == 7]
        assert len(table) == 1 + 1 + 12, len(table)  # the header, the pool and 12 seats
        for col in range(1, 7):
            rights = set(r[col][1] for r in table[1:])
            assert len(rights) == 1, (col, rights)  # counts end at one x
        # the last history line is the one drawn last, inside the window, cut to the panel's width
        img, (x, y) = screen.texts[-1]
        assert y + font.get_linesize() <= h and x + img.get_width() <= w
    finally:
        p.close()


def test_the_idle_ring_is_plainly_lit(pg):
    ring = leds.Ring(12, 64)  # the app's brightness (bowl/app.py)
    buf = [(0, 0, 0)] * 12
    seen = 0
    for f in range(0, 60, 7):
        for c in ring.render(leds.P_IDLE, f, buf):
            shown = window.led_rgb(*c)
            if shown:
                seen += 1
                assert max(shown) >= 60 and max(shown) > max(window.UNLIT) + 15, (c, shown)
    assert seen
    assert window.led_rgb(0, 0, 0) is None


def test_a_yixiu_is_seen_going_round(pg, tmp_path):
    # leds.py: a 一秀 is one red dot going round; the window shows its motion (a fading trail)
    ring = leds.Ring(12, 64)
    view = window.View(pg, pg.Surface((10, 10)), None, False)
    buf = [(0, 0, 0)] * 12
    for f in range(0, 8):
        shown = view.afterglow(ring.render(game_rank("yixiu"), f, buf))
    lit = [c for c in shown if any(c)]
    assert len(lit) >= 2 and all(r > 0 and g == 0 and b == 0 for r, g, b in lit), shown


def game_rank(name):
    from bobing import rules
    return rules.rank_code(name)


def test_a_screen_that_did_not_change_is_not_redrawn(pg, tmp_path):
    p = player.Player(str(tmp_path / "flash"))
    try:
        p.step(2000)
        screen = pg.display.set_mode((1330, 644))
        font, cjk = window._font(pg, 16)
        view = window.View(pg, screen, font, cjk)
        assert view.draw(p) is True
        assert view.draw(p) is False  # the same frame, ring and panel: nothing to draw
        player.run_command(p, "shake", lambda s: None)
        assert view.draw(p) is True
    finally:
        p.close()


def test_a_button_is_held_as_long_as_its_key_the_long_press_too(pg, tmp_path):
    """The digit entry says 长按:-1 (hold NEXT: -1); in the window a key held is the
    button held (it was always an 80 ms press: no long press at all)."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        p.step(200)
        p.button("menu")
        p._choose("admin")
        assert p.view == "digits" and "长按:-1" in p.screen_text()
        keys = window.Keys(pg, p)
        digit = lambda: p.console.arg[1][p.console.arg[2]] - 48  # noqa: E731
        down = pg.event.Event(pg.KEYDOWN, key=pg.K_n, unicode="n")
        up = pg.event.Event(pg.KEYUP, key=pg.K_n)
        assert keys.event(down) and keys.event(up)  # a tap
        p.step(300)
        assert digit() == 1
        keys.event(down)
        for _ in range(60):  # held 1.2 s, the key repeating
            p.step(20)
            keys.event(down)
        keys.event(up)
        p.step(300)
        assert digit() == 0
        assert "长按" in window.HINT
        font, cjk = window._font(pg, 16)
        assert not cjk or font.size(window.HINT)[0] <= window.size()[0] - 2 * window.MARGIN  # whole, not cut
    finally:
        p.close()
