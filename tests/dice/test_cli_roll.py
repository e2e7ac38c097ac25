"""`kiroku roll` and `kiroku systems`: BCDice's answer offline, structured or as its text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["roll", "--json", *argv])
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    return code, json.loads(out)


def test_json_result_with_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, printed = run_json(
        capsys, "--system", "Cthulhu7th", "--faces", "3,5", "--", "SCC<=54 目星"
    )
    assert code == 0
    assert printed["command"] == "SCC<=54" and printed["comment"] == "目星"
    assert printed["secret"] is True and printed["system"] == "Cthulhu7th"
    assert printed["dice"] == [[3, 10], [5, 10]]  # (value, sides) of each randomizer call


def test_a_cthulhu_critical(capsys: pytest.CaptureFixture[str]) -> None:
    # BCDice's tens die: 10 reads as 0 (tens_d10); 10 and 1 make 01, a critical.
    code, printed = run_json(capsys, "--system", "Cthulhu7th", "--faces", "10,1", "--", "CC<=54")
    assert code == 0
    result = printed["result"]
    assert isinstance(result, dict)
    assert (
        result["explanation"]
        == "(1D100<=54) ボーナス・ペナルティダイス[0] ＞ 1 ＞ 1 ＞ クリティカル"
    )
    assert result["critical"] is True and result["success"] is True


def test_json_result_rolled_here(capsys: pytest.CaptureFixture[str]) -> None:
    code, printed = run_json(capsys, "--", "choice[a,b,c]")
    assert code == 0
    result = printed["result"]
    assert isinstance(result, dict)
    assert result["explanation"] in (
        "(choice[a,b,c]) ＞ a",
        "(choice[a,b,c]) ＞ b",
        "(choice[a,b,c]) ＞ c",
    )
    assert [sides for _value, sides in printed["dice"]] == [3]


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--", "こんにちは"], "dice_unsupported"),
        (["--faces", "3,9", "--", "2D6"], "bad_faces"),
        (["--faces", "3", "--", "2D6"], "bad_faces"),
        (["--faces", "3,4,5", "--", "2D6"], "bad_faces"),
        (["--faces", "3,x", "--", "2D6"], "bad_faces"),
        (["--system", "Nope", "--", "2D6"], "unknown_system"),
    ],
)
def test_json_refusal(capsys: pytest.CaptureFixture[str], argv: list[str], code: str) -> None:
    status, printed = run_json(capsys, *argv)
    assert status == 1
    error = printed["error"]
    assert isinstance(error, dict)
    assert error["code"] == code and error["message"]


def test_without_json_bcdice_s_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--faces", "3,4", "--", "x2 1D6"]) == 0
    assert capsys.readouterr().out.strip() == "#1\n(1D6) ＞ 3\n\n#2\n(1D6) ＞ 4"
    assert main(["roll", "--", "hello"]) == 1
    assert "does not know" in capsys.readouterr().err


def test_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    batch = tmp_path / "rolls.jsonl"
    lines = [
        {"command": "CC<=54", "faces": [3, 5]},
        {"command": "hello"},
        {"command": "2D6", "faces": [1]},
    ]
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["roll", "--system", "Cthulhu7th", "--json", "--batch", str(batch)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(printed) == 3
    assert printed[0]["result"]["explanation"].endswith("＞ 35 ＞ 35 ＞ レギュラー成功")
    assert printed[1] == {
        "error": {"code": "dice_unsupported", "message": "BCDice gives no result"}
    }
    assert printed[2]["error"]["code"] == "bad_faces"


def test_systems(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["systems"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Cthulhu7th\t新クトゥルフ神話TRPG" in lines and lines[0] == "DiceBot\tDiceBot"


def test_new_with_a_system(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from domain.application.bootstrap import bootstrap
    from domain.application.settings import store_env

    db = str(tmp_path / "cli.db")
    argv = ["new", "狂気山脈", "--seat", "Aki", "--system", "Cthulhu7th", "--db", db, "--json"]
    assert main(argv) == 0
    game_id = json.loads(capsys.readouterr().out)["game_id"]
    service = bootstrap(env=store_env(sqlite_path=db))
    try:
        state = service.state(game_id)
    finally:
        service.close()
    assert state.system == "Cthulhu7th" and state.bcdice == "4.9.0"
    assert main(["new", "x", "--seat", "Aki", "--system", "Nope", "--db", db]) == 1
    assert "Nope" in capsys.readouterr().err
