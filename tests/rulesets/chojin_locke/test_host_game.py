"""A six-seat 超人ロック game created without an omniscient GM (the ruleset's default: a host),
played through HTTP from the deal to an ending with the host's own eyes only (what the public
sees) and each seat's own view. Every byte the host's token receives before the end — views,
event lists, the live stream, replays, the refused archive and audit, its own refusals — is
searched for any seat's sheet, silhouette choice before the reveal, 待ち伏せ or 重要拠点.

The catalog is the sample with unique marker names for the characters, so a sheet's name in
the host's bytes means that sheet reached the host.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    ambush_squares,
    choose_all,
    cmd,
    finish_turn,
    info_catalog,
    me,
    pick,
    rebalance,
    seats,
    turn_actor,
    view,
)
from tests.table import Table

KEYS = [(0, 0), (0, 1), (0, 2), (0, 3)]
NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fuyu"]


class HostBytes:
    """Every response body the host's token is answered with, as the client received it."""

    def __init__(self, client: TestClient, token: str) -> None:
        self.header = f"Bearer {token}"
        self.data = b""
        self.count = 0
        client.event_hooks["response"].append(self._record)

    def _record(self, response: httpx.Response) -> None:
        if response.request.headers.get("Authorization") != self.header:
            return
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            return  # endless: its reader adds what it read (`add`)
        response.read()
        self.add(response.content)

    def add(self, data: bytes) -> None:
        self.data += data
        self.count += 1


def _marked(catalog: dict[str, Any]) -> dict[str, Any]:
    for index, character in enumerate(catalog["characters"]):
        character["name"] = f"SHEET-MARK-{index:03d}-{character['name']}"
    return catalog


def _secret_json(value: Any) -> list[bytes]:
    """The forms a sealed body takes in a JSON response (as the API writes an event's
    `secret`). A small body alone (`{"row":0,"col":0}`) may also be a public position; the
    views' own secret fields are checked by structure."""
    forms = [json.dumps(value, ensure_ascii=False, separators=(",", ":"))]
    forms.append(json.dumps(value, ensure_ascii=True, separators=(",", ":")))
    return [b'"secret":' + f.encode() for f in forms]


def _host_reads(table: Table, host: str, bytes_seen: HostBytes) -> None:
    """Every read the host can make, besides what playing made it read: the events (after the
    public GameCreated, whose catalog names every character), the stream, replays, and the
    archive and audit, which are refused before the end."""
    url = f"/games/{table.game_id}"
    headers = table.auth(host)
    table.client.get(f"{url}/events", params={"after": 1}, headers=headers)
    table.client.get(f"{url}/view", headers=headers)
    last = table.client.get(url, headers=headers).json()["last_seq"]
    # the live stream's catch-up, after the public GameCreated too
    data = b""
    stream = f"{url}/stream"
    with table.client.stream("GET", stream, params={"after": 1}, headers=headers) as response:
        for chunk in response.iter_bytes():
            data += chunk
            if f"id: {last}\n".encode() in data:
                break
    assert b"id: 2\n" in data
    bytes_seen.add(data)
    for at in sorted({2, last // 2 or 2, last}):
        table.client.get(f"{url}/replay", params={"at": at}, headers=headers)
    for refused in ("/archive", "/audit"):
        response = table.client.get(f"{url}{refused}", headers=headers)
        assert response.json()["code"] == "game_not_ended"


def _sealed_bodies(table: Table) -> list[tuple[int, str, Any]]:
    """(seq, type, body) of every sealed body some seat can read, as that seat reads it."""
    found: dict[int, tuple[int, str, Any]] = {}
    for actor in seats(table):
        for event in table.events(actor, after=1):
            if event["secret"] is not None and not event["revealed"]:
                found[event["seq"]] = (event["seq"], event["type"], event["secret"])
    return list(found.values())


def _assert_host_blind(table: Table, host: str, bytes_seen: HostBytes) -> None:
    """Nothing sealed to a seat is in the host's bytes; the host's event list has every event
    but no sealed body; its view holds no seat's sheet, 待ち伏せ or 重要拠点."""
    _host_reads(table, host, bytes_seen)
    bodies = _sealed_bodies(table)
    assert bodies  # there is something to leak
    for seq, kind, body in bodies:
        for form in _secret_json(body):
            assert form not in bytes_seen.data, (seq, kind)
    for event in table.events(host, after=1):
        assert event["secret"] is None or event["revealed"], event["seq"]
    rules = view(table, host)
    assert rules.get("me") is None and rules.get("secrets") is None
    assert rules["board"]["ambushes"] is None and rules["board"]["keys"] is None
    assert all(p.get("sheet") is None for p in rules["players"] if not p["sheet_open"])
    for actor in seats(table):
        name = me(table, actor)["sheet"]["name"]
        opened = any(p["sheet_open"] for p in rules["players"] if f"seat:{p['seat']}" == actor)
        assert (name.encode() in bytes_seen.data) == opened, actor


def test_a_six_seat_game_without_a_gm_from_the_deal_to_an_ending(client: TestClient) -> None:
    catalog = _marked(info_catalog())
    table = Table.create(
        client, seats=NAMES, ruleset="chojin_locke", ruleset_options={"catalog": catalog}
    )
    host = table.creator
    assert host == "host" and "gm" not in table.tokens  # the ruleset's default: no referee
    host_bytes = HostBytes(client, table.tokens[host])
    game = client.get(f"/games/{table.game_id}", headers=table.auth(host)).json()
    assert (game["referee"], game["host"]) == ("host", "host")
    table.join_all()
    table.do(host, {"type": "start"})

    # ---- the deal: the host deals and fixes the characters without seeing a sheet
    table.do(host, cmd("deal"))
    _assert_host_blind(table, host, host_bytes)

    # ---- silhouettes: chosen in secret; the host's bytes hold none before the reveal
    table.do(host, cmd("fix_characters"))
    for actor in seats(table)[:-1]:
        _choose(table, actor)
    assert view(table, host)["stage"] == "silhouettes"
    _assert_host_blind(table, host, host_bytes)
    chosen = {me(table, actor)["silhouette_choice"] for actor in seats(table)[:-1]}
    for name in chosen:
        assert json.dumps(name, ensure_ascii=False).encode() not in host_bytes.data, name
        assert json.dumps(name).encode() not in host_bytes.data, name
    for _ in range(10):
        choose_all(table)
        stage = view(table, host)["stage"]
        if stage == "ambush":
            break
        if stage == "rebalance":
            rebalance(table)
    assert view(table, host)["stage"] == "ambush"
    rules = view(table, host)
    bases = [p["seat"] for p in rules["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in rules["players"] if p["side"] == "explorer"]

    # ---- 惑星編: 待ち伏せ hidden from the host
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        table.do(
            f"seat:{bases[index % len(bases)]}", cmd("place_ambush", planet=planet, square=square)
        )
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=index))
    table.do(host, cmd("begin_planets"))
    _assert_host_blind(table, host, host_bytes)
    for _ in range(60):
        if view(table, host)["stage"] != "planet":
            break
        finish_turn(table, turn_actor(table), cmd("move", direction="right"))
    assert view(table, host)["stage"] == "keys"

    # ---- 秘密基地編: 重要拠点 hidden from the host
    for index, (row, col) in enumerate(KEYS):
        table.do(f"seat:{bases[index % len(bases)]}", cmd("place_key", row=row, col=col))
    players = view(table, host)["players"]
    most = max(p["information"] for p in players if p["side"] == "explorer")
    order = view(table, host)["entry_order"]  # 4.6 l.793, public
    assert sorted(order) == [
        p["seat"] for p in players if p["side"] == "explorer" and p["information"] == most
    ]
    for seat in order:
        table.do(f"seat:{seat}", cmd("enter_base", row=0, col=0))
    table.do(host, cmd("begin_base"))
    _assert_host_blind(table, host, host_bytes)

    # ---- play on until the rules end the game (every 重要拠点 destroyed)
    for _ in range(200):
        rules = view(table, host)
        if rules["stage"] == "over":
            break
        actor = turn_actor(table)
        player = next(p for p in rules["players"] if f"seat:{p['seat']}" == actor)
        main: dict[str, Any] | None = None
        if player["outside"]:
            level = me(table, actor)["stats"]["esp_level"]
            main = cmd("intrude", declared=level, row=5, col=5)
        elif player["side"] == "explorer" and player["cell"] and player["cell"]["row"] == 0:
            main = cmd("move", direction="right") if player["cell"]["col"] < 3 else None
        if main is not None and main["type"].endswith("intrude"):
            _assert_no_secret_left_the_seats(table, host, host_bytes)
        finish_turn(table, actor, main)
    public = view(table, "public")
    assert public["ending"]["reason"] == "keys_destroyed"

    # ---- after the end everything is public, the host's view included: the markers were real
    ended = view(table, host)
    assert all(p["sheet"] for p in ended["players"])
    assert ended["board"]["keys"] is not None
    report = client.get(f"/games/{table.game_id}/audit", headers=table.auth(host)).json()
    assert report["verdict"] == "clean", report["summary"]
    assert host_bytes.count > 100


def _assert_no_secret_left_the_seats(table: Table, host: str, host_bytes: HostBytes) -> None:
    for seq, kind, body in _sealed_bodies(table):
        for form in _secret_json(body):
            assert form not in host_bytes.data, (seq, kind)


def _choose(table: Table, actor: str) -> None:
    """A seat's secret choice, avoiding the copies the choices made so far use up."""
    used: dict[str, int] = {}
    for other in seats(table):
        choice = me(table, other)["silhouette_choice"]
        if other != actor and choice:
            used[choice] = used.get(choice, 0) + 1
    mine = me(table, actor)
    name = pick(mine, used, mine["faction"] == "E")
    table.do(actor, cmd("choose_silhouette", silhouette=name))
