"""攻撃フェイズ: one melee or ranged attack, split over targets as declared before rolling."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Command
from domain.errors import KirokuError, RuleViolation
from domain.records import Draft

from . import checks, guards
from .characters import concentration, injured
from .combat_events import AttackRolled
from .damage import evadable, taken
from .details import CheckDetail, Strike, StrikeDetails
from .difficulty import Modifier
from .fields import DICE_BOUND, CharacterId, Entropy, Faces
from .rolls import Pool
from .rules import NINJA_SLAYER, NinjaTable
from .sheet import StatName
from .state import Character, Damage, NinjaState, StrikeTerms
from .stats import value
from .strikes import resolve

TIME_LAG_NEURON = 7  # ●時間差 and ●マルチターゲット are gained at base 【ニューロン】 7
SOKUTEN = Modifier(name="連続側転", delta=1)


class Allocation(BaseModel):
    """One target of an attack and the dice given to it (declared before rolling)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: str = CharacterId
    dice: int | None = Field(default=None, ge=0, le=60, description="None: the whole pool")
    faces: list[int] | None = Faces


@NINJA_SLAYER.command("attack")
class Attack(Command):
    """攻撃フェイズ: melee (【カラテ】 攻撃判定) or ranged (【ワザマエ】 射撃判定)."""

    kind: Literal["melee", "ranged"] = "melee"
    stat: StatName | None = Field(
        default=None, description="Default カラテ (melee) / ワザマエ (ranged); e.g. ジツ"
    )
    allocations: list[Allocation] = Field(min_length=1, max_length=9)
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    bonus_dice: int = Field(default=0, ge=-20, le=20)
    reaction_dice: int = Field(default=0, ge=0, le=DICE_BOUND)
    base_damage: int = Field(default=1, ge=0, le=20)
    tsuda: list[int] = Field(default_factory=list, max_length=6, description="痛打+X sources")
    time_lag: bool = Field(default=False, description="●時間差 on a multi-shot")
    shuriken: bool = Field(default=False, description="スリケン or ジツ: ULTRA-HARD mode +1")
    evasion: str = Field(default="N", description="The weapon's 回避 difficulty (e.g. H)")
    style: str | None = Field(default=None, max_length=40, description="戦闘/射撃スタイル")
    entropy: str = Entropy


def gun_rensha(holder: Character) -> int | None:
    """The 連射 of the gun in hand, if it has one (2-16 ●連射: 「キャラの装備している銃器が
    『連射』値を持つ場合は、自分自身の『●連射』値ではなく、銃器本体の『連射』値を使う」)."""
    held = next((w for w in holder.sheet.weapons if w.name == holder.weapon), None)
    return held.rensha if held is not None else None


def attack_limit(holder: Character, kind: str, stat: str, shuriken: bool) -> tuple[int, str]:
    """How many attacks one declaration may split into, and the rule that allows them."""
    # A melee style judged with ワザマエ (精密攻撃) uses ●連射 as its ●連続攻撃.
    if kind == "melee" and stat != "ワザマエ":
        return holder.sheet.renzoku, "●連続攻撃"
    gun = gun_rensha(holder)
    if kind == "ranged" and not shuriken and gun is not None:
        # 「『連射1』は要するに単発射撃である」: the gun's value, even below the character's.
        return gun, f"{holder.weapon}の連射"
    return holder.sheet.rensha, "●連射"


def _allocations(command: Attack, holder: Character, pool: int, stat: str) -> list[int]:
    limit, name = attack_limit(holder, command.kind, stat, command.shuriken)
    if len(command.allocations) > limit:
        raise RuleViolation(
            "too_many_attacks", f"{holder.name} has {name}{limit}: at most {limit} attacks."
        )
    if len(command.allocations) == 1 and command.allocations[0].dice is None:
        return [pool]
    dice = [a.dice for a in command.allocations]
    if any(d is None for d in dice) or sum(d or 0 for d in dice) != pool:
        raise KirokuError(
            "allocation_mismatch", f"Declare how the {pool} dice are split: the split must add up."
        )
    return [d or 0 for d in dice]


def _targets(state: NinjaState, command: Attack, holder: Character) -> list[Character]:
    targets = []
    for allocation in command.allocations:
        target = guards.character(state, allocation.target)
        if target.id == holder.id or not target.on_map:
            raise RuleViolation("bad_target", f"{target.name} cannot be targeted.")
        if state.combat is not None and target.id not in state.combat.participants:
            raise RuleViolation(
                "not_in_combat",
                f"{target.name} is not in the combat yet (placed at a ターン終了フェイズ).",
            )
        targets.append(target)
    return targets


@NINJA_SLAYER.decides(Attack)
def attack(t: NinjaTable, command: Attack, actor: str) -> list[Draft]:
    state, combat, holder = guards.acting(t, actor, "attack")
    guards.first_attack_action(combat, holder)
    guards.spend(
        "即応ダイス", "not_enough_reaction_dice", command.reaction_dice, holder.now.reaction
    )
    melee = command.kind == "melee"
    stat = command.stat or ("カラテ" if melee else "ワザマエ")
    pool = Pool(
        stat=stat,
        stat_value=value(holder, stat),
        bonus=command.bonus_dice,
        reaction=command.reaction_dice,
    )
    split = _allocations(command, holder, pool.size, stat)
    targets = _targets(state, command, holder)
    hits_per_target = Counter(t.id for t in targets)
    if command.time_lag and (melee or holder.sheet.neuron < TIME_LAG_NEURON):
        raise RuleViolation("no_time_lag", f"{holder.name} cannot use ●時間差 here.")
    # Shuriken (and jitsu like カラテミサイル) pick several targets without ●マルチターゲット.
    if (
        not melee
        and len(hits_per_target) > 1
        and not command.shuriken
        and holder.sheet.neuron < TIME_LAG_NEURON
    ):
        raise RuleViolation(
            "no_multi_target", f"{holder.name} needs ●マルチターゲット to shoot several targets."
        )
    modifiers = list(command.modifiers) + concentration(state, holder.id) + injured(holder)
    if holder.next_attack_difficulty:
        modifiers.append(SOKUTEN)
    strikes: list[Strike] = []
    details: list[CheckDetail] = []
    damages: list[Damage] = []
    terms = StrikeTerms(
        kind=command.kind,
        amount=command.base_damage + max(command.tsuda, default=0),  # one 痛打 per base damage
        shuriken=command.shuriken,
        evasion=command.evasion,
        time_lag=command.time_lag,
    )
    for allocation, dice, target in zip(command.allocations, split, targets, strict=True):
        detail = checks.run(
            t.dice,
            Pool(bonus=dice),
            "N",
            modifiers,
            faces=allocation.faces,
            entropy=command.entropy,
            command="AT" if melee else "NJ",
        )
        strike, damage = resolve(
            combat,
            holder,
            target,
            detail,
            terms,
            damage_id=combat.next_damage + len(damages),
            attack_seq=t.next_seq,  # AttackRolled is this command's first event
            strikes_on_target=hits_per_target[target.id],
        )
        strikes.append(strike)
        if damage is not None:
            damages.append(damage)
        details.append(detail)
    shown, sealed, audience = checks.placed(
        holder, StrikeDetails(pool=pool, strikes=tuple(details))
    )
    event = AttackRolled(
        attacker=holder.id,
        kind=command.kind,
        weapon=holder.weapon,
        style=command.style,
        terms=terms,
        strikes=tuple(strikes),
        damages=tuple(damages),
        detail=shown,
        secret=sealed,
    )
    drafts = [Draft(event, audience=audience)]
    for hit in dict.fromkeys(c.id for c in targets):
        victim = state.characters[hit]
        own = [d for d in damages if d.target == hit]
        if own and not evadable(victim):
            drafts.append(taken(victim, own))
    return drafts
