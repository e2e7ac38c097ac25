"""A mech_d20 game driven through the lifecycle decider, without HTTP or storage."""

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
from domain.records import Draft, Recorded
from domain.rulesets.mech_d20 import MECH_D20
from domain.rulesets.mech_d20.state import Encounter, MechState, Unit

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


class Game:
    def __init__(self, seats: int = 3, **ruleset_options: Any) -> None:
        draft = lifecycle.create(
            ruleset="mech_d20",
            title="T",
            seat_names=[f"P{i}" for i in range(1, seats + 1)],
            options=GameOptions(dice_policy="both"),
            ruleset_options=ruleset_options,
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
        self.records: list[Recorded] = [recorded]
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
            self.records.append(recorded)
            out.append(recorded.event)
        return out

    def do(self, actor: str, command: str, /, **body: Any) -> list[Any]:
        parsed = parse({"type": f"mech_d20.{command}", **body})
        return self.apply(lifecycle.decide(self.state, parsed, actor), actor)

    def refused(self, actor: str, command: str, code: str, /, **body: Any) -> KirokuError:
        before = self.state
        with pytest.raises(KirokuError) as caught:
            lifecycle.decide(self.state, parse({"type": f"mech_d20.{command}", **body}), actor)
        assert caught.value.code == code, caught.value.message
        assert self.state == before
        return caught.value

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


_COMMANDS = {cls.model_fields["type"].default: cls for cls in MECH_D20.commands}


def parse(body: dict[str, Any]) -> Any:
    return _COMMANDS[body["type"]].model_validate(body)
