# The README's two commands: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: serve test browser-deps lint bench soak docs clean


$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Install into a local virtualenv and serve on 127.0.0.1:8000 with ./kiroku.db.
serve: $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	$(BIN)/kiroku serve --host 127.0.0.1 --port 8000 --db ./kiroku.db

# Install the dev extras (and, as root, Debian's Chromium and CJK fonts for the browser
# tests, and curl and jq for the README's curl session, when they are missing: no browser is
# ever downloaded), then run the whole suite.
test: $(BIN)/python browser-deps
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m pytest

browser-deps:
	@if [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1 || ! command -v jq >/dev/null || ! command -v curl >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk jq curl >/dev/null; \
	  else echo "chromium or fonts-noto-cjk missing and not root: browser tests will skip outside CI"; fi; \
	fi

lint: $(BIN)/python
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Benchmarks print figures; they are not pass/fail tests. The write path's load comes from wrk
# (and its instruction counts from valgrind): Debian's packages, installed here as root.
bench: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	@if ! command -v wrk >/dev/null || ! command -v valgrind >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk valgrind >/dev/null; \
	  else echo "wrk or valgrind missing and not root: install them to run the write-path benchmark"; fi; \
	fi
	$(BIN)/python -m tests.bench.write_path
	$(BIN)/python -m tests.bench.core

# Ten minutes of mixed play on one worker; prints RSS, open fds, p99 latency and stream lag
# per minute and whether they stay flat (tests/bench/soak.py). A short try:
# make soak SOAK_ARGS="--minutes 3 --interval 20"
SOAK_ARGS ?= --minutes 10
soak: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m tests.bench.soak $(SOAK_ARGS)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache site

# The docs site (MkDocs + Material) into site/; --strict: a broken link fails the build. Open
# site/index.html, or `.venv/bin/mkdocs serve` to read it live.
docs: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
