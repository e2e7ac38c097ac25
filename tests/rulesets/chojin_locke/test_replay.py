"""The replay of a 超人ロック game: what each event changed is read from the state before it,
which a later fold must never have changed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from domain.application.service import GameService
from replay.cursor import Change, ReplayCursor
from replay.history import History
from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    me,
    new_game,
    to_phase,
    to_planets,
    turn_actor,
    view,
)


def test_what_an_answer_to_a_victory_declaration_changed(
    client: TestClient, service: GameService
) -> None:
    table = new_game(client)
    to_planets(table)
    while me(table, turn_actor(table))["faction"] not in ("G", "E"):
        end_turn(table)
    actor = turn_actor(table)
    to_phase(table, "support1")
    table.do(actor, cmd("declare_victory"))
    waiting = view(table, "public")["victory"]["waiting"]
    answered = table.do(f"seat:{waiting[0]}", cmd("answer_victory", objects=False))
    seq = answered["last_seq"]

    expected = Change(path="rules.victory.waiting", before=waiting, after=waiting[1:])
    history = History(service.records(table.game_id))
    for audience in ("public", "gm", f"seat:{waiting[0]}"):
        assert expected in ReplayCursor(history, audience).changes(seq), audience
    frame = table.client.get(
        f"/games/{table.game_id}/replay", params={"at": seq}, headers=table.auth("gm")
    ).json()
    assert expected.model_dump() in frame["changes"]
