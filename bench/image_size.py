"""The bowl's ESP32 image against its app partition, estimated here (ESP-IDF cannot run here).

    python bench/image_size.py      (make bench; needs `make mp`)

1. The bowl's frozen modules (firmware/boards/BOBING_ESP32/manifest.py less the port's own) as
   the pinned mpy-cross compiles them for the ESP32 (-march=xtensawin): their .mpy bytes.
2. What freezing costs per .mpy byte, measured on the two 32-bit unix builds of `make mp`: the
   frozen build's text+data less the stock build's, over the .mpy bytes of what it freezes more
   (the bowl, ssd1306, umqtt.simple and the simulated hardware). Frozen code is mpy-tool's C
   structures with 32-bit pointers, as on the ESP32.
3. The port's own image: NOT measured here. A reported ESP32_GENERIC build of the v1.2x series
   with an extra C module was 0x1a1110 bytes (github.com/dmazzella/ucrypto/issues/17), against the
   0x1F0000 app partition of ports/esp32/partitions-4MiBplus.csv (sdkconfig.base); taken as the
   base. Build yours and read "micropython.bin binary size ... free" at the end of the build.
Prints `image ...` lines; the last says whether the estimate fits.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import portable  # noqa: E402  (the builds' paths)

MPB = portable.MPB
MPY_CROSS = portable.MPY_CROSS
LIB = os.path.join(MPB, "micropython-lib", "micropython")
APP_PARTITION = 0x1F0000
PORT_IMAGE = 0x1A1110  # see 3. above: an outside figure, not measured here


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
    return [(os.path.join(ROOT, "host_sim", "portable", "fakes", n + ".py"), "fakes/" + n)
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
    print("image port_image_bytes=%d (outside figure, not measured here)" % PORT_IMAGE)
    print("image estimate_bytes=%d app_partition_bytes=%d free_bytes=%d (%.0f %%)"
          % (total, APP_PARTITION, APP_PARTITION - total, 100.0 * (APP_PARTITION - total) / APP_PARTITION))
    print("image: fits" if total <= APP_PARTITION else "image: over the app partition")


if __name__ == "__main__":
    main()
