# Every target uses the project's own virtualenv: `make install-base` installs what the program needs (used by
# `make demo`), `make install` adds the dev extras the tests need. Each has its own stamp file.
PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3.13 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
BASE_STAMP := $(VENV)/.installed-base
DEV_STAMP := $(VENV)/.installed-dev
PYTEST_WORKERS ?= 2

.PHONY: install install-base warm-up test test-slow test-pythons demo report-check bench lint clean regress wheel

install: $(DEV_STAMP)

install-base: $(BASE_STAMP)

# uv installs the packages from PyPI in about half pip's time (27 s against 54 s for a fresh virtualenv with the
# dev extras); pip installs them where uv cannot be had or fails.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip uv || true

install_packages = $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode $(1) \
	|| $(BIN)/python -m pip install --quiet --disable-pip-version-check $(1)

$(BASE_STAMP): pyproject.toml | $(BIN)/python
	$(call install_packages,-e .)
	touch $@

# One run installs both (12 s less on a fresh clone than the base and then the extras).
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(call install_packages,-e '.[dev]')
	touch $(BASE_STAMP) $@

# Compile (or load) every engine and policy kernel the tests use once, in one process, so that the test
# workers only load them from numba's cache instead of compiling the same kernels side by side.
warm-up: install
	$(BIN)/python -m tests.warm_up

test: warm-up
	$(BIN)/python -m pytest -q -m "not slow" -n $(PYTEST_WORKERS) --dist loadfile

test-slow: warm-up
	$(BIN)/python -m pytest -q -m slow -n $(PYTEST_WORKERS) --dist loadfile

# The EV regression check of every mode against its committed baseline (README, Regression check): exit 1 when a
# metric moved. A few minutes on 2 cores once the engines are compiled.
regress: install
	$(BIN)/tsumolab regress --mode all --jobs $(PYTEST_WORKERS)

# Install the wheel under each of python3.11, 3.12 and 3.13 found on PATH and run a smoke subset.
test-pythons: install
	BUILD_PYTHON=$(BIN)/python bash .ci/test-pythons

demo: install-base
	$(BIN)/tsumolab demo --lang en,zh,ja

# Screenshots of the HTML reports (every language found: report.html, report.zh.html, report.ja.html, the
# decisions.*.html of `tsumolab decisions` and the review.*.html of `tsumolab review`) in the directory of REPORT at
# desktop and phone width with headless Chromium, and their PDF pages as PNG with pdftoppm, when those are installed.
REPORT ?= demo-out/report.html
REPORTS = $(wildcard $(addprefix $(dir $(REPORT)),report.html report.zh.html report.ja.html \
  decisions.html decisions.zh.html decisions.ja.html review.html review.zh.html review.ja.html))
CHROMIUM := $(shell command -v chromium || command -v chromium-browser || command -v google-chrome)
PDFTOPPM := $(shell command -v pdftoppm)
report-check:
	@if [ -z "$(CHROMIUM)" ]; then echo "report-check: skipped, Chromium is not installed (bash .ci/system-packages installs it from Debian)"; exit 0; fi; \
	if [ ! -f "$(REPORT)" ]; then echo "report-check: $(REPORT) not found; run make demo (or set REPORT=...)"; exit 1; fi; \
	for page in $(REPORTS); do \
	  for size in 1280,4000 400,6000; do \
	    shot="$${page%.html}-$${size%%,*}px.png"; profile=$$(mktemp -d); \
	    "$(CHROMIUM)" --headless --no-sandbox --disable-gpu --disable-background-networking \
	      --disable-component-update --disable-sync --no-first-run --hide-scrollbars --user-data-dir=$$profile \
	      --virtual-time-budget=5000 --screenshot="$$shot" --window-size=$$size "file://$$(realpath "$$page")" \
	      >/dev/null 2>&1; status=$$?; rm -rf $$profile; \
	    if [ $$status -ne 0 ] || [ ! -s "$$shot" ]; then echo "report-check: Chromium failed on $$page"; exit 1; fi; \
	    echo "report-check: $$shot"; \
	  done; \
	  pdf="$${page%.html}.pdf"; \
	  if [ -n "$(PDFTOPPM)" ] && [ -f "$$pdf" ]; then \
	    "$(PDFTOPPM)" -png -r 60 "$$pdf" "$${pdf%.pdf}-page" && echo "report-check: $${pdf%.pdf}-page-*.png"; \
	  fi; \
	done

bench: install
	$(BIN)/tsumolab bench --kernel shanten

# dist/tsumolab-<version>-cp3XX-cp3XX-linux_x86_64.whl: the wheel with every kernel compiled for a portable CPU
# (README, Prebuilt kernels), for the Python of the project's virtualenv; the plain wheel is built from a copy of
# the sources, so the checkout gets no build folders. About two minutes on 2 cores.
wheel: install-base
	rm -rf dist/plain dist/src && mkdir -p dist/src
	cp -r pyproject.toml README.md front analyzer sims policies reports dist/src/
	$(BIN)/pip wheel dist/src --no-deps --quiet --wheel-dir dist/plain
	$(BIN)/python -m tsumolab.analyzer.prebuild dist/plain/tsumolab-*.whl --out dist
	rm -rf dist/src

lint: install
	$(BIN)/ruff check .
	$(BIN)/python -m compileall -q front analyzer sims policies reports tests

clean:
	rm -rf $(VENV) .venv-pythons .pytest_cache build dist
