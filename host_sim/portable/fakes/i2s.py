# machine.I2S as MicroPython v1.28's ESP32 port has it (extmod/machine_i2s.c with
# ports/esp32/machine_i2s.c included), driving the bowl's MAX98357A on the simulated
# clock, and what the amplifier was given (`data`: every byte written, in order).
#
# - The constructor: I2S(id, *, sck, ws, sd, mode, bits, format, rate, ibuf), every
#   keyword required (machine_i2s_init_helper's allowed_args); id 0 or 1 (I2S_NUM_AUTO
#   on the ESP32: "invalid id"), mode TX or RX ("invalid mode"), bits 16 or 32 ("invalid
#   bits"), format MONO or STEREO ("invalid format"); rate and ibuf are not checked (the
#   port's comments). A second I2S on the same id deinits the first (make_new_instance).
# - The DMA: max(ibuf // (256 frames x frame bytes), 2) buffers of 256 frames
#   (get_dma_buf_count, DMA_BUF_LEN_IN_I2S_FRAMES); a TX frame is bits/8 x channels
#   bytes. The DMA plays them at `rate` frames a second from enable() on; when it runs
#   dry it sends silence (auto_clear = true): `underruns` counts those gaps.
# - write(buf), blocking (the default): returns once all of buf is in the DMA
#   buffers (copy_appbuf_to_dma: i2s_channel_write with portMAX_DELAY): when they
#   lack room, the caller waits, on the board's clock, until enough was played
#   (`waited_us`, `longest_wait_us`). The copy itself (memcpy) is not charged.
# - irq(handler): non-blocking mode (machine_i2s_irq; handler None: blocking
#   again). write() then returns len(buf) at once and hands buf to the port's
#   FreeRTOS task through a queue of ONE descriptor (mp_machine_i2s_irq_update:
#   xQueueCreate(1, ...)); a write while a descriptor still waits in the queue is
#   lost (xQueueSend with no wait: `dropped`). The task copies buf into the DMA as
#   room comes (the caller must not touch buf until then) and schedules
#   handler(i2s) (mp_sched_schedule): it runs at the board's next round (run_due).
# - shift(buf=, bits=, shift=): the static method, samples shifted in place.
# - deinit(): the DMA stops; write() on a deinit'ed or RX I2S: OSError EPERM (RX).
# Runs on the MicroPython unix port and on CPython.
TX = 2  # I2S_DIR_TX (ESP-IDF i2s_types.h: BIT(1)); MICROPY_PY_MACHINE_I2S_CONSTANT_TX
RX = 1  # I2S_DIR_RX: BIT(0)
MONO = 0
STEREO = 1
IDS = 2  # the ESP32 has I2S0 and I2S1
DMA_FRAMES = 256  # DMA_BUF_LEN_IN_I2S_FRAMES
_KW = ("sck", "ws", "sd", "mode", "bits", "format", "rate", "ibuf")


def shift(buf=None, bits=None, shift=None):
    """I2S.shift: every sample of buf shifted left (shift > 0) or right (arithmetic)."""
    if buf is None or bits is None or shift is None:
        raise TypeError("'buf', 'bits' and 'shift' are required keyword arguments")
    if bits not in (16, 32):
        raise ValueError("invalid bits")
    n = bits // 8
    mv = memoryview(buf)
    top = 1 << (bits - 1)
    for i in range(0, len(mv) - n + 1, n):
        v = int.from_bytes(bytes(mv[i:i + n]), "little")
        if v >= top:
            v -= top << 1
        v = v << shift if shift >= 0 else v >> -shift
        mv[i:i + n] = (v & ((top << 1) - 1)).to_bytes(n, "little")


class FakeI2S:
    TX = TX
    RX = RX
    MONO = MONO
    STEREO = STEREO
    shift = staticmethod(shift)

    def __init__(self, board, id, pins):
        self.board = board  # the SimBoard: its clock (now_us, io_us) and the callbacks' round
        self.id = id
        self.pins = pins  # {"sck": gpio, "ws": gpio, "sd": gpio}: what board.py wired
        self.data = bytearray()  # what the amplifier was sent
        self.writes = 0
        self.underruns = 0
        self.waited_us = 0
        self.longest_wait_us = 0
        self.dropped = 0
        self.handler = None
        self.deinited = False
        self._level = 0  # bytes in the DMA not yet played
        self._t = 0  # us when _level was last brought up to date
        self._rem = 0  # what was played since, in byte-microseconds short of a whole byte
        self._queue = []  # non-blocking: [(us when its copy is done, handler)] not yet called back

    def init(self, **kw):
        for k in _KW:
            if k not in kw:
                raise TypeError("'%s' argument required" % k)
        if len(kw) != len(_KW):
            raise TypeError("unexpected keyword argument")
        if kw["mode"] not in (TX, RX):
            raise ValueError("invalid mode")
        if kw["bits"] not in (16, 32):
            raise ValueError("invalid bits")
        if kw["format"] not in (MONO, STEREO):
            raise ValueError("invalid format")
        self.mode = kw["mode"]
        self.bits = kw["bits"]
        self.format = kw["format"]
        self.rate = kw["rate"]
        self.ibuf = kw["ibuf"]
        frame = self.bits // 8 * (2 if self.format == STEREO else 1)
        self.frame = frame
        self.dma_bufs = max(self.ibuf // (DMA_FRAMES * frame), 2)
        self.capacity = self.dma_bufs * DMA_FRAMES * frame
        self.handler = None
        self.deinited = False
        self._level = 0
        self._rem = 0
        self._t = self.board.now_us()

    def _bytes_per_s(self):
        return self.rate * self.frame

    def _play_to(self, now):
        num = (now - self._t) * self._bytes_per_s() + self._rem  # (exact: no byte lost to rounding)
        played = num // 1000000
        self._rem = num % 1000000
        self._t = now
        if played > self._level:
            if self._level:
                self.underruns += 1  # it ran dry: auto_clear sends silence from here
            self._level = 0
            self._rem = 0
        else:
            self._level -= played

    def level(self):
        """Bytes in the DMA now, not yet played."""
        self._play_to(self.board.now_us())
        return self._level

    def playing_until_us(self):
        """When the DMA's last written byte will have been played (board us)."""
        now = self.board.now_us()
        self._play_to(now)
        return now + self._level * 1000000 // self._bytes_per_s()

    def _room_wait_us(self, n):
        over = self._level + n - self.capacity
        return 0 if over <= 0 else (over * 1000000 + self._bytes_per_s() - 1) // self._bytes_per_s()

    def write(self, buf):
        if self.deinited or self.mode != TX:
            raise OSError(1)  # MP_EPERM: machine_i2s_stream_write on an RX (or stopped) I2S
        n = len(buf)
        if not n:
            return 0
        b = self.board
        now = b.now_us()
        self._play_to(now)
        if self.handler is None:  # blocking: the caller waits for room
            wait = self._room_wait_us(n)
            if wait:
                b.io_us(wait)
                self.waited_us += wait
                self.longest_wait_us = max(self.longest_wait_us, wait)
                self._play_to(b.now_us())
            self._take(buf)
            return n
        # non-blocking: the task copies one descriptor, ONE more waits in its queue, a third is lost
        if sum(1 for done, _h in self._queue if done > now) >= 2:
            self.dropped += 1
            return n
        done = now + self._room_wait_us(n)  # its last byte goes in when all before it left room
        self._take(buf)  # (the bytes as they are now: the caller must leave buf alone until its callback)
        self._queue.append((done, self.handler))
        return n

    def _take(self, buf):
        self.data.extend(buf)
        self._level += len(buf)
        self.writes += 1

    def run_due(self):
        """The scheduled callbacks whose copies are done by now (the VM runs them between
        bytecodes: here, at the board's next round)."""
        now = self.board.now_us()
        while self._queue and self._queue[0][0] <= now:
            _, h = self._queue.pop(0)
            h(self)

    def irq(self, handler):
        if handler is not None and not callable(handler):
            raise ValueError("invalid callback")
        self.handler = handler

    def readinto(self, buf):
        raise OSError(1)  # MP_EPERM: the bowl's I2S is TX

    def deinit(self):
        self.deinited = True
        self._queue = []
        self._level = 0
