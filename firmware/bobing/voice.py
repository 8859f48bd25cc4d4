# The bowl's voice: what it says after a roll, in Mandarin, and the player that
# streams the clips to an I2S amplifier (a MAX98357A and a small speaker) a chunk
# at a time, never holding the game loop.
#
# Clips (host_sim/tools/make_voice.py, at build time, by Debian's espeak-ng
# Mandarin voice): one file a phrase, ROOT/voice/NAME.pcm, raw 16-bit signed
# little-endian mono samples at RATE. That is what machine.I2S(bits=16,
# format=MONO) sends as it is: a chunk read from flash goes straight to the
# amplifier, with no decoding (an ADPCM or MP3 decoder would cost the loop
# milliseconds a chunk and RAM for its state); the price is flash, 16 kB a
# second of speech (the clip table's sizes: make_voice.py prints them).
#
# What is said (say_for: the one place): a 状元 roll "状元!" then its rank; any
# other roll its rank ("无" for nothing); then whose turn it is by the seat's name
# ("轮到奶奶", or "轮到3号"), or "游戏结束" when the game ended.
from micropython import const

from bobing import game, rules, store
from bobing.vocab import TITLES

RATE = const(8000)  # samples a second: speech, as the telephone carries it
CHUNK = const(320)  # bytes a write: 20 ms of sound (the loop comes round every 10 ms)
AHEAD = const(1600)  # bytes sent ahead of the sound played (100 ms): the I2S DMA buffer's share
SUFFIX = ".pcm"
FOLDER = "voice"

ZHUANGYUAN = "zhuangyuan"  # "状元!"
TURN = "turn"  # "轮到"
GAME_OVER = "game_over"  # "游戏结束"

# every clip: its name and what espeak-ng says (make_voice.py makes one file each)
def clips():
    """-> [(clip name, Mandarin text)], every clip the bowl can say."""
    out = [(ZHUANGYUAN, "状元!"), (TURN, "轮到"), (GAME_OVER, "游戏结束")]
    zh = rules.rank_names("zh")
    for i in range(len(rules.RANK_IDS)):
        out.append((rules.RANK_IDS[i], zh[i]))
    from bobing.vocab import TITLES_ZH
    for i in range(len(TITLES)):
        out.append((TITLES[i].lower(), TITLES_ZH[i]))
    for n in range(1, game.MAX_SEATS + 1):
        out.append(("seat%d" % n, "%d号" % n))
    return out


def seat_clip(seat, names):
    """The clip that names a seat: its title ("nainai") or its number ("seat3")."""
    k = names[seat - 1] if names is not None and 0 < seat <= len(names) else 0
    return TITLES[k - 1].lower() if k else "seat%d" % seat


def say_for(out, turn, names):
    """The clips the bowl says for outcome `out` of a table game (a roll or a
    spill): "状元!" for a new 状元 (the roller takes it), the rank, then "游戏结束"
    when it ended the game, else whose turn it is: `turn` (0: none); names, the
    seats' (Settings.names)."""
    said = []
    if out.kind == game.EV_ROLL and out.dice is not None and len(out.dice) == 6:  # (not the start's two)
        if out.holder_after == out.seat and out.holder_before != out.seat:
            said.append(ZHUANGYUAN)
        said.append(rules.RANK_IDS[out.rank])
    if out.ended:
        said.append(GAME_OVER)
    elif turn:
        said.append(TURN)
        said.append(seat_clip(turn, names))
    return said


class Voice:
    """Plays clips from ROOT/voice to `out` (machine.I2S or a stand-in: write(buf)),
    a chunk at a time from step(t_ms), paced by the sound's own clock so a write
    never waits for the amplifier: at most AHEAD bytes are sent before they are
    heard. say() queues clips (a new say drops what was left of the last)."""

    def __init__(self, root, out):
        self.root = root
        self.out = out
        self._buf = bytearray(CHUNK)
        self._mv = memoryview(self._buf)
        self._queue = []
        self._f = None
        self._t0 = 0  # when the sound now playing began (ms)
        self._sent = 0  # bytes sent since then
        self.missing = None  # the first clip not found on flash (said once by the caller)

    def say(self, names, t_ms):
        self.stop()
        self._queue = list(names)
        self._t0 = t_ms
        self._sent = 0

    def stop(self):
        if self._f is not None:
            self._f.close()
            self._f = None
        self._queue = []

    @property
    def speaking(self):
        return self._f is not None or bool(self._queue)

    def step(self, t_ms):
        """Send what the sound's clock allows (at most one chunk a call)."""
        if self._f is None and not self._open_next():
            return
        d = t_ms - self._t0
        if d < 0:
            d = 0
        if self._sent - d * (RATE * 2 // 1000) >= AHEAD:
            return  # the amplifier has enough: a write now would wait for it
        n = self._f.readinto(self._buf)
        if not n:
            self._f.close()
            self._f = None
            return
        self.out.write(self._buf if n == CHUNK else self._mv[:n])  # (a slice only at a clip's end)
        self._sent += n

    def _open_next(self):
        while self._queue:
            name = self._queue.pop(0)
            try:
                self._f = open(store.join(store.join(self.root, FOLDER), name + SUFFIX), "rb")
                return True
            except OSError:
                if self.missing is None:
                    self.missing = name
        return False
