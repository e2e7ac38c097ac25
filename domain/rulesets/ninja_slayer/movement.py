"""移動フェイズ: normal movement or one movement style; 連続側転 is a 【ワザマエ】 NORMAL check."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.game import GameState
from domain.records import Draft

from . import checks, guards
from .commands import Move
from .events import CheckRolled, Moved
from .numbers import DrawNumbers
from .rolls import Pool

SOKUTEN = "連続側転"


def move(game: GameState, command: Move, actor: str) -> list[Draft]:
    _state, combat, holder = guards.acting(game, actor, "movement")
    if combat.moved:
        raise RuleViolation("already_moved", f"{holder.name} already moved this 手番.")
    if command.style != SOKUTEN:
        if command.reaction_dice or command.faces is not None:
            raise RuleViolation("no_check", "Only 連続側転 rolls a check when moving.")
        return [Draft(Moved(character=holder.id, style=command.style))]
    guards.spend(
        "即応ダイス", "not_enough_reaction_dice", command.reaction_dice, holder.now.reaction
    )
    pool = Pool(stat="ワザマエ", stat_value=holder.now.wazamae, reaction=command.reaction_dice)
    detail = checks.run(
        game,
        pool,
        "N",
        [],
        faces=command.faces,
        entropy=command.entropy,
        number=DrawNumbers(game).take(command.faces),
    )
    fields, audience = checks.placed(holder, detail)
    success = checks.successes(detail) > 0
    rolled = CheckRolled(
        character=holder.id,
        purpose=SOKUTEN,
        stat="ワザマエ",
        success=success,
        successes=checks.successes(detail),
        **fields,
    )
    return [
        Draft(rolled, audience=audience),
        Draft(Moved(character=holder.id, style=SOKUTEN, success=success)),
    ]
