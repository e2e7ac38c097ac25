"""5.6 格闘: endurance declared as firepower, an LV 1 attack, the target's counter, both damage
rolls at once, [格闘:X] column shifts; 手下 and スーツ add to the declared endurance.

5.6 l.1099–1109: 「キャラクター・障害は戦闘手番の主要行動において対象1体に格闘攻撃を行うことが
できます。ただし、防御を維持しているキャラクターは格闘を行えません。まず、格闘攻撃を行う
キャラクターは自分の耐久力と攻撃対象を宣言します。基本的にこの時に宣言された耐久力がそのまま
格闘攻撃の火力となります。また、格闘攻撃はLV:1の攻撃として扱います。…格闘攻撃が命中した場合、
攻撃対象も攻撃者と同様に火力の宣言を行います。その後、攻撃者が攻撃対象に損害判定を行います。
この時、攻撃対象は攻撃者に反撃を行うことができます。」 l.1110–1111: 「攻撃者が行う損害判定と
攻撃対象が行う損害判定は同時に行われます。」 3.1 l.323–324 (手下: 「格闘を行う際の耐久力を宣言
する時に手下の人数分だけ耐久力を増加して宣言できます」), l.365–367 (スーツ: 「格闘の際の耐久力を
宣言する時、スーツの耐久力を本来の耐久力に加算して耐久力を宣言できます。その場合、その格闘に
よって発生するダメージはスーツの耐久力に与えられます。」).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.combat import damage
from domain.rulesets.chojin_locke.combat.action_events import (
    Layer,
    MeleeAnswered,
    MeleeDeclared,
    proxy_left,
    suit_left,
)
from domain.rulesets.chojin_locke.combat.activation import (
    at_response,
    main_action,
    no_proxy,
    target_of,
)
from domain.rulesets.chojin_locke.combat.attack import awaited, check_endurance
from domain.rulesets.chojin_locke.combat.conditions import fainted
from domain.rulesets.chojin_locke.combat.death import casualties
from domain.rulesets.chojin_locke.combat.exclusive import check
from domain.rulesets.chojin_locke.combat.npc import members_fight, struck
from domain.rulesets.chojin_locke.combat.state import Attack, Combat
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import Player
from domain.rulesets.chojin_locke.stats import current


def melee_shift(me: Player) -> int:
    """The character's [格闘:X] total: several are used at once (3.1 l.348–349)."""
    if me.sheet is None:
        return 0
    return sum(
        int(tag.split(":", 1)[1])
        for ability in me.sheet.abilities
        for tag in ability.tags
        if tag.startswith("格闘:") and tag.split(":", 1)[1].isdigit()
    )


def _declared(me: Player, combat: Combat, endurance: int, shift: int, suit: bool) -> None:
    """Checked privately against the sheet: the endurance (plus 手下 declared in this combat,
    plus the suit if used) and the [格闘:X] total, never above the truth."""
    minions = combat.fighters[me.seat].minions
    check_endurance(
        me, endurance, current(me, "endurance") + minions + (suit_left(me) if suit else 0)
    )
    if suit and suit_left(me) <= 0:
        raise RuleViolation("no_suit", "You have no usable suit to declare.")
    if shift > melee_shift(me):
        raise RuleViolation(
            "declaration_too_high",
            "You may declare [格闘:X] lower than yours, never higher: {shift} is more.",
            params={"shift": shift},
        )


@CHOJIN_LOCKE.command("melee")
class Melee(Command):
    """格闘攻撃 as the main action: your endurance declared as its firepower (手下 declared in
    this combat may add one each; `suit` adds your [スーツ:X], said to nobody) against one
    target, with your [格闘:X] total (`shift`)."""

    target: int = Field(ge=1)
    endurance: int = Field(ge=1, le=99)
    shift: int = Field(default=0, ge=0, le=12)
    suit: bool = False


@CHOJIN_LOCKE.decides(Melee)
def melee(t: ChojinTable, command: Melee, actor: str) -> list[Draft]:
    state, combat, me = main_action(t, actor)
    if combat.fighters[me.seat].defence is not None:
        raise RuleViolation("defence_maintained", "A fighter keeping up a defence cannot 格闘.")
    no_proxy(combat, me.seat)  # ruling CL-062: a 代理's own 格闘 is its card text's
    check(combat, me.seat, ["攻撃"])  # 格闘 is an attack: not after an escape (ruling CL-098)
    target = target_of(state, combat, me, command.target)
    _declared(me, combat, command.endurance, command.shift, command.suit)
    event = MeleeDeclared(
        attacker=me.seat,
        target=target.id,
        endurance=command.endurance,
        shift=command.shift,
        secret=Layer(suit=command.suit),
    )
    attack = Attack(
        attacker=me.seat, target=target.id, lv=1, firepower=command.endurance, suit=command.suit
    )
    drafts = [Draft(event, audience=(seat_actor(me.seat),)), *at_response(state, attack)]
    return drafts + struck(t, state, drafts)


@CHOJIN_LOCKE.command("counter")
class Counter(Command):
    """The 格闘 target, hit: its endurance declared as its firepower (手下 and `suit` as for
    melee) and its [格闘:X] total; `fight_back` (反撃, free) makes both damage rolls at once."""

    endurance: int = Field(ge=1, le=99)
    shift: int = Field(default=0, ge=0, le=12)
    fight_back: bool = True
    suit: bool = False


@CHOJIN_LOCKE.decides(Counter)
def counter(t: ChojinTable, command: Counter, actor: str) -> list[Draft]:
    state, combat, attack, me = awaited(t, actor, "counter")
    proxy = combat.fighters[me.seat].proxy
    if proxy and (command.fight_back or command.suit or command.shift):
        # ruling CL-062: the 代理 takes the hit, its own 格闘 is its card text's
        raise RuleViolation(
            "proxy_in_use", "Your 代理 takes the hit: declare its endurance, no 反撃 (fight_back)."
        )
    if command.fight_back and fainted(combat, combat.fighters[me.seat]):
        # 6.1 l.1266: 「気絶状態のキャラクターはあらゆる行動・チェックを行うことができません。」
        raise RuleViolation("fainted", "A fainted character cannot fight back (反撃).")
    if command.fight_back and combat.fighters[me.seat].defence is not None:
        # l.1100: 「防御を維持しているキャラクターは格闘を行えません。」 — a 反撃 is 格闘 too
        raise RuleViolation(
            "defence_maintained", "A fighter keeping up a defence cannot fight back (反撃)."
        )
    if proxy:
        check_endurance(me, command.endurance, proxy_left(me))
    else:
        _declared(me, combat, command.endurance, command.shift, command.suit)
    table = damage.table_of(state)
    if combat.fighters[attack.attacker].kind == "obstacle":
        # ruling CL-078: each member of the obstacle fights this target on its own
        answered = MeleeAnswered(
            target=me.seat,
            endurance=command.endurance,
            shift=command.shift,
            fights_back=command.fight_back,
            secret=Layer(suit=command.suit),
        )
        drafts = [Draft(answered, audience=(seat_actor(me.seat),))]
        return drafts + members_fight(
            t, state, drafts, command.endurance, command.shift, (command.suit, proxy)
        )
    assert attack.declared_endurance is not None
    mine, theirs = damage.melee_columns(
        attack.firepower, command.endurance, attack.shift, command.shift, len(table.columns)
    )
    answered = MeleeAnswered(
        target=me.seat,
        endurance=command.endurance,
        shift=command.shift,
        fights_back=command.fight_back,
        secret=Layer(suit=command.suit),
    )
    drafts = [Draft(answered, audience=(seat_actor(me.seat),))]
    killed: list[int] = []
    on_target = damage.judge(  # the attacker's roll
        t.dice,
        table,
        mine,
        roller=attack.attacker,
        target=me.seat,
        firepower=attack.firepower,
        endurance=command.endurance,
        melee=True,
        proxy=proxy,
        secret=Layer(suit=command.suit),
    )
    dealt = on_target.damage
    drafts.append(Draft(on_target, audience=(seat_actor(me.seat),)))
    if dealt >= command.endurance and not command.suit and not proxy:
        killed.append(me.seat)
    if command.fight_back:
        on_attacker = damage.judge(  # the target's roll, at the same time (l.1110–1111)
            t.dice,
            table,
            theirs,
            roller=me.seat,
            target=attack.attacker,
            firepower=command.endurance,
            endurance=attack.declared_endurance,
            melee=True,
            secret=Layer(suit=attack.suit),
        )
        returned = on_attacker.damage
        drafts.append(Draft(on_attacker, audience=(seat_actor(attack.attacker),)))
        if returned >= attack.declared_endurance and not attack.suit:
            killed.append(attack.attacker)
    return drafts + casualties(t, state, drafts, killed)
