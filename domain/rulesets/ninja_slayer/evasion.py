"""回避判定, taking damage, and カウンターカラテ (2-11)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.commands import Command
from domain.model.errors import Forbidden, NotFound, RuleViolation
from domain.model.messages import N_
from domain.model.records import Draft

from . import checks, guards
from .changes import pending
from .characters import injured
from .combat_events import CounterKarate
from .damage import evadable, evasion_difficulty, evasion_rolled, taken
from .difficulty import LADDER, Modifier, normalise
from .fields import DICE_BOUND, CharacterId, Entropy, Faces
from .initiative import order_value
from .rolls import Pool
from .rules import NINJA_SLAYER, NinjaTable
from .state import Damage, NinjaState
from .stats import evasion_dice

# A damage no longer pending: evaded or taken already (by its target's other browser, say)
GONE = N_("That damage no longer waits for a 回避判定: it was evaded or taken already.")


def pending_of(waiting: tuple[Damage, ...], ids: list[int]) -> list[Damage]:
    """The pending damages named, in order; an unknown one is refused."""
    by_id = {d.id: d for d in waiting}
    found = []
    for i in dict.fromkeys(ids):
        damage = by_id.get(i)
        if damage is None:
            raise NotFound("unknown_damage", GONE)
        found.append(damage)
    return found


def _pending(
    state: NinjaState, waiting: tuple[Damage, ...], ids: list[int], target: str
) -> list[Damage]:
    found = pending_of(waiting, ids)
    for damage in found:
        if damage.target != target:
            raise Forbidden(
                "not_your_damage",
                "{attacker}'s damage is aimed at {other}, not at {target}.",
                params={
                    "attacker": guards.label(state, damage.attacker),
                    "other": guards.label(state, damage.target),
                    "target": guards.label(state, target),
                },
            )
    return found


def batchable(state: NinjaState, damages: list[Damage]) -> bool:
    """まとめて全弾回避 (2-11): one attack's damage, or mobs', never 時間差 — except that same-kind
    mobs' 時間差 strikes are evaded one strike of each at a time (「同種のモブ敵複数による
    『連続攻撃2』や『時間差』つきの『連射2』などを、1発ごとにまとめて回避することができる」)."""
    if any(d.time_lag for d in damages):
        one_kind = len({d.mobs for d in damages}) == 1 and damages[0].mobs is not None
        one_each = len({d.attack_seq for d in damages}) == len(damages)
        return one_kind and one_each
    if len({d.attack_seq for d in damages}) == 1:
        return True
    if any(d.mobs is None for d in damages):
        return False
    # Same-kind mobs; or mobs of several kinds at one initiative, at the hardest difficulty.
    # (Initiative is read from the state: an event would give a mob's ニューロン away.)
    initiatives = {order_value(state.characters[d.attacker]) for d in damages}
    return len({d.mobs for d in damages}) == 1 or len(initiatives) == 1


@NINJA_SLAYER.command("evade")
class Evade(Command):
    """回避判定 against one damage, or several evaded together (まとめて全弾回避)."""

    character: str = CharacterId
    damages: list[int] = Field(min_length=1, max_length=40)
    evasion_dice: int = Field(ge=0, le=60)
    emergency_dice: int = Field(default=0, ge=0, le=DICE_BOUND)
    reaction_dice: int = Field(default=0, ge=0, le=DICE_BOUND, description="always refused: rules")
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    faces: list[int] | None = Faces
    entropy: str = Entropy


@NINJA_SLAYER.decides(Evade)
def evade(t: NinjaTable, command: Evade, actor: str) -> list[Draft]:
    state = t.started()
    waiting = pending(state)
    if not waiting:
        raise RuleViolation("no_damage", "No damage is waiting to be evaded.")
    character = guards.controlled(state, command.character, actor)
    if command.reaction_dice:
        raise RuleViolation(
            "reaction_dice_not_allowed", "即応ダイス cannot be used on an evasion check."
        )
    damages = _pending(state, waiting, command.damages, character.id)
    if not evadable(character):
        raise RuleViolation(
            "cannot_evade", "{character} cannot evade.", params={"character": character.name}
        )
    if len(damages) > 1 and not character.sheet.ninja:
        raise RuleViolation(
            "not_a_ninja",
            "Only a ninja evades several damages with one 回避判定 "
            "(「ニンジャならば全てまとめて」).",
        )
    if len(damages) > 1 and not batchable(state, damages):
        raise RuleViolation(
            "batch_not_allowed",
            "Only damage from one attack, or from mobs of one kind, without 時間差, is evaded "
            "all together (時間差 strikes of same-kind mobs: one strike of each at a time).",
        )
    # Outside a combat there are no turns to hand out 回避ダイス: the 【回避】 value (ruling
    # NS-036).
    left = character.now.evasion if state.combat is not None else evasion_dice(character)
    guards.spend("回避ダイス", "not_enough_evasion_dice", command.evasion_dice, max(0, left))
    guards.spend(
        "緊急回避ダイス",
        "not_enough_emergency_dice",
        command.emergency_dice,
        character.now.emergency,
    )
    # Evaded together, damages of different difficulties use the hardest one.
    base = max((d.difficulty for d in damages), key=LADDER.index)
    pool = Pool(evasion=command.evasion_dice, emergency=command.emergency_dice)
    detail = checks.run(
        t.dice,
        pool,
        base,
        [*command.modifiers, *injured(character)],
        faces=command.faces,
        entropy=command.entropy,
        command="EV",
    )
    drafts = [evasion_rolled(character, damages, detail)]
    if checks.successes(detail) == 0:
        drafts.append(taken(character, damages))
    return drafts


@NINJA_SLAYER.command("take_damage")
class TakeDamage(Command):
    """Take pending damage without evading it."""

    damages: list[int] = Field(min_length=1, max_length=40)


@NINJA_SLAYER.decides(TakeDamage)
def take(t: NinjaTable, command: TakeDamage, actor: str) -> list[Draft]:
    state = t.started()
    waiting = pending(state)
    named = [d for d in waiting if d.id in command.damages]
    targets = {d.target for d in named}
    if not targets:
        raise NotFound("unknown_damage", GONE)
    if len(targets) > 1:
        raise NotFound(
            "unknown_damage",
            "That damage is dealt to {names}: each takes its own.",
            params={"names": guards.damaged(state, named)},
        )
    character = guards.controlled(state, targets.pop(), actor)
    return [taken(character, _pending(state, waiting, command.damages, character.id))]


class CounterEnhancement(BaseModel):
    """L131 「近接攻撃を強化するような能力の効果は、通常はカウンターカラテには適用されない。
    カウンターカラテは、カウンター強化系の能力によってのみ強化できる」: an ability of that kind,
    declared by name with what it adds (its data is not in the scrape)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ability: str = Field(min_length=1, max_length=60)
    kind: Literal["カウンター強化"] = Field(description="Only カウンター強化系 abilities apply")
    tsuda: int = Field(default=0, ge=0, le=6, description="痛打 it adds to the counter's 1")
    evasion: str | None = Field(default=None, description="Its 回避 difficulty, if it sets one")


@NINJA_SLAYER.command("counter_karate")
class Counter(Command):
    """カウンターカラテ after an evasion that earned it: 1 damage, evaded at NORMAL."""

    character: str = CharacterId
    target: str = CharacterId
    enhancement: CounterEnhancement | None = None


@NINJA_SLAYER.decides(Counter)
def counter(t: NinjaTable, command: Counter, actor: str) -> list[Draft]:
    state = t.started()
    combat = guards.combat(state)
    character = guards.controlled(state, command.character, actor)
    right = next((r for r in combat.counters if r.holder == character.id), None)
    if right is None or command.target not in right.attackers:
        raise RuleViolation(
            "counter_not_earned",
            "カウンターカラテ needs an evasion of a melee attack with more successes than the "
            "attack had, just now.",
        )
    target = guards.character(state, command.target)
    boost = command.enhancement
    base = normalise(boost.evasion) if boost is not None and boost.evasion else "N"
    damage = Damage(
        id=combat.next_damage,
        attacker=character.id,
        target=target.id,
        # however many more successes: the counter deals 1 (+ a カウンター強化's 痛打)
        amount=1 + (boost.tsuda if boost is not None else 0),
        kind="counter",
        difficulty=evasion_difficulty(combat, character, "counter", None, False, base),
        attack_successes=0,
        attack_seq=t.next_seq,  # CounterKarate is this command's first event
    )
    event = CounterKarate(
        character=character.id,
        target=target.id,
        damage=damage,
        enhancement=boost.ability if boost is not None else None,
    )
    drafts = [Draft(event)]
    if not evadable(target):
        drafts.append(taken(target, [damage]))
    return drafts
