"""The language of the pages and the API: Japanese by default, Accept-Language next, the
switch's cookie first; the switch returns only to a page of this site."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


def test_pages_are_japanese_unless_the_browser_asks(client: TestClient) -> None:
    japanese = client.get("/")
    assert japanese.headers["content-language"] == "ja"
    assert '<html lang="ja">' in japanese.text and "卓を立てる" in japanese.text
    assert "Start a table" not in japanese.text
    english = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert english.headers["content-language"] == "en" and "Start a table" in english.text


def test_the_switch_remembers_the_choice_over_accept_language(client: TestClient) -> None:
    switched = client.get("/lang/en?next=/g/abc/replay", follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/g/abc/replay"
    assert "kiroku_lang=en" in switched.headers["set-cookie"]
    page = client.get("/", headers={"Accept-Language": "ja"})
    assert "Start a table" in page.text  # the cookie wins
    assert client.get("/i18n/en.json").json()["Start a table"] == "Start a table"
    assert client.get("/i18n/ja.json").json()["Start a table"] == "卓を立てる"


@pytest.mark.parametrize(
    "target", ["//evil.example/", "/\\evil.example", "https://evil.example/", "evil"]
)
def test_the_switch_never_sends_a_browser_elsewhere(client: TestClient, target: str) -> None:
    switched = client.get("/lang/ja", params={"next": target}, follow_redirects=False)
    assert switched.headers["location"] == "/"


def test_an_unknown_language_changes_nothing(client: TestClient) -> None:
    switched = client.get("/lang/fr?next=/", follow_redirects=False)
    assert "set-cookie" not in switched.headers
