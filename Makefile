# make sim   - play a game in the simulator     make test - every test
# Both bootstrap .venv (pinned versions from requirements.txt) when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed

.PHONY: sim test bench glyphs mpy deploy package-json clean mp desk provision deps broker

# ---- MicroPython v1.28.0 built from pinned source (README: "Build a bowl") ----------------------
# Sources: ../shared/vendor when present (a worktree one level deeper finds ../../shared/vendor),
# checked by sha256; otherwise git clones of the same pins, checked by commit id.
MP_VERSION := 1.28.0
MP_COMMIT := e0e9fbb17ed6fd06bb76e266ae554784c9c80804
MPLIB_COMMIT := 8380c7bb8f9e5e5260e9539156742925e00366b2
MP_GIT ?= https://github.com/micropython/micropython
MPLIB_GIT ?= https://github.com/micropython/micropython-lib
MP_SHA256 := e669f0cc2dc8837ee38e8f65aec95476a780bb90babcaabecf20dac99a02aa90
MPLIB_SHA256 := c34cf80daf9b3505c7521c4b47fee53e5d9b0c637dd175d3afdde12fb241fc03
VENDOR ?= $(firstword $(wildcard ../shared/vendor ../../shared/vendor))
MPB := $(CURDIR)/build/mp
MP_DIR := $(MPB)/micropython
MPY_LIB_DIR := $(MPB)/micropython-lib
MP_SRC := $(MPB)/src-$(MP_COMMIT)-$(MPLIB_COMMIT).stamp
MP_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# the pinned mpy-cross and the two 32-bit unix ports (the ESP32's word size):
#   unix32-frozen: the bowl frozen as on the ESP32 (tests/boards/unix_frozen), every MicroPython test
#   unix32-stock:  the bowl as .mpy files in the heap (the stock-firmware route)
MPY_CROSS_PIN := $(MP_DIR)/mpy-cross/build/mpy-cross
MP32_FROZEN := $(MPB)/unix32-frozen/micropython
MP32_STOCK := $(MPB)/unix32-stock/micropython
MP_UNIX_FLAGS := VARIANT=standard MICROPY_FORCE_32BIT=1 MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 \
	MICROPY_PY_SSL=0 MICROPY_VFS_LFS2=1 MPY_LIB_DIR=$(MPY_LIB_DIR) STRIP=
# the flags are an input too: a file rewritten only when they change (then a clean build)
MP_FLAGS_FILE := $(MPB)/unix-flags.txt
$(shell mkdir -p $(MPB) && echo '$(MP_UNIX_FLAGS)' | cmp -s - $(MP_FLAGS_FILE) || echo '$(MP_UNIX_FLAGS)' > $(MP_FLAGS_FILE))
FROZEN_INPUTS := $(shell find firmware host_sim/hal.py host_sim/fake_mpu6050.py host_sim/fake_wlan.py tests/boards -name '*.py' 2>/dev/null)

mp: $(MPY_CROSS_PIN) $(MP32_FROZEN) $(MP32_STOCK)

$(MP_SRC): | deps
	@command -v gcc >/dev/null && command -v git >/dev/null && command -v xz >/dev/null || \
	  { echo "building MicroPython needs gcc, git, xz (.ci/run installs them: apt-get install gcc-multilib git xz-utils)"; exit 2; }
	rm -rf $(MP_DIR) $(MPY_LIB_DIR) $(MPB)/src-*.stamp && mkdir -p $(MP_DIR) $(MPY_LIB_DIR)
	if [ -n "$(VENDOR)" ]; then \
	  echo "$(MP_SHA256)  $(VENDOR)/micropython-$(MP_VERSION).tar.xz" | sha256sum -c --quiet && \
	  echo "$(MPLIB_SHA256)  $(VENDOR)/micropython-lib-$$(echo $(MPLIB_COMMIT) | cut -c1-7).tar.xz" | sha256sum -c --quiet && \
	  tar -xJf $(VENDOR)/micropython-$(MP_VERSION).tar.xz --strip-components=1 -C $(MP_DIR) && \
	  tar -xJf $(VENDOR)/micropython-lib-$$(echo $(MPLIB_COMMIT) | cut -c1-7).tar.xz --strip-components=1 -C $(MPY_LIB_DIR); \
	else \
	  git -c advice.detachedHead=false clone -q --depth 1 --branch v$(MP_VERSION) $(MP_GIT) $(MP_DIR) && \
	  test "$$(git -C $(MP_DIR) rev-parse HEAD)" = $(MP_COMMIT) && \
	  git -C $(MPY_LIB_DIR) init -q && \
	  git -C $(MPY_LIB_DIR) fetch -q --depth 1 $(MPLIB_GIT) $(MPLIB_COMMIT) && \
	  git -C $(MPY_LIB_DIR) checkout -q FETCH_HEAD && \
	  test "$$(git -C $(MPY_LIB_DIR) rev-parse HEAD)" = $(MPLIB_COMMIT); \
	fi || { echo "MicroPython sources: checksum or commit mismatch, or download failed"; exit 2; }
	touch $@

$(MPY_CROSS_PIN): $(MP_SRC)
	$(MAKE) -s $(if $(filter -j%,$(MAKEFLAGS)),,-j$(MP_JOBS)) -C $(MP_DIR)/mpy-cross
	touch $@

# 32-bit needs gcc-multilib (the i386 C library); the unix port's own make re-freezes what changed
$(MP32_FROZEN) $(MP32_STOCK): $(MPY_CROSS_PIN) $(MP_FLAGS_FILE)
	$(if $(filter $(MP_FLAGS_FILE),$?),rm -rf $(@D))
	@test -e /usr/include/x86_64-linux-gnu/gnu/stubs-32.h -o -e /usr/include/i386-linux-gnu/gnu/stubs-32.h || \
	  { echo "the 32-bit MicroPython build needs Debian's gcc-multilib (.ci/run installs it: apt-get install gcc-multilib)"; exit 2; }
	$(MAKE) -s $(if $(filter -j%,$(MAKEFLAGS)),,-j$(MP_JOBS)) -C $(MP_DIR)/ports/unix $(MP_UNIX_FLAGS) BUILD=$(@D) \
	  FROZEN_MANIFEST=$(CURDIR)/tests/boards/$(subst unix32-,unix_,$(notdir $(@D)))/manifest.py
	touch $@
$(MP32_FROZEN): $(FROZEN_INPUTS)
$(MP32_STOCK): tests/boards/unix_stock/manifest.py

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

sim: $(STAMP)
	$(PY) -m host_sim play

# the prize desk on http://127.0.0.1:8000/ (LISTEN=0.0.0.0:8000 for phones on the counter's network);
# its database and key live in build/desk (BOBING_DESK_DIR). README: the first attendant, a bowl's secret.
LISTEN ?= 127.0.0.1:8000
desk: $(STAMP)
	$(PY) -m host_sim.desk serve --listen $(LISTEN)

# Debian packages the tests need (host_sim/tools/debian_deps.sh installs what is missing, as root)
deps:
	@bash host_sim/tools/debian_deps.sh

test: deps $(STAMP) mp
	$(PY) -m pytest

# MicroPython figures on the 32-bit frozen build (the ESP32's word size; the benches import the
# firmware's sources from firmware/, which come first on their path)
bench: $(STAMP) mp
	$(PY) bench/rules_bench.py
	$(MP32_FROZEN) bench/rules_bench.py
	$(PY) bench/game_bench.py
	$(MP32_FROZEN) -X heapsize=128K bench/game_bench.py
	$(PY) bench/dice_bench.py
	$(MP32_FROZEN) bench/dice_bench.py
	$(PY) bench/screen_bench.py
	$(MP32_FROZEN) bench/screen_bench.py
	$(MP32_FROZEN) -X heapsize=2M bench/journal_bench.py
	$(MP32_FROZEN) -X heapsize=2M bench/boot_bench.py
	$(MP32_FROZEN) -X heapsize=56K bench/timing_boot.py
	$(MP32_FROZEN) bench/net_heap.py
	$(MP32_FROZEN) -X heapsize=2M bench/outbox_bench.py
	$(PY) bench/net_app_heap.py
	$(PY) bench/sim_bench.py
	$(PY) bench/plan_bench.py
	$(PY) bench/desk_bench.py
	$(PY) bench/allot_bench.py
	$(PY) bench/app_heap.py
	$(PY) bench/event_load.py

# firmware/bobing/glyphs.py: the Unifont bitmaps of every character the firmware's text uses
# (needs Debian's unifont: apt-get install -y unifont). Commit the result; tests do not need unifont.
glyphs: $(STAMP)
	$(PY) host_sim/tools/make_glyphs.py

# Firmware compiled to .mpy in build/mpy by the pinned mpy-cross (boot.py and main.py stay .py: MicroPython runs them by name).
MPY_CROSS := $(MPY_CROSS_PIN)
MPY_OUT := $(CURDIR)/build/mpy
mpy: $(STAMP) $(MPY_CROSS_PIN)
	rm -rf $(MPY_OUT) && mkdir -p $(MPY_OUT)
	cd firmware && for f in $$(find . -name '*.py' ! -name manifest.py | sed 's|^\./||' | sort); do \
	  mkdir -p $(MPY_OUT)/$$(dirname $$f) || exit 1; \
	  case $$f in main.py|boot.py) cp $$f $(MPY_OUT)/$$f ;; \
	  *) $(MPY_CROSS) -o $(MPY_OUT)/$${f%.py}.mpy $$f || exit 1 ;; esac; \
	done
	@echo "$(MPY_OUT): $$(find $(MPY_OUT) -type f | wc -l) files"

# make deploy PORT=/dev/ttyUSB0 : the ssd1306 driver from micropython-lib, then the compiled
# firmware. A bowl already running the app: hold MENU while pressing RESET first (maintenance mode).
MPREMOTE := $(CURDIR)/$(BIN)/mpremote connect $(PORT)
deploy:
	@test -n "$(PORT)" || { echo "usage: make deploy PORT=/dev/ttyUSB0"; exit 2; }
	$(MAKE) mpy
	$(MPREMOTE) mip install ssd1306
	$(MPREMOTE) run host_sim/tools/device_clean.py
	cd $(MPY_OUT) && $(MPREMOTE) cp -r bobing bowl board.mpy boot.py main.py : + reset

# make provision PORT=/dev/ttyUSB0 SSID=NAME PASSWORD=PASS BROKER=HOST EVENT=NAME [MQTT_PORT=1883
#   MQTT_USER=U MQTT_PASSWORD=P STOCK=bowl]: the bowl's network settings as /data/net.txt
#   (firmware/PROTOCOL.md; STOCK=bowl: a kiosk plays on its own stock, not the event's shared one).
# Maintenance mode first (hold MENU while pressing RESET). The passwords reach the tool by the
# environment, not its command line.
provision: $(STAMP)
	@test -n "$(PORT)" -a -n "$(SSID)" -a -n "$(BROKER)" -a -n "$(EVENT)" || { echo "usage: make provision \
	PORT=/dev/ttyUSB0 SSID=NAME PASSWORD=PASS BROKER=HOST EVENT=NAME [MQTT_PORT=1883 MQTT_USER=U MQTT_PASSWORD=P STOCK=bowl]"; exit 2; }
	@mkdir -p build && $(PY) host_sim/tools/make_net_config.py --out build/net.txt --ssid '$(SSID)' \
	  --broker '$(BROKER)' --event '$(EVENT)' --port '$(or $(MQTT_PORT),1883)' --user '$(MQTT_USER)' \
	  --stock '$(or $(STOCK),desk)'
	$(MPREMOTE) cp build/net.txt :/data/net.txt + reset; rc=$$?; rm -f build/net.txt; exit $$rc

# make broker EVENT=NAME [BROKER_DIR=build/broker/NAME]: the event's mosquitto with its users and ACL
# (firmware/PROTOCOL.md). Make them first: python -m host_sim broker --out DIR --event NAME --bowl ID ...
broker:
	@test -n "$(EVENT)" || { echo "usage: make broker EVENT=NAME [BROKER_DIR=build/broker/NAME]"; exit 2; }
	@test -f '$(or $(BROKER_DIR),build/broker/$(EVENT))/mosquitto.conf' || { echo "no broker for event $(EVENT) \
	in $(or $(BROKER_DIR),build/broker/$(EVENT)): make its users first with python -m host_sim broker \
	--out $(or $(BROKER_DIR),build/broker/$(EVENT)) --event $(EVENT) --bowl ID --bowl ID ..."; exit 2; }
	mosquitto -c '$(or $(BROKER_DIR),build/broker/$(EVENT))/mosquitto.conf'

package-json: $(STAMP)
	$(PY) host_sim/tools/make_package_json.py

clean:
	rm -rf build .pytest_cache
