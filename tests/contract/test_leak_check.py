"""The contract's leak check finds leaks: with the redaction or the view stripping broken on
purpose, the same generated play reports secrets in other audiences' bytes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.model import redaction
from domain.model.secrecy import Private
from domain.rulesets import ruleset_for
from tests.contract.play import GeneratedGame

# A secret each game surely holds before the random play: an NPC's sheet (its skill a
# marker), sealed to the GM; the character sheets dealt, each sealed to its seat.
SECRETS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "freeform": [("seat:1", {"type": "note", "text": "mk-a-secret-note"})],
    "ninja_slayer": [
        (
            "gm",
            {
                "type": "ninja_slayer.add_character",
                "id": "boss",
                "name": "Boss",
                "kind": "boss",
                "sheet": {
                    "karate": 6,
                    "neuron": 5,
                    "wazamae": 4,
                    "tairyoku": 9,
                    "skills": ["mk-a-secret-skill"],
                },
            },
        )
    ],
    "chojin_locke": [("host", {"type": "chojin_locke.deal"})],  # a host game by default
}


def _leaks(client: TestClient, service: GameService, ruleset_id: str) -> list[str]:
    game = GeneratedGame(client, service, ruleset_for(ruleset_id), seed=3)
    for actor, body in SECRETS[ruleset_id]:
        assert game.send(actor, body)
    return game.play(40).leaks


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
