# A family of four at dinner, from power-on to the last prize and who won what,
# as they act: set 4 seats, start a new game, seat 1 shakes for who begins,
# everyone shakes in turn, pages through the prizes by seat on the bowl.
# In Chinese and (for visitors) in English.
import pytest

from journey import bowl, never, sees

WORDS = {  # what each screen says, per language
    "zh": {"new": "新游戏", "players": "4人", "start": "摇碗定先手", "total": "共", "first": "先摇",
           "turn": "轮到", "prizes": "奖品", "none": "还没有奖品", "over": "状元"},
    "en": {"new": "New game", "players": "4 players", "start": "Shake to start", "total": "Total",
           "first": "starts", "turn": "to", "prizes": "prizes", "none": "no prize yet", "over": "Champion"},
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_family_of_four_plays_to_the_last_prize(lang):
    w = WORDS[lang]
    p = bowl(seed=11)
    if lang == "en":
        p.set_lang("en")
    p.set_seats(4)
    p.set_profile("corporate_simple")  # 18 prizes: a dinner's game (the 会饼's 63 take an hour)
    p.new_game()
    sees(p, w["new"], w["players"], w["start"])
    # seat 1 shakes to decide who begins: no "seat 0" while shaking
    p.shake_key(1000)
    p.step(400)
    assert p.view == "shaking"
    shown = sees(p, w["start"])
    assert "0号" not in shown and "Seat 0" not in shown
    p.wait_ready()
    p.step(1500)
    t = p.table
    assert p.view == "result" and t.started
    # the start roll shows its two dice's total and who begins
    out = p.console.out
    total = out.dice[0] + out.dice[1]
    sees(p, w["total"])
    assert ("%d" % total) in p.screen_text()
    p.button("ok")  # the next page: who shakes first
    if p.view == "result":
        sees(p, w["first"], "%d" % t.first)
    p.ready()
    sees(p, w["turn"], "%d" % t.turn)
    # everyone shakes in turn to the end; now and then someone looks at the prizes by seat
    rolls = 0
    while p.ready():
        if rolls % 25 == 5:
            p.button("next")
            assert p.view == "table"
            sees(p, w["prizes"], "1/4")
            p.button("ok")
        p.shake(500)
        rolls += 1
        assert rolls < 400, p.state()
    assert t.ended
    sees(p, w["over"]) if t.holder else None
    # at game over: NEXT pages the prizes seat by seat, each page what that seat won
    won = 0
    p.button("next")
    for seat in range(1, 5):
        assert p.view == "table" and p.console.arg == seat
        shown = sees(p, "%d/4" % seat)
        mine = t.awards[seat]
        if not any(mine.values()):
            sees(p, w["none"])
        for cls, n in mine.items():
            if n:
                name = t.class_zh[cls] if lang == "zh" else cls[0].upper() + cls[1:]
                assert ("%s%d" % (name, n)) in shown.replace(" ", ""), (cls, n, shown)
                won += n
        p.button("next")
    assert p.view == "over"
    assert won == sum(t.initial.values()) - sum(t.pool.values())
    never(p, "OK:", "NEXT")
