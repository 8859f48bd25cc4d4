# 状元王中王 on the whole simulated bowl (host_sim/portable/fakes/bowl.py): the admin menu by
# button presses, every champion's roll by a real shake trace through the
# accelerometer, the shake detector and the dice (no scripted dice), the app
# drawing each phase of the final on the display, a power cut in the middle.
from bobing import console as C
from bobing import final_play as F
from bowlkit import enter, goto, new_sim, press


def start_final(tmp_path, players):
    """A new bowl whose admin menu starts a 状元王中王 final of `players` champions -> the sim."""
    sim = new_sim(tmp_path, seed=3)
    press(sim, "menu")
    goto(sim, "admin")
    enter(sim, "1234")
    goto(sim, "final")
    enter(sim, "%02d" % players)
    press(sim, "ok")
    return sim


def shake_roll(sim):
    c = sim.console
    assert c.view == C.V_FINAL and c.final.phase == F.P_TURN
    sim.shake()
    assert sim.run_until(lambda s: s.console.final.phase == F.P_RESULT, 15000)
    out = sim.console.final.out
    frame = bytes(sim.frame)
    press(sim, "ok")
    return out, frame


def test_a_final_played_by_shaking_survives_a_power_cut(tmp_path):
    sim = start_final(tmp_path, 4)
    c = sim.console
    assert c.view == C.V_FINAL and c.final.players == 4
    turn_frame = bytes(sim.frame)
    frames = {turn_frame}
    outs = []
    for _ in range(3):
        out, frame = shake_roll(sim)
        outs.append((out.seat, out.dice))
        frames.add(frame)
    assert [s for s, _ in outs] == [1, 2, 3]
    state = (c.final.final.turn, c.final.final.round, list(c.final.log))
    sim.power_cut()
    sim.step(200)
    c = sim.console
    assert c.view == C.V_FINAL and (c.final.final.turn, c.final.final.round, c.final.log) == state
    rolls = 3
    while not c.final.final.ended:
        shake_roll(sim)
        rolls += 1
        assert rolls < 2000, "no winner after 2000 rolls"
    assert c.final.phase == F.P_OVER
    sim.step(500)
    frames.add(bytes(sim.frame))
    assert len(frames) == 5  # the turn, three results and the winner, each drawn differently
    f = c.final.final
    assert f.winner and f.winner_dice is not None
    assert len(F.decode(open(str(tmp_path) + "/" + F.FILE, "rb").read())[3]) == c.final.final.events


def test_the_next_champion_shakes_while_a_roll_shows_and_it_counts(tmp_path):
    """As at the table, a shake while the final's roll is on show is the next
    champion's roll (it was thrown away: every roll took a shake and an OK, or
    a wait of 3.5 s); once the final is won, a shake counts for nothing."""
    sim = start_final(tmp_path, 3)
    c = sim.console
    fp = c.final
    sim.shake()
    assert sim.run_until(lambda s: fp.phase == F.P_RESULT, 15000)
    sim.shake("model_gentle_shake")  # champion 2 at once, no OK: a shake shorter than the result's 3.5 s
    # the roll gives way to the shake, as the table's pages do
    assert sim.run_until(lambda s: fp.phase == F.P_SHAKING, F.RESULT_MS - 100)
    assert sim.run_until(lambda s: len(fp.log) == 2, 15000)
    assert fp.log[1][0] == 2 and fp.phase == F.P_RESULT
    while not fp.final.ended:
        if fp.phase == F.P_RESULT:
            press(sim, "ok")
        sim.shake()
        assert sim.run_until(lambda s: fp.phase == F.P_RESULT or fp.phase == F.P_OVER, 15000)
        assert len(fp.log) < 500
    n = len(fp.log)
    sim.shake()
    sim.step(6000)
    assert len(fp.log) == n and fp.phase == F.P_OVER
