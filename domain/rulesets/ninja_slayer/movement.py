"""移動フェイズ: normal movement or one movement style; 連続側転 is a 【ワザマエ】 NORMAL check."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft

from . import checks, guards
from .characters import injured
from .combat_events import Moved
from .difficulty import Modifier
from .events import CheckRolled
from .fields import DICE_BOUND, Entropy, Faces
from .rolls import Pool
from .rules import NINJA_SLAYER, NinjaTable

SOKUTEN = "連続側転"


@NINJA_SLAYER.command("move")
class Move(Command):
    """移動フェイズ: normal movement, or one movement style (連続側転: ワザマエ NORMAL)."""

    style: str | None = Field(default=None, max_length=40)
    modifiers: list[Modifier] = Field(
        default_factory=list, max_length=12, description="連続側転判定: e.g. the カタナ's penalty"
    )
    bonus_dice: int = Field(default=0, ge=-20, le=20)
    reaction_dice: int = Field(default=0, ge=0, le=DICE_BOUND)
    faces: list[int] | None = Faces
    entropy: str = Entropy


@NINJA_SLAYER.decides(Move)
def move(t: NinjaTable, command: Move, actor: str) -> list[Draft]:
    _state, combat, holder = guards.acting(t, actor, "movement")
    if combat.moved:
        raise RuleViolation(
            "already_moved", "{holder} already moved this 手番.", params={"holder": holder.name}
        )
    if command.style != SOKUTEN:
        declared = command.reaction_dice or command.bonus_dice or command.modifiers
        if declared or command.faces is not None:
            raise RuleViolation("no_check", "Only 連続側転 rolls a check when moving.")
        return [Draft(Moved(character=holder.id, style=command.style))]
    guards.spend(
        "即応ダイス", "not_enough_reaction_dice", command.reaction_dice, holder.now.reaction
    )
    pool = Pool(
        stat="ワザマエ",
        stat_value=holder.now.wazamae,
        bonus=command.bonus_dice,
        reaction=command.reaction_dice,
    )
    modifiers = [*command.modifiers, *injured(holder)]
    detail = checks.run(t.dice, pool, "N", modifiers, faces=command.faces, entropy=command.entropy)
    shown, sealed, audience = checks.placed(holder, detail)
    success = checks.successes(detail) > 0
    rolled = CheckRolled(
        character=holder.id,
        purpose=SOKUTEN,
        stat="ワザマエ",
        success=success,
        successes=checks.successes(detail),
        detail=shown,
        secret=sealed,
    )
    return [
        Draft(rolled, audience=audience),
        Draft(Moved(character=holder.id, style=SOKUTEN, success=success)),
    ]
