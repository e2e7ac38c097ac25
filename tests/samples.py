"""The shipped sample games: written by playing a script through the real app, and read back
the way a user would, with `kiroku import`."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.application.settings import store_env
from replay.archive import export_lines
from tests.table import Table

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def write_sample(path: Path, play: Callable[[TestClient], Table]) -> None:
    """Play a game (`play` creates it and ends it) in a scratch store and export it to `path`."""
    with tempfile.TemporaryDirectory() as folder:
        service = bootstrap(env=store_env(sqlite_path=str(Path(folder) / "sample.db")))
        try:
            with TestClient(create_app(service)) as client:
                table = play(client)
            lines = list(export_lines(list(service.records(table.game_id))))
        finally:
            service.close()
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines) - 1} events to {path}")


def import_sample(sample: Path, db: Path) -> str:
    """`kiroku import` the sample into the SQLite store `db`; the game's id."""
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "import", str(sample), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    game_id: str = json.loads(sample.read_text(encoding="utf-8").splitlines()[0])["game_id"]
    return game_id


@contextmanager
def imported(sample: Path, folder: Path) -> Iterator[tuple[GameService, str]]:
    """`kiroku import` the sample into a fresh store in `folder`; the service over it and the
    game's id."""
    db = folder / "import.db"
    game_id = import_sample(sample, db)
    service = bootstrap(env=store_env(sqlite_path=str(db)))
    try:
        yield service, game_id
    finally:
        service.close()
