"""5.4 2.: [対抗(攻撃)] abilities and ability cards — the target's window against an attack
(`counter_ability`), before its answer (`respond`) and, with no more avoiding, until the damage
is judged.

5.4 l.1048–1050: 「攻撃が行われた場合、攻撃対象は[対抗(攻撃)]と書かれたCカード・特殊能力・
能力カードを使用することができます。攻撃に対して防御や回避が行われると攻撃が無力化されます。」
l.1053–1054: 「攻撃に対して防御か回避を行う場合、対象の攻撃のLV以上である防御か逃避しか行え
ません。例えば、LV:5の攻撃に対してLV:4のテレポートは使用できません。」 l.1055: 「防御を維持して
いるキャラクターは攻撃に対して別の防御や回避を行うことはできません。」 l.1057–1058: 「1つの攻撃
に対して[対抗(攻撃)]の特殊能力・能力カードはいくらでも使用できますが、Cカードは1つの攻撃に対して
1枚しか使用できません。」 3.1 l.275: 「[対抗(攻撃)]は特筆されていない限り自分への攻撃にのみ
使用できます。」 5.6 l.1104: a 格闘 target 「通常の攻撃と同様に[対抗(攻撃)]の行動を行うことが
できます。」 6.1 l.1266–1267 (気絶): 「相手の行動に対する[対抗(X)]も行うことができません。」
3.1 l.378 (代理): 「コンバットカードや能力カード等、代理が持つ特殊能力以外は使用することが
できません。」

The seed gives an ability no 発動チェック and no ESP cost (5.3 l.1017–1022 is the C-cards'): an
ability is used by saying so (named aloud, 3.1 l.254), an ability card by turning it face up
(4.7 l.844). What it does is its text's, the table's — except what 5.4 itself says of a defence
or an escape: it neutralises the attack (`avoid`), if its LV (printed in its name, 「…LV:3」)
reaches the attack's (ruling CL-088).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat, turned_face_up
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded
from domain.rulesets.chojin_locke.combat.activation import in_combat
from domain.rulesets.chojin_locke.combat.conditions import fainted
from domain.rulesets.chojin_locke.combat.leaving import party_leaves
from domain.rulesets.chojin_locke.combat.timed import chosen
from domain.rulesets.chojin_locke.guards import living
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, named, used_words

COUNTER = "対抗(攻撃)"
# 5.4 l.1049: a defence blocks, an escape evades (l.1001–1002: 「相手の攻撃を回避する効果も
# 持ちます」)
AVOIDS = {"blocked": "防御", "evaded": "逃避"}
VERBS = {"blocked": "block", "evaded": "evade"}


@CHOJIN_LOCKE.event
class CounterAbilityUsed(Event):
    """The attack's target uses a [対抗(攻撃)] ability of its sheet (`ability`, named aloud) or
    ability card (`card`, turned face up) against it. `effect`: what it does, as the user
    declares it (the table resolves it); `avoid`: the attack is blocked (a [防御] one) or
    evaded (an [逃避] one: its user leaves the combat too), an AttackLanded follows."""

    seat: int
    attacker: int
    ability: str | None = None
    card: str | None = None
    tags: tuple[str, ...] = ()
    text: str = ""  # the card's text, as the catalog prints it
    effect: str = ""
    avoid: Literal["blocked", "evaded"] | None = None


@CHOJIN_LOCKE.folds(CounterAbilityUsed)
def _counter_used(state: ChojinState, event: CounterAbilityUsed, seq: int) -> ChojinState:
    state = turned_face_up(state, event.seat, event.card)
    fight = state.combat
    if fight is None or fight.attack is None:
        return state
    name = event.ability if event.ability is not None else event.card
    attack = fight.attack.model_copy(update={"counters": [*fight.attack.counters, name]})
    return combat(state, attack=attack)


@CHOJIN_LOCKE.says_named(CounterAbilityUsed)
def _counter_ability_used_line(e: CounterAbilityUsed, names: Names) -> Message:
    avoid = {"blocked": Message(N_(" — 攻撃を防御")), "evaded": Message(N_(" — 攻撃を回避"))}
    return Message(
        N_("{seat}が{attacker}の攻撃に[対抗(攻撃)]: {used}{text}{effect}{avoid}"),
        {
            "seat": fighter_words(e.seat, names),
            "attacker": fighter_words(e.attacker, names),
            "used": used_words(e.ability, e.card, e.tags),
            "text": Message(N_(" ({text})"), {"text": named(e.text)}) if e.text else "",
            "effect": f": {e.effect}" if e.effect else "",  # as its user typed it
            "avoid": avoid.get(e.avoid or "", ""),
        },
    )


@CHOJIN_LOCKE.command("counter_ability")
class CounterAbility(Command):
    """The attack's target: use a [対抗(攻撃)] ability of your sheet (`ability`, named aloud)
    or an ability card from your hand (`card`, turned face up) against the attack — any number
    of them, each once, before you `respond` (and after it, until the damage is judged, with
    no more avoiding). `effect` says what it does (the table resolves it); `avoid`: it blocks
    (a [防御] one) or evades (an [逃避] one: you leave the combat) the attack, if its LV is not
    below the attack's — only before your answer."""

    ability: str | None = Field(default=None, min_length=1, max_length=60)
    card: str | None = Field(default=None, min_length=1, max_length=60)
    effect: str = Field(default="", max_length=200)
    avoid: Literal["blocked", "evaded"] | None = None


@CHOJIN_LOCKE.decides(CounterAbility)
def counter_ability(t: ChojinTable, command: CounterAbility, actor: str) -> list[Draft]:
    state, fight = in_combat(t)
    number = t.seat_of(actor)
    attack = fight.attack
    if attack is None or attack.target != number or attack.awaiting == "sync":
        # 3.1 l.275: against an attack on oneself; 同調 comes first (the attack is not made yet)
        raise RuleViolation("no_attack_on_you", "No attack on you waits for its answer.")
    if attack.remnant:
        raise RuleViolation(
            "remnant_attack",
            "残留思念による攻撃に対しては[対抗(攻撃)]の行動を行えません (6.1 l.1190).",
        )
    me = living(state, number)
    mine = fight.fighters[number]
    if fainted(fight, mine):
        raise RuleViolation("fainted", "A fainted character uses no [対抗(X)] (6.1 l.1267).")
    if mine.proxy:
        raise RuleViolation(
            "proxy_in_use", "While your 代理 fights, only its own abilities are used (3.1)."
        )
    used = chosen(state, me, command.ability, command.card, COUNTER)
    if used.name in attack.counters:
        raise RuleViolation(
            "used_on_this_attack",
            "「{used}」 is used on this attack already.",
            params={"used": used.name},
        )
    if command.avoid is not None:
        if attack.awaiting != "response":
            # l.1064–1065: once answered, the attack has hit or not; the damage is judged
            raise RuleViolation("attack_answered", "The attack has hit: nothing avoids it now.")
        if mine.defence is not None:  # l.1055 (a keeper's answer is at once, ruling CL-053)
            raise RuleViolation(
                "defence_maintained", "You keep up a defence: no other defence or escape."
            )
        needed = AVOIDS[command.avoid]
        if needed not in used.tags:
            raise RuleViolation(
                "cannot_avoid",
                "「{used}」 is no [{needed}]: it does not {avoid} an attack.",
                params={"used": used.name, "needed": needed, "avoid": VERBS[command.avoid]},
            )
        level = used.level()
        if level is not None and level < attack.lv:
            raise RuleViolation(
                "below_attack_lv",
                "LV {level} is below the attack's LV {lv}: only a defence or escape of LV {lv} or "
                "more answers it.",
                params={"level": level, "lv": attack.lv},
            )
    event = CounterAbilityUsed(
        seat=number,
        attacker=attack.attacker,
        **used.naming(command.effect),
        avoid=command.avoid,
    )
    drafts = [Draft(event)]
    if command.avoid is None:
        return drafts
    stood = AttackLanded(
        attacker=attack.attacker,
        target=number,
        lv=attack.lv,
        firepower=attack.firepower,
        outcome=command.avoid,
        by=used.name,
    )
    left = party_leaves(state, number) if command.avoid == "evaded" else []  # 6.1 l.1241
    return [*drafts, Draft(stood), *left]
