"""Every rejection: a problem+json with a stable code, and the log exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.errors import install_error_handlers
from domain.dice import parse
from tests.table import Table


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"])
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["detail"]
    return body


def refused(
    table: Table, actor: str | None, body: dict[str, Any], status: int, code: str, **headers: str
) -> dict[str, Any]:
    before = table.log_bytes()
    problem = assert_problem(table.send(actor, body, **headers), status, code)
    assert table.log_bytes() == before, "a rejected command must append nothing"
    return problem


@pytest.mark.parametrize(
    ("actor", "body", "status", "code"),
    [
        ("seat:1", {"type": "start"}, 403, "gm_only"),
        ("gm", {"type": "start"}, 409, "already_started"),
        ("seat:2", {"type": "advance_phase", "phase": "Day"}, 403, "gm_only"),
        ("seat:1", {"type": "end"}, 403, "gm_only"),
        ("seat:1", {"type": "ruling", "concerning_seq": 1, "text": "no"}, 403, "gm_only"),
        ("gm", {"type": "ruling", "concerning_seq": 999, "text": "?"}, 422, "unknown_seq"),
        ("seat:1", {"type": "reveal", "seq": 1}, 403, "server_secret"),
        ("gm", {"type": "reveal", "seq": 1}, 403, "server_secret"),
        ("seat:1", {"type": "reveal", "seq": 3}, 409, "nothing_to_reveal"),
        (
            "seat:1",
            {"type": "roll", "expression": "2d6", "faces": [1, 2]},
            409,
            "manual_dice_not_allowed",
        ),
        ("seat:1", {"type": "roll", "expression": "こんにちは"}, 409, "dice_unsupported"),
        ("seat:1", {"type": "note", "text": "hi", "to": ["seat:9"]}, 422, "unknown_seat"),
        ("seat:1", {"type": "note", "text": "hi", "to": ["everyone"]}, 422, "invalid_request"),
        ("seat:1", {"type": "roll"}, 422, "invalid_request"),
        ("seat:1", {"type": "teleport", "to": "B2"}, 422, "unknown_command"),
        ("seat:1", {"type": "roll", "expression": "1d6", "cheat": True}, 422, "invalid_request"),
        ("seat:1", {"type": "declare", "text": ""}, 422, "invalid_request"),
        ("seat:1", {"type": "roll", "expression": "1d6" * 100}, 422, "invalid_request"),
        (None, {"type": "declare", "text": "hello"}, 403, "token_required"),
    ],
)
def test_refused_commands(
    table: Table, actor: str | None, body: dict[str, Any], status: int, code: str
) -> None:
    refused(table, actor, body, status, code)


def test_a_bad_token_is_refused(table: Table) -> None:
    table.tokens["intruder"] = "not-a-token"
    refused(table, "intruder", {"type": "declare", "text": "hi"}, 401, "bad_token")


def test_a_token_of_another_game_is_refused(client: TestClient, table: Table) -> None:
    other = Table.create(client)
    table.tokens["stranger"] = other.gm_token
    refused(table, "stranger", {"type": "start"}, 401, "bad_token")


def test_only_its_author_or_the_gm_reveals_a_secret(table: Table) -> None:
    seq = table.do("seat:1", {"type": "note", "text": "my secret plan", "to": []})["last_seq"]
    problem = refused(table, "seat:2", {"type": "reveal", "seq": seq}, 403, "not_your_secret")
    assert "my secret plan" not in str(problem)


def test_unknown_game(client: TestClient, table: Table) -> None:
    for game_id in ("00000000-0000-4000-8000-000000000000", "not-a-game"):
        assert_problem(client.get(f"/games/{game_id}/events"), 404, "game_not_found")
        response = client.post(
            f"/games/{game_id}/commands", json={"type": "start"}, headers=table.auth("gm")
        )
        assert_problem(response, 404, "game_not_found")


def test_out_of_phase(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    refused(table, "seat:1", {"type": "roll", "expression": "1d6"}, 409, "game_not_started")
    refused(table, "seat:1", {"type": "declare", "text": "early"}, 409, "game_not_started")
    refused(table, "gm", {"type": "advance_phase", "phase": "Day"}, 409, "game_not_running")
    table.do("gm", {"type": "start"})
    table.do("gm", {"type": "end"})
    refused(table, "seat:1", {"type": "roll", "expression": "1d6"}, 409, "game_ended")
    refused(table, "gm", {"type": "end"}, 409, "game_ended")
    refused(table, "seat:2", {"type": "note", "text": "late"}, 409, "game_ended")


def test_malformed_json_and_oversized_bodies(table: Table) -> None:
    before = table.log_bytes()
    url = f"/games/{table.game_id}/commands"
    headers = {**table.auth("seat:1"), "content-type": "application/json"}
    assert_problem(
        table.client.post(url, content=b"{not json", headers=headers), 422, "invalid_request"
    )
    assert_problem(
        table.client.post(url, content=b"[1, 2]", headers=headers), 422, "invalid_request"
    )
    huge = b'{"type": "declare", "text": "' + b"x" * 70_000 + b'"}'
    assert_problem(table.client.post(url, content=huge, headers=headers), 413, "payload_too_large")
    assert table.log_bytes() == before


def test_invites_are_single_use_and_checked(client: TestClient) -> None:
    table = Table.create(client)
    table.join(1)
    response = client.post(f"/games/{table.game_id}/join", json={"invite": table.invites[1]})
    assert_problem(response, 403, "invalid_invite")
    response = client.post(f"/games/{table.game_id}/join", json={"invite": "guess"})
    assert_problem(response, 403, "invalid_invite")
    response = client.post(f"/games/{table.game_id}/join", json={})
    assert_problem(response, 422, "invalid_request")


def test_manual_faces_are_checked(client: TestClient) -> None:
    table = Table.create(client, options={"dice_policy": "manual"})
    table.join_all()
    table.do("gm", {"type": "start"})
    refused(
        table, "seat:1", {"type": "roll", "expression": "2d6", "faces": [3, 7]}, 422, "bad_faces"
    )
    refused(table, "seat:1", {"type": "roll", "expression": "2d6", "faces": [3]}, 422, "bad_faces")
    refused(table, "seat:1", {"type": "roll", "expression": "2d6"}, 409, "server_dice_not_allowed")


def test_a_reused_idempotency_key_with_another_command_is_refused(table: Table) -> None:
    table.send("seat:1", {"type": "declare", "text": "one"}, **{"Idempotency-Key": "k"})
    refused(
        table,
        "seat:1",
        {"type": "declare", "text": "two"},
        409,
        "idempotency_key_reused",
        **{"Idempotency-Key": "k"},
    )


def test_create_game_validation(client: TestClient) -> None:
    bad_bodies: list[dict[str, Any]] = [
        {"title": "T", "seats": []},
        {"title": "", "seats": ["A"]},
        {"title": "T", "seats": ["A"] * 17},
        {"title": "T", "seats": ["A"], "options": {"dice_policy": "telepathy"}},
        {"title": "T", "seats": ["A"], "surprise": 1},
    ]
    for body in bad_bodies:
        assert_problem(client.post("/games", json=body), 422, "invalid_request")
    response = client.post("/games", json={"title": "T", "seats": ["A"], "ruleset": "chess"})
    assert_problem(response, 422, "unknown_ruleset")


@pytest.mark.parametrize(
    "raw",
    [
        b'{"type": "declare", "text": "broken \\ud800 text"}',
        b'{"type": "amend", "concerning_seq": 1, "reason": "r",'
        b' "correction": {"n": 9007199254740993}}',
        b'{"type": "ruling", "concerning_seq": 1, "text": "t", "effect": {"n": -9007199254740993}}',
        b'{"type": "ruling", "concerning_seq": 1, "text": "t", "effect": {"x": NaN}}',
        b'{"type": "amend", "concerning_seq": 1, "reason": "r", "correction": {"x": -Infinity}}',
        b'{"type": "ruling", "concerning_seq": 1, "text": "t",'
        b' "effect": {"roll": 1000, "seeds": [], "entropy": ""}}',
    ],
)
def test_values_the_log_cannot_record_exactly_are_refused(table: Table, raw: bytes) -> None:
    before = table.log_bytes()
    headers = {**table.auth("gm"), "content-type": "application/json"}
    response = table.client.post(f"/games/{table.game_id}/commands", content=raw, headers=headers)
    assert response.status_code == 422, response.text
    assert response.json()["code"] in ("unencodable_json", "invalid_request")
    assert table.log_bytes() == before


def test_a_game_with_unencodable_options_is_not_created(client: TestClient) -> None:
    raw = b'{"title": "T", "seats": ["A"], "ruleset_options": {"n": 9007199254740993}}'
    response = client.post("/games", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["code"] in ("unencodable_json", "invalid_ruleset_options")


def test_a_game_cannot_be_created_with_draw_shaped_options(client: TestClient) -> None:
    body = {
        "title": "T",
        "seats": ["A"],
        "ruleset_options": {"d": {"roll": 1, "seeds": [], "entropy": ""}},
    }
    response = client.post("/games", json=body)
    assert response.status_code == 422
    assert "ダイスの抽選用に予約されています" in response.json()["detail"]  # Japanese by default
    english = client.post("/games", json=body, headers={"Accept-Language": "en"})
    assert "reserved for dice draws" in english.json()["detail"]


def test_an_unknown_command_is_refused_in_the_readers_language(table: Table) -> None:
    body = {"type": "teleport", "to": "B2"}
    ja = refused(table, "seat:1", body, 422, "unknown_command")["detail"]
    en = refused(table, "seat:1", body, 422, "unknown_command", **{"Accept-Language": "en"})
    assert ja.startswith("コマンド「teleport」はありません（コマンドは ") and "'declare'" in ja
    assert en["detail"].startswith("There is no command “teleport” (the commands: ")


def test_the_frameworks_refusals_are_in_the_readers_language(client: TestClient) -> None:
    missing = assert_problem(client.get("/no/such/page"), 404, "not_found")
    assert missing["detail"] == "このアドレスには何もありません。"
    english = client.get("/no/such/page", headers={"Accept-Language": "en"})
    assert (
        assert_problem(english, 404, "not_found")["detail"] == "There is nothing at this address."
    )
    method = client.delete("/games", headers={"Accept-Language": "en"})
    assert "Allow header" in assert_problem(method, 405, "method_not_allowed")["detail"]


def test_a_dice_refusal_reads_in_the_readers_language() -> None:
    """Kiroku's own dice language (domain/dice) refuses through the same handler as the API's."""
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/roll")
    def roll(expression: str) -> None:
        parse(expression)

    client = TestClient(app)
    ja = assert_problem(client.get("/roll", params={"expression": "2D6+"}), 422, "dice_syntax")
    english = client.get("/roll", params={"expression": "2D6+"}, headers={"Accept-Language": "en"})
    en = assert_problem(english, 422, "dice_syntax")
    assert ja["detail"].startswith(
        "数値か、2D6のようなダイスの項が要るところでコマンドが終わっている。"
    )
    assert "KirokuはBCDiceの" in ja["detail"] and ja["detail"].endswith("（5文字目）")
    assert en["detail"].startswith("expected a number or a dice term such as 2D6 but found the end")
    assert en["detail"].endswith("S in front rolls in secret (at character 5)")


def test_a_forbidden_character_is_named_in_the_readers_language(table: Table) -> None:
    body = {"type": "declare", "text": "a\u202eb"}
    ja = refused(table, "seat:1", body, 422, "forbidden_character")["detail"]
    en = refused(table, "seat:1", body, 422, "forbidden_character", **{"Accept-Language": "en"})
    assert (
        "2文字目に文字の向きを変える双方向制御文字 U+202E RIGHT-TO-LEFT OVERRIDE があります" in ja
    )
    assert "Character 2 of this text is a bidirectional control character" in en["detail"]
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in en["detail"] and "があります" not in en["detail"]
