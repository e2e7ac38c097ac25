"""5.4 攻撃・防御・逃避の流れ: the target's answer (`respond`) and the damage (`declare_endurance`).

5.4 l.1050–1058: 「攻撃に対して防御か回避を行う場合、対象の攻撃のLV以上である防御か逃避しか
行えません。…1つの攻撃に対して[対抗(攻撃)]の特殊能力・能力カードはいくらでも使用できますが、
Cカードは1つの攻撃に対して1枚しか使用できません。この制限は防御・逃避Cカードの発動チェックに
失敗した場合でも同様です。」 l.1062–1063: 「防御・逃避Cカードの発動チェックに失敗した場合、
防御や回避が行われなかったものとして扱われるので攻撃が攻撃対象に命中し、損害判定に移行します。」
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import COUNTER_ATTACK, CombatKind
from domain.rulesets.chojin_locke.combat import damage, illusion, jammer, negation
from domain.rulesets.chojin_locke.combat.action_events import (
    AttackLanded,
    CardActivated,
    DefenceDropped,
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

AWAITED = {
    "sync": "the 同調 answers first",
    "response": "your answer (respond: a defence, an escape, or {} to take it)",
    "endurance": "your endurance (declare_endurance): it has hit you",
    "counter": "your firepower (counter): the 格闘 has hit you",
}


def awaited(t: ChojinTable, actor: str, *stages: str) -> tuple[ChojinState, Combat, Attack, Player]:
    """The attack waits for the acting seat's answer (as its target) at one of `stages`."""
    state, combat = in_combat(t)
    number = t.seat_of(actor)
    attack = combat.attack
    if attack is None or attack.target != number:
        raise RuleViolation("no_attack_on_you", "No attack waits for your answer.")
    if attack.awaiting not in stages:
        # the attack on you waits for something else (public: the view's attack.awaiting)
        raise RuleViolation(
            "no_attack_on_you",
            "The attack on you waits for {awaiting}, not for this answer.",
            params={"awaiting": AWAITED[attack.awaiting]},
        )
    return state, combat, attack, living(state, number)


@CHOJIN_LOCKE.command("respond")
class Respond(Command):
    """The target's answer to an attack: a [対抗(攻撃)] defence or escape C-card of the attack's
    LV or more (revealed, activated like any), or none (`{}`): the attack hits."""

    card: str | None = Field(default=None, min_length=1, max_length=80)
    kind: CombatKind | None = None
    esp_level: int | None = Field(default=None, ge=0, le=12)
    willpower: int | None = Field(default=None, ge=1, le=99)
    # l.1327's 「維持できる場合、必ず維持します」 is the NPC's rule: a player chooses (ruling
    # CL-094)
    maintain: bool = True


def answer_kind(state: ChojinState, combat: Combat, holder: int, name: str) -> str:
    """The kind a `respond` without one uses: the card's one answering kind (防御 or 逃避, 5.3
    l.996–998: a card of several kinds is used as one of them, so one with both must be told);
    防御 when the card is not in the hand (held_card refuses it then)."""
    card = state.catalog.combat_card(name) if name in combat.hands.get(holder, ()) else None
    answers = [k for k in ("防御", "逃避") if card is not None and k in card.kinds]
    if len(answers) > 1:
        raise RuleViolation(
            "kind_required", "{name} is 防御/逃避: say which (kind).", params={"name": name}
        )
    return answers[0] if answers else "防御"


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
    kind = command.kind or answer_kind(state, combat, me.seat, command.card)
    if kind not in ("防御", "逃避"):
        raise RuleViolation("wrong_kind", "An attack is answered by a defence or an escape.")
    card = held_card(state, combat, me.seat, command.card, kind, COUNTER_ATTACK)
    if card.lv < attack.lv:
        # l.1052–1053: 「例えば、LV:5の攻撃に対してLV:4のテレポートは使用できません。」
        raise RuleViolation(
            "below_attack_lv",
            "LV {lv} is below the attack's LV {lv2}: only a defence or escape of LV {lv3} or more "
            "answers it.",
            params={"lv": card.lv, "lv2": attack.lv, "lv3": attack.lv},
        )
    illusion.check_response(state, attack, card)  # 6.2 l.1316
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
        maintain=card.maintain and kind == "防御" and command.maintain,
    )
    jammed = jammer.on_use(t, state, event)  # 6.2 l.1309–1310: an obstacle's ESPジャマー
    if jammed:
        return [Draft(event), *jammed]
    if not check.success:
        return [Draft(event), Draft(hit)]
    outcome = "blocked" if kind == "防御" else "evaded"
    stood = hit.model_copy(update={"outcome": outcome, "by": card.name})
    kept = negation.on_escape(state, event)  # 6.2 l.1330–1332: evaded, but it stays
    left = party_leaves(state, me.seat) if outcome == "evaded" and not kept else []  # l.1241
    took = illusion.took(state, me.seat, card, attack.attacker, "response")  # 6.2 l.1314
    return [Draft(event), *took, Draft(stood), *kept, *left]


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
            "You may declare 耐久力 lower than yours, never higher: {declared} is more than you "
            "have "
            "now.",
            params={"declared": declared},
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
    if attack.remnant and command.suit:
        # 3.1 l.360, 6.1 l.1190: 「残留思念の攻撃に対してはスーツを使用することはできません。」
        raise RuleViolation("no_suit_on_remnant", "No suit against a 残留思念's attack (3.1).")
    proxy = combat.fighters[me.seat].proxy
    if proxy:
        if command.suit:
            raise RuleViolation("proxy_in_use", "Your 代理 takes the hit, not a suit.")
        check_endurance(me, command.endurance, proxy_left(me))
    elif command.suit:
        check_endurance(me, command.endurance, endurance_limit(me, True))
    else:
        check_declaration(me, "endurance", command.endurance)
    table = damage.table_of(state)
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


@CHOJIN_LOCKE.command("drop_defence")
class DropDefence(Command):
    """Stop keeping up your defence (ruling CL-094), in your own combat turn while no attack waits:
    a kept defence stops you from 格闘 (l.1099) and from any other defence or escape (l.1055)."""


@CHOJIN_LOCKE.decides(DropDefence)
def drop_defence(t: ChojinTable, command: DropDefence, actor: str) -> list[Draft]:
    state, combat = in_combat(t)
    number = t.seat_of(actor)
    living(state, number)
    if combat.step != "turns" or combat.current != number:
        raise RuleViolation("not_your_combat_turn", "A defence is let go in your combat turn.")
    if combat.attack is not None:
        raise RuleViolation("attack_pending", "The attack under way is resolved first.")
    someone = combat.fighters.get(number)
    if someone is None or someone.defence is None:
        raise RuleViolation("no_defence", "You keep up no defence.")
    return [Draft(DefenceDropped(fighter=number))]
