"""A mech_d20 game driven through the lifecycle decider, without HTTP or storage."""

from __future__ import annotations

from typing import Any

from domain.model.errors import KirokuError
from domain.rulesets.mech_d20.state import Encounter, MechState, Unit
from tests.decided import DecidedGame

GAME = "6f1c1f4e-0000-4000-8000-000000000d20"
SEED = "d2" * 32
RIFLE = {"name": "ビームライフル", "die": "1d10", "accuracy": 2, "enhancement": 1}
SABER = {"name": "ビームサーベル", "die": "1d8", "accuracy": 3, "enhancement": 1}
DEFENCES = {"AC": 18, "頑健": 15, "反応": 16, "意志": 14}


def sheet(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "level": 5,
        "abilities": {"出力": 4, "敏捷力": 3},
        "proficiency": 2,
        "defences": dict(DEFENCES),
        "max_hp": 40,
        "surges": 2,
        "surge_value": 10,
        "durability": 8,
        "weapons": [SABER, RIFLE],
    }
    data.update(changes)
    return data


class Game(DecidedGame):
    def __init__(self, seats: int = 3, **ruleset_options: Any) -> None:
        super().__init__(
            "mech_d20",
            game_id=GAME,
            server_seed=SEED,
            seats=seats,
            dice_policy="both",
            ruleset_options=ruleset_options,
        )

    def do(self, actor: str, command: str, /, **body: Any) -> list[Any]:
        return self.decide(actor, {"type": f"mech_d20.{command}", **body})

    def refused(self, actor: str, command: str, code: str, /, **body: Any) -> KirokuError:
        return self.refuse(actor, {"type": f"mech_d20.{command}", **body}, code)

    @property
    def rules(self) -> MechState:
        return self.state.rules

    @property
    def encounter(self) -> Encounter:
        assert self.rules.encounter is not None
        return self.rules.encounter

    def unit(self, uid: str) -> Unit:
        return self.rules.units[uid]

    def add(self, uid: str, kind: str = "pc", owner: str = "seat:1", **changes: Any) -> None:
        actor = "gm" if kind == "npc" else owner
        body: dict[str, Any] = {"id": uid, "name": uid, "kind": kind, "sheet": sheet(**changes)}
        if kind == "pc":
            body["owner"] = owner
        self.do(actor, "add_unit", **body)

    def begin(self, faces: dict[str, int], **body: Any) -> None:
        self.do(
            "gm",
            "begin_encounter",
            participants=list(faces),
            faces={u: [f] for u, f in faces.items()},
            **body,
        )
