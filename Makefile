# The README's two commands: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: serve test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Install into a local virtualenv and serve on 127.0.0.1:8000 with ./kiroku.db.
serve: $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	$(BIN)/kiroku serve --host 127.0.0.1 --port 8000 --db ./kiroku.db

# Install the dev extras and run the whole test suite.
test: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m pytest

lint: $(BIN)/python
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Benchmarks print figures; they are not pass/fail tests.
bench: $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m tests.bench.core

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
