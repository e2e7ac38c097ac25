"""A ninja_slayer game driven through the lifecycle decider, without HTTP or storage."""

from __future__ import annotations

from typing import Any

from domain.model.errors import KirokuError
from domain.model.lifecycle_events import DicePolicy
from domain.rulesets.ninja_slayer.state import Character, Combat, NinjaState
from tests.decided import DecidedGame

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


class Game(DecidedGame):
    def __init__(self, policy: DicePolicy = "manual", seats: int = 2) -> None:
        super().__init__(
            "ninja_slayer", game_id=GAME, server_seed=SEED, seats=seats, dice_policy=policy
        )

    def do(self, actor: str, body: dict[str, Any]) -> list[Any]:
        return self.decide(actor, body)

    def refused(self, actor: str, body: dict[str, Any], code: str) -> KirokuError:
        return self.refuse(actor, body, code)

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
