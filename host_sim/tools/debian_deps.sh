#!/usr/bin/env bash
# What `make test` needs from Debian besides .venv, installed only when missing (root; a
# non-root user is told the one apt-get command to run):
#   build-essential gcc-multilib pkg-config git xz-utils  MicroPython from pinned source, 32-bit
#   mosquitto mosquitto-clients   the real MQTT broker tests/test_mqtt.py starts on loopback
#   chromium chromium-driver      the prize desk's browser test (Debian's browser, never a download)
#   fonts-wqy-microhei            CJK glyphs in the desk's screenshots
#   gettext                       `make desk-messages` (the desk's Chinese catalogue; the .mo is committed)
#   espeak-ng sox                 the bowl's voice clips (host_sim/tools/make_voice.py, tests/test_voice.py)
#   openssl                       the event broker's TLS certificate (host_sim/cli/broker.py, tests/test_tls.py)
#   libreoffice-calc-nogui        opens the desk's workbook in a real spreadsheet program (tests/test_desk_report.py)
#   openscad xvfb xauth           `make case` and tests/test_case.py (the case's STL; its PNG on a virtual display)
set -euo pipefail
pkgs=(build-essential gcc-multilib pkg-config git xz-utils ca-certificates python3-venv
      mosquitto mosquitto-clients chromium chromium-driver fonts-wqy-microhei gettext openscad xvfb xauth
      espeak-ng sox openssl)
# without its recommends (they would pull in LibreOffice's desktop): installed on its own
lean=(libreoffice-calc-nogui)
need=()
lean_need=()
for pkg in "${lean[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || lean_need+=("$pkg")
done
for pkg in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && [ ${#lean_need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "make test needs these Debian packages: ${need[*]} ${lean_need[*]}" >&2
  echo "install them with: sudo apt-get install -y ${need[*]}" \
    "&& sudo apt-get install -y --no-install-recommends ${lean_need[*]}" >&2
  exit 2
fi
apt-get update -q
[ ${#need[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
[ ${#lean_need[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${lean_need[@]}"
