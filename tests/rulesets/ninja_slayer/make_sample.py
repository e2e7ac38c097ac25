"""Write samples/ninja-slayer-combat.jsonl: the scripted combat, ended and exported.

Run: .venv/bin/python -m tests.rulesets.ninja_slayer.make_sample
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

SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "ninja-slayer-combat.jsonl"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(store_env(sqlite_path=str(Path(folder) / "sample.db")))
        try:
            with TestClient(create_app(service)) as client:
                table = Table.create(
                    client,
                    seats=["Aki", "Ben"],
                    ruleset="ninja_slayer",
                    title="ニンジャスレイヤー: ブラックマンバ戦",
                    options={"dice_policy": "both"},
                )
                Script(table).run()
                table.do("gm", {"type": "end", "summary": "ブラックマンバ 爆発四散"})
            lines = list(export_lines(list(service.records(table.game_id))))
        finally:
            service.close()
    SAMPLE.parent.mkdir(exist_ok=True)
    SAMPLE.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines) - 1} events to {SAMPLE}")


if __name__ == "__main__":
    main()
