"""Sheets and units for the pure-rule tests (no game, no events)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.mech_d20.effects import Effect
from domain.rulesets.mech_d20.sheet import Sheet
from domain.rulesets.mech_d20.state import Applied, Ending, Unit

SABER = {"name": "ビームサーベル", "die": "1d8", "accuracy": 2, "enhancement": 1}


def sheet(**changes: Any) -> Sheet:
    data: dict[str, Any] = {
        "level": 3,
        "abilities": {"出力": 4, "敏捷力": 3},
        "proficiency": 2,
        "defences": {"AC": 18, "反応": 15},
        "max_hp": 41,
        "surges": 2,
        "surge_value": 10,
        "durability": 8,
        "weapons": [SABER],
    }
    data.update(changes)
    return Sheet.model_validate(data)


def unit(uid: str = "u", kind: str = "pc", **changes: Any) -> Unit:
    sheet_ = changes.pop("sheet", None) or sheet()
    data: dict[str, Any] = {
        "id": uid,
        "name": uid,
        "owner": "seat:1" if kind == "pc" else "gm",
        "kind": kind,
        "added_seq": 1,
        "revealed": kind == "pc",
        "sheet": sheet_,
        "hp": sheet_.max_hp,
        "surges": sheet_.surges,
    }
    data.update(changes)
    return Unit.model_validate(data)


def with_effect(target: Unit, effect: Effect | dict[str, Any], eid: int = 1, **extra: Any) -> Unit:
    effect = effect if isinstance(effect, Effect) else Effect.model_validate(effect)
    ending = extra.pop("ending", None) or Ending(kind=effect.duration)
    applied = Applied(id=eid, effect=effect, ending=ending, **extra)
    return target.model_copy(update={"effects": (*target.effects, applied)})
