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
# What is said (say_for: the one place): a new 状元 its fanfare (the piezo's
# sound.ZHUANGYUAN tune, rendered at build time) and "状元!", then its rank; any
# other roll its rank ("无" for nothing); then whose turn it is by the seat's name
# ("轮到奶奶", or "轮到3号"), or "游戏结束" when the game ended.
#
# Pacing: machine.I2S in its blocking mode (no irq: extmod/machine_i2s.c) copies a
# write into the DMA buffers and returns at once while they have room; only a full
# DMA makes it wait (ports/esp32/machine_i2s.c, copy_appbuf_to_dma: i2s_channel_write
# with portMAX_DELAY). The player keeps at most AHEAD bytes beyond what the sound's
# clock has played, and IBUF holds AHEAD plus a chunk with room to spare, so a write
# never waits. The sound's clock starts at a write that finds nothing in flight (a
# say after silence, or after the loop was held longer than AHEAD lasts and the DMA
# ran dry: it sends silence then, auto_clear), so the DMA's fill stays what the
# pacing believes, to within the time between a round's start and its write.
import time

from micropython import const

from bobing import game, rules, store
from bobing.vocab import TITLES

RATE = const(8000)  # samples a second: speech, as the telephone carries it
CHUNK = const(320)  # bytes a write: 20 ms of sound (the loop comes round every 10 ms)
AHEAD = const(1600)  # bytes sent ahead of the sound played (100 ms): the I2S DMA buffer's share
# the DMA's bytes (machine.I2S's ibuf): the ESP32 port makes ibuf // 512 buffers of 256
# frames (get_dma_buf_count; a 16-bit mono frame is 2 bytes): 6 of 32 ms, 192 ms of sound.
# ESP-IDF allocates them from its own DMA-capable RAM, not MicroPython's heap.
IBUF = const(3072)
SUFFIX = ".pcm"
FOLDER = "voice"
QUIET_SHIFT = const(-2)  # the sound setting "quiet": samples shifted 2 bits down, -12 dB (I2S.shift)

FANFARE = "fanfare"  # the 状元's fanfare (bobing/sound.py's ZHUANGYUAN on the speaker)
ZHUANGYUAN = "zhuangyuan"  # "状元!"
TURN = "turn"  # "轮到"
GAME_OVER = "game_over"  # "游戏结束"


def tunes():
    """-> [(clip name, sound.py tune name)], the clips that are tunes, not speech."""
    return [(FANFARE, "ZHUANGYUAN")]

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


def say_for(out, zhuangyuan, ended, turn, names):
    """The clips the bowl says for outcome `out` (a roll or a spill, of the table or the
    final): the fanfare and "状元!" when zhuangyuan (the roller took the 状元), the
    rank, then "游戏结束" when it ended the game, else whose turn it is: `turn` (0:
    none); names, the seats' (Settings.names)."""
    said = []
    if out.kind == game.EV_ROLL and out.dice is not None and len(out.dice) == 6:  # (not the start's two)
        if zhuangyuan:
            said.append(FANFARE)
            said.append(ZHUANGYUAN)
        said.append(rules.RANK_IDS[out.rank])
    if ended:
        said.append(GAME_OVER)
    elif turn:
        said.append(TURN)
        said.append(seat_clip(turn, names))
    return said


class Voice:
    """Plays clips from ROOT/voice to `out` (machine.I2S or a stand-in: write(buf)),
    a chunk at a time from step(t_ms), paced by the sound's own clock so a write
    never waits for the amplifier: at most AHEAD bytes are sent before they are
    heard. say() queues clips (a new say drops what was left of the last); shift:
    the samples' shift (0, or QUIET_SHIFT), done in C by the I2S's shift()."""

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
        self.shift = 0

    def say(self, names, t_ms):
        """Say clips `names` -> False when the first cannot be opened (the caller's
        piezo plays instead). What the last say left in the DMA is still heard first:
        the sound's clock goes on (step starts it again once nothing is in flight)."""
        self.stop()
        self._queue = list(names)
        return self._open_next()

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
        d = time.ticks_diff(t_ms, self._t0)  # (the ESP32's ms ticks wrap)
        if d < 0:
            d = 0
        ahead = self._sent - d * (RATE * 2 // 1000)
        if ahead >= AHEAD:
            return  # the amplifier has enough: a write now would wait for it
        if ahead <= 0:  # nothing in flight (a new say, or the loop was held and the DMA ran dry):
            self._t0 = t_ms  # the sound's clock starts at this write
            self._sent = 0
        n = self._f.readinto(self._buf)
        if not n:
            self._f.close()
            self._f = None
            return
        b = self._buf if n == CHUNK else self._mv[:n]  # (a slice only where a clip is not whole chunks)
        if self.shift:
            self.out.shift(buf=b, bits=16, shift=self.shift)
        self.out.write(b)
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
