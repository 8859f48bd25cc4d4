# The bowl's vfs partition as the ESP32 port's esp32.Partition presents it to littlefs
# (ports/esp32/esp32_partition.c, block_size 4096, NATIVE_BLOCK_SIZE_BYTES): readblocks(block,
# buf[, off]) reads any bytes; writeblocks(block, buf) without an offset erases the sectors it
# covers first (esp_partition_erase_range), with one it only programs (esp_partition_write: NOR
# flash programs can only clear bits, so a program over unerased bytes ANDs them, as the chip
# does); ioctl 4/5 the block count and size, 6 erases one sector; a failed flash operation is an
# OSError (check_esp_err). Held in RAM, one bytearray; the littlefs on it is MicroPython's own
# (vfs.VfsLfs2), so whether it mounts is for littlefs to say. The 32-bit unix port only (vfs).
BS = 4096
_ERASED = b"\xff" * BS


class Partition:
    def __init__(self, blocks):
        self.blocks = blocks
        self.data = bytearray(BS * blocks)
        self.erase_all()

    def erase_all(self):
        """Blank again, in place (esptool's erase_flash): one buffer for a process's bowls."""
        self.bad = ()  # sectors whose reads fail (ESP_ERR_FLASH_OP_FAIL): see damage()
        for b in range(self.blocks):
            self._erase(b)

    def _erase(self, b):
        self.data[b * BS:(b + 1) * BS] = _ERASED

    def readblocks(self, block, buf, off=0):
        if block in self.bad:
            raise OSError(5)  # EIO: the port's check_esp_err on esp_partition_read
        a = block * BS + off
        d = self.data
        for i in range(len(buf)):  # (a loop: no slice on the heap, which the game may have locked)
            buf[i] = d[a + i]

    def writeblocks(self, block, buf, off=None):
        a = block * BS + (off or 0)
        if off is None:  # erase the sectors first, as the port does for a whole-block write
            for b in range(block, block + (len(buf) + BS - 1) // BS):
                self._erase(b)
        d = self.data
        for i in range(len(buf)):
            d[a + i] &= buf[i]

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BS
        if op == 6:
            self._erase(arg)
        return 0

    def info(self):
        return (1, 0x81, 0x250000, self.blocks * BS, "vfs", False)  # esp32.Partition.info()

    def damage(self, blocks, unreadable=False):
        """Blocks scrambled, as a power cut mid-erase or worn cells leave them (every byte
        0x5A), or, unreadable, failing every read."""
        if unreadable:
            self.bad = tuple(self.bad) + tuple(blocks)
            return
        for b in blocks:
            self.data[b * BS:(b + 1) * BS] = b"\x5a" * BS
