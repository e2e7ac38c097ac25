"""docs/how-to/write-a-ruleset.md's smallest complete ruleset runs exactly as printed."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

from domain import rulesets
from domain.application.service import GameService
from domain.model.commands import Start
from domain.model.errors import Forbidden
from tests.table import Table

DOC = Path(__file__).resolve().parents[2] / "docs" / "how-to" / "write-a-ruleset.md"


@cache
def _documented() -> ModuleType:
    (code,) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    spec = importlib.util.spec_from_loader("guess_ruleset", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["guess_ruleset"] = module
    exec(compile(code, str(DOC), "exec"), module.__dict__)
    return module


@pytest.fixture
def guess() -> Iterator[ModuleType]:
    module = _documented()
    rulesets.register(module.RULES)
    yield module
    rulesets._REGISTRY.pop("guess")  # the doc's ruleset is not one of the server's


def _rules(client: TestClient, table: Table, audience: str) -> dict[str, object]:
    response = client.get(f"/games/{table.game_id}", headers=table.auth(audience))
    rules: dict[str, object] = response.json()["rules"]
    return rules


def _started(client: TestClient, service: GameService, guess: ModuleType) -> Table:
    # Commands go through the service: the HTTP union holds the server's own rulesets only.
    table = Table.create(client, ruleset="guess")
    table.join_all()
    service.execute(table.game_id, "gm", Start())
    with pytest.raises(Forbidden) as refused:
        service.execute(table.game_id, "seat:1", guess.RollNumber())
    assert refused.value.code == "gm_only"
    service.execute(table.game_id, "gm", guess.RollNumber())
    return table


def test_the_number_is_the_gms_until_found(
    guess: ModuleType, client: TestClient, service: GameService
) -> None:
    table = _started(client, service, guess)
    number = _rules(client, table, "gm")["number"]
    assert isinstance(number, int) and 1 <= number <= 100
    for audience in ("public", "seat:1", "seat:2"):
        assert "number" not in _rules(client, table, audience)
        rolled = [e for e in table.events(audience) if e["type"] == "guess.NumberRolled"]
        assert rolled and rolled[0]["secret"] is None


def test_the_documented_ruleset_plays_to_the_end(
    guess: ModuleType, client: TestClient, service: GameService
) -> None:
    table = _started(client, service, guess)
    low, high, answer = 1, 100, ""
    for _ in range(8):  # a binary search finds any 1..100
        middle = (low + high) // 2
        outcome = service.execute(table.game_id, "seat:1", guess.Guess(number=middle))
        guessed = outcome.records[0].event
        assert isinstance(guessed, guess.Guessed)
        answer = guessed.answer
        if answer == "correct":
            break
        low, high = (middle + 1, high) if answer == "higher" else (low, middle - 1)
    assert answer == "correct"
    for audience in ("public", "seat:2"):
        rules = _rules(client, table, audience)
        assert rules["found"] is True and rules["number"] == middle
