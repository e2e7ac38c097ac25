"""The `kiroku` command line: offline dice checks and creating a game from the terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main
from domain.application.bootstrap import bootstrap
from domain.application.settings import store_env
from domain.model.authentication import Authenticator
from domain.rulesets.chojin_locke.catalog import sample


def test_roll_with_given_faces_prints_the_bcdice_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "4B6>=4", "--faces", "2,3,6,4"]) == 0
    assert capsys.readouterr().out.strip() == "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"


def test_roll_accepts_full_width_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "２Ｄ６＜＝７", "--faces", "3,4"]) == 0
    assert capsys.readouterr().out.strip() == "(2D6<=7) ＞ 7[3,4] ＞ 7 ＞ 成功"


def test_roll_without_faces_rolls_in_range(capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(20):
        assert main(["roll", "1D6"]) == 0
        face = int(capsys.readouterr().out.strip().rsplit("＞", 1)[1])
        assert 1 <= face <= 6


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["roll", "--", "2D6>="], "does not know"),
        (["roll", "2D6", "--faces", "3,9"], "not a face of a 6-sided die"),
        (["roll", "2D6", "--faces", "3,x"], "whole numbers"),
    ],
)
def test_roll_errors_are_clear(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 1
    assert message in capsys.readouterr().err


def test_new_game_prints_tokens_that_work(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "api.cli",
            "new",
            "Session 1",
            "--seat",
            "Aki",
            "--seat",
            "Ben",
            "--db",
            str(db),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    created = json.loads(result.stdout)
    assert [s["name"] for s in created["seats"]] == ["Aki", "Ben"]
    service = bootstrap(env=store_env(sqlite_path=str(db)))
    assert Authenticator(service.games).audience(created["game_id"], created["gm_token"]) == "gm"
    assert service.state(created["game_id"]).title == "Session 1"
    service.close()


FIVE_SEATS = [arg for name in ("A", "B", "C", "D", "E") for arg in ("--seat", name)]


def test_new_game_takes_ruleset_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, catalog = tmp_path / "cli.db", tmp_path / "catalog.json"
    data = sample().model_dump(mode="json")
    data["name"] = "our table's cards"
    catalog.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    options = ["--option", "rules=2002", "--option", "evil_vigil_turns=12"]
    options += ["--option", f"catalog=@{catalog}"]
    argv = ["new", "Locke night", "--ruleset", "chojin_locke", *FIVE_SEATS, *options]
    assert main([*argv, "--db", str(db), "--json"]) == 0
    game_id = json.loads(capsys.readouterr().out)["game_id"]
    service = bootstrap(env=store_env(sqlite_path=str(db)))
    try:
        rules = service.state(game_id).rules
    finally:
        service.close()
    assert rules.rules == "2002" and rules.vigil_turns == 12
    assert rules.catalog.name == "our table's cards"


def test_new_game_with_a_host(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.db"
    argv = ["new", "Locke night", "--ruleset", "chojin_locke", *FIVE_SEATS, "--db", str(db)]
    assert main([*argv, "--json"]) == 0  # 超人ロック: a host by default
    created = json.loads(capsys.readouterr().out)
    assert created["referee"] == "host" and created["host_token"] and len(created["seats"]) == 5
    assert main([*argv, "--host-seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "host token" in out and "seat 2 " not in out
    assert "the host plays " in out and "seat:" not in out  # the host's seat by its name
    assert main([*argv, "--referee", "gm", "--host-seat", "2"]) == 1
    assert "Only a host" in capsys.readouterr().err


def test_new_game_refuses_bad_options_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["new", "Locke night", "--ruleset", "chojin_locke", *FIVE_SEATS]
    argv += ["--db", str(tmp_path / "cli.db")]
    assert main([*argv, "--option", "rules=1999"]) == 1
    assert "rules" in capsys.readouterr().err
    assert main([*argv, "--option", "catalog={not json"]) == 1
    assert "Option catalog: not valid JSON" in capsys.readouterr().err
    assert main([*argv, "--option", "no-equals-sign"]) == 1
    assert "KEY=VALUE" in capsys.readouterr().err
