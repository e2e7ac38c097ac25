"""A ninja_slayer game driven through the lifecycle decider, without HTTP or storage."""

from __future__ import annotations

from typing import Any

import pytest

from domain import lifecycle
from domain.codec import seal
from domain.commands import Start
from domain.envelope import genesis_hash
from domain.errors import KirokuError
from domain.game import GameState
from domain.lifecycle_events import GameOptions
from domain.records import Draft
from domain.rulesets.ninja_slayer import NINJA_SLAYER
from domain.rulesets.ninja_slayer.state import Character, Combat, NinjaState

GAME = "6f1c1f4e-0000-4000-8000-000000000101"
SEED = "cd" * 32

PC_SHEET = {"karate": 5, "neuron": 4, "wazamae": 3, "tairyoku": 6, "seishin": 3, "dkk": 2}
BOSS_SHEET = {
    "karate": 8,
    "neuron": 6,
    "wazamae": 5,
    "tairyoku": 9,
    "seishin": 4,
    "evasion": True,
    "skills": ["ヒミツ・ジツ"],
}
MOB_SHEET = {"karate": 3, "neuron": 2, "wazamae": 3, "tairyoku": 1, "ninja": False}


class Game:
    def __init__(self, policy: str = "manual", seats: int = 2) -> None:
        draft = lifecycle.create(
            ruleset="ninja_slayer",
            title="T",
            seat_names=[f"P{i}" for i in range(1, seats + 1)],
            options=GameOptions(dice_policy=policy),  # type: ignore[arg-type]
            ruleset_options={},
            server_seed=SEED,
            gm_token_hash="g",
            invite_hashes=[f"i{i}" for i in range(1, seats + 1)],
        )
        recorded = seal(
            draft,
            game_id=GAME,
            seq=1,
            actor="gm",
            at="2026-01-01T00:00:00Z",
            prev_hash=genesis_hash(GAME),
        )
        self.state: GameState = lifecycle.initial_state(recorded)
        self.events: list[Any] = []
        self.apply(lifecycle.decide(self.state, Start(), "gm"), "gm")

    def apply(self, drafts: list[Draft], actor: str) -> list[Any]:
        out = []
        for draft in drafts:
            recorded = seal(
                draft,
                game_id=GAME,
                seq=self.state.version + 1,
                actor=actor,
                at="2026-01-01T00:00:00Z",
                prev_hash=self.state.head,
            )
            self.state = lifecycle.evolve(self.state, recorded)
            self.events.append(recorded.event)
            out.append(recorded.event)
        return out

    def do(self, actor: str, body: dict[str, Any]) -> list[Any]:
        command = _parse(body)
        return self.apply(lifecycle.decide(self.state, command, actor), actor)

    def refused(self, actor: str, body: dict[str, Any], code: str) -> KirokuError:
        before = self.state
        with pytest.raises(KirokuError) as caught:
            lifecycle.decide(self.state, _parse(body), actor)
        assert caught.value.code == code, caught.value.message
        assert self.state == before
        return caught.value

    @property
    def rules(self) -> NinjaState:
        return self.state.rules

    @property
    def combat(self) -> Combat:
        assert self.rules.combat is not None
        return self.rules.combat

    def to_turn_end(self) -> None:
        while self.combat.phase != "turn_end":
            self.do("gm", {"type": "ninja_slayer.advance"})

    def char(self, character_id: str) -> Character:
        return self.rules.characters[character_id]

    def add(self, actor: str, cid: str, kind: str, sheet: dict[str, Any], **extra: Any) -> None:
        body = {
            "type": "ninja_slayer.add_character",
            "id": cid,
            "name": cid,
            "kind": kind,
            "sheet": sheet,
            **extra,
        }
        self.do(actor, body)


_COMMANDS = {cls.model_fields["type"].default: cls for cls in NINJA_SLAYER.commands}


def _parse(body: dict[str, Any]) -> Any:
    return _COMMANDS[body["type"]].model_validate(body)
