"""Benchmarks: they print figures and assert nothing. Run `python -m tests.bench.core`."""
