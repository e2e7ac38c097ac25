"""Write samples/mech-d20-encounter.jsonl: the scripted encounter, ended and exported.

Run: .venv/bin/python -m tests.rulesets.mech_d20.make_sample
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from domain.config import store_env
from domain.service import GameService
from replay.archive import export_lines
from tests.table import Table

from .script import Script

SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "mech-d20-encounter.jsonl"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(store_env(sqlite_path=str(Path(folder) / "sample.db")))
        try:
            with TestClient(create_app(service)) as client:
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
            lines = list(export_lines(list(service.records(table.game_id))))
        finally:
            service.close()
    SAMPLE.parent.mkdir(exist_ok=True)
    SAMPLE.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines) - 1} events to {SAMPLE}")


if __name__ == "__main__":
    main()
