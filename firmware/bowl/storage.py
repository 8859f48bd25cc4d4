# The bowl's filesystem at boot (the frozen _boot.py, firmware/boards/BOBING_ESP32/modules, calls
# board.mount(), which calls mount() here). The port's own _boot.py (ports/esp32/modules/_boot.py)
# mounts the vfs partition and, when that fails, calls inisetup.setup(): a blank flash gets a new
# littlefs, but any other flash goes to fs_corrupted(), which prints its message every 3 s for ever,
# before the watchdog starts and before main.py (which lived on that filesystem) could run: only a
# reflash with erase brought the bowl back, and it took the games with it. Here a flash that does
# not mount is left unmounted and said: the app then shows bowl/repair.py's screen instead of the game.
# Hardware-free: the block device and the vfs module are passed in.
BLOCK_SIZE_IOCTL = 5  # MicroPython's block protocol: ioctl(5) -> the block size (extmod/vfs.h)
_PROBE = 256  # bytes read at a time when asking whether the first block is blank


def blank(bdev):
    """-> True when the first block is all 0xFF: a flash that was never written (a new bowl, or
    one just erased), which inisetup.check_bootsec() formats; anything else is a damaged one."""
    size = bdev.ioctl(BLOCK_SIZE_IOCTL, 0)
    buf = bytearray(_PROBE)
    for off in range(0, size, _PROBE):
        bdev.readblocks(0, buf, off)  # (the extended protocol, as esp32.Partition has it)
        for b in buf:
            if b != 0xFF:
                return False
    return True


def mount(bdev, vfs, at="/"):
    """Mount the bowl's filesystem at `at` -> None, or why it could not be mounted (a text).
    A blank flash is formatted first, as the port's inisetup.setup() does (the bowl's boot.py
    and main.py are frozen: nothing is written for them)."""
    try:
        vfs.mount(bdev, at)
        return None
    except OSError as e:
        why = "%s" % e
    try:
        if not blank(bdev):
            return why
        vfs.VfsLfs2.mkfs(bdev)
        vfs.mount(bdev, at)
    except OSError as e:  # a flash that cannot even be read: damaged as well
        return "%s (%s)" % (why, e)
    return None
