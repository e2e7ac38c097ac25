"""`kiroku roll --json`: the structured result, or the structured refusal."""

from __future__ import annotations

import json

import pytest

from api.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main(["roll", *argv, "--json"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    return code, json.loads(out)


def test_json_result_with_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, printed = run_json(capsys, "S3R6[6]>=5 attack", "--faces", "6,2,3,6,1")
    assert code == 0
    assert printed["expression"] == "3R6[6]>=5"
    assert printed["secret"] is True and printed["comment"] == "attack"
    assert printed["dice"] == [[3, 6], [1, 6], [1, 6]]
    result = printed["result"]
    assert isinstance(result, dict)
    assert result["successes"] == 2 and result["faces"] == [6, 2, 3, 6, 1]
    assert result["explanation"] == "(3R6[6]>=5) ＞ 6,2,3 + 6 + 1 ＞ 成功数2"


def test_json_result_rolled_here(capsys: pytest.CaptureFixture[str]) -> None:
    code, printed = run_json(capsys, "choice[a,b,c]")
    assert code == 0
    result = printed["result"]
    assert isinstance(result, dict)
    assert result["value"] in ("a", "b", "c")
    assert printed["dice"] == [[1, 3]]


@pytest.mark.parametrize(
    ("argv", "code", "position"),
    [
        (["2D6>=>7"], "dice_syntax", 3),
        (["2D6", "--faces", "3,9"], "bad_faces", None),
        (["2D6", "--faces", "3,x"], "bad_faces", None),
        (["1000D6"], "dice_limit", 0),
    ],
)
def test_json_refusal(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: str, position: int | None
) -> None:
    status, printed = run_json(capsys, *argv)
    assert status == 1
    error = printed["error"]
    assert isinstance(error, dict)
    assert (error["code"], error["position"]) == (code, position)
    assert error["message"]


def test_without_json_the_line_and_errors_are_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "x2 1D6", "--faces", "3,4"]) == 0
    assert capsys.readouterr().out.strip() == "#1 (1D6) ＞ 3 / #2 (1D6) ＞ 4"
    assert main(["roll", "2R6"]) == 1
    assert "threshold" in capsys.readouterr().err
