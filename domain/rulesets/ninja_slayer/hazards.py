"""Damage that is not an attack: traps, the environment, 弾き飛ばし's collision (2-11, 2-13).

L121 「君のニンジャが何らかの理由でダメージを受けることになった場合、それに対し1回だけ『回避判定』を
試みられる。基本難易度はNORMALだ」: whatever deals it, one 回避判定 at the difficulty the source
gives — 弾き飛ばし's wall, L160 「敵は激突による1ダメージを直ちに受ける(『回避:NORMAL』)」. L254
「なお、モブ敵によるダメージや環境効果によるダメージは、アトモスフィアの影響を受けない」: the
difficulty is the declared one, whatever the atmosphere (and the atmosphere raises only attacks'
damage: a collision or a trap is neither melee, スリケン nor ジツ).

In a combat the damage waits with the attacks' (`evade`, `take_damage`); outside one it waits in
the state, and the 回避判定 takes its dice from the character's 【回避】 (ruling NS-036).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft

from . import guards
from .changes import combat as with_combat
from .damage import evadable, taken
from .difficulty import normalise
from .fields import CharacterId
from .rules import NINJA_SLAYER, NinjaTable
from .state import Damage, HazardSource, NinjaState

SOURCES: dict[str, str] = {
    "trap": N_("トラップ"),
    "environment": N_("環境"),
    "collision": N_("激突"),
    "other": N_("ダメージ"),
}


@NINJA_SLAYER.event
class HazardDeclared(Event):
    """The GM declares damage from something that is not an attack."""

    damage: Damage
    text: str


@NINJA_SLAYER.folds(HazardDeclared)
def _declared(state: NinjaState, event: HazardDeclared, seq: int) -> NinjaState:
    damage = event.damage
    if state.combat is not None:
        current = state.combat
        return with_combat(
            state,
            damages=(*current.damages, damage),
            next_damage=max(current.next_damage, damage.id + 1),
        )
    return state.model_copy(
        update={
            "hazards": (*state.hazards, damage),
            "next_hazard": max(state.next_hazard, damage.id + 1),
        }
    )


@NINJA_SLAYER.says_named(HazardDeclared)
def _says(e: HazardDeclared, names: Names) -> Message:
    d = e.damage
    return Message(
        N_("GM: {source}「{text}」 {target}に{amount}ダメージ (回避難易度{difficulty})"),
        {
            "source": SOURCES[d.source or "other"],
            "text": e.text,  # what it is, as the GM wrote it
            "target": names.of(d.target),
            "amount": d.amount,
            "difficulty": d.difficulty,
        },
    )


@NINJA_SLAYER.command("hazard")
class Hazard(Command):
    """GM: damage from a trap, the environment or a collision (弾き飛ばし), evadable once."""

    target: str = CharacterId
    amount: int = Field(default=1, ge=1, le=20)
    source: HazardSource = "trap"
    evasion: str = Field(default="N", description="Its 回避 difficulty (e.g. H); never atmosphere")
    text: str = Field(min_length=1, max_length=200, description="What it is (落とし穴, 壁…)")


@NINJA_SLAYER.decides(Hazard)
def hazard(t: NinjaTable, command: Hazard, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "declare damage")
    target = guards.character(state, command.target)
    if not target.on_map:
        raise RuleViolation(
            "bad_target", "{target} is no longer on the map.", params={"target": target.name}
        )
    combat = state.combat
    if combat is not None and target.id not in combat.participants:
        raise RuleViolation(
            "not_in_combat", "{target} is not in the combat.", params={"target": target.name}
        )
    damage = Damage(
        id=combat.next_damage if combat is not None else state.next_hazard,
        attacker=SOURCES[command.source],
        target=target.id,
        amount=command.amount,
        kind="hazard",
        difficulty=normalise(command.evasion),  # L254: no atmosphere
        attack_successes=0,
        attack_seq=t.next_seq,
        source=command.source,
    )
    drafts = [Draft(HazardDeclared(damage=damage, text=command.text))]
    if not evadable(target):  # a mob or a 気絶 character takes it at once
        drafts.append(taken(target, [damage]))
    return drafts
