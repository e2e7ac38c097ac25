"""Write samples/mech-d20-map.jsonl: the encounter on a battle map, ended and exported.

Run: .venv/bin/python -m tests.rulesets.mech_d20.make_map_sample
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.samples import SAMPLES, write_sample
from tests.table import Table

from .map_script import run

SAMPLE = SAMPLES / "mech-d20-map.jsonl"


def play(client: TestClient) -> Table:
    table, _ = run(client)
    return table


def main() -> None:
    write_sample(SAMPLE, play)


if __name__ == "__main__":
    main()
