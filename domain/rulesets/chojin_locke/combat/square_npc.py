"""6.2 その他: an NPC a square's effect brings into a combat — one at a time, once per square.

l.1341–1344: 「マスの効果で戦闘に参加するNPCは1つのみです。既にマスの効果で戦闘にNPCが存在している、
あるいは戦闘に参加予定である場合、新たにマスの効果でNPCが戦闘に参加することはありません。
マスの効果によるNPCの発生は最初の1回のみです。」

The host brings an NPC in (`add_obstacle`, `add_esper`) and says, with `square: true`, that
the effect of the combat's square brings it (directly, or by the chart the square sends to:
ランダム戦闘チャート's エスパー). Kiroku then refuses a second one while the first is still in
the combat (`square_npc_present`) and any from a square whose effect has brought one before,
in any combat of the game (`square_npc_spent`; ruling CL-101). The square is the combat's own:
the square phase that starts a combat there is that square's. An NPC from a chart or a card's
text (`square` left out) is not counted.
"""

from __future__ import annotations

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.combat.state import Combat
from domain.rulesets.chojin_locke.state import ChojinState


def square_key(state: ChojinState, fight: Combat) -> str:
    """The combat's square, with its stage (a planet's and the base's keys look alike)."""
    return f"{'base' if state.stage == 'base' else 'planet'}:{fight.square}"


def check(state: ChojinState, fight: Combat) -> str:
    """The key of the combat's square, if its effect may still bring an NPC in."""
    present = [
        f
        for f in fight.fighters.values()
        if f.from_square and not f.left and any(e > 0 for e in f.members)
    ]
    if present:
        raise RuleViolation(
            "square_npc_present",
            "「既にマスの効果で戦闘にNPCが存在している…場合、"
            "新たにマスの効果でNPCが戦闘に参加することはありません。」 (6.2): {present} came by "
            "this square's effect.",
            params={"present": present[0].name},
        )
    key = square_key(state, fight)
    if key in state.npc_squares:
        raise RuleViolation(
            "square_npc_spent",
            "「マスの効果によるNPCの発生は最初の1回のみです。」 (6.2): this square's effect has "
            "brought its NPC before.",
        )
    return key


def brought(state: ChojinState, square: str | None) -> ChojinState:
    """Fold: the square `square` has brought its NPC (none when the NPC came otherwise)."""
    if square is None or square in state.npc_squares:
        return state
    return state.model_copy(update={"npc_squares": (*state.npc_squares, square)})
