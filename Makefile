# make sim   - play a game in the simulator     make test - every test
# Both bootstrap .venv when it is missing or stale, each with the pinned packages of its role
# (requirements/: play for make sim, desk for make desk, dev for stats and deploy, test = all).
#
# Targets (`make help` prints this list; the comment above each rule says more):
#   sim            play a game in the simulator (terminal; host_sim play --window: pygame)
#   run ARGS=...   any host_sim command in .venv: make run ARGS="plan --seats 10"
#   desk           the prize desk on http://127.0.0.1:8000/ (LISTEN=0.0.0.0:8000 HTTPS=1 for the counter's phones)
#   event-demo     a whole event on loopback, no hardware: broker, desk, BOWLS=3 simulated kiosks (Ctrl-C stops)
#   test           every test, the gate (builds MicroPython first; two workers, then the serial tests alone)
#   test-fast      the edit loop: every test but the slow, MicroPython, broker and browser ones
#   bench          speed and memory figures (MicroPython ones on the 32-bit frozen build)
#   timing         hardware/timing.md's generated block from bench/budget.py (the time budget)
#   mp             MicroPython v1.28.0 from pinned source: mpy-cross, the 32-bit unix builds
#   mplib          only the pinned sources (micropython-lib: the simulator's display driver and MQTT client)
#   mpy            the firmware compiled to .mpy in build/mpy by the pinned mpy-cross
#   flash          MicroPython onto the ESP32: PORT=/dev/ttyUSB0 FIRMWARE=firmware.bin [ERASE=1]
#   deploy         the app onto a bowl: PORT=/dev/ttyUSB0 (maintenance mode first)
#   voice          the voice's clips into build/voice (Debian's espeak-ng and sox)
#   screenshots    a named family's game: the terminal at 120x40 and the window, into build/screenshots
#   deploy-voice   the clips onto a bowl's /data/voice: PORT=/dev/ttyUSB0 (maintenance mode first)
#   provision      a bowl's network settings: PORT= SSID= PASSWORD= BROKER= EVENT= ...
#   vbat-cal       the battery gauge calibrated: PORT=/dev/ttyUSB0 MV=4123
#   pin            a lost PIN set again (maintenance mode, the case open): PORT=/dev/ttyUSB0
#   broker         an event's mosquitto: EVENT=NAME [BROKER_DIR=data/broker/NAME]
#   glyphs         firmware/bobing/glyphs.py from Debian's unifont
#   case           the electronics' case: build/case/bowl_case.stl and .png (Debian's openscad, xvfb)
#   package-json   firmware/package.json for mip
#   desk-messages  the desk's Chinese: django.po and django.mo
#   deps           the Debian packages the tests need (as root)
#   clean          remove build/ and .pytest_cache
#   help           this list

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
REQ := requirements
# one stamp per role: installed when missing or when its requirements (or those it includes) change
PLAY := $(VENV)/.installed-play
DEV := $(VENV)/.installed-dev
DESK := $(VENV)/.installed-desk
STAMP := $(VENV)/.installed-test

.PHONY: help sim test test-fast bench timing glyphs mpy deploy voice deploy-voice screenshots package-json clean mp desk desk-messages provision pin case deps broker vbat-cal flash run event-demo mplib

# ---- MicroPython v1.28.0 built from pinned source (hardware/README.md) ----------------------------
# Sources: ../shared/vendor when present (a worktree one level deeper finds ../../shared/vendor),
# checked by sha256; otherwise git clones of the same pins, checked by commit id.
MP_VERSION := 1.28.0
MP_COMMIT := e0e9fbb17ed6fd06bb76e266ae554784c9c80804
MPLIB_COMMIT := 8380c7bb8f9e5e5260e9539156742925e00366b2
MP_GIT ?= https://github.com/micropython/micropython
MPLIB_GIT ?= https://github.com/micropython/micropython-lib
MP_SHA256 := e669f0cc2dc8837ee38e8f65aec95476a780bb90babcaabecf20dac99a02aa90
MPLIB_SHA256 := c34cf80daf9b3505c7521c4b47fee53e5d9b0c637dd175d3afdde12fb241fc03
# TLS (the bowl's umqtt over ssl, as the ESP32 port has it): Mbed TLS at the lib/mbedtls submodule
# commit MicroPython v1.28.0 pins, and v1.28.0's lib/mbedtls_errors (in the vendored "extra" tarball)
MBEDTLS_COMMIT := 107ea89daaefb9867ea9121002fbbdf926780e98
MBEDTLS_SHA256 := 96c37dd3f522dd4be891032d9529e00c97562159fc3d5a4aaababe56c67d1e5c
MP_EXTRA_SHA256 := 642dd191c97e007ac1649ef3e4fa654f027187d588933a5f0c80f13cdfc03b6b
VENDOR ?= $(firstword $(wildcard ../shared/vendor ../../shared/vendor))
MPB := $(CURDIR)/build/mp
MP_DIR := $(MPB)/micropython
MPY_LIB_DIR := $(MPB)/micropython-lib
MP_SRC := $(MPB)/src-$(MP_COMMIT)-$(MPLIB_COMMIT)-$(MBEDTLS_COMMIT).stamp
MPLIB_SRC := $(MPB)/mplib-$(MPLIB_COMMIT).stamp
MP_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# the pinned mpy-cross and the two 32-bit unix ports (the ESP32's word size):
#   unix32-frozen: the bowl frozen as on the ESP32 (tests/boards/unix_frozen), every MicroPython test
#   unix32-stock:  the bowl as .mpy files in the heap (the stock-firmware route)
MPY_CROSS_PIN := $(MP_DIR)/mpy-cross/build/mpy-cross
MP32_FROZEN := $(MPB)/unix32-frozen/micropython
MP32_STOCK := $(MPB)/unix32-stock/micropython
MP_UNIX_FLAGS := VARIANT=standard MICROPY_FORCE_32BIT=1 MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 \
	MICROPY_PY_SSL=1 MICROPY_SSL_MBEDTLS=1 MICROPY_VFS_LFS2=1 MPY_LIB_DIR=$(MPY_LIB_DIR) STRIP=
# the flags are an input too: a file rewritten only when they change (then a clean build); checked
# when a build asks for it (FORCE), not on every make call
MP_FLAGS_FILE := $(MPB)/unix-flags.txt
$(MP_FLAGS_FILE): FORCE
	@mkdir -p $(@D) && echo '$(MP_UNIX_FLAGS)' | cmp -s - $@ || echo '$(MP_UNIX_FLAGS)' > $@
FORCE:
# every .py under the given folders, by make's own wildcard (no shell run at parse time)
rwildcard = $(foreach d,$(wildcard $(1:=/*)),$(call rwildcard,$(d),$(2)) $(filter $(2),$(d)))
FROZEN_INPUTS := $(call rwildcard,firmware tests/boards host_sim/portable/fakes,%.py)

help:
	@sed -n '/^# Targets/,/^$$/p' $(firstword $(MAKEFILE_LIST)) | sed 's/^# \{0,1\}//'

mp: $(MPY_CROSS_PIN) $(MP32_FROZEN) $(MP32_STOCK)
# micropython-lib alone (no compiler needed): on CPython the simulated bowl runs its ssd1306 and
# umqtt.simple from build/mp/micropython-lib (host_sim/compat), the very code the bowl freezes
mplib: $(MPLIB_SRC)

$(MPLIB_SRC):
	@command -v git >/dev/null && command -v xz >/dev/null || \
	  { echo "micropython-lib's sources need git and xz (apt-get install git xz-utils)"; exit 2; }
	rm -rf $(MPY_LIB_DIR) $(MPB)/mplib-*.stamp && mkdir -p $(MPY_LIB_DIR)
	if [ -n "$(VENDOR)" ]; then \
	  echo "$(MPLIB_SHA256)  $(VENDOR)/micropython-lib-$$(echo $(MPLIB_COMMIT) | cut -c1-7).tar.xz" | sha256sum -c --quiet && \
	  tar -xJf $(VENDOR)/micropython-lib-$$(echo $(MPLIB_COMMIT) | cut -c1-7).tar.xz --strip-components=1 -C $(MPY_LIB_DIR); \
	else \
	  git -C $(MPY_LIB_DIR) init -q && \
	  git -C $(MPY_LIB_DIR) fetch -q --depth 1 $(MPLIB_GIT) $(MPLIB_COMMIT) && \
	  git -C $(MPY_LIB_DIR) checkout -q FETCH_HEAD && \
	  test "$$(git -C $(MPY_LIB_DIR) rev-parse HEAD)" = $(MPLIB_COMMIT); \
	fi || { echo "micropython-lib's sources: checksum or commit mismatch, or download failed"; exit 2; }
	touch $@

# (micropython-lib after deps, which may install xz: made from this recipe, not a prerequisite)
$(MP_SRC): | deps
	@command -v gcc >/dev/null && command -v git >/dev/null && command -v xz >/dev/null || \
	  { echo "building MicroPython needs gcc, git, xz (.ci/run installs them: apt-get install gcc-multilib git xz-utils)"; exit 2; }
	$(MAKE) -s --no-print-directory $(MPLIB_SRC)
	rm -rf $(MP_DIR) $(MPB)/src-*.stamp && mkdir -p $(MP_DIR)
	if [ -n "$(VENDOR)" ]; then \
	  echo "$(MP_SHA256)  $(VENDOR)/micropython-$(MP_VERSION).tar.xz" | sha256sum -c --quiet && \
	  echo "$(MBEDTLS_SHA256)  $(VENDOR)/mbedtls-$$(echo $(MBEDTLS_COMMIT) | cut -c1-7).tar.xz" | sha256sum -c --quiet && \
	  echo "$(MP_EXTRA_SHA256)  $(VENDOR)/micropython-$(MP_VERSION)-extra.tar.xz" | sha256sum -c --quiet && \
	  tar -xJf $(VENDOR)/micropython-$(MP_VERSION).tar.xz --strip-components=1 -C $(MP_DIR) && \
	  mkdir -p $(MP_DIR)/lib/mbedtls && \
	  tar -xJf $(VENDOR)/mbedtls-$$(echo $(MBEDTLS_COMMIT) | cut -c1-7).tar.xz --strip-components=1 -C $(MP_DIR)/lib/mbedtls && \
	  tar -xJf $(VENDOR)/micropython-$(MP_VERSION)-extra.tar.xz --strip-components=1 -C $(MP_DIR) --wildcards '*/lib/mbedtls_errors'; \
	else \
	  git -c advice.detachedHead=false clone -q --depth 1 --branch v$(MP_VERSION) $(MP_GIT) $(MP_DIR) && \
	  test "$$(git -C $(MP_DIR) rev-parse HEAD)" = $(MP_COMMIT) && \
	  git -C $(MP_DIR) submodule update -q --init --depth 1 lib/mbedtls && \
	  test "$$(git -C $(MP_DIR)/lib/mbedtls rev-parse HEAD)" = $(MBEDTLS_COMMIT); \
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

$(VENV)/.installed-%: $(REQ)/%.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r $<
	touch $@
PLAN := $(VENV)/.installed-plan
$(DESK): $(REQ)/plan.txt
$(DEV): $(REQ)/play.txt $(REQ)/plan.txt
# everything: requirements.txt holds the roles' files (and any pin not yet moved into one)
$(STAMP): requirements.txt $(wildcard $(REQ)/*.txt)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

sim: $(PLAY) $(MPLIB_SRC)
	$(PY) -m host_sim play

# any host_sim command in .venv (with the planner): make run ARGS="plan --seats 10"
run: $(PLAY) $(PLAN) $(MPLIB_SRC)
	$(PY) -m host_sim $(ARGS)

# the prize desk on http://127.0.0.1:8000/ (LISTEN=0.0.0.0:8000 HTTPS=1 for phones on the counter's network);
# its database and key live in data/desk (BOBING_DESK_DIR). host_sim/desk/README.md: the first attendant, a bowl's secret.
LISTEN ?= 127.0.0.1:8000
desk: $(DESK)
	$(PY) -m host_sim.desk serve --listen $(LISTEN) $(if $(HTTPS),--https)

# a whole event on this computer, no hardware (host_sim/cli/event_demo.py): mosquitto with the event's
# users and ACL, the desk on http://127.0.0.1:8000/ with its listener, BOWLS simulated kiosk bowls on the
# real firmware (the 32-bit MicroPython unix port: make mp), a customer every PACE_S seconds at each;
# PACE="zhuangyuan=1/day yixiu=20/hour" a release schedule. Each run in its own folder under data/demo.
BOWLS ?= 3
PACE_S ?= 20
event-demo: $(STAMP) mp
	$(PY) -m host_sim event-demo --bowls $(BOWLS) --pace-s $(PACE_S) $(foreach p,$(PACE),--pace $(p))

# the desk's Chinese: new texts from the code into django.po, then django.mo (both committed;
# needs Debian's gettext, `make deps`)
desk-messages: $(STAMP)
	cd host_sim/desk && BOBING_DESK_DIR=$$(mktemp -d) DJANGO_SETTINGS_MODULE=host_sim.desk.settings \
	  $(abspath $(PY)) -c 'import sys; sys.path.insert(0, "../.."); from host_sim import compat; compat.install(); import django; django.setup(); \
	  from django.core.management import call_command as c; \
	  c("makemessages", locale=["zh_Hans"], no_obsolete=True, add_location="file", ignore_patterns=["static/*", "migrations/*"]); \
	  c("compilemessages", locale=["zh_Hans"])'

# Debian packages the tests need (host_sim/tools/debian_deps.sh installs what is missing, as root)
deps:
	@bash host_sim/tools/debian_deps.sh

# pytest keeping its compiled modules, the assert-rewritten test modules too, in build/pycache
# (not beside the sources), even where the environment says PYTHONDONTWRITEBYTECODE: without
# them every worker of every run rewrites every test module again (~5 s of CPU per worker)
PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/build/pycache $(PY) -m pytest

# the gate, in two phases: every test but the serial ones on two workers (pytest-xdist; a file
# each at a time but for tests/conftest.py's SPLIT files, whose tests spread), then the serial ones
# (wall-clock rates, conftest's SERIAL) alone; both phases run and either failing fails the gate.
# The 15 slowest tests of each phase listed at its end (conftest marks them by what they use).
test: deps $(STAMP) mp
	$(BIN)/ruff check .
	$(PYTEST) -m "not serial" -n 2 --dist loadgroup --durations=15; a=$$?; \
	$(PYTEST) -m serial --durations=15; b=$$?; test $$a = 0 -a $$b = 0

# the edit loop: no MicroPython build, broker or browser (make test runs them all); two workers
# (pytest-xdist), a file each at a time: a file's tests share its module fixtures and order
test-fast: $(STAMP) $(MPLIB_SRC)
	$(BIN)/ruff check .
	$(PYTEST) -m "not slow and not micropython and not broker and not browser" -n 2 --dist loadgroup --durations=10

# MicroPython figures on the 32-bit frozen build (the ESP32's word size; the benches import the
# firmware's sources from firmware/, which come first on their path)
bench: $(STAMP) mp
	$(PY) bench/rules_bench.py
	$(MP32_FROZEN) bench/rules_bench.py
	$(PY) bench/game_bench.py
	$(MP32_FROZEN) -X heapsize=128K bench/game_bench.py
	$(PY) bench/dice_bench.py
	$(MP32_FROZEN) bench/dice_bench.py
	$(PY) bench/fair_bench.py
	$(MP32_FROZEN) bench/fair_bench.py
	$(PY) bench/fair_turn_bench.py
	$(PY) bench/fair_phone_bench.py
	$(PY) bench/screen_bench.py
	$(MP32_FROZEN) bench/screen_bench.py
	$(PY) bench/qr_bench.py
	$(MP32_FROZEN) bench/qr_bench.py
	$(PY) bench/voice_bench.py
	$(MP32_FROZEN) -X heapsize=2M bench/journal_bench.py
	$(MP32_FROZEN) -X heapsize=2M bench/boot_bench.py
	rm -rf build/bench-boot  # two runs over one flash folder: the power cut boots into an empty heap
	$(MP32_FROZEN) -X heapsize=64K bench/timing_boot.py new build/bench-boot  # what the whole game needs: bench/app_heap.py
	$(MP32_FROZEN) -X heapsize=64K bench/timing_boot.py cut build/bench-boot
	$(MP32_FROZEN) bench/net_heap.py
	$(MP32_FROZEN) bench/hmac_heap.py
	$(MP32_STOCK) bench/hmac_heap.py
	$(MP32_FROZEN) -X heapsize=2M bench/outbox_bench.py
	$(MP32_FROZEN) -X heapsize=2M bench/outbox_per_award.py
	$(PY) bench/net_app_heap.py
	$(PY) bench/tls_handshake.py
	$(PY) bench/sim_bench.py
	$(PY) bench/window_idle.py
	$(PY) bench/plan_bench.py
	$(PY) bench/desk_bench.py
	$(PY) bench/allot_bench.py
	$(PY) bench/desk_flood.py
	$(PY) bench/desk_guess.py
	$(PY) bench/desk_login_flood.py
	$(PY) bench/cli_start.py
	$(PY) bench/app_heap.py
	$(PY) bench/event_load.py
	$(PY) bench/image_size.py
	$(PY) bench/outbox_warm.py
	$(PY) bench/budget.py

# hardware/timing.md's generated block (the figures the budget charges, with their sources, and
# what bench/budget.py prints); tests/test_timing_doc.py checks the file against the command
timing: $(STAMP) $(MPLIB_SRC)
	$(PY) bench/budget.py --write

# firmware/bobing/glyphs.py: the Unifont bitmaps of every character the firmware's text uses
# (needs Debian's unifont: apt-get install -y unifont). Commit the result; tests do not need unifont.
glyphs: $(PLAY)
	$(PY) host_sim/tools/make_glyphs.py

# Firmware compiled to .mpy in build/mpy by the pinned mpy-cross (boot.py and main.py stay .py: MicroPython runs them by name).
MPY_CROSS := $(MPY_CROSS_PIN)
MPY_OUT := $(CURDIR)/build/mpy
mpy: $(MPY_CROSS_PIN)
	rm -rf $(MPY_OUT) && mkdir -p $(MPY_OUT)
	cd firmware && for f in $$(find . -name '*.py' ! -name manifest.py | sed 's|^\./||' | sort); do \
	  mkdir -p $(MPY_OUT)/$$(dirname $$f) || exit 1; \
	  case $$f in main.py|boot.py) cp $$f $(MPY_OUT)/$$f ;; \
	  *) $(MPY_CROSS) -o $(MPY_OUT)/$${f%.py}.mpy $$f || exit 1 ;; esac; \
	done
	@echo "$(MPY_OUT): $$(find $(MPY_OUT) -type f | wc -l) files"

# make flash PORT=/dev/ttyUSB0 FIRMWARE=path/to/firmware.bin [ERASE=1] : MicroPython onto the ESP32
# with the pinned esptool (the FireBeetle's USB-serial chip drives EN and GPIO0 by DTR/RTS: no BOOT
# button needed). ERASE=1 erases the whole flash first: the games, settings and calibration in
# /data too. Then `make deploy PORT=...` (maintenance mode first if the bowl already has main.py).
ESPTOOL ?= $(CURDIR)/$(BIN)/esptool
MPREMOTE_BIN ?= $(CURDIR)/$(BIN)/mpremote
MPREMOTE = $(MPREMOTE_BIN) connect $(PORT)
flash:
	@test -n "$(PORT)" -a -n "$(FIRMWARE)" || { echo "usage: make flash PORT=/dev/ttyUSB0 FIRMWARE=path/to/firmware.bin \
	[ERASE=1: also erases /data]"; exit 2; }
	@test -f "$(FIRMWARE)" || { echo "make flash: no file $(FIRMWARE) (the ESP32 image: hardware/README.md)"; exit 2; }
	@test "$$(od -An -tx1 -N1 '$(FIRMWARE)' | tr -d ' ')" = e9 || { echo "make flash: $(FIRMWARE) is \
	not an ESP32 image (its first byte is not 0xE9): flash build-ESP32_GENERIC/firmware.bin or a \
	micropython.org ESP32_GENERIC*.bin"; exit 2; }
	@case "$(ERASE)" in ""|0|1) ;; *) echo "make flash: ERASE=1 or nothing, not $(ERASE)"; exit 2 ;; esac
	$(if $(filter 1,$(ERASE)),$(ESPTOOL) --chip esp32 --port $(PORT) erase-flash)
	$(ESPTOOL) --chip esp32 --port $(PORT) --baud 460800 write-flash 0x1000 $(FIRMWARE)

# make deploy PORT=/dev/ttyUSB0 : asks the bowl which firmware it runs (host_sim/tools/device_clean.py,
# which also removes every file that would shadow it), then
# - a frozen image (route 3): the app is in the firmware; only boot.py and main.py are copied
#   (a new app comes with a new image: make flash, then make deploy);
# - a stock image (route 4): the ssd1306 driver from micropython-lib and the compiled firmware.
# A bowl already running the app: hold MENU while pressing RESET first (maintenance mode).
deploy:
	@test -n "$(PORT)" || { echo "usage: make deploy PORT=/dev/ttyUSB0"; exit 2; }
	$(MAKE) mpy $(DEV)
	@fw=$$($(MPREMOTE) run host_sim/tools/device_clean.py) || { echo "$$fw"; echo "make deploy: the bowl \
	did not answer on $(PORT) (maintenance mode: hold MENU while pressing RESET)"; exit 1; }; echo "$$fw"; \
	case "$$fw" in \
	*"firmware: frozen"*) echo "the bowl runs the frozen image: its app is in the firmware, not copied \
	(update it with make flash); copying boot.py and main.py (run only by an image without its own frozen)"; \
	  cd $(MPY_OUT) && $(MPREMOTE) cp boot.py main.py : + reset ;; \
	*"firmware: stock"*) $(MPREMOTE) mip install ssd1306 && \
	  cd $(MPY_OUT) && $(MPREMOTE) cp -r bobing bowl board.mpy boot.py main.py : + reset ;; \
	*) echo "make deploy: could not tell which firmware the bowl runs"; exit 1 ;; esac

# make voice: the voice's 45 clips (raw 16-bit PCM at 8 kHz, firmware/README.md "The voice") into build/voice;
# make deploy-voice PORT=/dev/ttyUSB0: copies them to the bowl's /data/voice (664 KiB of its flash). The app
# looks for them at boot; without them the piezo plays. Maintenance mode first (hold MENU while pressing RESET).
voice: $(PLAY)
	$(PY) host_sim/tools/make_voice.py build/voice

screenshots: $(PLAY) $(MPLIB_SRC)
	$(PY) host_sim/tools/screenshots.py build/screenshots

deploy-voice: voice
	@test -n "$(PORT)" || { echo "usage: make deploy-voice PORT=/dev/ttyUSB0"; exit 2; }
	-$(MPREMOTE) mkdir :/data/voice
	cd build/voice && $(MPREMOTE) cp *.pcm :/data/voice/ + reset

# make vbat-cal PORT=/dev/ttyUSB0 MV=4123 : the battery gauge's divider calibrated against the cell's
# voltage on a multimeter (in mV, measured at the battery socket while the bowl runs); firmware/board.py
# writes the ratio to /data/vbat.cal. Maintenance mode first (hold MENU while pressing RESET).
vbat-cal:
	@test -n "$(PORT)" && expr "$(MV)" : '[0-9][0-9]*$$' >/dev/null && test "$(MV)" -ge 3000 -a "$(MV)" -le 4300 || \
	  { echo "usage: make vbat-cal PORT=/dev/ttyUSB0 MV=4123 (the cell's voltage on a multimeter, 3000-4300 mV)"; exit 2; }
	$(MPREMOTE) exec "import board; print('vbat.cal: ratio', board.calibrate_vbat($(MV)) / 10000)" + reset

# make provision PORT=/dev/ttyUSB0 SSID=NAME PASSWORD=PASS BROKER=HOST EVENT=NAME TLS_CA=DIR/broker.crt
#   [MQTT_PORT=8883 MQTT_USER=U MQTT_PASSWORD=P STOCK=bowl FAIR=off DESK=HOST:PORT TLS=off]: the bowl's network
#   settings as /data/net.txt, with the event broker's certificate (TLS_CA, made by `python -m host_sim broker`;
#   TLS=off: no TLS, only by explicit choice, port 1883; firmware/PROTOCOL.md; STOCK=bowl: a kiosk plays on its own stock, not the event's
#   shared one; FAIR=off: no verifiable dice (on by default: a commitment per customer that the desk
#   answers); DESK: where phones reach the desk, for the claim QR's link (default BROKER:8000)).
# Maintenance mode first (hold MENU while pressing RESET). The passwords reach the tool by the
# environment, not its command line.
provision: $(DEV)
	@test -n "$(PORT)" -a -n "$(SSID)" -a -n "$(BROKER)" -a -n "$(EVENT)" || { echo "usage: make provision \
	PORT=/dev/ttyUSB0 SSID=NAME PASSWORD=PASS BROKER=HOST EVENT=NAME TLS_CA=DIR/broker.crt [MQTT_PORT=8883 MQTT_USER=U MQTT_PASSWORD=P STOCK=bowl FAIR=off DESK=HOST:PORT TLS=off]"; exit 2; }
	@mkdir -p build && $(PY) host_sim/tools/make_net_config.py --out build/net.txt --ssid '$(SSID)' \
	  --broker '$(BROKER)' --event '$(EVENT)' --port '$(or $(MQTT_PORT),$(if $(filter off,$(TLS)),1883,8883))' --user '$(MQTT_USER)' \
	  --stock '$(or $(STOCK),desk)' --fair '$(or $(FAIR),on)' --desk '$(DESK)' \
	  --tls '$(or $(TLS),on)' --tls-ca '$(TLS_CA)'
	$(MPREMOTE) cp build/net.txt :/data/net.txt + reset; rc=$$?; rm -f build/net.txt; exit $$rc

# make pin PORT=/dev/ttyUSB0 : a new PIN for a bowl whose PIN is lost (its settings.txt damaged or
#   missing: the bowl says so), asked twice here (or $PIN). The recovery needs more than the attendant's
#   key: the case opened by tool (USB and RESET are inside) and maintenance mode (hold MENU while pressing
#   RESET). The script holding the PIN is removed after the run.
pin: $(DEV)
	@test -n "$(PORT)" || { echo "usage: make pin PORT=/dev/ttyUSB0 (asks the new PIN twice; maintenance mode first)"; \
	  exit 2; }
	@mkdir -p build && $(PY) host_sim/tools/make_pin_script.py --out build/pin_set.py --root '$(or $(DATA),/data)'
	$(MPREMOTE) run build/pin_set.py + reset; rc=$$?; rm -f build/pin_set.py; exit $$rc

# make case: hardware/case/bowl_case.scad rendered by Debian's openscad to build/case/bowl_case.stl (base and
#   lid laid out to print) and build/case/bowl_case.png (assembled; openscad draws it with OpenGL, on a
#   virtual X display from xvfb-run when there is no screen).
CASE_SCAD := hardware/case/bowl_case.scad
case: build/case/bowl_case.stl build/case/bowl_case.png
build/case/bowl_case.stl: $(CASE_SCAD)
	@command -v openscad >/dev/null || { echo "make case needs Debian's openscad: apt-get install -y openscad"; exit 2; }
	@mkdir -p build/case && openscad -q -o $@.tmp.stl $< && mv $@.tmp.stl $@
build/case/bowl_case.png: $(CASE_SCAD)
	@command -v openscad >/dev/null || { echo "make case needs Debian's openscad: apt-get install -y openscad"; exit 2; }
	@mkdir -p build/case && $(if $(DISPLAY),,xvfb-run -a) openscad -q -o $@.tmp.png -D 'part="assembly"' \
	  --imgsize=1024,768 --viewall --autocenter --camera=0,0,0,55,0,-35,0 $< && mv $@.tmp.png $@

# make broker EVENT=NAME [BROKER_DIR=data/broker/NAME]: the event's mosquitto with its users and ACL
# (firmware/PROTOCOL.md). Make them first: python -m host_sim broker --out DIR --event NAME --bowl ID ...
broker:
	@test -n "$(EVENT)" || { echo "usage: make broker EVENT=NAME [BROKER_DIR=data/broker/NAME]"; exit 2; }
	@test -f '$(or $(BROKER_DIR),data/broker/$(EVENT))/mosquitto.conf' || { echo "no broker for event $(EVENT) \
	in $(or $(BROKER_DIR),data/broker/$(EVENT)): make its users first with python -m host_sim broker \
	--out $(or $(BROKER_DIR),data/broker/$(EVENT)) --event $(EVENT) --bowl ID --bowl ID ..."; exit 2; }
	mosquitto -c '$(or $(BROKER_DIR),data/broker/$(EVENT))/mosquitto.conf'

package-json: $(PLAY)
	$(PY) host_sim/tools/make_package_json.py

clean:
	rm -rf build .pytest_cache
