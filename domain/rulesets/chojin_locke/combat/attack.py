"""5.4 攻撃・防御・逃避の流れ: the target's answer (`respond`) and the damage (`declare_endurance`).

5.4 l.1050–1058: 「攻撃に対して防御か回避を行う場合、対象の攻撃のLV以上である防御か逃避しか
行えません。…1つの攻撃に対して[対抗(攻撃)]の特殊能力・能力カードはいくらでも使用できますが、
Cカードは1つの攻撃に対して1枚しか使用できません。この制限は防御・逃避Cカードの発動チェックに
失敗した場合でも同様です。」 l.1062–1063: 「防御・逃避Cカードの発動チェックに失敗した場合、
防御や回避が行われなかったものとして扱われるので攻撃が攻撃対象に命中し、損害判定に移行します。」
"""

from __future__ import annotations

from pydantic import Field

from domain.audience import seat_actor
from domain.commands import Command
from domain.errors import RuleViolation
from domain.records import Draft
from domain.rulesets.chojin_locke.cards import COUNTER_ATTACK, CombatKind
from domain.rulesets.chojin_locke.combat import damage
from domain.rulesets.chojin_locke.combat.action_events import (
    AttackLanded,
    CardActivated,
    Layer,
    ProxyUsed,
    proxy_left,
    suit_left,
    trait_size,
)
from domain.rulesets.chojin_locke.combat.activation import (
    activation,
    at_response,
    held_card,
    in_combat,
    main_action,
    no_proxy,
)
from domain.rulesets.chojin_locke.combat.death import casualties
from domain.rulesets.chojin_locke.combat.leaving import party_leaves
from domain.rulesets.chojin_locke.combat.state import Attack, Combat
from domain.rulesets.chojin_locke.declarations import check_declaration
from domain.rulesets.chojin_locke.guards import living
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player
from domain.rulesets.chojin_locke.stats import current


def awaited(t: ChojinTable, actor: str, *stages: str) -> tuple[ChojinState, Combat, Attack, Player]:
    """The attack waits for the acting seat's answer (as its target) at one of `stages`."""
    state, combat = in_combat(t)
    number = t.seat_of(actor)
    attack = combat.attack
    if attack is None or attack.awaiting not in stages or attack.target != number:
        raise RuleViolation("no_attack_on_you", "No attack waits for your answer.")
    return state, combat, attack, living(state, number)


@CHOJIN_LOCKE.command("respond")
class Respond(Command):
    """The target's answer to an attack: a [対抗(攻撃)] defence or escape C-card of the attack's
    LV or more (revealed, activated like any), or none (`{}`): the attack hits."""

    card: str | None = Field(default=None, min_length=1, max_length=80)
    kind: CombatKind | None = None
    esp_level: int | None = Field(default=None, ge=0, le=12)
    willpower: int | None = Field(default=None, ge=1, le=99)


@CHOJIN_LOCKE.decides(Respond)
def respond(t: ChojinTable, command: Respond, actor: str) -> list[Draft]:
    state, combat, attack, me = awaited(t, actor, "response")
    hit = AttackLanded(
        attacker=attack.attacker,
        target=me.seat,
        lv=attack.lv,
        firepower=attack.firepower,
        outcome="hit",
    )
    if combat.fighters[me.seat].defence is not None:
        # l.1055: no other defence or escape while one is kept up; it answers by its LV
        if command.card is not None:
            raise RuleViolation(
                "defence_maintained", "You keep up a defence: no other defence or escape."
            )
        return at_response(state, attack) or [Draft(hit)]
    if command.card is None:
        return [Draft(hit)]
    no_proxy(combat, me.seat)
    kind = command.kind or "防御"
    if kind not in ("防御", "逃避"):
        raise RuleViolation("wrong_kind", "An attack is answered by a defence or an escape.")
    card = held_card(state, combat, me.seat, command.card, kind, COUNTER_ATTACK)
    if card.lv < attack.lv:
        # l.1052–1053: 「例えば、LV:5の攻撃に対してLV:4のテレポートは使用できません。」
        raise RuleViolation(
            "below_attack_lv",
            f"LV {card.lv} is below the attack's LV {attack.lv}: only a defence or escape of "
            f"LV {attack.lv} or more answers it.",
        )
    if command.esp_level is None:
        raise RuleViolation("esp_level_required", "Declare your ESP能力レベル (esp_level).")
    check = activation(t, me, card, command.esp_level, command.willpower)
    event = CardActivated(
        fighter=me.seat,
        card=card.name,
        kind=kind,
        use="response",
        lv=card.lv,
        target=attack.attacker,
        esp_level=command.esp_level,
        willpower=command.willpower if check.rolls else None,
        rolls=check.rolls,
        success=check.success,
        maintain=card.maintain and kind == "防御",
    )
    if not check.success:
        return [Draft(event), Draft(hit)]
    outcome = "blocked" if kind == "防御" else "evaded"
    stood = hit.model_copy(update={"outcome": outcome, "by": card.name})
    left = party_leaves(state, me.seat) if outcome == "evaded" else []  # 6.1 l.1241
    return [Draft(event), Draft(stood), *left]


def endurance_limit(me: Player, suit: bool, extra: int = 0) -> int:
    """What the endurance may be declared as: the character's own (or its suit's, 3.1 l.356:
    「本来の耐久力の代わりにスーツの耐久力を宣言できます」), plus `extra` (格闘: 手下 and the
    suit added to it)."""
    if suit:
        return suit_left(me) + extra
    return current(me, "endurance") + extra


def check_endurance(me: Player, declared: int, limit: int) -> None:
    """Checked privately like any declaration (6.1): 1 or more, never above the truth; the
    refusal does not say the truth."""
    if limit <= 0:
        raise RuleViolation("no_suit", "You have no usable suit to declare.")
    if declared > limit:
        raise RuleViolation(
            "declaration_too_high",
            f"You may declare 耐久力 lower than yours, never higher: {declared} is more than "
            "you have now.",
        )


@CHOJIN_LOCKE.command("declare_endurance")
class DeclareEndurance(Command):
    """The hit target declares its endurance (1 or more, never above the truth; `suit`: the
    endurance is its [スーツ:X]'s, said to nobody). The attacker's 2D6 is rolled at once."""

    endurance: int = Field(ge=1, le=99)
    suit: bool = False


@CHOJIN_LOCKE.decides(DeclareEndurance)
def declare_endurance(t: ChojinTable, command: DeclareEndurance, actor: str) -> list[Draft]:
    state, combat, attack, me = awaited(t, actor, "endurance")
    proxy = combat.fighters[me.seat].proxy
    if proxy:
        if command.suit:
            raise RuleViolation("proxy_in_use", "Your 代理 takes the hit, not a suit.")
        check_endurance(me, command.endurance, proxy_left(me))
    elif command.suit:
        check_endurance(me, command.endurance, endurance_limit(me, True))
    else:
        check_declaration(me, "endurance", command.endurance)
    table = state.catalog.damage_table
    if table is None:
        raise RuleViolation(
            "no_damage_table",
            "The catalog has no 損害判定表: the table resolves the damage (set_condition).",
        )
    columns = len(table.columns)
    index = damage.column(attack.firepower, command.endurance, columns)
    event = damage.judge(
        t.dice,
        table,
        index,
        roller=attack.attacker,
        target=me.seat,
        firepower=attack.firepower,
        endurance=command.endurance,
        proxy=proxy,
        secret=Layer(suit=command.suit),
    )
    dealt = event.damage
    drafts = [Draft(event, audience=(seat_actor(me.seat),))]
    spared = command.suit or proxy  # a suit breaks, a 代理 is destroyed: not its user
    killed = [me.seat] if dealt >= command.endurance and not spared else []
    return drafts + casualties(t, state, drafts, killed)


@CHOJIN_LOCKE.command("use_proxy")
class UseProxy(Command):
    """[代理:X] (3.1 l.368–376): a 代理 fights in your place — as [対抗(攻撃)] when an attack
    waits for your answer, or as [先制] (your main action). Only that a 代理 is used is said."""


@CHOJIN_LOCKE.decides(UseProxy)
def use_proxy(t: ChojinTable, command: UseProxy, actor: str) -> list[Draft]:
    state, combat = in_combat(t)
    number = t.seat_of(actor)
    attack = combat.attack
    answering = attack is not None and attack.awaiting == "response" and attack.target == number
    if not answering:
        state, combat, _me = main_action(t, actor)
    me = living(state, number)
    if combat.fighters[number].proxy:
        raise RuleViolation("proxy_in_use", "Your 代理 is already fighting.")
    if trait_size(me, "代理") == 0 or proxy_left(me) <= 0:
        raise RuleViolation("no_proxy", "You have no usable 代理.")
    return [Draft(ProxyUsed(fighter=number))]


@CHOJIN_LOCKE.command("withdraw_proxy")
class WithdrawProxy(Command):
    """The 代理 withdraws (its damage kept), in your combat turn's check phase (l.374)."""


@CHOJIN_LOCKE.decides(WithdrawProxy)
def withdraw_proxy(t: ChojinTable, command: WithdrawProxy, actor: str) -> list[Draft]:
    state, combat = in_combat(t)
    number = t.seat_of(actor)
    living(state, number)
    if combat.current != number or combat.phase != "check":
        raise RuleViolation("wrong_phase", "A 代理 withdraws in your combat turn's check phase.")
    someone = combat.fighters.get(number)
    if someone is None or not someone.proxy:
        raise RuleViolation("no_proxy", "No 代理 of yours is fighting.")
    return [Draft(ProxyUsed(fighter=number, withdrawn=True))]
