"""4.1 setup: counts by player count, the sealed deal, 拒否, playing-card restrictions."""

from __future__ import annotations

from collections import Counter

import pytest
from fastapi.testclient import TestClient

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.counts import COUNTS, character_counts
from tests.rulesets.chojin_locke.table import (
    cmd,
    marked_catalog,
    me,
    new_game,
    seats,
    setup_to_ambush,
    view,
)


def test_counts_follow_the_table() -> None:
    assert character_counts(6) == (1, 1, 2, 2)
    assert character_counts(11) == (1, 3, 4, 3)
    for players, counts in COUNTS.items():
        assert sum(counts) == players
        assert counts[0] == 1 and counts[1] + counts[0] >= 1


@pytest.mark.parametrize("players", [1, 4, 12])
def test_other_player_counts_refused(players: int) -> None:
    with pytest.raises(RuleViolation) as error:
        character_counts(players)
    assert error.value.code == "bad_player_count"


@pytest.mark.parametrize("players", [4, 12])
def test_a_game_for_other_player_counts_is_not_created(client: TestClient, players: int) -> None:
    body = {"ruleset": "chojin_locke", "title": "T", "seats": [f"P{i}" for i in range(players)]}
    response = client.post("/games", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "bad_player_count"
    assert (
        response.json()["detail"] == f"超人ロックのプレイ人数は5〜11人で、{players}人ではできない。"
    )
    english = client.post("/games", json=body, headers={"Accept-Language": "en"})
    assert english.json()["code"] == "bad_player_count"
    assert english.json()["detail"] == (
        f"Locke the Superman is played by 5 to 11 players, not {players}."
    )


@pytest.mark.parametrize("players", [5, 6, 8, 11])
def test_deal_gives_the_right_kinds(client: TestClient, players: int) -> None:
    table = new_game(client, players=players)
    table.do("gm", cmd("deal"))
    sheets = [me(table, actor)["sheet"] for actor in seats(table)]
    kinds = Counter("L" if s["leader"] else s["alignment"][0] for s in sheets)
    leader, good, evil, special = character_counts(players)
    assert kinds == Counter({"L": leader, "G": good, "E": evil, "S": special}) - Counter()
    assert not any(s["special"] for s in sheets)


def _reads(table, actor: str) -> bytes:  # type: ignore[no-untyped-def]
    out = b""
    url = f"/games/{table.game_id}"
    out += table.client.get(f"{url}/events", params={"after": 1}, headers=table.auth(actor)).content
    for path in ("", "/view"):
        out += table.client.get(f"{url}{path}", headers=table.auth(actor)).content
    return out


def test_each_seat_reads_its_own_sheet_and_no_other(client: TestClient) -> None:
    catalog, _ = marked_catalog()
    table = new_game(client, ruleset_options={"catalog": catalog})
    table.do("gm", cmd("deal"))
    names = {actor: me(table, actor)["sheet"]["name"] for actor in seats(table)}
    for actor in seats(table):
        raw = _reads(table, actor)
        for other, name in names.items():
            assert (name.encode() in raw) == (other == actor), (actor, other)
    public = _reads(table, "public")
    assert not any(name.encode() in public for name in names.values())
    gm = _reads(table, "gm")  # the GM (if the table has one) sees every sheet
    assert all(name.encode() in gm for name in names.values())


def test_refusal_redeals_and_is_once_per_game(client: TestClient) -> None:
    table = new_game(client)
    table.do("gm", cmd("deal"))
    assert view(table, "gm")["deals"] == 1
    table.do("seat:2", cmd("refuse"))
    assert view(table, "gm")["deals"] == 2
    before = table.log_bytes()
    again = table.send("seat:2", cmd("refuse"))
    assert again.status_code == 409 and again.json()["code"] == "refusal_used"
    assert table.log_bytes() == before
    table.do("seat:2", cmd("refuse", kind="refuse_previous"))  # 直前拒否: any number of times
    table.do("seat:2", cmd("refuse", kind="refuse_previous"))
    assert view(table, "gm")["deals"] == 4


def test_playing_card_restrictions(client: TestClient) -> None:
    table = new_game(client)
    table.do("gm", cmd("deal"))
    table.do("gm", cmd("fix_characters"))
    cards = [me(table, actor)["playing_card"] for actor in seats(table)]
    assert len({(c["color"], c["rank"]) for c in cards}) == 6
    for actor in seats(table):
        mine = me(table, actor)
        rank = mine["playing_card"]["rank"]
        if rank == 1:
            wrong = next(s for s in ("ロック", "ニア") if s != mine["sheet"]["silhouette"])
            response = table.send(actor, cmd("choose_silhouette", silhouette=wrong))
            assert response.json()["code"] == "ace_restriction"
        elif rank == 10:
            wrong = "ストロハイム" if mine["faction"] != "E" else "ニア"
            response = table.send(actor, cmd("choose_silhouette", silhouette=wrong))
            assert response.json()["code"] == "ten_restriction"


def test_silhouettes_stay_secret_until_all_chose_then_setup_completes(
    client: TestClient,
) -> None:
    table = new_game(client)
    setup_to_ambush(table)
    gm = view(table, "gm")
    assert all(p["silhouette"] for p in gm["players"])
    sides = Counter(p["side"] for p in gm["players"])
    assert min(sides["explorer"], sides["base"]) >= 2
    chosen = [e for e in table.events("public") if e["type"] == "chojin_locke.SilhouetteChosen"]
    assert chosen and all(e.get("secret") is None for e in chosen)
