# A family names its seats on the bowl with its three buttons (人数 seats, then each
# seat's name: 爷爷 奶奶 ...), plays, and sees the names wherever a seat number was:
# whose turn, each result, who is next, the prizes by seat, the 状元 at game over;
# the names stay on flash across a power cut, and a seat without one keeps its number.
# In Chinese and (for visitors) in English (pinyin).
import pytest

from journey import bowl, sees

NAMES = {1: ("爷爷", "Yeye"), 2: ("奶奶", "Nainai"), 4: ("妈妈", "Mama")}  # seat 3: no name


def name_seats(p, seats, names):
    """MENU > 人数 seats > N, then each named seat > its name (NEXT moves, OK chooses)."""
    p._open_menu()
    p._choose("seats")
    p._choose("%d" % seats)
    assert p.view == "menu" and p.console.arg[0] == "names"
    for seat, (_zh, pinyin) in names.items():
        p._choose("%d" % seat)
        p._choose(pinyin)
    p._home()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_family_names_its_seats_and_sees_the_names_all_evening(lang):
    p = bowl(seed=11)
    i = 0 if lang == "zh" else 1
    if lang == "en":
        p.set_lang("en")
    name_seats(p, 4, NAMES)
    p._open_menu()
    p._choose("seats")
    p._choose("4")
    shown = sees(p, NAMES[1][i], NAMES[2][i])  # the list shows each seat's name beside it (3 rows a page)
    assert ("3号" if lang == "zh" else "Seat 3") in shown
    p._home()
    p.set_profile("corporate_simple")
    p.new_game()
    p.play(1)  # the start roll
    name = lambda seat: NAMES[seat][i] if seat in NAMES else ("%d号" % seat if lang == "zh" else "Seat %d" % seat)  # noqa: E731
    seen_turns = set()
    results = 0
    while not p.table.ended and results < 400:
        assert p.ready() or p.table.ended
        if p.table.ended:
            break
        t = p.table
        shown = sees(p, name(t.turn))  # whose turn: "轮到奶奶" / "Nainai to shake"
        if t.turn in NAMES:
            assert ("%d号" % t.turn) not in shown and "Seat %d" % t.turn not in shown
        seen_turns.add(t.turn)
        seat = t.turn
        p.shake(800)
        if p.view == "result" and p.console.page == 0:
            shown = sees(p, name(seat)) if lang == "zh" else p.screen_text()  # "奶奶 一秀" (en: dice and rank)
            assert seat not in NAMES or ("%d号" % seat) not in shown and "Seat %d" % seat not in shown
            results += 1
        if results == 6:
            p.power_cut()  # the names are on flash with the game
            p.step(300)
            assert p.view in ("result", "turn")
    assert seen_turns == {1, 2, 3, 4}
    # the prizes by seat, a page a seat, then the game over pages
    p.ready()
    t = p.table
    if t.holder:
        sees(p, name(t.holder))  # the 状元 at game over
    p.button("next")
    for seat in range(1, 5):
        assert p.view == "table" and p.console.arg == seat
        sees(p, name(seat))
        p.button("next")
