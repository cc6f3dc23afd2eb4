# Every target uses the project's own virtualenv; `make install` creates it from pyproject.toml.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test test-slow demo bench lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: install
	$(BIN)/python -m pytest -q -m "not slow"

test-slow: install
	$(BIN)/python -m pytest -q -m slow

demo: install
	$(BIN)/tsumolab demo

bench: install
	$(BIN)/tsumolab bench --kernel shanten

lint: install
	$(BIN)/python -m compileall -q analyzer sims policies reports tests

clean:
	rm -rf $(VENV) .pytest_cache
