# firmware/boards/BOBING_ESP32 is a board directory MicroPython v1.28.0's ESP32 port builds with
# `make -C ports/esp32 BOARD_DIR=...`. ESP-IDF cannot run here, so this checks what the port's build
# reads from a board directory, by the port's own rules:
# - ports/esp32/Makefile: BOARD_DIR must be a folder; BOARD is its name;
# - ports/esp32/CMakeLists.txt: `if(NOT EXISTS ${MICROPY_BOARD_DIR}/mpconfigboard.cmake)` is a
#   FATAL_ERROR; it include()s that file (and mpconfigvariant_${MICROPY_BOARD_VARIANT}.cmake for a
#   variant), which must set SDKCONFIG_DEFAULTS (files it then file(READ)s relative to ports/esp32)
#   and may set MICROPY_FROZEN_MANIFEST;
# - ports/esp32/mpconfigport.h includes "mpconfigboard.h" (the board folder is on the include
#   path, esp32_common.cmake), which names the board and the MCU.
# The cmake part runs under the real cmake, in script mode, with the CMakeLists.txt lines quoted.
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD = os.path.join(ROOT, "firmware", "boards", "BOBING_ESP32")
# the sdkconfig fragments in ports/esp32/boards of v1.28.0 (the vendored source does not carry them)
PORT_SDKCONFIGS = {"sdkconfig.240mhz", "sdkconfig.base", "sdkconfig.ble", "sdkconfig.c2", "sdkconfig.c6",
                   "sdkconfig.flash_2MiB", "sdkconfig.free_ram", "sdkconfig.p4", "sdkconfig.p4_wifi_c5",
                   "sdkconfig.p4_wifi_c6", "sdkconfig.p4_wifi_common", "sdkconfig.riscv", "sdkconfig.spiram",
                   "sdkconfig.spiram_oct", "sdkconfig.spiram_sx"}

CMAKE = r'''
cmake_minimum_required(VERSION 3.16)
set(CMAKE_CURRENT_LIST_DIR "PORT")
if(NOT EXISTS ${MICROPY_BOARD_DIR}/mpconfigboard.cmake)
    message(FATAL_ERROR "Invalid MICROPY_BOARD specified: ${MICROPY_BOARD}")
endif()
if(MICROPY_BOARD_VARIANT)
    if(NOT EXISTS ${MICROPY_BOARD_DIR}/mpconfigvariant_${MICROPY_BOARD_VARIANT}.cmake)
        message(FATAL_ERROR "Invalid MICROPY_BOARD_VARIANT specified: ${MICROPY_BOARD_VARIANT}")
    endif()
endif()
include(${MICROPY_BOARD_DIR}/mpconfigboard.cmake)
if(NOT MICROPY_BOARD_VARIANT)
    include(${MICROPY_BOARD_DIR}/mpconfigvariant.cmake OPTIONAL)
else()
    include(${MICROPY_BOARD_DIR}/mpconfigvariant_${MICROPY_BOARD_VARIANT}.cmake)
endif()
if (NOT MICROPY_FROZEN_MANIFEST)
    set(MICROPY_FROZEN_MANIFEST ${CMAKE_CURRENT_LIST_DIR}/boards/manifest.py)
endif()
message(STATUS "SDKCONFIG_DEFAULTS=${SDKCONFIG_DEFAULTS}")
message(STATUS "MICROPY_FROZEN_MANIFEST=${MICROPY_FROZEN_MANIFEST}")
message(STATUS "MICROPY_DEF_BOARD=${MICROPY_DEF_BOARD}")
'''


def cmake(tmp_path, board_dir, variant=""):
    script = tmp_path / "board.cmake"
    script.write_text(CMAKE)
    args = ["cmake", "-DMICROPY_BOARD=" + os.path.basename(board_dir), "-DMICROPY_BOARD_DIR=" + board_dir]
    if variant:
        args.append("-DMICROPY_BOARD_VARIANT=" + variant)
    # cwd: the build folder (CMAKE_BINARY_DIR in script mode), where the board writes its fragment
    p = subprocess.run(args + ["-P", str(script)], capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    out = {}
    for m in re.finditer(r"-- (\w+)=(.*)", p.stdout + p.stderr):
        out[m.group(1)] = m.group(2).strip()
    return p, out


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
@pytest.mark.parametrize("variant", ["", "SPIRAM"])
def test_the_ports_cmake_accepts_the_board_dir(tmp_path, variant):
    p, out = cmake(tmp_path, BOARD, variant)
    assert p.returncode == 0, p.stdout + p.stderr
    configs = out["SDKCONFIG_DEFAULTS"].split(";")
    assert configs[0] == "boards/sdkconfig.base", configs  # as ESP32_GENERIC
    assert "boards/sdkconfig.ble" not in configs, configs  # no Bluetooth: its controller's RAM stays free
    ours = str(tmp_path / "sdkconfig.bobing_partitions")
    assert configs[1] == ours, configs  # after sdkconfig.base, whose partition table it replaces
    for c in configs:
        assert c == ours or (c.startswith("boards/") and c[len("boards/"):] in PORT_SDKCONFIGS), c
    with open(ours) as f:
        frag = f.read()
    assert frag == ('CONFIG_PARTITION_TABLE_CUSTOM=y\n'
                    'CONFIG_PARTITION_TABLE_CUSTOM_FILENAME="%s/partitions.csv"\n' % BOARD)
    assert os.path.isfile(os.path.join(BOARD, "partitions.csv"))
    assert ("boards/sdkconfig.spiram" in configs) == (variant == "SPIRAM")
    assert out["MICROPY_FROZEN_MANIFEST"] == BOARD + "/manifest.py"  # the bowl's, not the port's
    assert os.path.isfile(out["MICROPY_FROZEN_MANIFEST"])


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_the_ports_cmake_refuses_a_folder_without_mpconfigboard_cmake(tmp_path):
    # what firmware/boards/BOBING_ESP32 was: a manifest.py alone
    old = tmp_path / "BOBING_ESP32"
    old.mkdir()
    shutil.copy(os.path.join(BOARD, "manifest.py"), str(old))
    p, _ = cmake(tmp_path, str(old))
    assert p.returncode != 0 and "Invalid MICROPY_BOARD specified" in p.stdout + p.stderr


def test_mpconfigboard_h_names_the_board():
    with open(os.path.join(BOARD, "mpconfigboard.h")) as f:
        text = f.read()
    for name in ("MICROPY_HW_BOARD_NAME", "MICROPY_HW_MCU_NAME"):
        assert re.search(r"#ifndef %s\s+#define %s \"[^\"]+\"\s+#endif" % (name, name), text), name
    assert '"ESP32"' in text


def test_the_readme_builds_with_board_dir():
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert "BOARD_DIR=" in readme and "firmware/boards/BOBING_ESP32" in readme


def partitions():
    rows = []
    with open(os.path.join(BOARD, "partitions.csv")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, kind, sub, offset, size = [x.strip() for x in line.split(",")[:5]]
                rows.append((name, kind, sub, int(offset, 16), int(size, 16)))
    return rows


def test_the_partition_table_fits_4mib_and_leaves_the_filesystem_its_room():
    rows = partitions()
    assert [r[:3] for r in rows] == [("nvs", "data", "nvs"), ("phy_init", "data", "phy"),
                                     ("factory", "app", "factory")]
    end = 0x9000  # after the partition table (ESP-IDF's CONFIG_PARTITION_TABLE_OFFSET 0x8000, 4 KB)
    for name, kind, _sub, offset, size in rows:
        assert offset >= end, "%s overlaps the partition before it" % name
        assert offset % (0x10000 if kind == "app" else 0x1000) == 0, "%s is not aligned" % name
        end = offset + size
    # the port's main.c makes "vfs" (littlefs) from there to the end of the 4 MiB flash
    assert 0x400000 - end >= 0x180000, "the filesystem would have %d bytes" % (0x400000 - end)
    from bench import image_size
    assert image_size.app_partition() == rows[2][4]  # the bench reads the same table
