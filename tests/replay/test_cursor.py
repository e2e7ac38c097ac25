"""The replay cursor: what each audience saw after event n, forward and back."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from domain.application.service import GameService, NewGame
from domain.model.commands import AddTab, Declare, End, Note, Reveal, Roll, Start
from domain.model.errors import KirokuError
from domain.model.game import DEFAULT_TABS
from domain.model.lifecycle_events import GameOptions
from domain.rulesets.freeform import AdvancePhase
from projections.runner import ViewRunner
from projections.store import open_view_store
from replay.cursor import ReplayCursor
from replay.history import CHECKPOINT_EVERY, History
from tests.table import Table

AUDIENCES = ("public", "gm", "seat:1", "seat:2")


def play(
    service: GameService, commands: int, seed: int, runner: ViewRunner | None = None
) -> tuple[str, dict[tuple[int, str], str]]:
    """A random game; with a runner, the materialised view of every audience after each event."""
    rng = random.Random(seed)
    game = service.create_game(NewGame("freeform", "Replay", ["A", "B"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())
    seen: dict[tuple[int, str], str] = {}
    secrets: list[tuple[int, str]] = []
    for _ in range(commands):
        actor = rng.choice(["gm", "seat:1", "seat:2"])
        pick = rng.random()
        if pick < 0.25:
            outcome = service.execute(
                gid, actor, Note(text=f"n{rng.random()}", to=rng.sample(["seat:1", "seat:2"], 1))
            )
            secrets.append((outcome.last_seq, actor))
        elif pick < 0.4:
            secrets.append((service.execute(gid, actor, Roll(expression="S2D6")).last_seq, actor))
        elif pick < 0.5 and secrets:
            seq, author = secrets.pop(0)
            service.execute(gid, author, Reveal(seq=seq))
        elif pick < 0.55:
            service.execute(gid, "gm", AdvancePhase(phase=f"p{rng.randint(1, 5)}"))
        elif pick < 0.8:
            service.execute(gid, actor, Roll(expression="1D20+3>=12"))
        else:
            service.execute(gid, actor, Declare(text="I act"))
        if runner is not None:
            version = service.state(gid).version
            for audience in AUDIENCES:
                seen[(version, audience)] = runner.view(gid, audience).model_dump_json()
    return gid, seen


def test_at_n_equals_the_projection_as_it_was_after_event_n(service: GameService) -> None:
    runner = ViewRunner(service.log, open_view_store(service.env))
    gid, seen = play(service, commands=3 * CHECKPOINT_EVERY // 2, seed=11, runner=runner)
    history = History(service.records(gid))
    assert len(seen) > 100
    for (seq, audience), materialised in seen.items():
        frame = ReplayCursor(history, audience).at(seq)
        assert frame.view.model_dump_json() == materialised, (seq, audience)


def test_stepping_forward_then_back_gives_identical_frames(service: GameService) -> None:
    gid, _ = play(service, commands=60, seed=5)
    history = History(service.records(gid))
    cursor = ReplayCursor(history, "seat:1", at=1)
    forward = [cursor.current()] + [cursor.step() for _ in range(history.last_seq - 1)]
    backward = [cursor.current()] + [cursor.back() for _ in range(history.last_seq - 1)]
    assert [f.seq for f in forward] == list(range(1, history.last_seq + 1))
    assert forward == list(reversed(backward))


def test_frames_show_the_event_as_the_audience_saw_it_then(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "T", ["A", "B"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())
    note = service.execute(gid, "seat:1", Note(text="the key is mine")).last_seq
    roll = service.execute(gid, "seat:2", Roll(expression="2D6+1>=8")).last_seq
    service.execute(gid, "gm", End())
    history = History(service.records(gid))

    as_b = ReplayCursor(history, "seat:2")
    assert as_b.at(note).event["secret"] is None  # before the end, B could not read it
    revealed = {item.seq: item.body for item in as_b.at(history.last_seq).view.secrets}
    assert revealed[note] == {"text": "the key is mine"}
    assert "server_seed" in revealed[1]  # the dice seed, revealed at the end
    frame = as_b.at(roll)
    assert frame.explanation is not None and frame.explanation.startswith("(2D6+1>=8) ＞")
    changed = {c.path for c in frame.changes}
    assert {"seq", "head"} <= changed


def test_changes_of_a_phase_change_name_the_phase(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "T", ["A"], GameOptions(), {}))
    service.execute(game.game_id, "gm", Start())
    seq = service.execute(game.game_id, "gm", AdvancePhase(phase="Night")).last_seq
    changes = ReplayCursor(History(service.records(game.game_id)), "public").changes(seq)
    phase = next(c for c in changes if c.path == "rules.phase")
    assert (phase.before, phase.after) == (None, "Night")


def test_out_of_range_seeks_are_refused(service: GameService) -> None:
    gid, _ = play(service, commands=3, seed=1)
    history = History(service.records(gid))
    with pytest.raises(KirokuError) as error:
        ReplayCursor(history, "gm").seek(history.last_seq + 1)
    assert error.value.code == "seq_out_of_range"


def test_http_replay_permissions(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    seq = table.do("seat:1", {"type": "note", "text": "mine alone"})["last_seq"]
    url = f"/games/{table.game_id}/replay"

    refused = client.get(url, params={"at": seq, "as": "seat:1"}, headers=table.auth("seat:2"))
    assert refused.status_code == 403 and refused.json()["code"] == "replay_as_other"
    assert "mine alone" not in refused.text and "view" not in refused.json()
    as_self = client.get(url, params={"at": seq}, headers=table.auth("seat:2")).json()
    assert as_self["audience"] == "seat:2" and as_self["event"]["secret"] is None
    as_gm = client.get(url, params={"at": seq, "as": "seat:1"}, headers=table.auth("gm")).json()
    assert as_gm["event"]["secret"] == {"text": "mine alone"}
    bad = client.get(url, params={"as": "everyone"}, headers=table.auth("gm"))
    assert bad.status_code == 422 and bad.json()["code"] == "bad_audience"

    table.do("gm", {"type": "end"})
    after = client.get(url, params={"at": seq, "as": "seat:1"}, headers=table.auth("seat:2"))
    assert after.status_code == 200
    assert after.json()["event"]["secret"] == {"text": "mine alone"}  # as seat:1 saw it


def test_changes_of_an_item_added_to_a_list_name_only_that_item(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "T", ["A"], GameOptions(), {}))
    seq = service.execute(game.game_id, "gm", AddTab(name="戦闘")).last_seq
    changes = ReplayCursor(History(service.records(game.game_id)), "public").changes(seq)
    tabs = [(c.path, c.before, c.after) for c in changes if c.path.startswith("tabs")]
    assert tabs == [(f"tabs[{len(DEFAULT_TABS)}]", None, "戦闘")]
