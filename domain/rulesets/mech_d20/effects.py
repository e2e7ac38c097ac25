"""Effects a power leaves on a unit: conditions, ongoing damage, modifiers, and how long they last.

Durations (L307–308, L90, L167): (セーヴ・終了) ends only by a saving throw;
「次のターンの開始時まで」 and 「次のターンの終了時まで」 end at the start or end of
someone's next turn (the power's user by default, as in 「自身の次のターンの終了時まで」);
遭遇 ends with the encounter. One save ends an effect whatever it holds (「両方とも終了」
「全て終了」, L312–313): a power's rider with several conditions is one Effect. 後効果 and
セーヴ失敗・X回目 (L322–326) are effects too.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .bonuses import Modifier

ConditionName = Literal[
    "伏せ", "減速", "動けない", "盲目", "幻惑", "朦朧", "支配", "無防備", "不可視"
]
Duration = Literal["save_ends", "start_of_next_turn", "end_of_next_turn", "encounter"]

DURATION_NAMES: dict[str, str] = {
    "save_ends": "セーヴ・終了",
    "start_of_next_turn": "次のターンの開始時まで",
    "end_of_next_turn": "次のターンの終了時まで",
    "encounter": "遭遇終了まで",
}
BENEFICIAL_CONDITIONS = frozenset({"不可視"})


class Effect(BaseModel):
    """One rider: what it does and how long it lasts; one save ends all of it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    conditions: tuple[ConditionName, ...] = Field(default=(), max_length=8)
    ongoing: int = Field(default=0, ge=0, le=99, description="継続的ダメージX")
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=8)
    duration: Duration = "save_ends"
    turn_of: Literal["user", "target"] = Field(
        default="user", description="whose next turn a turn-bound duration counts"
    )
    aftereffect: Effect | None = Field(default=None, description="後効果: after a successful save")
    failed_saves: tuple[FailedSave, ...] = Field(default=(), max_length=4)
    text: str = Field(default="", max_length=300)

    @property
    def harmful(self) -> bool:
        """不利益な状態: what 戦闘不能 removes (L444) and saves are rolled against."""
        return (
            bool(set(self.conditions) - BENEFICIAL_CONDITIONS)
            or self.ongoing > 0
            or any(m.value < 0 for m in self.modifiers)
        )

    def same_as(self, other: Effect) -> bool:
        """「全く同じ不利益」 (L318): identical riders do not stack whatever power gave them."""
        return (
            sorted(self.conditions) == sorted(other.conditions)
            and self.ongoing == other.ongoing
            and sorted(self.modifiers, key=repr) == sorted(other.modifiers, key=repr)
            and self.duration == other.duration
        )


class FailedSave(BaseModel):
    """セーヴ失敗・X回目 (L325): `effect` starts on the X-th failed save against its effect."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int = Field(ge=1, le=5)
    effect: Effect
    replaces: bool = Field(default=False, description="the first effect ends when this starts")


Effect.model_rebuild()
