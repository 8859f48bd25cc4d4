"""The terminal simulator's layout (host_sim/sim/textview.py compose)."""
from bowlrun import Stream
from host_sim.sim import player
from host_sim.sim import terminal, textview, window


def test_the_terminal_draws_every_led_once(tmp_path):
    """The ring (12 LEDs) is drawn once, and never over the status line, at every
    terminal size (in a 200-column terminal its row was once drawn at
    column 0 over the status line, the ring twice)."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        p.step(100)
        for w, h in ((200, 50), (200, 44), (200, 40), (140, 60), (100, 60), (100, 30), (80, 24), (300, 80)):
            lines = textview.compose(p, w, color=False, height=h)
            dots = sum(line.count("●") + line.count("○") for line in lines)
            assert dots == len(p.sim.leds), (w, h, dots)
            for line in lines:
                if "shake to start" in line and ("●" in line or "○" in line):
                    # the one-row ring beside the state: whole, not a piece of the clock face
                    assert line.count("●") + line.count("○") == len(p.sim.leds), (w, h, line)
    finally:
        p.close()


def test_at_200_by_50_the_side_panel_keeps_its_header_next_game_and_table(tmp_path):
    """At 200 by 50, with the side panel beside the OLED: the header, the next game
    once +/- changed it (and what +/- did, and that g starts it), every seat's row."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        player.run_command(p, "play 25", lambda s: None)
        assert terminal.key(p, "+") and terminal.key(p, "+")
        lines = textview.compose(p, 200, color=False, height=50)
        text = "\n".join(lines)
        assert len(lines) <= 49 and max(textview.width_of(x) for x in lines) <= 200
        assert "博饼碗 Bo Bing bowl" in text
        assert "下一局 next game (g): xiamen, 12 人 seats" in text
        assert "next game: 12 seats (g starts it)" in text  # what + did
        head = [x for x in lines if "seat 一秀" in x or "seat 状元" in x]
        assert head, text
        for seat in range(1, 11):
            # beside the OLED (its box is 130 columns): the seat's number, then a cell a class
            row = [x[132:].replace("▶", " ").replace("★", " ").split() for x in lines]
            assert any(r[:1] == [str(seat)] and len(r) == 7 for r in row), (seat, text)
        assert "(a taller terminal shows the rest)" not in text
        assert "g starts it" in textview.KEYS_HELP
        # the bowl's limit is said, not silently kept
        for _ in range(3):
            terminal.key(p, "+")
        assert "12 人 is as far as it goes" in p.history[-1]
    finally:
        p.close()


def test_a_family_at_120_by_40_and_160_by_50_sees_every_seat_and_the_whole_pool(tmp_path):
    """At common terminal sizes the per-seat table is beside the OLED and the pool
    line keeps every class's count (the coloured title once pushed the panel below
    the OLED, where it was cut; the pool line lost "一秀 23/32" to a "…")."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        player.run_command(p, "play 25", lambda s: None)
        t = p.table
        pool = ["%s %d/%d" % (t.class_zh[k], t.pool[k], t.initial[k]) for k in t.classes]
        sizes = [(120, 40), (160, 50)] + [(w, h) for w in range(110, 206, 5) for h in (36, 44)]
        for w, h in sizes:
            for color in (True, False):
                lines = textview.compose(p, w, color=color, height=h)
                text = "\n".join(lines)
                assert len(lines) <= h - 1 and max(textview.width_of(x) for x in lines) <= w, (w, h)
                assert "(a taller terminal shows the rest)" not in text, (w, h)
                for cell in pool:
                    assert cell in text, (w, h, cell)
                for seat in range(1, t.seats + 1):
                    rows = [x.split("│")[-1].replace("▶", " ").replace("★", " ").split() for x in lines]
                    assert any(r[:1] == [str(seat)] and len(r) == 1 + len(t.classes) for r in rows), (w, h, seat)
    finally:
        p.close()


def _start_final(p, n):
    """The admin menu's 王中王 final for n champions, by the bowl's buttons."""
    p._open_menu()
    p._choose("admin")
    p._enter_digits(p.pin)
    p._choose("final")
    p._enter_digits("%02d" % n)
    p.button("ok")


def test_the_side_panel_follows_the_final_not_the_table_game_under_it(tmp_path):
    """During a 状元王中王 final the panel says the final's round, whose turn and its
    rolls (it showed the table game the final interrupted)."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        player.run_command(p, "play 3", lambda s: None)
        _start_final(p, 3)
        assert p.console.final is not None
        text = "\n".join(textview.compose(p, 200, color=False, height=50))
        assert "状元王中王 final" in text and "3 位冠军 champions" in text
        assert "第 1 轮，1 号摇 round 1, champion 1 to shake" in text
        assert "seat 状元" not in text and "seat 一秀" not in text
        p.shake_key(1000)
        p.step(6000)
        fp = p.console.final
        seat, rnd, dice, rank = fp.log[0]
        text = "\n".join(textview.compose(p, 120, color=False, height=40))
        assert "1 号 champion 1 (第 1 轮 round 1): %s" % "".join("%d" % d for d in dice) in text
        assert "第 1 轮，2 号摇 round 1, champion 2 to shake" in text
        rows = [r for r in window.panel_rows(p, True) if isinstance(r, str)]  # the window's panel too
        assert any(r.startswith("状元王中王 final") for r in rows) and any("champion 2 to shake" in r for r in rows)
    finally:
        p.close()


def _at_the_pin_entry(p):
    p._home()
    p.button("menu")
    p._choose("admin")
    assert p.view == "digits"


def test_the_long_press_the_pin_entry_asks_for_is_a_key_in_the_terminal(tmp_path):
    """The digit entry says 下一:+1 长按:-1 (NEXT +1, hold -1): a terminal sees no key
    held, so N (capital) is the long NEXT, and the keys' line says so."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        p.step(200)
        _at_the_pin_entry(p)
        assert "长按:-1" in p.screen_text()
        digit = lambda: p.console.arg[1][p.console.arg[2]] - 48  # noqa: E731
        assert digit() == 0
        terminal.key(p, "n")
        p.step(300)
        assert digit() == 1
        terminal.key(p, "N")
        p.step(1500)
        terminal.key(p, "N")
        p.step(1500)
        assert digit() == 9  # 1 - 1 - 1, round the ten digits
        assert "长按" in textview.KEYS_HELP and "长按" in textview.KEYS_SHORT
    finally:
        p.close()


def test_g_asks_before_a_new_game_and_the_new_game_starts_with_a_clean_history(tmp_path):
    """g ended the game at once (a stray key lost it) and the last game's lines stayed
    ("下一局 6 人（按 g 开新局）", its "start: seat N rolls first"): now the bowl asks (MENU:
    no keeps the game), and a new game's panel starts with its own lines only."""
    p = player.Player(str(tmp_path / "flash"))
    try:
        player.run_command(p, "play 12", lambda s: None)
        t, rolls = p.table, p.table.events
        terminal.key(p, "-")
        assert "下一局 9 人" in p.history[-1]
        assert terminal.key(p, "g")
        assert p.view == "confirm" and "确定:是" in p.screen_text() and "菜单:否" in p.screen_text()
        terminal.key(p, "m")  # no
        p.step(300)
        assert p.table is t and t.events == rolls and not t.ended
        terminal.key(p, "g")
        terminal.key(p, "o")  # yes
        p.step(300)
        assert p.table is not t and p.table.seats == 9 and p.table.events == 0
        text = "\n".join(textview.compose(p, 200, color=False, height=50))
        assert "rolls first" not in text and "下一局 9 人" not in text and "按 g" not in text
        assert p.history == ["-- 新游戏 new game: 9 人 seats --"]
        player.run_command(p, "shake", lambda s: None)
        assert p.history[-1].startswith("start: seat")
        player.run_command(p, "power", lambda s: None)  # the same game after a power cut: its lines stay
        assert any(h.startswith("start: seat") for h in p.history)
    finally:
        p.close()


def test_a_kiosk_s_prizes_are_shown_per_customer_not_all_under_seat_1(tmp_path):
    """A kiosk pays every prize to its one "seat": the panel piled every customer's
    prizes in row "1". Now a row a customer who won, the one shaking marked, the
    same after a power cut (read again from the journal)."""
    p = player.Player(str(tmp_path / "flash"), urandom=Stream(7))
    try:
        p.step(200)
        p.set_mode("kiosk")
        p.set_pin("2468")  # a kiosk with the default PIN lets nobody in
        p.new_game()
        t = p.table
        won = {}
        while len(won) < 3:
            p.ready()
            before = dict(t.awards[1])
            k = t.customer
            p.shake(800)
            got = {c: t.awards[1][c] - before[c] for c in t.classes if t.awards[1][c] != before[c]}
            for c, n in got.items():
                won.setdefault(k, {}).setdefault(c, 0)
                won[k][c] += n
            assert t.customer < 40, "three customers won nothing in 40"
        p.ready()
        for when in ("playing", "after a power cut"):
            lines = textview.compose(p, 200, color=False, height=60)
            head = [x for x in lines if "顾客" in x]
            assert head, (when, "\n".join(lines))
            rows = {}
            for x in lines:
                r = x[132:].replace("▶", " ").split()
                if len(r) == 1 + len(t.classes) and r[0].isdigit():
                    rows[int(r[0])] = {c: int(v) for c, v in zip(t.classes, r[1:]) if v != "·"}
            assert {k: v for k, v in rows.items() if v} == won, (when, rows, won)
            assert t.customer in rows and any("▶" in x and x[132:].split()[1] == str(t.customer) for x in lines)
            wrows = [r for r in window.panel_rows(p, True) if isinstance(r, list)]
            assert wrows[0][0] == "顾客" and len(wrows) == 2 + len(rows)
            p.power_cut()
            p.step(300)
    finally:
        p.close()


def test_play_names_puts_the_family_s_names_on_the_bowl_s_flash_and_the_panel(tmp_path, capsys):
    """`play --names 爷爷,奶奶,,妈妈` names the seats as the bowl's seats menu does: on the
    same flash file (the next start without --names keeps them), on the bowl's screen
    and in the panel; a name the bowl does not have is refused, saying which it has."""
    from host_sim import cli
    from host_sim.cli import play
    root = str(tmp_path / "flash")
    script = tmp_path / "s.txt"
    script.write_text("seats 4\nnew\nplay 6\nscreen\n")
    assert cli.main(["play", "--root", root, "--names", "爷爷,Nainai,,妈妈", "--script", str(script),
                     "--seed", "names"]) == 0
    out = capsys.readouterr().out
    assert "names=Yeye,Nainai,,Mama," in open(root + "/settings.txt").read()
    assert "1 爷爷 Yeye" in out and "2 奶奶 Nainai" in out and "4 妈妈 Mama" in out
    assert "seat 1 爷爷:" in out or "seat 2 奶奶:" in out  # the rolls as they happened
    args = type("A", (), dict(seed=None, fresh=False, root=root, names=None))
    p = play.make_player(args)
    try:
        p.step(200)
        assert p.console.settings.names[:4] == bytes([1, 2, 0, 6])
        shown = p.screen_text()
        assert any(n in shown for n in ("爷爷", "奶奶", "3号", "妈妈"))
    finally:
        p.close()
        p.lock.close()
    for bad, says in (("爷爷,老王", "seat 2: '老王' 不是碗上的名字"),
                      (",".join(["爷爷"] * 13), "13 names: at most 12")):
        assert cli.main(["play", "--root", root, "--names", bad, "--script", str(script)]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err, err


def test_the_terminal_rings_its_bell_where_the_piezo_plays_a_prize_s_tune(tmp_path):
    """The terminal was silent while the window plays the piezo's tunes: its bell now
    rings once for a roll that wins a prize (a new 状元, the end), never for one that
    wins nothing, and not at all with the sound off."""
    p = player.Player(str(tmp_path / "flash"), urandom=Stream(3))
    try:
        p.step(200)
        bell = terminal.Bell(p)
        rang = {True: 0, False: 0}
        for _ in range(30):
            p.play(1)
            out = p.console.out
            prize = bool(out.won or out.ended or out.holder_after != out.holder_before)
            assert bell() == ("\a" if prize else ""), (out.won, out.dice)
            assert bell() == ""  # once
            rang[prize] += 1
        assert rang[True] and rang[False], rang
        p._set("sound", "off")
        prizes = 0
        for _ in range(30):
            p.play(1)
            out = p.console.out
            prizes += bool(out.won or out.ended or out.holder_after != out.holder_before)
            assert bell() == ""
        assert prizes
    finally:
        p.close()


def test_at_120_by_40_a_named_family_s_table_is_whole(tmp_path):
    """With six named seats at 120x40 each row shows its seat, its name and every
    class's count, none cut by a "…"."""
    from host_sim.cli import options
    p = player.Player(str(tmp_path / "flash"), urandom=Stream(5))
    try:
        p.step(200)
        p.set_seats(6)
        p.set_names(options.seat_names("爷爷,奶奶,外公,外婆,爸爸,妈妈"))
        p.new_game()
        p.play(20)
        lines = textview.compose(p, 120, color=False, height=40)
        t = p.table
        names = ("爷爷 Yeye", "奶奶 Nainai", "外公 Waigong", "外婆 Waipo", "爸爸 Baba", "妈妈 Mama")
        for seat, name in enumerate(names, 1):
            row = [x for x in lines if "%d %s" % (seat, name) in x]
            assert row and "…" not in row[0], (seat, row)
            cells = row[0].split(name)[1].split()
            assert cells == ["%d" % t.awards[seat][k] if t.awards[seat][k] else "·" for k in t.classes], row
    finally:
        p.close()
