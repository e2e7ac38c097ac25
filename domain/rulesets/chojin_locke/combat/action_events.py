"""Chapter 5's action events — C-card activation, 同調, the attack's outcome, damage, 格闘 and
death in combat — each with its fold. The deciders are activation.py, attack.py, sync.py,
melee.py and death.py."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import combat, fighter, player, without
from domain.rulesets.chojin_locke.combat.exclusive import acted
from domain.rulesets.chojin_locke.combat.state import Attack, Maintained
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState, Player
from domain.rulesets.chojin_locke.words import (
    OUTCOMES,
    card_used,
    fighter_words,
    named,
    roll_words,
    rolls_words,
    success_word,
)

Use = Literal["main", "response", "sync", "minion_sync"]


class Layer(BaseModel):
    """Sealed to the declarer: the endurance declared was its [スーツ:X]'s (3.1 l.358:
    「この時、[スーツ:X]を使用したことは宣言しません。」), so the damage goes to the suit."""

    model_config = ConfigDict(frozen=True)

    suit: bool = False


def trait_size(someone: Player, trait: str) -> int:
    """The X of the character's [trait:X] (the largest, if several), 0 without one."""
    if someone.sheet is None:
        return 0
    sizes = [
        int(tag.split(":", 1)[1])
        for ability in someone.sheet.abilities
        for tag in ability.tags
        if tag.startswith(f"{trait}:") and tag.split(":", 1)[1].isdigit()
    ]
    return max(sizes, default=0)


def suit_size(someone: Player) -> int:
    return trait_size(someone, "スーツ")


def proxy_left(someone: Player) -> int:
    """The [代理:X]'s endurance now: 0 without one or once destroyed."""
    if someone.proxy_broken:
        return 0
    return max(trait_size(someone, "代理") - someone.proxy_damage, 0)


def suit_left(someone: Player) -> int:
    """The suit's endurance now: 0 without a suit or once broken."""
    if someone.suit_broken:
        return 0
    return max(suit_size(someone) - someone.suit_damage, 0)


def _played(state: ChojinState, holder: int, card: str) -> ChojinState:
    """5.3 l.1019–1020: 「発動チェックの成功・失敗に関わらず、使用されたCカードは
    捨て札に置かれ」."""
    assert state.combat is not None
    hands = dict(state.combat.hands)
    hands[holder] = without(hands.get(holder, ()), card)
    return combat(state, hands=hands, discard=[*state.combat.discard, card])


@CHOJIN_LOCKE.event
class CardActivated(Event):
    """A C-card revealed and its 発動チェック (5.3 l.1022–1031): the ESP level declared, and when
    it is below the card's LV as many 精神力チェック at a declared willpower. `use`: a main
    action, the target's answer to an attack, a 同調, or a 手下's 同調 from its owner's hand
    (no check, no power: 3.1 l.327–329). `sync_waiting`: a successful 同調可 attack's request,
    who may answer it (5.5 l.1079–1080)."""

    fighter: int
    card: str
    kind: str
    use: Use
    lv: int
    firepower: int = 0
    target: int | None = None
    esp_level: int | None = None
    willpower: int | None = None
    rolls: tuple[RollRecord, ...] = ()
    success: bool
    maintain: bool = False  # a defence kept up (5.4 l.1055–1056)
    sync_waiting: tuple[int, ...] = ()


@CHOJIN_LOCKE.folds(CardActivated)
def _activated(state: ChojinState, event: CardActivated, seq: int) -> ChojinState:
    assert state.combat is not None
    holder = event.fighter
    if event.use == "minion_sync" and state.combat.attack is not None:
        holder = state.combat.attack.attacker
    state = _played(state, holder, event.card)
    if event.use != "minion_sync" and event.fighter in state.players:
        # 「ESPパワーを使用したCカードのLV分だけ消費します。」 (either way)
        spent = state.players[event.fighter].power_spent + event.lv
        state = player(state, event.fighter, power_spent=spent)
    assert state.combat is not None
    if event.use == "main":
        # 3.1 l.293–300: an attack or escape card, activated or not (ruling CL-096)
        state = acted(combat(state, main_done=True), event.fighter, [event.kind])
        if event.kind == "攻撃":
            # 5.4 l.1043–1045: 「攻撃が不発になった場合でも攻撃行動としては扱われます。」
            state = combat(state, attacked=True)
            if event.success and event.target is not None:
                opened = Attack(
                    attacker=event.fighter,
                    target=event.target,
                    card=event.card,
                    lv=event.lv,
                    firepower=event.firepower,
                    awaiting="sync" if event.sync_waiting else "response",
                    sync_waiting=list(event.sync_waiting),
                )
                state = combat(state, attack=opened)
        elif event.kind == "逃避" and event.success:
            state = fighter(state, event.fighter, left=True)  # 「戦闘から離脱する」
        return state
    assert state.combat is not None
    attack = state.combat.attack
    assert attack is not None
    if event.use == "response":
        state = combat(state, attack=attack.model_copy(update={"defended_by": event.card}))
        if event.success and event.maintain:
            kept = Maintained(card=event.card, lv=event.lv)
            state = fighter(state, event.fighter, defence=kept)
        return state
    # 同調 (5.5): answered either way; a joiner is 行動済み for the round (l.1090–1092)
    update: dict[str, object] = {}
    if event.use == "sync":
        update["sync_waiting"] = without(attack.sync_waiting, event.fighter)
        state = fighter(state, event.fighter, acted=True)
    else:
        update["minion_joins"] = attack.minion_joins + 1
    if event.success:
        # l.1087: 「同調されたCカードの数だけ同調元のCカードのLVが+1されます。」; l.1094–1095:
        # the attack's firepower is the sum
        update.update(
            lv=attack.lv + 1,
            firepower=attack.firepower + event.firepower,
            joiners=[*attack.joiners, event.fighter],
            joined_cards=[*attack.joined_cards, event.card],
        )
    changed = attack.model_copy(update=update)
    if not changed.sync_waiting:
        changed = changed.model_copy(update={"awaiting": "response"})
    return combat(state, attack=changed)


@CHOJIN_LOCKE.says_named(CardActivated)
def _card_activated_line(e: CardActivated, names: Names) -> Message:
    target = (
        Message(N_(" → {target}"), {"target": fighter_words(e.target, names)})
        if e.target is not None and e.use == "main"
        else ""
    )
    esp = (
        Message(N_("、ESP能力レベル{level}を宣言"), {"level": e.esp_level})
        if e.esp_level is not None
        else ""
    )
    checks: str | Message = ""
    if e.rolls:
        checks = Message(
            N_("、精神力{willpower}で精神力チェック{count}回 [{rolls}]"),
            {
                "willpower": e.willpower,
                "count": len(e.rolls),
                "rolls": rolls_words(e.rolls),
            },
        )
    ok = (
        ""
        if e.use == "minion_sync"
        else Message(N_("、発動{outcome}"), {"outcome": success_word(e.success)})
    )
    card = card_used(e.use, e.card, e.lv, e.kind)
    return Message(
        N_("{fighter}: {card}{target}{esp}{checks}{ok}"),
        {
            "fighter": fighter_words(e.fighter, names),
            "card": card,
            "target": target,
            "esp": esp,
            "checks": checks,
            "ok": ok,
        },
    )


@CHOJIN_LOCKE.event
class SyncDeclined(Event):
    """A fighter asked to 同調 does not (or the attacker has no more 手下 to join)."""

    fighter: int


@CHOJIN_LOCKE.folds(SyncDeclined)
def _declined(state: ChojinState, event: SyncDeclined, seq: int) -> ChojinState:
    assert state.combat is not None and state.combat.attack is not None
    attack = state.combat.attack
    waiting = without(attack.sync_waiting, event.fighter)
    awaiting = attack.awaiting if waiting else "response"
    changed = attack.model_copy(update={"sync_waiting": waiting, "awaiting": awaiting})
    return combat(state, attack=changed)


@CHOJIN_LOCKE.says_named(SyncDeclined)
def _sync_declined_line(e: SyncDeclined, names: Names) -> Message:
    return Message(N_("{fighter}: 同調しない"), {"fighter": fighter_words(e.fighter, names)})


@CHOJIN_LOCKE.event
class AttackLanded(Event):
    """How an attack came out (5.4 2.): `hit` (no defence, a failed one, or a maintained
    defence pierced by an attack of its LV or more), `blocked` (a defence, or a maintained one
    the attack's LV is below), `evaded` (an 逃避 card: the target also leaves the combat)."""

    attacker: int
    target: int
    lv: int
    firepower: int
    outcome: Literal["hit", "blocked", "evaded"]
    by: str | None = None  # the card that blocked or evaded, or the maintained defence
    pierced: bool = False


@CHOJIN_LOCKE.folds(AttackLanded)
def _landed(state: ChojinState, event: AttackLanded, seq: int) -> ChojinState:
    assert state.combat is not None and state.combat.attack is not None
    attack = state.combat.attack
    if event.outcome == "hit":
        awaiting = "counter" if attack.melee else "endurance"
        return combat(state, attack=attack.model_copy(update={"awaiting": awaiting}))
    state = combat(state, attack=None)
    if event.outcome == "evaded":
        state = fighter(state, event.target, left=True)
    return state


@CHOJIN_LOCKE.says_named(AttackLanded)
def _attack_landed_line(e: AttackLanded, names: Names) -> Message:
    by: str | Message = ""
    if e.by:
        by = (
            Message(N_(" ({by}を貫通)"), {"by": named(e.by)})
            if e.pierced
            else Message(N_(" ({by})"), {"by": named(e.by)})
        )
    return Message(
        N_("{attacker}の攻撃 (LV{lv} 火力{firepower}) → {target}: {outcome}{by}"),
        {
            "attacker": fighter_words(e.attacker, names),
            "lv": e.lv,
            "firepower": e.firepower,
            "target": fighter_words(e.target, names),
            "outcome": OUTCOMES[e.outcome],
            "by": by,
        },
    )


@CHOJIN_LOCKE.event
class MeleeDeclared(Event):
    """格闘攻撃 (5.6 l.1102–1104): the attacker's endurance declared as its firepower, against
    one target, an LV 1 attack; its [格闘:X] total declared with it (3.1 l.334–335). Whether a
    [スーツ:X] is in the endurance is sealed to the attacker."""

    attacker: int
    target: int
    endurance: int
    shift: int = 0
    secret: Layer | None = None


@CHOJIN_LOCKE.folds(MeleeDeclared)
def _melee(state: ChojinState, event: MeleeDeclared, seq: int) -> ChojinState:
    attack = Attack(
        attacker=event.attacker,
        target=event.target,
        card=None,
        lv=1,
        firepower=event.endurance,
        declared_endurance=event.endurance,
        shift=event.shift,
        suit=event.secret.suit if event.secret is not None else False,
    )
    state = combat(state, main_done=True, attacked=True, attack=attack)
    return acted(state, event.attacker, ["攻撃"])  # 格闘 is an [攻撃] action (ruling CL-098)


@CHOJIN_LOCKE.says_named(MeleeDeclared)
def _melee_declared_line(e: MeleeDeclared, names: Names) -> Message:
    return Message(
        N_("{attacker}: {target}に格闘、耐久力{endurance}を宣言{shift}{suit}"),
        {
            "attacker": fighter_words(e.attacker, names),
            "target": fighter_words(e.target, names),
            "endurance": e.endurance,
            "shift": Message(N_(" [格闘:{shift}]"), {"shift": e.shift}) if e.shift else "",
            "suit": Message(N_(" (スーツ込み)")) if e.secret and e.secret.suit else "",
        },
    )


@CHOJIN_LOCKE.event
class MeleeAnswered(Event):
    """The 格闘 target's firepower (its declared endurance) and [格闘:X], and whether it fights
    back (5.6 l.1106–1109: 「反撃にコストなどは必要とせず、ただ宣言するだけで反撃を行う
    ことができます。」)."""

    target: int
    endurance: int
    shift: int = 0
    fights_back: bool = True
    secret: Layer | None = None


@CHOJIN_LOCKE.folds(MeleeAnswered)
def _answered(state: ChojinState, event: MeleeAnswered, seq: int) -> ChojinState:
    assert state.combat is not None and state.combat.attack is not None
    attack = state.combat.attack
    return combat(state, attack=attack.model_copy(update={"counter": event.endurance}))


@CHOJIN_LOCKE.says_named(MeleeAnswered)
def _melee_answered_line(e: MeleeAnswered, names: Names) -> Message:
    return Message(
        N_("{target}: 耐久力{endurance}を宣言{shift}{suit}、{back}"),
        {
            "target": fighter_words(e.target, names),
            "endurance": e.endurance,
            "shift": Message(N_(" [格闘:{shift}]"), {"shift": e.shift}) if e.shift else "",
            "suit": Message(N_(" (スーツ込み)")) if e.secret and e.secret.suit else "",
            "back": N_("反撃する") if e.fights_back else N_("反撃しない"),
        },
    )


@CHOJIN_LOCKE.event
class DamageRolled(Event):
    """損害判定 (5.4 l.1066–1071): firepower against the declared endurance, n:1 floored, the
    roller's 2D6 on the catalog's damage table. `endurance` is the declaration; whether it
    was a suit's is sealed to the damaged side (`secret`)."""

    roller: int
    target: int
    firepower: int
    endurance: int
    column: str
    roll: RollRecord
    damage: int
    melee: bool = False
    proxy: bool = False  # the damage is the 代理's (its use is public, 3.1 l.373)
    secret: Layer | None = None
    # an obstacle's member (its index in `members`): 6.2 l.1296–1297 「1人1人別々に損害判定」
    member: int | None = None


def _member_hit(state: ChojinState, event: DamageRolled) -> ChojinState:
    """The member's remaining endurance less the damage, 0 (dead) at or above its declaration
    (an NPC declares all it has, 6.2 l.1335–1336)."""
    assert state.combat is not None and event.member is not None
    group = state.combat.fighters[event.target]
    members = list(group.members)
    left = members[event.member] - event.damage
    members[event.member] = 0 if event.damage >= event.endurance else max(left, 0)
    return fighter(state, event.target, members=members)


@CHOJIN_LOCKE.folds(DamageRolled)
def _damage(state: ChojinState, event: DamageRolled, seq: int) -> ChojinState:
    state = combat(state, attack=None)
    running = state.combat
    someone = running.fighters.get(event.target) if running is not None else None
    npc = someone is not None and bool(someone.members) and event.target not in state.players
    if event.member is None and npc:  # an エスパー NPC: its endurance is its one member's
        return _member_hit(state, event.model_copy(update={"member": 0}))
    if event.member is not None:
        return _member_hit(state, event)
    hit = state.players.get(event.target)
    if hit is None:
        return state
    if event.proxy:
        # l.376: 「代理の耐久力が0以下になると、その代理は破壊され
        # 死亡するまで使用できなくなります。」
        used = hit.model_copy(update={"proxy_damage": hit.proxy_damage + event.damage})
        destroyed = event.damage >= event.endurance or proxy_left(used) <= 0
        state = player(state, event.target, proxy_damage=used.proxy_damage, proxy_broken=destroyed)
        if destroyed:
            state = fighter(state, event.target, proxy=False)
        return state
    if event.secret is not None and event.secret.suit:
        # 3.1 l.364–365: the suit breaks; its wearer neither dies nor takes damage
        worn = hit.model_copy(update={"suit_damage": hit.suit_damage + event.damage})
        broken = event.damage >= event.endurance or suit_left(worn) <= 0
        return player(state, event.target, suit_damage=worn.suit_damage, suit_broken=broken)
    return player(state, event.target, endurance_damage=hit.endurance_damage + event.damage)


@CHOJIN_LOCKE.says_named(DamageRolled)
def _damage_rolled_line(e: DamageRolled, names: Names) -> Message:
    target = fighter_words(e.target, names)
    return Message(
        N_(
            "{roller}の損害判定 → {target}: 火力{firepower} 対 耐久力{endurance}{suit}{proxy}"
            " ({column}) [{roll}] ダメージ{damage}"
        ),
        {
            "roller": fighter_words(e.roller, names),
            "target": target
            if e.member is None
            else Message(N_("{target}の{member}人目"), {"target": target, "member": e.member + 1}),
            "firepower": e.firepower,
            "endurance": e.endurance,
            "suit": Message(N_(" (スーツ)")) if e.secret and e.secret.suit else "",
            "proxy": Message(N_(" (代理)")) if e.proxy else "",
            "column": named(e.column),
            "roll": roll_words(e.roll),
            "damage": e.damage,
        },
    )


@CHOJIN_LOCKE.event
class ProxyUsed(Event):
    """A [代理:X] takes the fighter's place (3.1 l.373: 「代理を使用する時は能力名の宣言は行わず、
    代理を使用することだけを宣言します。」), or withdraws at its check phase (l.374–375:
    「代理を退却させた場合、ダメージは蓄積されたままで未使用状態となります。」)."""

    fighter: int
    withdrawn: bool = False


@CHOJIN_LOCKE.folds(ProxyUsed)
def _proxy(state: ChojinState, event: ProxyUsed, seq: int) -> ChojinState:
    assert state.combat is not None
    state = fighter(state, event.fighter, proxy=not event.withdrawn)
    running = state.combat
    assert running is not None
    if not event.withdrawn and running.current == event.fighter and running.attack is None:
        state = combat(state, main_done=True)  # used as [先制]: the main action
    return state


@CHOJIN_LOCKE.says_named(ProxyUsed)
def _proxy_used_line(e: ProxyUsed, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names)}
    if e.withdrawn:
        return Message(N_("{fighter}: 代理を退却させる"), said)
    return Message(N_("{fighter}: 代理を使用"), said)


@CHOJIN_LOCKE.event
class DefenceDropped(Event):
    """A kept-up defence falls: its fighter lets it go (`drop_defence`, ruling CL-094), or an
    エスパー NPC holds no attack C-card (l.1327–1328: 「ただし、手札に攻撃Cカードが無い場合は
    防御の維持は行いません。」)."""

    fighter: int


@CHOJIN_LOCKE.folds(DefenceDropped)
def _dropped(state: ChojinState, event: DefenceDropped, seq: int) -> ChojinState:
    if state.combat is None or event.fighter not in state.combat.fighters:
        return state
    return fighter(state, event.fighter, defence=None)


@CHOJIN_LOCKE.says_named(DefenceDropped)
def _defence_dropped_line(e: DefenceDropped, names: Names) -> Message:
    return Message(
        N_("{fighter}: 防御の維持をやめる"), {"fighter": fighter_words(e.fighter, names)}
    )
