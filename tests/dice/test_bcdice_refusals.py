"""BCDice's refusals in the player's language (issue 33 item 1): faces that do not fit a
command, an unknown system, too many dice and an error inside BCDice each read as one of the
catalogs' sentences, in Japanese or in English as the browser asks, never in BCDice's English."""

from __future__ import annotations

import logging
import re

import pytest
from fastapi.testclient import TestClient

from api.errors import read_in
from domain.adapters import bcdice_engine
from domain.adapters.bcdice_engine import BCDiceEngine, _refusal
from domain.model.errors import KirokuError
from tests.table import Table

JA = {"Accept-Language": "ja"}
EN = {"Accept-Language": "en-US,en;q=0.9"}
# English prose (two Latin words in a row): what the Japanese sentences must not hold.
ENGLISH = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(
        client, seats=["Aki"], system="Cthulhu7th", options={"dice_policy": "both"}
    )
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


def detail(table: Table, faces: list[object], headers: dict[str, str]) -> str:
    body = {"type": "roll", "expression": "CC<=53", "faces": faces}
    response = table.send("seat:1", body, **headers)
    assert response.status_code == 422 and response.json()["code"] == "bad_faces", response.text
    return str(response.json()["detail"])


@pytest.mark.parametrize(
    ("faces", "ja", "en"),
    [
        (
            [3],
            "CC<=53 には入力された 1 個より多くの出目が必要です。",
            "CC<=53 needs more than the 1 faces given.",
        ),
        (
            [3, 4, 5],
            "CC<=53 が使う出目は 2 個で、入力された 3 個ではありません。",
            "CC<=53 uses 2 faces, not the 3 given.",
        ),
        (
            [0, 11],
            "CC<=53: 2 個目の出目（11）は 10 面ダイスの目ではありません。",
            "CC<=53: face 2 (11) is not a face of a 10-sided die.",
        ),
    ],
)
def test_faces_that_do_not_fit_read_in_the_browser_s_language(
    table: Table, faces: list[object], ja: str, en: str
) -> None:
    assert detail(table, faces, JA) == ja
    assert detail(table, faces, {}) == ja  # Japanese by default
    assert detail(table, faces, EN) == en


def test_an_unknown_system_reads_in_one_language(client: TestClient) -> None:
    body = {"title": "t", "seats": ["A"], "system": "Nope"}
    ja = client.post("/games", json=body, headers=JA).json()
    en = client.post("/games", json=body, headers=EN).json()
    assert ja["code"] == en["code"] == "unknown_system"
    assert ja["detail"] == "BCDice にゲームシステム Nope はありません。"
    assert en["detail"] == "BCDice has no game system Nope."
    missing = client.get("/systems/Nope", headers=JA).json()
    assert missing["code"] == "unknown_system" and not ENGLISH.search(missing["detail"])


def test_an_error_inside_bcdice_is_logged_and_the_player_reads_our_sentence(
    caplog: pytest.LogCaptureFixture,
) -> None:
    raw = "undefined method `+' for nil (NoMethodError)"
    with caplog.at_level(logging.WARNING, logger=bcdice_engine.__name__):
        error = _refusal({"command": "XX>=3"}, {"error": raw, "code": "bcdice_error"})
    assert error.code == "bcdice_error"
    assert read_in(error, "ja") == "BCDice は XX>=3 を評価できませんでした。"
    assert read_in(error, "en") == "BCDice could not evaluate XX>=3."
    assert raw not in read_in(error, "ja") + read_in(error, "en")
    assert raw in caplog.text  # the server's log keeps BCDice's own words


def test_too_many_dice_reads_in_one_language() -> None:
    engine = BCDiceEngine()
    try:
        # every word is one the draw skips for a d6: BCDice asks for more until the limit
        with pytest.raises(KirokuError) as caught:
            engine.evaluate("DiceBot", "1D6", words=lambda count: [0xFFFFFFFF] * count)
    finally:
        engine.close()
    assert caught.value.code == "dice_limit"
    assert str(caught.value) == "This command rolls too many dice."  # one language, no gloss
    assert read_in(caught.value, "ja") == "このコマンドはダイスが多すぎます。"
    assert read_in(caught.value, "en") == "This command rolls too many dice."


def test_bcdice_down_reads_in_one_language(tmp_path: object) -> None:
    engine = BCDiceEngine(folder=str(tmp_path))  # no BCDice installed there
    with pytest.raises(KirokuError) as caught:
        engine.version()
    ja, en = read_in(caught.value, "ja"), read_in(caught.value, "en")
    assert ja == "ダイスボット（BCDice）が応答しません。しばらくしてからもう一度お試しください。"
    assert en == "The dice bot (BCDice) is not answering. Please try again in a moment."
