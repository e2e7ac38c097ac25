"""A reveal reads as the line it reveals on every output, as the replay reads it: over real
HTTP, /events, the command answers and the stream give a メカd20 NPC's sealed sheet, once
revealed, as that unit's line with its sheet (「ガルムス (NPC) が戦場に — レベル6 …」), not
「#N の秘匿を公開」; and nothing still sealed to another audience reaches anyone (every byte each
audience received is searched for the secrets' marker texts)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api.live import batch
from api.live.sse import event_message
from api.present import _runs
from tests.api.test_stream_client import Follower
from tests.api.test_stream_http import CountingService, ThreadedServer, bearer, run
from tests.rulesets.mech_d20.sheets import SECRET_POWER, boss

NS = "mech_d20."
AUDIENCES = ("gm", "seat:1", "seat:2", "public")
SHEET = " (NPC) が戦場に — レベル6 【出力】6 【敏捷力】3 習熟ボーナス+3; AC"


@pytest.fixture
def service(sqlite_env: dict[str, str]) -> Iterator[CountingService]:
    counting = CountingService(sqlite_env)
    yield counting
    counting.close()


@pytest.fixture
def server(service: CountingService, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadedServer]:
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    monkeypatch.setenv("KIROKU_STREAM_HEARTBEAT", "0.3")
    with ThreadedServer(service) as running:
        yield running


def npc(marker: str) -> dict[str, Any]:
    """The boss's sheet, its never-used power named `marker`: text only its sheet holds."""
    sheet = copy.deepcopy(boss(0))
    for power in sheet["powers"]:
        if power["name"] == SECRET_POWER:
            power["name"] = marker
    return sheet


class Table:
    """A メカd20 game over HTTP, keeping every byte each audience was answered."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.game_id = ""
        self.tokens: dict[str, str | None] = {"public": None}
        self.received: dict[str, bytearray] = {a: bytearray() for a in AUDIENCES}

    async def create(self) -> None:
        body = {"title": "公開の線", "ruleset": "mech_d20", "seats": ["Aki", "Ben"]}
        created = await self.http.post("/games", json=body)
        assert created.status_code == 201, created.text
        data = created.json()
        self.game_id, self.tokens["gm"] = data["game_id"], data["gm_token"]
        for seat in data["seats"]:
            joined = await self.http.post(
                f"/games/{self.game_id}/join", json={"invite": seat["invite"]}
            )
            assert joined.status_code == 200, joined.text
            self.tokens[joined.json()["actor"]] = joined.json()["token"]

    async def do(self, actor: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        response = await self.http.post(
            f"/games/{self.game_id}/commands", json=body, headers=bearer(self.tokens[actor])
        )
        assert response.status_code == 201, response.text
        self.received[actor] += response.content
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    async def events(self, actor: str, after: int = 0) -> list[dict[str, Any]]:
        response = await self.http.get(
            f"/games/{self.game_id}/events",
            params={"after": after},
            headers=bearer(self.tokens[actor]),
        )
        assert response.status_code == 200, response.text
        self.received[actor] += response.content
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    def follower(self, actor: str) -> Follower:
        return Follower(self.http, self.game_id, bearer(self.tokens[actor]))


def reveal_of(events: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    [reveal] = [e for e in events if e["type"] == "Revealed" and e["public"]["of_seq"] == seq]
    return reveal


def reads_as_sheet(line: dict[str, Any], name: str, seq: int, marker: str) -> None:
    assert line["kind"] == "reveal" and line["concerns"] == seq, line
    assert line["text"].startswith(name + SHEET), line["text"]
    assert f"{marker} [1日毎]" in line["text"], line["text"]
    assert "max_hp" not in line["text"] and "{" not in line["text"], line["text"]


def test_a_reveal_reads_as_the_sheet_it_reveals_on_every_output(
    server: ThreadedServer, service: CountingService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The stream's events are encoded off the event loop (the feed's read encodes them for
    # every audience that follows the game): a game's end must not stall the worker's loop.
    on_loop: list[tuple[int, str]] = []

    def encode(state: Any, recorded: Any, audience: str, revealed: Any = None) -> bytes:
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop()
            on_loop.append((recorded.seq, audience))
        return event_message(state, recorded, audience, revealed)

    monkeypatch.setattr(batch, "event_message", encode)
    early, late = f"封印A-{uuid.uuid4().hex[:8]}", f"封印B-{uuid.uuid4().hex[:8]}"
    note = f"メモ-{uuid.uuid4().hex[:8]}"

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            table = Table(http)
            await table.create()
            followers = {a: await table.follower(a).open() for a in AUDIENCES}
            await table.do("gm", {"type": "start"})
            add = {"type": NS + "add_unit", "kind": "npc"}
            first = (await table.do("gm", {**add, "name": "ガルムス", "sheet": npc(early)}))[0]
            second = (await table.do("gm", {**add, "name": "ゾルダ", "sheet": npc(late)}))[0]
            noted = (await table.do("seat:1", {"type": "note", "text": note}))[0]

            # The GM reveals one sheet mid-game: everyone reads its reveal as its sheet.
            said = await table.do("gm", {"type": "reveal", "seq": first["seq"]})
            reads_as_sheet(reveal_of(said, first["seq"])["line"], "ガルムス", first["seq"], early)
            last = said[-1]["seq"]
            for audience, follower in followers.items():
                await follower.wait_for(last)
                events = await table.events(audience)
                line = reveal_of(events, first["seq"])["line"]
                reads_as_sheet(line, "ガルムス", first["seq"], early)
                streamed = [m.json() for m in follower.messages]
                assert reveal_of(streamed, first["seq"])["line"] == line, audience
                # the sheet still sealed reads as the unit's name alone
                [unit] = [e for e in events if e["seq"] == second["seq"]]
                if audience != "gm":
                    assert unit["line"]["text"] == "ゾルダ (NPC) が戦場に", unit["line"]
            await asyncio.sleep(0.6)  # room for a stray message to arrive
            for audience, follower in followers.items():
                received = bytes(table.received[audience]) + bytes(follower.raw)
                assert (late.encode() in received) is (audience == "gm"), audience
                assert (note.encode() in received) is (audience in ("gm", "seat:1")), audience
                assert early.encode() in received, audience

            # The end reveals the rest: the other sheet and the note, each as its line.
            ended = await table.do("gm", {"type": "end", "summary": "撃破"})
            reads_as_sheet(reveal_of(ended, second["seq"])["line"], "ゾルダ", second["seq"], late)
            last = ended[-1]["seq"]
            end_seq = next(e["seq"] for e in ended if e["type"] == "GameEnded")
            for follower in followers.values():
                await follower.wait_for(last)
            await asyncio.sleep(0.6)
            for follower in followers.values():
                await follower.close()
            for audience, follower in followers.items():
                reads = service.reads
                events = await table.events(audience)
                assert service.reads - reads == 1  # what the page reveals is in the page
                reads_as_sheet(
                    reveal_of(events, second["seq"])["line"], "ゾルダ", second["seq"], late
                )
                line = reveal_of(events, noted["seq"])["line"]
                assert (line["kind"], line["text"], line["speaker"]) == ("reveal", note, "Aki")
                # the stream said the end as /events says it now, reveals included
                streamed = [m.json() for m in follower.messages if m.seq >= end_seq]
                assert streamed == events[end_seq - 1 :], audience
                # a page of the end's reveals alone reads what they reveal, in one read more
                reads = service.reads
                page = await table.events(audience, after=end_seq)
                assert service.reads - reads <= 2, service.reads - reads
                assert reveal_of(page, second["seq"]) == reveal_of(events, second["seq"])

    run(scenario())
    assert on_loop == []


def test_the_seqs_revealed_are_read_in_runs() -> None:
    assert list(_runs([], 8)) == []
    assert list(_runs([5], 8)) == [(5, 5)]
    assert list(_runs([2, 3, 10, 19, 40, 41], 8)) == [(2, 10), (19, 19), (40, 41)]
