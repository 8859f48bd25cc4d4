# make sim   - play a game in the simulator     make test - every test
# Both bootstrap .venv (pinned versions from requirements.txt) when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed

.PHONY: sim test bench mpy clean

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

clean:
	rm -rf build .pytest_cache
