"""The bowl's ESP32 image against its app partition, estimated here (ESP-IDF cannot run here).

    python bench/image_size.py      (make bench; needs `make mp`)

1. The bowl's frozen modules (firmware/boards/BOBING_ESP32/manifest.py less the port's own) as
   the pinned mpy-cross compiles them for the ESP32 (-march=xtensawin): their .mpy bytes.
2. What freezing costs per .mpy byte, measured on the two 32-bit unix builds of `make mp`: the
   frozen build's text+data less the stock build's, over the .mpy bytes of what it freezes more
   (the bowl, ssd1306, umqtt.simple and the simulated hardware). Frozen code is mpy-tool's C
   structures with 32-bit pointers, as on the ESP32.
3. The port's own image: the official v1.28.0 ESP32_GENERIC firmware,
   micropython.org/resources/firmware/ESP32_GENERIC-20260406-v1.28.0.bin (SHA-256
   cd7820d02c35d34dd403b44263129c6a511b350aea8446c229890753fe240784), 1,760,192 bytes as
   downloaded (a size recorded beside that SHA-256 by a project that verified the file; not
   downloaded here). It is written at 0x1000 and holds the bootloader and the partition table
   before the app at 0x10000: its app is 1,760,192 - 0xF000 bytes.
4. Against the app partition of the bowl's own partition table
   (firmware/boards/BOBING_ESP32/partitions.csv) and of the port's (0x1F0000,
   ports/esp32/partitions-4MiBplus.csv): under 10 % free is too tight for a new release.
Build yours and read "micropython.bin binary size ... free" at the end of the build.
Prints `image ...` lines; the last says whether the estimate fits with 10 % to spare.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]  # an entry point: the project and its test kit
import portable  # noqa: E402  (the builds' paths)

MPB = portable.MPB
MPY_CROSS = portable.MPY_CROSS
LIB = os.path.join(MPB, "micropython-lib", "micropython")
PORT_APP_PARTITION = 0x1F0000  # ports/esp32/partitions-4MiBplus.csv
OFFICIAL_BIN = 1760192  # see 3. above: ESP32_GENERIC-20260406-v1.28.0.bin, bytes
PORT_IMAGE = OFFICIAL_BIN - (0x10000 - 0x1000)  # its app: the download less what precedes 0x10000
MIN_FREE = 0.10
PARTITIONS = os.path.join(ROOT, "firmware", "boards", "BOBING_ESP32", "partitions.csv")


def app_partition():
    """The factory app partition's size in the bowl's partition table."""
    with open(PARTITIONS) as f:
        for line in f:
            row = [x.strip() for x in line.split("#", 1)[0].split(",")]
            if len(row) >= 5 and row[1] == "app":
                return int(row[4], 16)
    raise ValueError("%s has no app partition" % PARTITIONS)


def bowl_sources():
    """(path, name) of every module the bowl's manifest freezes beyond the port's own."""
    fw = os.path.join(ROOT, "firmware")
    out = [(os.path.join(fw, "board.py"), "board")]
    for pkg in ("bobing", "bowl"):
        for fn in sorted(os.listdir(os.path.join(fw, pkg))):
            if fn.endswith(".py"):
                out.append((os.path.join(fw, pkg, fn), pkg + "/" + fn))
    out.append((os.path.join(LIB, "drivers", "display", "ssd1306", "ssd1306.py"), "ssd1306"))
    return out  # umqtt.simple: the port's own manifest freezes it already (in its image)


def sim_sources():
    """What the unix frozen build freezes beyond the bowl (and the stock build)."""
    return [(os.path.join(ROOT, "host_sim", "portable", "fakes", n + ".py"), "host_sim/portable/fakes/" + n)
            for n in ("__init__", "bowl", "mpu6050", "wlan")] + \
        [(os.path.join(LIB, "umqtt.simple", "umqtt", "simple.py"), "umqtt/simple")]


def mpy_bytes(sources, march):
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (path, name) in enumerate(sources):
            out = os.path.join(tmp, "%d.mpy" % i)
            args = [MPY_CROSS, "-o", out, "-s", name + ".py"] + (["-march=" + march] if march else []) + [path]
            subprocess.run(args, check=True, capture_output=True)
            total += os.path.getsize(out)
    return total


def text_data(binary):
    line = subprocess.run(["size", binary], check=True, capture_output=True, text=True).stdout.splitlines()[1]
    text, data = line.split()[:2]
    return int(text) + int(data)


def main():
    for f in (MPY_CROSS, portable.MP32_FROZEN):
        if not os.path.exists(f):
            sys.exit("image: %s missing: run make mp" % f)
    bowl_esp = mpy_bytes(bowl_sources(), "xtensawin")
    frozen_more = mpy_bytes(bowl_sources() + sim_sources(), "")
    delta = text_data(portable.MP32_FROZEN) - text_data(portable.MP32_STOCK)
    factor = delta / frozen_more
    bowl_image = int(bowl_esp * factor)
    total = PORT_IMAGE + bowl_image
    print("image bowl_mpy_bytes=%d (mpy-cross -march=xtensawin, %d modules)" % (bowl_esp, len(bowl_sources())))
    print("image freeze_factor=%.2f (unix32 frozen-stock text+data %d B / %d B of .mpy frozen more)"
          % (factor, delta, frozen_more))
    print("image bowl_frozen_bytes=%d" % bowl_image)
    print("image port_image_bytes=%d (the official v1.28.0 ESP32_GENERIC download, %d bytes, less 0xF000)"
          % (PORT_IMAGE, OFFICIAL_BIN))
    app = app_partition()
    for name, size in (("port's 4MiBplus", PORT_APP_PARTITION), ("bowl's", app)):
        print("image estimate_bytes=%d against the %s app partition of %d bytes: free_bytes=%d (%.1f %%)"
              % (total, name, size, size - total, 100.0 * (size - total) / size))
    free = (app - total) / app
    print("image: fits, %.0f %% free" % (100 * free) if free >= MIN_FREE else
          "image: too tight: %.1f %% free of the bowl's app partition (%d %% wanted)" % (100 * free, 100 * MIN_FREE))
    return total, app


if __name__ == "__main__":
    main()
