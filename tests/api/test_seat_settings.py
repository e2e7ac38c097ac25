"""A seat's settings (speakers, palette, characters) through HTTP on the real stores: private to
the seat, the same for every client of it, nothing appended to the log; ココフォリア's
clipboard JSON imported (Ninja Slayer's labels to its sheet fields) and exported back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.settings import postgres_env
from tests.table import Table

CLIPBOARD: dict[str, Any] = {
    "kind": "character",
    "data": {
        "name": "フジキド・ケンジ",
        "color": "#b22222",
        "status": [
            {"label": "体力", "value": 8, "max": 10},
            {"label": "精神力", "value": 4, "max": 4},
        ],
        "params": [
            {"label": "カラテ", "value": "6"},
            {"label": "【ニューロン】", "value": "5"},
            {"label": "ワザマエ", "value": "4"},
            {"label": "ジツ", "value": "0"},
        ],
        "commands": "{カラテ}B6>=4 カラテ攻撃\n{ニューロン}B6>=4 回避",
    },
}


@pytest.fixture(params=["sqlite", "postgres"])
def any_client(request: pytest.FixtureRequest, client: TestClient) -> Iterator[TestClient]:
    if request.param == "sqlite":
        yield client
        return
    url = request.getfixturevalue("postgres_url")
    service = bootstrap(env=postgres_env(url))
    try:
        with TestClient(create_app(service)) as pg_client:
            yield pg_client
    finally:
        service.close()


def test_a_seats_settings_follow_it_and_stay_its_own(any_client: TestClient) -> None:
    table = Table.create(any_client, seats=["フジキド", "ヤモト"], ruleset="ninja_slayer")
    table.join_all()
    url = f"/games/{table.game_id}/seat-settings"
    opened = any_client.post(f"/games/{table.game_id}/session", headers=table.auth("seat:1"))
    cookie = opened.cookies[f"kiroku_{table.game_id}"]
    any_client.cookies.clear()
    before = table.log_bytes()
    assert any_client.get(url, headers=table.auth("seat:1")).json() == {
        "speakers": [],
        "palette": "",
        "characters": [],
    }
    imported = any_client.post(
        f"{url}/characters", json=CLIPBOARD, headers=table.auth("seat:1")
    ).json()
    character = imported["characters"][0]
    assert imported["speakers"] == [{"name": "フジキド・ケンジ", "color": "#b22222"}]
    assert character["palette"].startswith("{カラテ}B6>=4")
    assert character["fields"] == {
        "karate": 6,
        "neuron": 5,
        "wazamae": 4,
        "jitsu": 0,
        "tairyoku": 10,
        "seishin": 4,
    }
    # the seat's GM-side speakers and the seat's palette, saved
    saved = {**imported, "palette": "2D6 挨拶", "speakers": [*imported["speakers"]]}
    assert any_client.put(url, json=saved, headers=table.auth("seat:1")).status_code == 200
    # another client of the same seat (a second token: another device) reads the same
    # another browser of the same seat (signed in by its own session cookie) reads the same
    second = any_client.get(url, headers={"Cookie": f"kiroku_{table.game_id}={cookie}"}).json()
    assert second["palette"] == "2D6 挨拶" and second["characters"][0]["name"] == "フジキド・ケンジ"
    # private: the other seat and the GM have their own (empty), a spectator none
    assert any_client.get(url, headers=table.auth("seat:2")).json()["characters"] == []
    assert any_client.get(url, headers=table.auth("gm")).json()["speakers"] == []
    refused = any_client.get(url)
    assert refused.status_code == 403 and refused.json()["code"] == "seat_only"
    # out again in ココフォリア's shape
    exported = any_client.get(
        f"{url}/characters/フジキド・ケンジ/ccfolia", headers=table.auth("seat:1")
    ).json()
    assert exported["kind"] == "character"
    assert exported["data"]["commands"] == CLIPBOARD["data"]["commands"]
    assert exported["data"]["status"] == CLIPBOARD["data"]["status"]
    assert {p["label"] for p in exported["data"]["params"]} >= {"カラテ", "ワザマエ"}
    # a character the seat does not hold: said without echoing the name sent in the path
    missing = any_client.get(f"{url}/characters/%3Cb%3Eghost/ccfolia", headers=table.auth("seat:1"))
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_character"
    assert missing.json()["detail"] == "そのキャラクターはいません。"
    assert table.log_bytes() == before  # settings are beside the log, never in it
    events = json.dumps(table.events("gm"), ensure_ascii=False)
    assert "挨拶" not in events and "カラテ攻撃" not in events


def test_what_is_not_a_ccfolia_character_is_refused_in_words(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    url = f"/games/{table.game_id}/seat-settings/characters"
    for body in ({"kind": "item"}, {"kind": "character", "data": {"name": " "}}):
        refused = client.post(url, json=body, headers=table.auth("seat:1"))
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_ccfolia"
        assert "ココフォリア" in refused.json()["detail"]
    english = client.post(
        url, json={"kind": "item"}, headers={**table.auth("seat:1"), "Accept-Language": "en"}
    )
    assert english.json()["detail"].startswith("This is not a ココフォリア character")
