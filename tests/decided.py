"""A game driven through the lifecycle decider alone: no HTTP, no storage, fixed times.

Ruleset test harnesses subclass `DecidedGame` and add their own vocabulary (characters,
units, phases); sealing, numbering and folding are done here once.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.adapters.bcdice_engine import shared_engine
from domain.model import lifecycle
from domain.model.codec import seal
from domain.model.commands import Command, Start
from domain.model.envelope import genesis_hash
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.lifecycle_events import DicePolicy, GameOptions
from domain.model.records import Draft, Recorded
from domain.rulesets import ruleset_for

AT = "2026-01-01T00:00:00Z"


def decide(state: GameState, command: Command, actor: str) -> list[Draft]:
    """The lifecycle decider with BCDice's answer to a roll or chat line, as the service
    passes it (the real engine: domain/adapters/bcdice_engine.py)."""
    return lifecycle.decide(state, command, actor, shared_engine().for_command(state, command))


class DecidedGame:
    """A started game of `ruleset` with `seats` seats (P1, P2, …), GM-created."""

    def __init__(
        self,
        ruleset: str,
        *,
        game_id: str,
        server_seed: str,
        seats: int,
        dice_policy: DicePolicy,
        ruleset_options: dict[str, Any] | None = None,
        referee: str = "gm",  # the rules' tests read the omniscient GM's view
    ) -> None:
        self.game_id = game_id
        draft = lifecycle.create(
            ruleset=ruleset,
            title="T",
            seat_names=[f"P{i}" for i in range(1, seats + 1)],
            options=GameOptions(dice_policy=dice_policy),
            ruleset_options=ruleset_options or {},
            server_seed=server_seed,
            token_hash="g",
            invite_hashes=[f"i{i}" for i in range(1, seats + 1)],
            referee=referee,
        )
        recorded = seal(
            draft, game_id=game_id, seq=1, actor="gm", at=AT, prev_hash=genesis_hash(game_id)
        )
        self.state: GameState = lifecycle.initial_state(recorded)
        self.records: list[Recorded] = [recorded]
        self.commands = {c.model_fields["type"].default: c for c in ruleset_for(ruleset).commands}
        self.apply(lifecycle.decide(self.state, Start(), "gm"), "gm")

    @property
    def events(self) -> list[Any]:
        """Every event after GameCreated, in order."""
        return [recorded.event for recorded in self.records[1:]]

    def parse(self, body: dict[str, Any]) -> Command:
        return self.commands[body["type"]].model_validate(body)

    def apply(self, drafts: list[Draft], actor: str) -> list[Any]:
        """Seal, number and fold `drafts` as the service would; returns their events."""
        out = []
        for draft in drafts:
            recorded = seal(
                draft,
                game_id=self.game_id,
                seq=self.state.version + 1,
                actor=actor,
                at=AT,
                prev_hash=self.state.head,
            )
            self.state = lifecycle.evolve(self.state, recorded)
            self.records.append(recorded)
            out.append(recorded.event)
        return out

    def decide(self, actor: str, body: dict[str, Any]) -> list[Any]:
        return self.apply(decide(self.state, self.parse(body), actor), actor)

    def refuse(self, actor: str, body: dict[str, Any], code: str) -> KirokuError:
        """The command is refused with `code`, and the state is exactly as before."""
        before = self.state
        with pytest.raises(KirokuError) as caught:
            decide(self.state, self.parse(body), actor)
        assert caught.value.code == code, caught.value.message
        assert self.state == before
        return caught.value
