"""6.2 障害 as a target: an attack that reaches an obstacle is resolved at once, by the rules
the seed gives NPCs — no card answers it, every living member takes its own 損害判定, and a
格闘 is fought back by each member.

6.1 l.1176: 「障害とは攻撃対象に選択でき、手札を持たない戦闘参加者のことです。」 (no hand: it never
answers with a defence or escape). 6.2 l.1293–1297: 「複数人存在する障害に攻撃を行う場合、その障害の
全員に攻撃が行われることになります。…複数人存在する障害への損害判定は1人1人別々に損害判定を
行います。そのため、複数人存在する障害の残り耐久力はそれぞれ別に管理されます。」 l.1335–1336:
「NPCは耐久力を宣言する時、耐久力を低く宣言することはありません。必ず宣言できる最大の値で宣言
します。」 (each member declares its remaining endurance). l.1337–1340: 「NPCが格闘を行う場合でも
耐久力は宣言できる最大の値で宣言し、…NPCに対して格闘攻撃が行われ、その格闘攻撃が命中した場合、
NPCは必ず格闘攻撃の反撃を行います。」
"""

from __future__ import annotations

from domain.audience import seat_actor
from domain.errors import RuleViolation
from domain.records import Draft
from domain.rulesets.chojin_locke.combat import damage
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, Layer
from domain.rulesets.chojin_locke.combat.death import casualties, look_ahead
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState


def struck(t: ChojinTable, state: ChojinState, drafts: list[Draft]) -> list[Draft]:
    """After `drafts`, an attack waiting for an obstacle's answer hits it (ruling 74): each
    living member's 損害判定 at its remaining endurance, the attacker's 2D6 each; a 格闘 also
    gets each member's 反撃 (its remaining endurance as firepower, rolled at the same time,
    ruling 75). Nothing when the attack is not waiting on an obstacle."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    attack = after.combat.attack
    if attack is None or attack.awaiting != "response":
        return []
    group = after.combat.fighters[attack.target]
    if group.kind != "obstacle":
        return []
    table = state.catalog.damage_table
    if table is None:
        raise RuleViolation(
            "no_damage_table",
            "The catalog has no 損害判定表: the table resolves the damage (set_condition).",
        )
    columns = len(table.columns)
    melee = attack.card is None and not attack.weapon
    landed = AttackLanded(
        attacker=attack.attacker,
        target=group.id,
        lv=attack.lv,
        firepower=attack.firepower,
        outcome="hit",
    )
    out = [Draft(landed)]
    killed: list[int] = []
    attacker = after.combat.fighters[attack.attacker]
    for index, left in enumerate(group.members):
        if left <= 0:
            continue
        if melee:
            mine, theirs = damage.melee_columns(attack.firepower, left, attack.shift, 0, columns)
        else:
            mine, theirs = damage.column(attack.firepower, left, columns), 0
        hit = damage.judge(  # the attacker's roll, one per member
            t.dice,
            table,
            mine,
            roller=attack.attacker,
            target=group.id,
            firepower=attack.firepower,
            endurance=left,
            melee=melee,
            member=index,
        )
        out.append(Draft(hit))
        if not melee or attack.declared_endurance is None:
            continue
        on_attacker = damage.judge(  # the member's 反撃, at the same time (l.1110–1111)
            t.dice,
            table,
            theirs,
            roller=group.id,
            target=attack.attacker,
            firepower=left,
            endurance=attack.declared_endurance,
            melee=True,
            secret=Layer(suit=attack.suit),
        )
        returned = on_attacker.damage
        audience = (seat_actor(attacker.seat),) if attacker.seat is not None else ()
        out.append(Draft(on_attacker, audience=audience))
        if returned >= attack.declared_endurance and not attack.suit:
            killed.append(attack.attacker)
    return out + casualties(t, state, [*drafts, *out], killed)


def members_fight(
    t: ChojinTable,
    state: ChojinState,
    drafts: list[Draft],
    endurance: int,
    shift: int,
    layer: tuple[bool, bool],
) -> list[Draft]:
    """An obstacle's 格闘 has hit its target, who declared `endurance` (its firepower) and
    `shift` and answered with `drafts` (ruling 78): l.1298–1301 「1人1人がそれぞれ格闘を行います。
    例として警官隊3人が格闘を行う場合、警官隊の耐久力は1なので火力:1の格闘攻撃で3回損害判定を
    行います。」 Each living member's roll on the target (its remaining endurance as firepower) and
    the target's 反撃 on that member at once (l.1110–1111; an NPC always uses all it has,
    l.1337), the target's [格闘:X] shifting both."""
    suit, proxy = layer  # the target's suit or 代理 takes the members' damage
    after = look_ahead(t, state, drafts)
    assert after.combat is not None and after.combat.attack is not None
    attack = after.combat.attack
    group = after.combat.fighters[attack.attacker]
    table = state.catalog.damage_table
    assert table is not None
    columns = len(table.columns)
    target = after.combat.fighters[attack.target]
    answered = [d.event for d in drafts]
    fights_back = any(getattr(e, "fights_back", False) for e in answered)
    out: list[Draft] = []
    killed: list[int] = []
    for index, left in enumerate(group.members):
        if left <= 0:
            continue
        theirs, mine = damage.melee_columns(left, endurance, 0, shift, columns)
        on_target = damage.judge(  # the member's roll
            t.dice,
            table,
            theirs,
            roller=group.id,
            target=attack.target,
            firepower=left,
            endurance=endurance,
            melee=True,
            proxy=proxy,
            secret=Layer(suit=suit),
        )
        dealt = on_target.damage
        audience = (seat_actor(target.seat),) if target.seat is not None else ()
        out.append(Draft(on_target, audience=audience))
        if dealt >= endurance and not suit and not proxy:
            killed.append(attack.target)
        if not fights_back:
            continue
        hit = damage.judge(  # the target's 反撃 on this member
            t.dice,
            table,
            mine,
            roller=attack.target,
            target=group.id,
            firepower=endurance,
            endurance=left,
            melee=True,
            member=index,
        )
        out.append(Draft(hit))
    return out + casualties(t, state, [*drafts, *out], killed)
