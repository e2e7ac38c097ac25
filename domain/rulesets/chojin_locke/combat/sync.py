"""5.5 同調: joining a successful [同調可] attack with a card of the same kind and LV no higher.

5.5 l.1079–1087: 「[同調可]のCカードの発動チェックに成功した時、そのCカードを使用した
キャラクターは自分以外のキャラクターに同調を求めることができます。…同調を行うには同調元の
Cカード以下のLVであり、かつ同じ種類の[同調可]であるCカードを使用する必要があります。…
同調が行われた場合、同調されたCカードの数だけ同調元のCカードのLVが+1されます。」
l.1089–1095: only a character that has not had its combat turn joins an attack, and is then
行動済み; the attack's firepower is the sum. 手下 (3.1 l.325–329): 「手下が同調を行う場合、
同調に使用するコンバットカードはその手下を所持しているキャラクターの手札から使用します。
この時、手下のESP能力レベルより高いLVのコンバットカードでは同調を行えません。
手下の同調ではESPパワーは消費しません。」
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import MAIN
from domain.rulesets.chojin_locke.combat import jammer
from domain.rulesets.chojin_locke.combat.action_events import CardActivated, SyncDeclined
from domain.rulesets.chojin_locke.combat.activation import (
    activation,
    at_response,
    held_card,
    in_combat,
    no_proxy,
)
from domain.rulesets.chojin_locke.combat.death import look_ahead
from domain.rulesets.chojin_locke.combat.npc import struck
from domain.rulesets.chojin_locke.combat.state import Attack, Combat
from domain.rulesets.chojin_locke.guards import living
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player


def asked(t: ChojinTable, actor: str) -> tuple[ChojinState, Combat, Attack, Player]:
    state, combat = in_combat(t)
    number = t.seat_of(actor)
    attack = combat.attack
    if attack is None or attack.awaiting != "sync" or number not in attack.sync_waiting:
        raise RuleViolation("no_sync_request", "No 同調 request waits for your answer.")
    return state, combat, attack, living(state, number)


def _then(state: ChojinState, t: ChojinTable, drafts: list[Draft]) -> list[Draft]:
    """Once the last answer is in, the attack goes on to its target."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None and after.combat.attack is not None
    if after.combat.attack.awaiting != "response":
        return drafts
    jammed = jammer.on_attack(t, state, drafts)  # 6.1 l.1253: 「同調の処理を行った後」
    if jammed:
        return drafts + jammed
    drafts = drafts + at_response(after, after.combat.attack)
    return drafts + struck(t, state, drafts)


@CHOJIN_LOCKE.command("sync")
class Sync(Command):
    """同調 to the attack under way with a [同調可] attack C-card of its card's LV or less
    (activated like any); `minion`: the attacker's own 手下 joins with a card from its hand
    (no declaration, no power)."""

    card: str = Field(min_length=1, max_length=80)
    esp_level: int | None = Field(default=None, ge=0, le=12)
    willpower: int | None = Field(default=None, ge=1, le=99)
    minion: bool = False


@CHOJIN_LOCKE.decides(Sync)
def sync(t: ChojinTable, command: Sync, actor: str) -> list[Draft]:
    state, combat, attack, me = asked(t, actor)
    no_proxy(combat, me.seat)
    original = state.catalog.combat_card(attack.card or "")
    assert original is not None
    card = held_card(state, combat, me.seat, command.card, "攻撃", MAIN)
    if not card.sync:
        raise RuleViolation("not_syncable", "{card} is not [同調可].", params={"card": card.name})
    if card.lv > original.lv:
        raise RuleViolation(
            "sync_lv_too_high",
            "同調 needs LV {lv} or less (the card asking for it, {original}).",
            params={"lv": original.lv, "original": original.name},
        )
    if command.minion:
        fighter = combat.fighters[me.seat]
        if me.seat != attack.attacker or attack.minion_joins >= fighter.minions:
            raise RuleViolation("no_minion", "No 手下 of yours is left to join this attack.")
        if fighter.minion_level is None or card.lv > fighter.minion_level:
            raise RuleViolation(
                "minion_level_too_low",
                "A 手下 joins only with a card of its ESP能力レベル or less (3.1 l.327–328).",
            )
        event = CardActivated(
            fighter=me.seat,
            card=card.name,
            kind="攻撃",
            use="minion_sync",
            lv=card.lv,
            firepower=card.firepower,
            target=attack.target,
            success=True,
        )
        return _then(state, t, [Draft(event)])
    if me.seat == attack.attacker:
        raise RuleViolation("own_attack", "You asked for the 同調: your 手下 join (minion).")
    if command.esp_level is None:
        raise RuleViolation("esp_level_required", "Declare your ESP能力レベル (esp_level).")
    check = activation(t, me, card, command.esp_level, command.willpower)
    event = CardActivated(
        fighter=me.seat,
        card=card.name,
        kind="攻撃",
        use="sync",
        lv=card.lv,
        firepower=card.firepower,
        target=attack.target,
        esp_level=command.esp_level,
        willpower=command.willpower if check.rolls else None,
        rolls=check.rolls,
        success=check.success,
    )
    return _then(state, t, [Draft(event)])


@CHOJIN_LOCKE.command("no_sync")
class NoSync(Command):
    """No 同調 (for the attacker: no more 手下 join)."""


@CHOJIN_LOCKE.decides(NoSync)
def no_sync(t: ChojinTable, command: NoSync, actor: str) -> list[Draft]:
    state, _combat, _attack, me = asked(t, actor)
    return _then(state, t, [Draft(SyncDeclined(fighter=me.seat))])
