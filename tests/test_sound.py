# The bowl sounds like Bo Bing (bobing/sound.py, played by the app on the
# piezo's PWM): the dice rattle while the bowl is shaken, clicks at irregular
# moments; a prize, no prize, a new 状元 and the game's end each have their own
# tune; the quiet setting plays softer, off plays nothing.
from bobing import console as C
from bobing import game, sound
from host_sim.portable.fakes import bowl as hal
from bowlkit import new_sim, press, goto


def _tones(sim, ms):
    """What the buzzer played over ms: [(hz, duty)] at each tone's start."""
    pwm = sim.board.pwm
    pwm.events = []
    sim.step(ms)
    return [e for e in pwm.events if e[1]]


def test_the_dice_rattle_while_the_bowl_is_shaken(tmp_path):
    sim = new_sim(tmp_path)
    c = sim.console
    seen = []
    sim.shake("model_normal_shake")
    for _ in range(300):
        sim.step(hal.TICK_MS)
        if c.view == C.V_SHAKING:
            seen.append((sim.now, sim.board.pwm.hz, sim.board.pwm.duty))
        if c.view == C.V_RESULT:
            break
    clicks = [t for t, hz, d in seen if d and hz in [x[0] for x in sound.CLICKS]]
    starts = [clicks[0]] + [b for a, b in zip(clicks, clicks[1:]) if b - a > hal.TICK_MS]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert len(starts) >= 4, seen
    assert len(set(gaps)) >= 3, gaps  # irregular, as dice knock


def test_each_outcome_has_its_own_tune():
    out = game.Outcome(game.EV_ROLL, 3)
    assert sound.tune_for(out, False) == sound.NO_PRIZE
    out.won = [("yixiu", 0)]
    assert sound.tune_for(out, False) == sound.PRIZE
    assert sound.tune_for(out, True) == sound.ZHUANGYUAN
    assert sound.tune_for(game.Outcome(game.EV_SPILL, 3), False) == sound.SPILL
    tunes = (sound.PRIZE, sound.NO_PRIZE, sound.ZHUANGYUAN, sound.GAME_END, sound.SPILL)
    assert len(set(tunes)) == len(tunes)


def test_a_prize_plays_its_tune_and_quiet_plays_it_softer(tmp_path):
    sim = new_sim(tmp_path)
    c = sim.console
    c.j.play(game.EV_START_SEAT, 1)
    c.show(C.V_TURN)
    c.j.play(game.EV_ROLL, (1, 2, 3, 5, 6, 6))  # (nothing)
    out = c.j.play(game.EV_ROLL, (4, 1, 2, 3, 5, 6))  # 一秀: a prize
    c._reveal(out)
    loud = _tones(sim, 600)
    assert [hz for hz, d in loud] == [hz for hz, ms in sound.steps(sound.PRIZE) if hz]
    assert {d for hz, d in loud} == {sound.DUTY[0]}
    press(sim, "menu")
    goto(sim, "sound")
    goto(sim, "quiet")
    assert c.settings.sound == "quiet"
    press(sim, "menu")
    out = c.j.play(game.EV_ROLL, (1, 2, 3, 5, 6, 6))
    c._reveal(out)
    soft = _tones(sim, 600)
    assert [hz for hz, d in soft] == [hz for hz, ms in sound.steps(sound.NO_PRIZE) if hz]
    assert {d for hz, d in soft} == {sound.DUTY[1]}
    c.settings.sound = "off"
    c._reveal(c.j.play(game.EV_ROLL, (4, 1, 2, 3, 5, 6)))
    assert _tones(sim, 600) == []
