"""The benchmarks' shared CSV rows and paired rounds (tests/bench/common.py)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from tests.bench.common import FIELDS, add_csv_option, figures, paired, record


def test_figures_are_appended_one_row_a_figure(tmp_path: Path) -> None:
    path = tmp_path / "results" / "core.csv"
    parser = argparse.ArgumentParser()
    add_csv_option(parser)
    args = parser.parse_args(["--csv", str(path)])
    for run in range(2):
        with figures("core", args.csv):
            record("chain verification", 51_000 + run, "events/s", ">= 50,000", True)
            record("CPU ratio", 0.4, "×", ">= 0.5", False)
            record("fsync", 600, "/s")
    record("outside a run", 1, "")  # kept nowhere
    with path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert tuple(rows[0]) == FIELDS
    assert len(rows) == 6  # one header, two runs of three rows
    assert [r["verdict"] for r in rows[:3]] == ["met", "missed", ""]
    assert rows[3]["value"] == "51001" and rows[0]["benchmark"] == "core"
    assert "CPython" in rows[0]["machine"] and "load" in rows[0]["machine"]
    assert rows[0]["timestamp"].endswith("+00:00")


def test_paired_rounds_alternate_and_give_the_median_ratio() -> None:
    order: list[str] = []
    costs = iter([3.0, 1.0, 2.0, 1.0, 9.0, 1.0])  # A, B, then B, A, then A, B: seconds

    def side(name: str) -> tuple[int, float]:
        order.append(name)
        return 1000, next(costs)

    result = paired(lambda: side("A"), lambda: side("B"), rounds=3)
    assert order == ["A", "B", "B", "A", "A", "B"]
    assert result.a_ms == [3.0, 1.0, 9.0] and result.b_ms == [1.0, 2.0, 1.0]
    assert result.ratios == [3.0, 0.5, 9.0] and result.ratio == 3.0
