# The bowl's voice (firmware/bobing/voice.py): every clip made by Debian's espeak-ng and sox
# (host_sim/tools/make_voice.py), what a roll makes the bowl say, the player's pacing (never
# more than its buffer ahead of the sound, a chunk a loop), and the simulator's --say-to WAV,
# each checked with sox as a listener's tools read it.
import os
import subprocess
import wave

import pytest

from bobing import game, rules, voice
from bobing import vocab
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


class Sink:
    """machine.I2S's write as the voice drives it, with the time of each write."""

    def __init__(self):
        self.data = bytearray()
        self.writes = []

    def write(self, buf):
        self.data.extend(buf)
        self.writes.append((self.t, len(buf)))
        return len(buf)


def test_a_zhuangyuan_roll_says_zhuangyuan_its_rank_and_whose_turn_by_name(clips, tmp_path):
    t = game.Table("xiamen", 4)
    t.start_seat(1)
    out = t.roll([4, 1, 4, 4, 1, 4])  # 状元插金花: seat 1 takes the 状元
    names = bytearray(game.MAX_SEATS)
    names[1] = vocab.TITLES.index("Nainai") + 1
    said = voice.say_for(out, t.turn, names)
    assert said == [voice.ZHUANGYUAN, "chajinhua", voice.TURN, "nainai"]  # "状元! 状元插金花 轮到奶奶"
    sink = Sink()
    v = voice.Voice(clips, sink)
    now = 1000
    v.say(said, now)
    while v.speaking:
        sink.t = now
        v.step(now)
        now += 10  # the game loop's period
        assert now < 60000
    sent = 0
    for t_ms, n in sink.writes:  # a chunk at a time, never more than the buffer ahead of the sound
        assert n <= voice.CHUNK
        sent += n
        assert sent - (t_ms - 1000) * voice.RATE * 2 // 1000 <= voice.AHEAD + voice.CHUNK
    wav = str(tmp_path / "said.wav")
    with wave.open(wav, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(voice.RATE)
        w.writeframes(bytes(sink.data))
    want = sum(os.path.getsize(os.path.join(clips, voice.FOLDER, n + voice.SUFFIX)) for n in said)
    assert abs(seconds(wav) - want / 2.0 / voice.RATE) < 0.002
    first = open(os.path.join(clips, voice.FOLDER, voice.ZHUANGYUAN + voice.SUFFIX), "rb").read()
    assert bytes(sink.data[:len(first)]) == first  # "状元!" first, as made


def test_a_roll_without_a_new_zhuangyuan_says_its_rank_and_the_end_says_so():
    t = game.Table("xiamen", 3)
    t.start_seat(1)
    out = t.roll([4, 1, 2, 3, 6, 6])
    assert voice.say_for(out, t.turn, None) == ["yixiu", voice.TURN, "seat2"]
    out.ended = True
    assert voice.say_for(out, t.turn, None) == ["yixiu", voice.GAME_OVER]


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
