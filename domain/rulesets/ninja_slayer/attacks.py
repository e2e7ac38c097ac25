"""攻撃フェイズ: one melee or ranged attack, split over targets as declared before rolling."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.records import Draft

from . import checks, guards
from .characters import concentration, injured
from .combat_events import AttackRolled
from .criticals import CriticalRule
from .damage import evadable, taken
from .details import CheckDetail, Strike, StrikeDetails
from .difficulty import Modifier
from .fields import DICE_BOUND, CharacterId, Entropy, Faces
from .rolls import Pool
from .rules import NINJA_SLAYER, NinjaTable
from .sheet import UNARMED, StatName, Weapon
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
    critical: CriticalRule | None = Field(
        default=None, description="An ability's crit pattern, ヒサツ・ワザ or shots that crit"
    )
    auto_success: bool = Field(default=False, description="GM: a mob's attack succeeds (L16)")
    entropy: str = Entropy


def in_hand(holder: Character) -> Weapon | None:
    """The weapon in hand, as the sheet gives its data (素手&スリケン has none)."""
    return next((w for w in holder.sheet.weapons if w.name == holder.weapon), None)


def gun_rensha(holder: Character) -> int | None:
    """The 連射 of the gun in hand, if it has one (2-16 ●連射: 「キャラの装備している銃器が
    『連射』値を持つ場合は、自分自身の『●連射』値ではなく、銃器本体の『連射』値を使う」)."""
    held = in_hand(holder)
    return held.rensha if held is not None else None


def attack_limit(holder: Character, kind: str, stat: str, shuriken: bool) -> tuple[int, str]:
    """How many attacks one declaration may split into, and the rule that allows them.

    L231 「一部の武器やスタイルはそれを制限する『連続攻撃上限』値を持つ」 and L235 「(一部の
    武器やスタイルはそれを制限する『連射上限』値を持つ)」: the weapon in hand caps them."""
    held = in_hand(holder)
    # A melee style judged with ワザマエ (精密攻撃) uses ●連射 as its ●連続攻撃.
    if kind == "melee" and stat != "ワザマエ":
        cap = held.renzoku_limit if held is not None else None
        if cap is not None and cap < holder.sheet.renzoku:
            return cap, f"{holder.weapon}の連続攻撃上限"
        return holder.sheet.renzoku, "●連続攻撃"
    gun = gun_rensha(holder)
    if kind == "ranged" and not shuriken and gun is not None:
        # 「『連射1』は要するに単発射撃である」: the gun's value, even below the character's.
        return gun, f"{holder.weapon}の連射"
    cap = held.rensha_limit if held is not None else None
    if cap is not None and cap < holder.sheet.rensha:
        return cap, f"{holder.weapon}の連射上限"
    return holder.sheet.rensha, "●連射"


def _multi_target(command: Attack, holder: Character, targets: int) -> None:
    """L241 ●マルチターゲット: 「『マルチ可』のルールを持つ射撃武器や能力で2以上の『連射』を行う
    際、2体以上のターゲットに対して『射撃』を割り振れる…最初からルール内に『マルチターゲット』を
    持つ射撃武器や射撃系のジツ、例えばスリケンやカラテミサイルなどは…関わらず」."""
    if command.kind == "melee" or targets < 2 or command.shuriken:
        return
    held = in_hand(holder)
    multi = held.multi if held is not None else None
    if multi == "マルチターゲット":
        return
    if multi == "なし":
        raise RuleViolation(
            "no_multi_target",
            "{weapon}は『マルチ可』ではない: ターゲットは1体だけ。",
            params={"weapon": holder.weapon},
        )
    if holder.sheet.neuron < TIME_LAG_NEURON:  # マルチ可, or a weapon whose data is not given
        raise RuleViolation(
            "no_multi_target",
            "{holder} needs ●マルチターゲット to shoot several targets.",
            params={"holder": holder.name},
        )


def _time_lag(command: Attack, holder: Character) -> None:
    """L245 「『時間差可』と書かれた射撃武器や能力は、そのキャラ本人が『●時間差』を持って
    いる場合のみ、『時間差』の効果を使用できる…ごく稀に『時間差』そのものを持つ銃器や能力も
    ある」."""
    if not command.time_lag:
        return
    held = in_hand(holder)
    own = held is not None and held.time_lag == "時間差" and not command.shuriken
    if command.kind == "melee" or (holder.sheet.neuron < TIME_LAG_NEURON and not own):
        raise RuleViolation(
            "no_time_lag", "{holder} cannot use ●時間差 here.", params={"holder": holder.name}
        )


def _allocations(command: Attack, holder: Character, pool: int, stat: str) -> list[int]:
    limit, name = attack_limit(holder, command.kind, stat, command.shuriken)
    if len(command.allocations) > limit:
        raise RuleViolation(
            "too_many_attacks",
            "{holder} has {name}{limit}: at most {limit} attacks.",
            params={"holder": holder.name, "name": name, "limit": limit},
        )
    if len(command.allocations) == 1 and command.allocations[0].dice is None:
        return [pool]
    dice = [a.dice for a in command.allocations]
    if any(d is None for d in dice) or sum(d or 0 for d in dice) != pool:
        raise KirokuError(
            "allocation_mismatch",
            "Declare how the {pool} dice are split: the split must add up.",
            params={"pool": pool},
        )
    return [d or 0 for d in dice]


def _targets(state: NinjaState, command: Attack, holder: Character) -> list[Character]:
    targets = []
    for allocation in command.allocations:
        target = guards.character(state, allocation.target)
        if target.id == holder.id or not target.on_map:
            raise RuleViolation(
                "bad_target", "{target} cannot be targeted.", params={"target": target.name}
            )
        if state.combat is not None and target.id not in state.combat.participants:
            raise RuleViolation(
                "not_in_combat",
                "{target} is not in the combat yet (placed at a ターン終了フェイズ).",
                params={"target": target.name},
            )
        targets.append(target)
    return targets


def _auto_success(command: Attack, holder: Character, actor: str) -> None:
    """L16 「マスターはそれを省略して構わない。例えば、モブ敵からの攻撃や射撃を自動成功にしたり
    などだ」: the GM's, for a mob, rolling nothing (1 success: ruling NS-045)."""
    if not command.auto_success:
        return
    if actor != GM or holder.kind != "mob":
        raise RuleViolation(
            "auto_success_mobs_only", "自動成功にできるのはモブ敵の攻撃や射撃だけ (GM)。"
        )
    if command.reaction_dice or any(a.faces for a in command.allocations):
        raise KirokuError("auto_success_rolls_nothing", "自動成功の攻撃はダイスを振らない。")


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
    _time_lag(command, holder)
    _multi_target(command, holder, len(hits_per_target))
    _auto_success(command, holder, actor)
    critical = command.critical.checked() if command.critical is not None else None
    if critical is not None and not holder.sheet.ninja:
        raise RuleViolation(
            "not_a_ninja",
            "『サツバツ!』とは、ニンジャのみが発生させられるクリティカルヒットである。",
        )
    modifiers = list(command.modifiers) + concentration(state, holder.id) + injured(holder)
    if holder.next_attack_difficulty:
        modifiers.append(SOKUTEN)
    strikes: list[Strike] = []
    details: list[CheckDetail] = []
    damages: list[Damage] = []
    tsuda = max(command.tsuda, default=0)  # one 痛打 per base damage
    terms = StrikeTerms(
        kind=command.kind,
        amount=command.base_damage + tsuda,
        shuriken=command.shuriken,
        evasion=command.evasion,
        time_lag=command.time_lag,
        tsuda=tsuda,
        # ◆ニンジャスレイヤー's 「基本の素手近接攻撃」 (L208–L209): bare-handed melee only.
        strike_tsuda=holder.sheet.strike_tsuda if melee and holder.weapon == UNARMED else 0,
        critical=critical,
        auto_success=command.auto_success,
    )
    for allocation, dice, target in zip(command.allocations, split, targets, strict=True):
        detail = None
        if not command.auto_success:
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
        if detail is not None:
            details.append(detail)
    shown, sealed, audience = (
        checks.placed(holder, StrikeDetails(pool=pool, strikes=tuple(details)))
        if details
        else (None, None, ())
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
