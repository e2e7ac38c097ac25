"""The contract's leak check finds leaks: with the redaction or the view stripping broken on
purpose, the same generated play reports secrets in other audiences' bytes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from domain import redaction
from domain.rulesets import ruleset_for
from domain.secrecy import Private
from domain.service import GameService
from tests.contract.play import GeneratedGame


def _leaks(client: TestClient, service: GameService, ruleset_id: str) -> list[str]:
    game = GeneratedGame(client, service, ruleset_for(ruleset_id), seed=3)
    return game.play(80).leaks


def test_a_redaction_that_shows_every_sealed_body_is_caught(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _leaks(client, service, "freeform") == []  # the control: the same play, unbroken
    monkeypatch.setattr(redaction, "may_see", lambda viewer, audience, revealed: True)
    assert _leaks(client, service, "freeform")


@pytest.mark.parametrize("ruleset_id", ["ninja_slayer", "chojin_locke"])
def test_a_view_that_keeps_every_private_field_is_caught(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch, ruleset_id: str
) -> None:
    assert _leaks(client, service, ruleset_id) == []
    monkeypatch.setattr(Private, "visible_to", lambda self, audience: True)
    assert _leaks(client, service, ruleset_id)
