"""The shipped sample game imports with `kiroku import`, verifies, and folds to the ending."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from domain.config import store_env
from domain.service import GameService

from .make_sample import SAMPLE


def test_the_sample_imports_and_ends_as_scripted(tmp_path: Path) -> None:
    db = tmp_path / "import.db"
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "import", str(SAMPLE), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    game_id = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])["game_id"]
    service = GameService(store_env(sqlite_path=str(db)))
    try:
        state = service.state(game_id)
        assert state.status == "ended" and state.ruleset == "ninja_slayer"
        characters = state.rules.characters
        assert characters["boss"].status == "爆発四散" and characters["boss"].revealed
        assert {characters[m].status for m in ("m1", "m2", "m3")} == {"removed"}
        assert characters["ben"].now.tairyoku == 1
        assert service.verify(game_id).ok
    finally:
        service.close()
