"""Per-audience views: read-your-writes, exact secrets per audience, rebuild equivalence."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import postgres_env
from domain.model.commands import Declare, End, Note, Reveal, Roll, Start
from domain.model.lifecycle_events import GameOptions
from domain.rulesets.freeform import AdvancePhase
from projections import runner as runner_module
from projections.runner import ViewRunner
from projections.store import open_view_store
from tests.table import Table


def test_a_caller_reads_its_own_write(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    for i in range(5):
        seq = table.do("seat:1", {"type": "declare", "text": f"line {i}"})["last_seq"]
        view = client.get(f"/games/{table.game_id}/view", headers=table.auth("seat:1")).json()
        assert view["seq"] >= seq
        assert view["audience"] == "seat:1"


def test_each_audience_sees_exactly_its_secrets(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"])
    table.join_all()
    table.do("gm", {"type": "start"})
    to_ben = table.do("seat:1", {"type": "note", "text": "for Ben", "to": ["seat:2"]})["last_seq"]
    own = table.do("seat:3", {"type": "note", "text": "Chie alone"})["last_seq"]
    roll = table.do("seat:2", {"type": "roll", "expression": "S2D6"})["last_seq"]

    def secrets(actor: str) -> set[int]:
        view = client.get(f"/games/{table.game_id}/view", headers=table.auth(actor)).json()
        return {s["seq"] for s in view["secrets"]}

    assert secrets("seat:1") == {to_ben}
    assert secrets("seat:2") == {to_ben, roll}
    assert secrets("seat:3") == {own}
    assert secrets("gm") == {to_ben, own, roll}  # every secret but the dice seed
    assert secrets("public") == set()

    table.do("seat:3", {"type": "reveal", "seq": own})
    assert secrets("public") == {own}
    assert secrets("seat:1") == {to_ben, own}


def test_view_errors(client: TestClient) -> None:
    table = Table.create(client)
    response = client.get(f"/games/{table.game_id}/view", headers={"Authorization": "Bearer x"})
    assert response.status_code == 401 and response.json()["code"] == "bad_token"
    response = client.get("/games/00000000-0000-4000-8000-000000000000/view")
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"


def play_long_game(service: GameService, runner: ViewRunner, events: int, seed: int) -> str:
    """A generated game with secrets for random audiences, some revealed, catching up
    the views at random moments (as reads would)."""
    rng = random.Random(seed)
    game = service.create_game(NewGame("freeform", "Long", ["A", "B", "C"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())
    secrets: list[tuple[int, str]] = []
    actors = ["gm", "seat:1", "seat:2", "seat:3"]
    while service.state(gid).version < events:
        actor = rng.choice(actors)
        kind = rng.random()
        if kind < 0.3:
            to = rng.sample(["seat:1", "seat:2", "seat:3", "gm"], rng.randint(0, 2))
            outcome = service.execute(gid, actor, Note(text=f"n{rng.random()}", to=to))
            secrets.append((outcome.last_seq, actor))
        elif kind < 0.45:
            outcome = service.execute(gid, actor, Roll(expression="S3D6>=10"))
            secrets.append((outcome.last_seq, actor))
        elif kind < 0.55 and secrets:
            seq, author = secrets.pop(rng.randrange(len(secrets)))
            service.execute(gid, author, Reveal(seq=seq))
        elif kind < 0.6:
            service.execute(gid, "gm", AdvancePhase(phase=f"phase {rng.randint(1, 9)}"))
        else:
            service.execute(gid, actor, Declare(text="I act"))
        if rng.random() < 0.02:
            runner.catch_up()
    return gid


def all_views(runner: ViewRunner, service: GameService, gid: str) -> dict[str, str]:
    return {
        audience: runner.view(gid, audience).model_dump_json()
        for audience in service.state(gid).audiences()
    }


def test_rebuild_equals_incremental_views_on_a_long_game(service: GameService) -> None:
    runner = ViewRunner(service.log, open_view_store(service.env))
    gid = play_long_game(service, runner, events=2500, seed=7)
    other = play_long_game(service, runner, events=150, seed=8)
    service.execute(other, "gm", End())
    incremental = all_views(runner, service, gid)
    incremental_other = all_views(runner, service, other)
    assert len(incremental) == 5

    runner.rebuild(gid)
    assert all_views(runner, service, gid) == incremental

    fresh = ViewRunner(service.log, open_view_store(service.env))  # e.g. after a restart
    fresh.rebuild()
    assert all_views(fresh, service, gid) == incremental
    assert all_views(fresh, service, other) == incremental_other


def test_the_runner_keeps_a_bounded_memory_of_games_and_folds_a_let_go_one_from_the_store(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner_module, "KEEP_EVENTS", 300)
    runner = ViewRunner(service.log, open_view_store(service.env))
    first = play_long_game(service, runner, events=200, seed=1)
    runner.catch_up()
    assert first in runner.kept
    others = [play_long_game(service, runner, events=150, seed=s) for s in (2, 3, 4)]
    runner.catch_up()
    assert first not in runner.kept  # let go: the least recently folded
    assert sum(runner.kept.values()) <= 300
    for _ in range(3):  # the game it let go goes on, folded onto its stored state
        service.execute(first, "seat:1", Declare(text="later"))
    service.execute(first, "gm", End())
    runner.catch_up()
    games = [first, *others]
    incremental = {gid: all_views(runner, service, gid) for gid in games}
    fresh = ViewRunner(service.log, open_view_store(service.env))
    fresh.rebuild()  # the same views, folded from the log alone
    assert {gid: all_views(fresh, service, gid) for gid in games} == incremental


@pytest.fixture
def postgres_service(postgres_url: str) -> Iterator[GameService]:
    service = bootstrap(env=postgres_env(postgres_url))
    yield service
    service.close()


@pytest.mark.postgres
def test_views_on_postgres_rebuild_the_same(postgres_service: GameService) -> None:
    runner = ViewRunner(postgres_service.log, open_view_store(postgres_service.env))
    gid = play_long_game(postgres_service, runner, events=300, seed=3)
    incremental = all_views(runner, postgres_service, gid)
    second_worker = ViewRunner(postgres_service.log, open_view_store(postgres_service.env))
    assert all_views(second_worker, postgres_service, gid) == incremental
    second_worker.rebuild()
    assert all_views(runner, postgres_service, gid) == incremental
