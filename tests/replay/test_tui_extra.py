"""The terminal viewer is an extra (`kiroku[tui]`, issue 34 item 7): without textual,
`kiroku replay` says what to install (and `--print` still works); with it, nothing changes."""

from __future__ import annotations

import sys

import pytest

from api.cli import main
from domain.service import GameService
from tests.replay.test_archive_audit import finished_game


def test_without_textual_the_viewer_says_how_to_get_it(
    service: GameService, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = finished_game(service)
    db = service.env["SQLITE_DBNAME"]
    monkeypatch.delitem(sys.modules, "replay.viewer", raising=False)
    for name in [n for n in sys.modules if n.partition(".")[0] == "textual"] + ["textual"]:
        monkeypatch.setitem(sys.modules, name, None)  # import textual… → ModuleNotFoundError
    assert main(["replay", gid, "--db", db]) == 1
    err = capsys.readouterr().err
    assert "pip install 'kiroku[tui]'" in err and "Traceback" not in err
    assert main(["replay", gid, "--db", db, "--print"]) == 0


def test_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("kiroku ")
