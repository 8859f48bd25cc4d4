# The bowl's voice (firmware/bobing/voice.py): every clip made by Debian's espeak-ng and sox
# (host_sim/tools/make_voice.py), what a roll makes the bowl say, the player's pacing (never
# more than its buffer ahead of the sound, a chunk a loop), and the simulator's --say-to WAV,
# each checked with sox as a listener's tools read it.
import os
import subprocess
import wave

import array
import shutil

import pytest

from bobing import game, rules, voice
from bobing import vocab
from host_sim.portable.fakes import bowl as hal
from host_sim.portable.fakes import esp32 as fake_esp32
from host_sim.portable.fakes import i2s as fake_i2s
from host_sim import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from host_sim.tools import make_voice  # noqa: E402


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("flash"))
    make_voice.make(os.path.join(root, voice.FOLDER))
    return root



def seconds(path, *raw):
    """The length of a sound file as sox reads it (a raw clip: its format given first)."""
    if not raw:
        return float(subprocess.run(["soxi", "-D", path], capture_output=True, text=True, check=True).stdout)
    r = subprocess.run(["sox"] + list(raw) + [path, "-n", "stat"], capture_output=True, text=True, check=True)
    return float([x for x in r.stderr.splitlines() if x.startswith("Length (seconds)")][0].split(":")[1])


RAW = ("-t", "raw", "-r", "%d" % voice.RATE, "-e", "signed", "-b", "16", "-c", "1", "-L")


def test_the_app_looks_for_the_clips_where_the_voice_keeps_them():
    from bowl import app
    assert app.VOICE_FOLDER == voice.FOLDER


def test_every_rank_and_every_seat_has_a_clip_of_speech(clips):
    names = [n for n, _t in voice.clips()]
    for rank in rules.RANK_IDS:
        assert rank in names
    for t in vocab.TITLES:
        assert t.lower() in names
    for n, _t in voice.clips():
        path = os.path.join(clips, voice.FOLDER, n + voice.SUFFIX)
        s = seconds(path, *RAW)
        assert 0.2 <= s <= 3.0, (n, s)  # a word or two of speech, its silence trimmed
        assert os.path.getsize(path) % voice.CHUNK == 0  # whole chunks: no step writes a slice (allocates)


class Clock:
    """The board's clock as fakes/i2s.py reads it: a blocking write's wait passes on it."""

    def __init__(self):
        self.us = 0

    def now_us(self):
        return self.us

    def io_us(self, us):
        self.us += us


def amp(clock):
    """machine.I2S as board.py makes it for the MAX98357A (the fake of the ESP32 port's)."""
    import board
    dev = fake_i2s.FakeI2S(clock, board.I2S_ID, {})
    dev.init(sck=None, ws=None, sd=None, mode=fake_i2s.TX, bits=16, format=fake_i2s.MONO, rate=voice.RATE,
             ibuf=voice.IBUF)
    return dev


def clip(root, name):
    with open(os.path.join(root, voice.FOLDER, name + voice.SUFFIX), "rb") as f:
        return f.read()


def test_a_zhuangyuan_roll_says_its_fanfare_zhuangyuan_its_rank_and_whose_turn_by_name():
    t = game.Table("xiamen", 4)
    t.start_seat(1)
    out = t.roll([4, 1, 4, 4, 1, 4])  # 状元插金花: seat 1 takes the 状元
    names = bytearray(game.MAX_SEATS)
    names[1] = vocab.TITLES.index("Nainai") + 1
    said = voice.say_for(out, True, False, t.turn, names)
    assert said == [voice.FANFARE, voice.ZHUANGYUAN, "chajinhua", voice.TURN, "nainai"]  # "状元! 状元插金花 轮到奶奶"
    assert voice.say_for(out, False, False, t.turn, names) == ["chajinhua", voice.TURN, "nainai"]  # (not a new one)


def test_a_roll_without_a_new_zhuangyuan_says_its_rank_and_the_end_says_so():
    t = game.Table("xiamen", 3)
    t.start_seat(1)
    out = t.roll([4, 1, 2, 3, 6, 6])
    assert voice.say_for(out, False, False, t.turn, None) == ["yixiu", voice.TURN, "seat2"]
    assert voice.say_for(out, False, True, t.turn, None) == ["yixiu", voice.GAME_OVER]


def test_the_fanfare_is_the_piezos_zhuangyuan_tune_on_the_speaker(clips):
    from bobing import sound
    ms = sum(m for _hz, m in sound.steps(sound.ZHUANGYUAN))
    assert abs(seconds(os.path.join(clips, voice.FOLDER, voice.FANFARE + voice.SUFFIX), *RAW) - ms / 1000.0) < 0.001


def play(v, dev, clock, hold_at=None, hold_ms=0):
    """The game loop: a step every 10 ms on the board's clock (once held hold_ms, at hold_at ms)."""
    t = clock.us // 1000
    while v.speaking:
        v.step(t)
        for _ in range(3):  # (the sensor round between the pieces of a long frame steps it again)
            v.step(t)
        clock.us += 10000
        if hold_at is not None and t >= hold_at:
            clock.us += hold_ms * 1000  # a flash erase, a long frame: the loop is held
            hold_at = None
        t = clock.us // 1000
        assert t < 60000


def test_the_voice_streams_a_chunk_a_loop_and_never_waits_for_the_amplifier(clips):
    clock = Clock()
    clock.us = 1000000
    dev = amp(clock)
    assert (dev.dma_bufs, dev.capacity) == (6, 3072)  # ibuf 3072: 6 DMA buffers of 256 frames x 2 bytes
    v = voice.Voice(clips, dev)
    said = [voice.FANFARE, voice.ZHUANGYUAN, "chajinhua", voice.TURN, "nainai"]
    assert v.say(said, clock.us // 1000)
    play(v, dev, clock)
    assert dev.waited_us == 0 and dev.underruns == 0  # never a write that waits, never a gap
    assert bytes(dev.data) == b"".join(clip(clips, n) for n in said)
    # a say while the last still plays: it is heard after what is in the DMA, still no wait
    v.say(["yixiu", voice.TURN, "seat2"], clock.us // 1000)
    play(v, dev, clock)
    v.say(["erju"], clock.us // 1000)
    clock.us += 20000
    v.say(["sanhong", voice.GAME_OVER], clock.us // 1000)
    play(v, dev, clock)
    assert dev.waited_us == 0
    # the loop held 300 ms mid-clip: the DMA runs dry once (silence), and the clock starts again after
    v.say(said, clock.us // 1000)
    play(v, dev, clock, hold_at=clock.us // 1000 + 500, hold_ms=300)
    assert dev.underruns == 1 and dev.waited_us == 0


def test_quiet_says_it_12_db_down_through_the_i2s_shift(clips):
    clock = Clock()
    dev = amp(clock)
    v = voice.Voice(clips, dev)
    v.shift = voice.QUIET_SHIFT
    v.say(["yixiu"], 0)
    play(v, dev, clock)
    a = array.array("h", clip(clips, "yixiu"))
    b = array.array("h", bytes(dev.data))
    assert list(b) == [x >> 2 for x in a]


def test_the_fake_i2s_checks_its_arguments_as_the_esp32_port_does():
    e = fake_esp32.FakeESP32(hal.SimBoard.__new__(hal.SimBoard))
    kw = dict(sck=e.pin(25), ws=e.pin(4), sd=e.pin(14), mode=e.I2S.TX, bits=16, format=e.I2S.MONO, rate=8000,
              ibuf=3072)
    for bad, why in (({"mode": 3}, "invalid mode"), ({"bits": 24}, "invalid bits"), ({"format": 2}, "invalid format")):
        with pytest.raises(ValueError, match=why):
            e.I2S(0, **dict(kw, **bad))
    with pytest.raises(ValueError, match="invalid id"):
        e.I2S(2, **kw)
    with pytest.raises(TypeError):
        e.I2S(0, **{k: v for k, v in kw.items() if k != "ibuf"})  # every keyword is required
    dev = amp(Clock())
    dev.init(sck=None, ws=None, sd=None, mode=fake_i2s.TX, bits=16, format=fake_i2s.MONO, rate=8000, ibuf=100)
    assert dev.dma_bufs == 2  # ESP-IDF's least: get_dma_buf_count
    dev.init(sck=None, ws=None, sd=None, mode=fake_i2s.TX, bits=32, format=fake_i2s.STEREO, rate=8000, ibuf=8192)
    assert dev.capacity == 4 * 256 * 8


def test_a_blocking_write_waits_for_room_and_a_non_blocking_one_calls_back():
    clock = Clock()
    dev = amp(clock)  # 3072 bytes of DMA, played at 16,000 bytes a second
    assert dev.write(bytes(3072)) == 3072 and clock.us == 0
    dev.write(bytes(320))  # full: the caller waits for 320 bytes to be played, 20 ms
    assert clock.us == 20000 and dev.waited_us == 20000
    done = []
    dev.irq(done.append)
    t = clock.us
    assert dev.write(bytes(320)) == 320 and clock.us == t  # returns at once
    assert dev.write(bytes(320)) == 320  # one more waits in the queue
    assert dev.write(bytes(320)) == 320 and dev.dropped == 1  # a third is lost (a queue of one)
    dev.run_due()
    assert done == []
    clock.us += 40000
    dev.run_due()
    assert done == [dev, dev]
    with pytest.raises(ValueError):
        dev.irq(5)


def test_the_simulator_writes_what_the_bowl_says_to_a_wav(clips, tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("seats 3\nnew\nshake\nwait 6000\nshake\nwait 6000\n")
    wav = str(tmp_path / "said.wav")
    assert cli.main(["play", "--root", clips, "--names", "爷爷,奶奶", "--script", str(script), "--quiet",
                     "--seed", "voice", "--say-to", wav]) == 0
    s = seconds(wav)
    assert s > 1.0, s  # the start's "轮到..." and a roll's rank at least
    with wave.open(wav) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, voice.RATE)


def family(clips, tmp_path, seed, voiced=True):
    """A family's bowl: its flash with the voice's clips (as a deploy copies them), 4 seats,
    爷爷 and 奶奶 at seats 1 and 2, a new game and its start roll."""
    from bowlrun import Stream
    from host_sim.sim.player import Player
    root = str(tmp_path / "flash")
    os.makedirs(root)
    if voiced:
        shutil.copytree(os.path.join(clips, voice.FOLDER), os.path.join(root, voice.FOLDER))
    p = Player(root, urandom=Stream(seed))
    p.step(200)
    p.speak()
    p.set_seats(4)
    p.new_game()
    names = bytearray(game.MAX_SEATS)
    names[0] = vocab.TITLES.index("Yeye") + 1
    names[1] = vocab.TITLES.index("Nainai") + 1
    p.set_names(names)
    p.play(1)
    return p


def quiet_now(p):
    """Wait until the bowl has said all it had to say (its DMA played out too)."""
    v = p.sim.app.voice
    for _ in range(1000):
        dev = p.sim.board.i2s
        if (v is None or not v.speaking) and (dev is None or dev.level() == 0):
            return
        p.step(10)
    raise AssertionError("the bowl goes on speaking")


def shake_until_a_new_zhuangyuan(p, max_rolls=300):
    """Play until a roll takes the 状元 -> (seat, what the amplifier got from that roll on)."""
    for _ in range(max_rolls):
        assert p.ready(), "the game ended without a new 状元"
        quiet_now(p)
        t = p.table
        seat, holder = t.turn, t.holder
        heard = len(p.said)
        p.shake(500)
        if t.holder == seat and holder != seat:
            tones = p.sim.board.pwm.tones  # (the rattle's clicks are over)
            quiet_now(p)
            p.step(2000)
            return seat, bytes(p.said[heard:]), p.sim.board.pwm.tones - tones
    raise AssertionError("no new 状元 in %d rolls" % max_rolls)


def called(t, rank, zhuangyuan):
    """What a family hears after a roll: the fanfare and "状元!" for a new 状元, the rank
    ("一秀" .. "状元插金花"), then "游戏结束" or whose turn by name ("轮到奶奶")."""
    name = {1: "yeye", 2: "nainai"}.get(t.turn, "seat%d" % t.turn)
    return (([voice.FANFARE, voice.ZHUANGYUAN] if zhuangyuan else []) + [rank]
            + ([voice.GAME_OVER] if t.ended else [voice.TURN, name]))


def test_a_family_hears_the_bowl_call_out_the_zhuangyuan_and_whose_turn_it_is(clips, tmp_path):
    p = family(clips, tmp_path, seed=1)
    for _ in range(4):  # rolls until the next is 奶奶's: "... 轮到奶奶"
        quiet_now(p)
        heard = len(p.said)
        p.play(1)
        quiet_now(p)
        t = p.table
        want = called(t, rules.RANK_IDS[p.console.out.rank], False)
        assert bytes(p.said[heard:]) == b"".join(clip(clips, n) for n in want)
        if t.turn == 2:
            break
    assert want[-2:] == [voice.TURN, "nainai"]
    seat, heard, tones = shake_until_a_new_zhuangyuan(p)
    rank = rules.RANK_IDS[p.console.out.rank]
    assert rules.is_zhuangyuan(p.console.out.rank)
    want = called(p.table, rank, True)
    assert heard == b"".join(clip(clips, n) for n in want)
    assert tones == 0  # the speaker plays the fanfare: the piezo's gives way
    assert p.sim.board.i2s.waited_us == 0  # the game loop never waited for the amplifier
    wav = str(tmp_path / "zhuangyuan.wav")
    with wave.open(wav, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(voice.RATE)
        w.writeframes(heard)
    clip_s = seconds(os.path.join(clips, voice.FOLDER, voice.ZHUANGYUAN + voice.SUFFIX), *RAW)
    want_s = sum(seconds(os.path.join(clips, voice.FOLDER, n + voice.SUFFIX), *RAW) for n in want)
    assert abs(seconds(wav) - want_s) < 0.002 and clip_s > 0.3  # sox: the 状元 call at its clips' length


def test_with_the_sound_off_the_bowl_says_nothing_and_without_clips_the_piezo_plays(clips, tmp_path):
    p = family(clips, tmp_path / "off", seed=1)
    p._set("sound", "off")
    heard = len(p.said)
    p.play(3)
    quiet_now(p)
    assert len(p.said) == heard  # off: silent
    p._set("sound", "on")
    p.play(1)
    quiet_now(p)
    assert len(p.said) > heard  # on again: it speaks
    # a bowl whose flash has no clips: the piezo plays the 状元's fanfare, as it always did
    q = family(clips, tmp_path / "bare", seed=1, voiced=False)
    assert any("voice: no clips" in line for line in q.log)
    _seat, heard, tones = shake_until_a_new_zhuangyuan(q)
    assert heard == b"" and q.sim.board.i2s is None  # (no I2S made: no DMA memory spent)
    assert tones >= 4  # the fanfare's notes on the piezo


def test_the_window_plays_what_the_bowl_says_on_its_speaker(clips, tmp_path, monkeypatch):
    import pygame  # pinned in requirements.txt
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")  # SDL's dummy audio device: the mixer runs, nothing sounds
    from bowlrun import Stream
    from host_sim.sim import window
    from host_sim.sim.player import Player
    root = str(tmp_path / "flash")
    shutil.copytree(os.path.join(clips, voice.FOLDER), os.path.join(root, voice.FOLDER))
    frames = {"n": 0}
    real_get = pygame.event.get

    def get():
        real_get()
        frames["n"] += 1
        if frames["n"] == 5:
            return [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ")]
        if frames["n"] == 55:
            return [pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE)]
        return []
    monkeypatch.setattr(pygame.event, "get", get)
    played = []  # the samples the window handed its mixer's voice channel
    real_channel = pygame.mixer.Channel

    class Channel:
        def __init__(self, n):
            self.ch = real_channel(n)

        def play(self, snd):
            played.append(len(snd.get_raw()) // 2)
            return self.ch.play(snd)

        def queue(self, snd):
            played.append(len(snd.get_raw()) // 2)
            return self.ch.queue(snd)

        def get_busy(self):
            return self.ch.get_busy()

        def get_queue(self):
            return self.ch.get_queue()
    monkeypatch.setattr(pygame.mixer, "Channel", Channel)
    p = Player(root, urandom=Stream(3))
    try:
        p.step(200)
        p.speak()
        assert window.run(p, frames=400) == 0
    finally:
        p.close()
    speaker = p.hear.__self__
    assert speaker.ok, "SDL's dummy audio device did not start the mixer"
    assert p.console.rolled >= 1 and len(p.said) > voice.RATE  # the start roll and a roll: a second of speech and more
    want = len(p.said) // 2 * window.Speaker.RATE // voice.RATE  # the bowl's samples at the mixer's rate
    assert abs(speaker.voiced - want) <= want // 100 and played
    assert sum(played) + len(speaker._pending) // 2 == speaker.voiced  # all of it played, queued or next
