"""Write samples/mech-d20-encounter.jsonl: the scripted encounter, ended and exported.

Run: .venv/bin/python -m tests.rulesets.mech_d20.make_sample
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.samples import SAMPLES, write_sample
from tests.table import Table

from .script import Script

SAMPLE = SAMPLES / "mech-d20-encounter.jsonl"


def play(client: TestClient) -> Table:
    table = Table.create(
        client,
        seats=["Aki", "Ben", "Chika"],
        ruleset="mech_d20",
        title="メカd20: ガルムス戦",
        options={"dice_policy": "both"},
    )
    script = Script(table)
    script.run()
    script.finish()
    return table


def main() -> None:
    write_sample(SAMPLE, play)


if __name__ == "__main__":
    main()
