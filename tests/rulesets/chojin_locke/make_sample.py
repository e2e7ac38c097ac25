"""Write samples/chojin-locke-6p.jsonl: the scripted 6-player game, ended and exported.

Run: .venv/bin/python -m tests.rulesets.chojin_locke.make_sample
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.settings import store_env
from replay.archive import export_lines
from tests.rulesets.chojin_locke.test_sample_game import play_sample_game

SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "chojin-locke-6p.jsonl"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = bootstrap(env=store_env(sqlite_path=str(Path(folder) / "sample.db")))
        try:
            with TestClient(create_app(service)) as client:
                table = play_sample_game(client, service)
            lines = list(export_lines(list(service.records(table.game_id))))
        finally:
            service.close()
    SAMPLE.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines) - 1} events to {SAMPLE}")


if __name__ == "__main__":
    main()
