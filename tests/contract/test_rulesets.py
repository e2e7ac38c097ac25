"""The contract every registered ruleset keeps, checked without writing anything for it.

For each ruleset: its declarations add up; folding every sample game of it and a generated
game never changes a fold's input, every state comes back from its JSON form, and a game
restored from a snapshot folds on to the same state as a full fold; a generated game played
over HTTP and the replays of its samples give no audience a byte it may not see.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.application.settings import store_env
from domain.model import lifecycle
from domain.model.game import GameState
from domain.model.records import Recorded
from domain.model.ruleset import Ruleset
from domain.rulesets import all_rulesets, ruleset_for
from replay.archive import read_archive, records_from_envelopes
from replay.history import History
from tests.contract.play import GeneratedGame, Ledger, Played

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
RULESETS = [r.id for r in all_rulesets()]
STEPS = 160


def _samples(ruleset_id: str) -> list[Path]:
    found = []
    for path in sorted(SAMPLES.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            if json.loads(next(lines))["ruleset"] == ruleset_id:
                found.append(path)
    return found


def _sample_records(path: Path) -> list[Recorded]:
    with path.open(encoding="utf-8") as lines:
        _header, envelopes = read_archive(lines)
    return records_from_envelopes([e for e in envelopes if isinstance(e, dict)])


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Played]]:
    """One generated game per ruleset, played once for the module's tests."""
    played: dict[str, Played] = {}
    folder = tmp_path_factory.mktemp("contract")
    service = bootstrap(env=store_env(sqlite_path=str(folder / "contract.db")))
    with TestClient(create_app(service)) as client:
        for number, ruleset_id in enumerate(RULESETS):
            game = GeneratedGame(client, service, ruleset_for(ruleset_id), seed=number)
            played[ruleset_id] = game.play(STEPS)
    yield played
    service.close()


def _games(ruleset_id: str, generated: dict[str, Played]) -> list[tuple[str, list[Recorded]]]:
    games = [(path.name, _sample_records(path)) for path in _samples(ruleset_id)]
    return [*games, ("generated", generated[ruleset_id].records)]


# ------------------------------------------------------------------------------ declarations


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_declarations_add_up(ruleset_id: str) -> None:
    ruleset: Ruleset[Any, Any] = ruleset_for(ruleset_id)
    assert ruleset.complete() is ruleset and ruleset.summary
    types = [c.model_fields["type"].default for c in ruleset.commands]
    assert len(types) == len(set(types)) and all(t.startswith(ruleset.prefix) for t in types)
    for event in ruleset.events:
        assert event.type.startswith(ruleset.prefix) or ruleset.prefix == ""


# ------------------------------------------------------------------------------ immutability


def _fold(records: list[Recorded]) -> Iterator[tuple[GameState | None, Recorded, GameState]]:
    state: GameState | None = None
    for recorded in records:
        after = (
            lifecycle.initial_state(recorded)
            if state is None
            else lifecycle.evolve(state, recorded)
        )
        yield state, recorded, after
        state = after


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_folds_leave_their_input_alone_and_states_round_trip(
    ruleset_id: str, generated: dict[str, Played]
) -> None:
    ruleset = ruleset_for(ruleset_id)
    for name, records in _games(ruleset_id, generated):
        before_json: str | None = None
        for before, recorded, after in _fold(records):
            if before is not None:
                assert before.model_dump_json() == before_json, (name, recorded.seq)
            before_json = after.model_dump_json()
            rules = after.rules
            assert ruleset.restore(json.loads(rules.model_dump_json())) == rules, (
                name,
                recorded.seq,
            )
            snapshot = json.loads(json.dumps(lifecycle.snapshot_of(after)))
            assert lifecycle.restore_snapshot(snapshot) == after, (name, recorded.seq)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_snapshot_restored_game_folds_on_to_the_full_fold(
    ruleset_id: str, generated: dict[str, Played]
) -> None:
    for name, records in _games(ruleset_id, generated):
        states = [after for _before, _recorded, after in _fold(records)]
        final = states[-1]
        for index in sorted({0, len(states) // 3, len(states) // 2, len(states) - 2}):
            if not 0 <= index < len(states) - 1:
                continue
            snapshot = json.loads(json.dumps(lifecycle.snapshot_of(states[index])))
            state = lifecycle.restore_snapshot(snapshot)
            for recorded in records[index + 1 :]:
                state = lifecycle.evolve(state, recorded)
            assert state == final, (name, index + 1)


# ------------------------------------------------------------------------------ secrecy


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_generated_game_leaks_nothing(ruleset_id: str, generated: dict[str, Played]) -> None:
    played = generated[ruleset_id]
    assert played.accepted >= 10, "the generated game hardly moved"
    assert played.leaks == []


def _all_samples() -> list[Path]:
    return [path for ruleset_id in RULESETS for path in _samples(ruleset_id)]


@pytest.mark.parametrize("sample", _all_samples(), ids=lambda path: path.name)
def test_replay_frames_of_a_sample_show_each_audience_only_its_own(
    sample: Path, client: TestClient, service: GameService
) -> None:
    """At any seq of a recorded game, the frame an audience replays holds no secret it could
    not see then (the books as of that seq say which)."""
    records = _sample_records(sample)
    state = service.import_game(records)
    history = History(records)
    audiences = list(state.audiences())
    ruleset = ruleset_for(state.ruleset)
    for seq in sorted({2, len(records) // 4, len(records) // 2, 3 * len(records) // 4}):
        at = history.state_at(seq).game
        ledger = Ledger(audiences)
        for recorded in records[:seq]:
            ledger.record(recorded, revealed=recorded.seq not in at.unrevealed)
        for audience in audiences:
            ledger.view(ruleset.view_model(at, audience), audience)
        traced = ledger.traced([])
        assert traced, "nothing secret to trace at this seq"
        for audience in audiences:
            # the game has ended: anyone (a spectator too) may replay it as any audience
            frame = client.get(f"/games/{state.game_id}/replay", params={"at": seq, "as": audience})
            assert frame.status_code == 200, frame.text
            assert ledger.leaks(audience, frame.content, set(), traced, set()) == []
