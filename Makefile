# Every target uses the project's own virtualenv; `make install` creates it from pyproject.toml.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test test-slow demo report-check bench lint clean

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

# Screenshots of the HTML report at desktop and phone width, with headless Chromium when it is installed.
REPORT ?= demo-out/report.html
CHROMIUM := $(shell command -v chromium || command -v chromium-browser || command -v google-chrome)
report-check:
	@if [ -z "$(CHROMIUM)" ]; then echo "report-check: skipped, Chromium is not installed (Debian: apt-get install chromium)"; exit 0; fi; \
	if [ ! -f "$(REPORT)" ]; then echo "report-check: $(REPORT) not found; run make demo (or set REPORT=...)"; exit 1; fi; \
	for size in 1280,4000 400,6000; do \
	  shot="$(dir $(REPORT))report-$${size%%,*}px.png"; profile=$$(mktemp -d); \
	  "$(CHROMIUM)" --headless --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run --hide-scrollbars --user-data-dir=$$profile \
	    --virtual-time-budget=5000 --screenshot="$$shot" --window-size=$$size "file://$(abspath $(REPORT))" \
	    >/dev/null 2>&1; status=$$?; rm -rf $$profile; \
	  if [ $$status -ne 0 ] || [ ! -s "$$shot" ]; then echo "report-check: Chromium failed on $(REPORT)"; exit 1; fi; \
	  echo "report-check: $$shot"; \
	done

bench: install
	$(BIN)/tsumolab bench --kernel shanten

lint: install
	$(BIN)/ruff check .
	$(BIN)/python -m compileall -q analyzer sims policies reports tests

clean:
	rm -rf $(VENV) .pytest_cache
