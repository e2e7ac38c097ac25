"""6.2 NPCs as targets, and whom an NPC attacks: an attack that reaches an obstacle or an エスパー
NPC is answered at once by the rules the seed gives NPCs. An obstacle: no card answers it, every
living member takes its own 損害判定, and a 格闘 is fought back by each member. An エスパー NPC
(6.2 l.1320–1332): its best defence C-card, else its full endurance declared, a 格闘 always
fought back (`esper_answers`, rulings CL-085–CL-086).

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

from typing import Literal

from domain.model.audience import seat_actor
from domain.model.errors import RuleViolation
from domain.model.lifecycle_events import RollRecord
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import COUNTER_ATTACK, CombatCard
from domain.rulesets.chojin_locke.combat import damage, illusion, jammer
from domain.rulesets.chojin_locke.combat.action_events import (
    AttackLanded,
    CardActivated,
    Layer,
    MeleeAnswered,
)
from domain.rulesets.chojin_locke.combat.conditions import fainted
from domain.rulesets.chojin_locke.combat.death import casualties, look_ahead
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.state import Attack, Fighter
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState


def legal_targets(state: ChojinState, npc: Fighter) -> list[int]:
    """6.2 l.1282–1284: 「惑星編で戦闘に参加したNPCは攻撃対象をランダムに選択しますが、
    秘密基地編で戦闘に参加したNPCは攻撃対象を探索プレイヤーのキャラクターの中からランダムに
    選択します。」 — in 惑星編 any other fighter still in the combat (never a 残留思念, 6.1
    l.1189), in 秘密基地編 the explorers' characters."""
    assert state.combat is not None
    out = []
    for f in in_play(state):
        if f.id == npc.id or f.kind == "remnant":
            continue
        if state.combat.stage == "base":
            owner = state.players.get(f.id) if f.kind == "character" else None
            if owner is None or owner.side != "explorer":
                continue
        out.append(f.id)
    return out


def pick_target(
    t: ChojinTable, state: ChojinState, npc: Fighter, target: int | Literal["random"]
) -> tuple[int, RollRecord | None, tuple[int, ...]]:
    """The NPC's target: named by the host among the legal ones, or `"random"` — 1D(n) on the
    verifiable stream over them in fighter-id order, no roll when there is one (ruling CL-077).
    (target, roll, candidates)."""
    legal = legal_targets(state, npc)
    if not legal:
        raise RuleViolation(
            "no_target", "{npc} has no one it may attack.", params={"npc": npc.name}
        )
    if target == "random" and len(legal) == 1:
        return legal[0], None, tuple(legal)  # ruling CL-077: nothing to roll for
    if target == "random":
        roll = t.dice.roll(f"1D{len(legal)}")  # the verifiable stream
        return legal[roll.total - 1], roll.record, tuple(legal)
    if target in legal:
        return target, None, ()
    names = ", ".join(str(n) for n in legal)
    raise RuleViolation(
        "bad_target", "{npc} may attack: {names}.", params={"npc": npc.name, "names": names}
    )


def struck(t: ChojinTable, state: ChojinState, drafts: list[Draft]) -> list[Draft]:
    """After `drafts`, an attack waiting for an obstacle's answer hits it (ruling CL-074): each
    living member's 損害判定 at its remaining endurance, the attacker's 2D6 each; a 格闘 also
    gets each member's 反撃 (its remaining endurance as firepower, rolled at the same time,
    ruling CL-075). Nothing when the attack is not waiting on an obstacle."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    attack = after.combat.attack
    if attack is not None and after.combat.fighters[attack.target].kind == "esper":
        return esper_answers(t, state, drafts)
    if attack is None or attack.awaiting != "response":
        return []
    group = after.combat.fighters[attack.target]
    if group.kind != "obstacle":
        return []
    table = damage.table_of(state)
    columns = len(table.columns)
    melee = attack.melee
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
    `shift` and answered with `drafts` (ruling CL-078): l.1298–1301
    「1人1人がそれぞれ格闘を行います。
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


def _cards(state: ChojinState, holder: Fighter) -> list[CombatCard]:
    """The C-cards in the NPC's hand it may use now (none an ESPジャマー sent back, l.1259)."""
    assert state.combat is not None
    fight = state.combat
    out = []
    for name in fight.hands.get(holder.id, ()):
        card = state.catalog.combat_card(name)
        if card is not None and jammer.usable(fight, holder.id, name):
            out.append(card)
    return out


def best_attack(state: ChojinState, esper: Fighter) -> CombatCard | None:
    """l.1325 「攻撃を行う場合、自分が使用できる最大LVかつ最大火力の攻撃Cカードを優先して使用
    します。」: among its attack cards of LV ≤ its ESP能力レベル (no 精神力, so no card above it,
    l.1324), the highest LV, then the highest firepower; the first in hand on a tie (ruling
    CL-085)."""
    usable = [
        c
        for c in _cards(state, esper)
        if "攻撃" in c.kinds and c.usable_as("攻撃", "主要") and c.lv <= esper.esp_level
    ]
    if not usable:
        return None
    return max(usable, key=lambda c: (c.lv, c.firepower))  # max keeps the first on a tie


def holds_attack(state: ChojinState, esper: Fighter, leaving: str | None = None) -> bool:
    """l.1328 「手札に攻撃Cカードが無い場合は防御の維持は行いません」: an attack C-card in hand
    (besides `leaving`, the card being played)."""
    assert state.combat is not None
    hand = list(state.combat.hands.get(esper.id, ()))
    if leaving is not None and leaving in hand:
        hand.remove(leaving)
    return any(
        (card := state.catalog.combat_card(n)) is not None and "攻撃" in card.kinds for n in hand
    )


def _best_defence(state: ChojinState, esper: Fighter, attack: Attack) -> CombatCard | None:
    """l.1326 「防御Cカードを使用できる場合、必ず自分が使用できる最大LVの防御Cカードを使用します。」
    — LV at least the attack's (5.4 l.1053) and at most its ESP能力レベル; l.1329: never an
    escape."""
    assert state.combat is not None
    unaffected = illusion.immune(state.combat.fighters[attack.attacker])  # l.1316
    usable = [
        c
        for c in _cards(state, esper)
        if "防御" in c.kinds
        and c.usable_as("防御", COUNTER_ATTACK)
        and attack.lv <= c.lv <= esper.esp_level
        and not (c.illusion and unaffected)
    ]
    return max(usable, key=lambda c: c.lv) if usable else None


def esper_answers(t: ChojinTable, state: ChojinState, drafts: list[Draft]) -> list[Draft]:
    """After `drafts` an attack waits on an エスパー NPC: it answers every step at once (6.2
    l.1326–1327, 1335–1340): its best defence (again if an ESPジャマー voids it), else the hit;
    its whole remaining endurance declared; a 格闘 always fought back unless it keeps up a
    defence or is fainted (rulings CL-085–CL-086)."""
    out: list[Draft] = []
    for _ in range(12):  # one step a pass; each card tried is locked or played: bounded
        after = look_ahead(t, state, [*drafts, *out])
        assert after.combat is not None
        attack = after.combat.attack
        if attack is None:
            return out
        me = after.combat.fighters[attack.target]
        if me.kind != "esper":
            return out
        if attack.awaiting == "response":
            out += _defends(t, after, me, attack)
        elif attack.awaiting == "endurance":
            return out + _endures(t, state, [*drafts, *out], me, attack)
        elif attack.awaiting == "counter":
            return out + _counters(t, state, [*drafts, *out], me, attack)
        else:
            return out
    raise AssertionError("an エスパー NPC's answer did not settle")  # pragma: no cover


def _defends(t: ChojinTable, after: ChojinState, me: Fighter, attack: Attack) -> list[Draft]:
    hit = AttackLanded(
        attacker=attack.attacker,
        target=me.id,
        lv=attack.lv,
        firepower=attack.firepower,
        outcome="hit",
    )
    assert after.combat is not None
    card = None
    if not attack.remnant and not fainted(after.combat, me):
        card = _best_defence(after, me, attack)
    if card is None:
        return [Draft(hit)]
    used = CardActivated(
        fighter=me.id,
        card=card.name,
        kind="防御",
        use="response",
        lv=card.lv,
        target=attack.attacker,
        success=True,  # its level is at least the card's LV: no 精神力チェック (l.1324)
        # l.1327–1328: kept up when it can be, unless no attack C-card is left in hand
        maintain=card.maintain and holds_attack(after, me, leaving=card.name),
    )
    jammed = jammer.on_use(t, after, used)
    if jammed:
        return [Draft(used), *jammed]
    blocked = hit.model_copy(update={"outcome": "blocked", "by": card.name})
    took = illusion.took(after, me.id, card, attack.attacker, "response")
    return [Draft(used), *took, Draft(blocked)]


def _endures(
    t: ChojinTable, state: ChojinState, drafts: list[Draft], me: Fighter, attack: Attack
) -> list[Draft]:
    """l.1335–1336: it declares all the endurance it has left; the attacker's 2D6."""
    table = damage.table_of(state)
    left = me.members[0]
    hit = damage.judge(
        t.dice,
        table,
        damage.column(attack.firepower, left, len(table.columns)),
        roller=attack.attacker,
        target=me.id,
        firepower=attack.firepower,
        endurance=left,
        member=0,
    )
    return [Draft(hit), *casualties(t, state, [*drafts, Draft(hit)])]


def _counters(
    t: ChojinTable, state: ChojinState, drafts: list[Draft], me: Fighter, attack: Attack
) -> list[Draft]:
    """A 格闘 hit it: its remaining endurance as its firepower, its [格闘:X], and its 反撃
    (l.1337–1340), both rolls at once (5.6 l.1110–1111); no 反撃 while it keeps up a defence
    (l.1099) or is fainted (6.1 l.1266)."""
    table = damage.table_of(state)
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    left = me.members[0]
    back = me.defence is None and not fainted(after.combat, me)
    answered = MeleeAnswered(target=me.id, endurance=left, shift=me.shift, fights_back=back)
    out = [Draft(answered)]
    attacker = after.combat.fighters[attack.attacker]
    if attacker.kind == "obstacle":
        # ruling CL-078: each member of the obstacle fights it on its own
        return out + members_fight(t, state, [*drafts, *out], left, me.shift, (False, False))
    assert attack.declared_endurance is not None
    mine, theirs = damage.melee_columns(
        attack.firepower, left, attack.shift, me.shift, len(table.columns)
    )
    on_me = damage.judge(
        t.dice,
        table,
        mine,
        roller=attack.attacker,
        target=me.id,
        firepower=attack.firepower,
        endurance=left,
        melee=True,
        member=0,
    )
    out.append(Draft(on_me))
    killed: list[int] = []
    if back:
        on_attacker = damage.judge(
            t.dice,
            table,
            theirs,
            roller=me.id,
            target=attack.attacker,
            firepower=left,
            endurance=attack.declared_endurance,
            melee=True,
            secret=Layer(suit=attack.suit) if attacker.seat is not None else None,
        )
        audience = (seat_actor(attacker.seat),) if attacker.seat is not None else ()
        out.append(Draft(on_attacker, audience=audience))
        if on_attacker.damage >= attack.declared_endurance and not attack.suit:
            killed.append(attack.attacker)
    return out + casualties(t, state, [*drafts, *out], killed)
