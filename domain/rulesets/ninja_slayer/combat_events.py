"""The combat sequence's events, each with its fold (2-3 to 2-12)."""

from __future__ import annotations

from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message

from .changes import character, combat, now, pending, with_characters, with_pending
from .details import CheckDetail, Strike, StrikeDetails
from .health import damaged, reduced, revived
from .initiative import legacy_pairs
from .rules import NINJA_SLAYER
from .sheet import UNARMED
from .state import (
    AttackKind,
    AttackMemo,
    Combat,
    CounterRight,
    CriticalDue,
    Damage,
    EvasionMemo,
    NinjaState,
    Phase,
    Status,
    StrikeTerms,
)
from .stats import evasion_dice
from .tables import TableName
from .words import (
    ATMOSPHERE,
    ATTACKS,
    PHASES,
    TABLES,
    becomes,
    damage_words,
    detail_words,
    in_parentheses,
    joined,
    listed,
    outcome_words,
    rolled,
    said,
    spaced,
    strike_words,
    success_word,
)


@NINJA_SLAYER.event
class CombatBegan(Event):
    participants: tuple[str, ...]
    pc_tie_order: tuple[str, ...] = ()  # events before pc_ties: one list, every pair it orders
    pc_ties: tuple[tuple[str, str], ...] = ()  # every PC tie settled: (first, second)
    boss_fight: bool
    placement_order: tuple[str, ...]
    weapons: dict[str, str] = {}


@NINJA_SLAYER.folds(CombatBegan)
def _began(state: NinjaState, event: CombatBegan, seq: int) -> NinjaState:
    ready = [
        state.characters[i].model_copy(
            update={"adrenaline_used": False, "weapon": event.weapons.get(i, UNARMED)}
        )
        for i in event.participants
    ]
    state = with_characters(state, *ready)
    pc_ties = event.pc_ties or legacy_pairs(event.pc_tie_order)
    began = Combat(
        participants=event.participants,
        pc_ties=pc_ties,
        boss_fight=event.boss_fight,
    )
    return state.model_copy(
        update={
            "combat": began,
            "combats": state.combats + 1,
            "wasshoi_success": False,  # in a combat, Wasshoi! is the turn end's (ruling NS-016)
            "attacks": {},
            "pc_ties": pc_ties,
        }
    )


@NINJA_SLAYER.says_named(CombatBegan)
def _combat_began_line(e: CombatBegan, names: Names) -> Message:
    participants = {"participants": listed(e.participants, names)}
    if e.boss_fight:
        return Message(N_("戦闘開始 (ボス戦): {participants}"), participants)
    return Message(N_("戦闘開始: {participants}"), participants)


@NINJA_SLAYER.event
class TurnStarted(Event):
    """Turn start: evasion dice are reset (first of all) and the order for this turn fixed."""

    turn: int
    order: tuple[str, ...]
    pc_tie_order: tuple[str, ...] = ()  # events before pc_ties
    pc_ties: tuple[tuple[str, str], ...] = ()


@NINJA_SLAYER.folds(TurnStarted)
def _turn(state: NinjaState, event: TurnStarted, seq: int) -> NinjaState:
    assert state.combat is not None
    atmosphere = state.combat.atmosphere
    # Evasion dice are reset before anything else in the turn start phase.
    reset = []
    for i in state.combat.participants:
        c = state.characters[i]
        dice = evasion_dice(c) if c.sheet.has_evasion(c.kind) else 0
        reset.append(c.model_copy(update={"now": c.now.model_copy(update={"evasion": dice})}))
    state = with_characters(state, *reset).model_copy(update={"evasions": {}})
    return combat(
        state,
        turn=event.turn,
        order=event.order,
        pc_ties=event.pc_ties or legacy_pairs(event.pc_tie_order),
        phase="turn_start",
        index=0,
        concentrating=False,
        moved=False,
        acted=False,
        counters=(),
        wasshoi_rolled=False,
        wasshoi_success=False,
        dkk_this_turn=0,
        placed=False,
        criticals=(),
        rows=(),
        atmosphere_at_start=atmosphere,
    )


@NINJA_SLAYER.says_named(TurnStarted)
def _turn_started_line(e: TurnStarted, names: Names) -> Message:
    order = " → ".join(names.of(i) for i in e.order)  # names, and an arrow in every language
    return Message(N_("ターン{turn} 手番の順: {order}"), {"turn": e.turn, "order": order})


@NINJA_SLAYER.event
class PhaseChanged(Event):
    turn: int
    phase: Phase
    character: str | None = None


@NINJA_SLAYER.folds(PhaseChanged)
def _phase(state: NinjaState, event: PhaseChanged, seq: int) -> NinjaState:
    assert state.combat is not None
    update: dict[str, object] = {
        "phase": event.phase,
        "counters": (),
        "criticals": (),
        "rows": (),
    }
    if event.character is not None:
        update["index"] = state.combat.order.index(event.character)
    if event.phase == "teban_start":
        update.update(concentrating=False, moved=False, acted=False, switched=False)
    holder = state.combat.actor
    if event.phase == "teban_end" and holder is not None:
        # 「直前に『連続側転』を行っていれば、難易度が+1」: the attack right after it, in the
        # same 手番; the penalty ends with the 手番.
        state = character(state, holder, next_attack_difficulty=0)
    # ニンジャ第六感 rerolls an evasion 「直ちに」: before play moves on to another phase.
    state = state.model_copy(update={"evasions": {}})
    return combat(state, **update)


@NINJA_SLAYER.says_named(PhaseChanged)
def _phase_changed_line(e: PhaseChanged, names: Names) -> Message:
    phase = PHASES[e.phase]
    if e.character is None:
        return Message(N_("ターン{turn} {phase}"), {"turn": e.turn, "phase": phase})
    return Message(
        N_("ターン{turn} {character} {phase}"),
        {"turn": e.turn, "character": names.of(e.character), "phase": phase},
    )


@NINJA_SLAYER.event
class WeaponSwitched(Event):
    character: str
    weapon: str


@NINJA_SLAYER.folds(WeaponSwitched)
def _switched(state: NinjaState, event: WeaponSwitched, seq: int) -> NinjaState:
    return combat(character(state, event.character, weapon=event.weapon), switched=True)


@NINJA_SLAYER.says_named(WeaponSwitched)
def _weapon_switched_line(e: WeaponSwitched, names: Names) -> Message:
    return Message(
        N_("{character} 武器を持ち替え: {weapon}"),
        {"character": names.of(e.character), "weapon": said(e.weapon)},
    )


@NINJA_SLAYER.event
class Concentrated(Event):
    character: str


@NINJA_SLAYER.folds(Concentrated)
def _concentrated(state: NinjaState, event: Concentrated, seq: int) -> NinjaState:
    return combat(state, concentrating=True)


@NINJA_SLAYER.says_named(Concentrated)
def _concentrated_line(e: Concentrated, names: Names) -> Message:
    return Message(
        N_("{character} 集中状態 (移動なし、攻撃フェイズの判定の難易度-1)"),
        {"character": names.of(e.character)},
    )


@NINJA_SLAYER.event
class Moved(Event):
    character: str
    style: str | None = None
    success: bool | None = None  # 連続側転判定


@NINJA_SLAYER.folds(Moved)
def _moved(state: NinjaState, event: Moved, seq: int) -> NinjaState:
    state = combat(state, moved=True)
    if event.style == "連続側転":
        state = character(state, event.character, next_attack_difficulty=1)
    return state


@NINJA_SLAYER.says_named(Moved)
def _moved_line(e: Moved, names: Names) -> Message:
    moved = {"character": names.of(e.character), "style": said(e.style or "通常移動")}
    if e.success is None:
        return Message(N_("{character} {style}"), moved)
    return Message(
        N_("{character} {style}: {result}"), {**moved, "result": success_word(e.success)}
    )


@NINJA_SLAYER.event
class AttackRolled(Event):
    attacker: str
    kind: AttackKind
    weapon: str | None = None
    style: str | None = None
    terms: StrikeTerms | None = None
    strikes: tuple[Strike, ...]
    damages: tuple[Damage, ...] = ()
    detail: StrikeDetails | None = None
    secret: StrikeDetails | None = None


@NINJA_SLAYER.folds(AttackRolled)
def _attacked(state: NinjaState, event: AttackRolled, seq: int) -> NinjaState:
    detail = event.detail or event.secret
    if detail is not None:
        state = now(state, event.attacker, reaction=-detail.pool.reaction)
    state = character(state, event.attacker, next_attack_difficulty=0)
    if detail is not None and event.terms is not None:
        memo = AttackMemo(
            attacker=event.attacker, terms=event.terms, strikes=event.strikes, details=detail
        )
        state = state.model_copy(update={"attacks": {**state.attacks, seq: memo}})
    assert state.combat is not None
    next_damage = max((d.id + 1 for d in event.damages), default=state.combat.next_damage)
    return combat(
        state,
        acted=True,
        damages=state.combat.damages + event.damages,
        next_damage=max(next_damage, state.combat.next_damage),
    )


@NINJA_SLAYER.says_named(AttackRolled)
def _attack_rolled_line(e: AttackRolled, names: Names) -> Message:
    detail = e.detail or e.secret
    rolls = (
        [Message(N_("[{roll}]"), {"roll": rolled(s.roll)}) for s in detail.strikes]
        if detail
        else []
    )
    return Message(
        N_("{attacker} {kind}{weapon}{style} — {strikes}{rolls}"),
        {
            "attacker": names.of(e.attacker),
            "kind": ATTACKS[e.kind],
            "weapon": in_parentheses(said(e.weapon)) if e.weapon else "",
            "style": spaced(said(e.style)) if e.style else "",
            "strikes": joined([strike_words(s, names) for s in e.strikes], "; "),
            "rolls": spaced(joined(rolls)) if rolls else "",
        },
    )


@NINJA_SLAYER.event
class OtherAction(Event):
    character: str
    action: str


@NINJA_SLAYER.folds(OtherAction)
def _other_action(state: NinjaState, event: OtherAction, seq: int) -> NinjaState:
    return combat(state, acted=True)


@NINJA_SLAYER.says_named(OtherAction)
def _other_action_line(e: OtherAction, names: Names) -> Message:
    # the action as its player wrote it
    return Message(
        N_("{character}: {action}"), {"character": names.of(e.character), "action": e.action}
    )


@NINJA_SLAYER.event
class EvasionRolled(Event):
    character: str
    damages: tuple[int, ...]
    success: bool
    successes: int
    counter_against: tuple[str, ...] = ()
    reroll_of: int | None = None  # ニンジャ第六感: the evasion this one replaces
    detail: CheckDetail | None = None
    secret: CheckDetail | None = None


@NINJA_SLAYER.folds(EvasionRolled)
def _evaded(state: NinjaState, event: EvasionRolled, seq: int) -> NinjaState:
    detail = event.detail or event.secret
    current = state.combat
    damages = pending(state)
    if detail is not None and event.reroll_of is None:
        evader = state.characters[event.character]
        memo = EvasionMemo(
            character=event.character,
            damages=tuple(d for d in damages if d.id in event.damages),
            detail=detail,
            success=event.success,
            counter_against=event.counter_against,
            tairyoku_before=evader.now.tairyoku,
            seishin_before=evader.now.seishin,
            status_before=evader.status,
        )
        # Outside a combat the dice come from 【回避】, not from a turn's 回避ダイス (ruling
        # NS-036).
        spent = detail.pool.evasion if current is not None else 0
        state = now(state, event.character, evasion=-spent, emergency=-detail.pool.emergency)
        if current is not None:  # ニンジャ第六感 on an evasion: only in a combat's phase
            state = state.model_copy(update={"evasions": {**state.evasions, seq: memo}})
    elif event.reroll_of is not None:  # the dice were paid for with the first roll
        state = state.model_copy(
            update={"evasions": {k: v for k, v in state.evasions.items() if k != event.reroll_of}}
        )
    if event.success:
        state = with_pending(state, tuple(d for d in damages if d.id not in event.damages))
    if current is None:
        return state
    evaded = {d.attack_seq for d in damages if d.id in event.damages}
    counters = tuple(r for r in current.counters if r.holder != event.character)
    if event.counter_against:
        right = CounterRight(
            holder=event.character, attackers=event.counter_against, evasion_seq=seq
        )
        counters += (right,)
    return combat(
        state,
        evaded_attacks=tuple(sorted({*current.evaded_attacks, *evaded})),
        counters=counters,
    )


@NINJA_SLAYER.says_named(EvasionRolled)
def _evasion_rolled_line(e: EvasionRolled, names: Names) -> Message:
    counter = (
        Message(
            N_(" カウンターカラテの権利: {attackers}"),
            {"attackers": listed(e.counter_against, names)},
        )
        if e.counter_against
        else ""
    )
    return Message(
        N_("{character} 回避: {outcome}{counter}{detail}"),
        {
            "character": names.of(e.character),
            "outcome": outcome_words(e.success, e.successes),
            "counter": counter,
            "detail": detail_words(e.detail or e.secret),
        },
    )


@NINJA_SLAYER.event
class DamageTaken(Event):
    character: str
    amount: int
    damages: tuple[int, ...] = ()
    status: Status
    unevaded_critical: str | None = None  # the サツバツ table is now rolled by the attacker
    critical_from: str | None = None  # that attacker
    endured: int = 0  # ニンジャ耐久力の発露: the 【精神力】 that took what went below 【体力】 0
    reduced: int = 0  # ダメージ軽減: taken off `amount` (the damage dealt)


@NINJA_SLAYER.folds(DamageTaken)
def _taken(state: NinjaState, event: DamageTaken, seq: int) -> NinjaState:
    target = state.characters[event.character]
    waiting = [d for d in pending(state) if d.id in event.damages]
    # ダメージ軽減, from the sheet (a ニンジャ第六感 reroll's damage is no longer pending).
    cut = reduced(target, waiting) if waiting else event.reduced
    state = with_characters(state, damaged(target, event.amount - cut))
    if state.combat is None:
        return with_pending(state, tuple(d for d in state.hazards if d.id not in event.damages))
    criticals = state.combat.criticals
    hit = next((d for d in state.combat.damages if d.id in event.damages and d.critical), None)
    attacker = event.critical_from or (hit.attacker if hit else None)
    if event.unevaded_critical is not None and attacker is not None:
        due = CriticalDue(
            attacker=attacker,
            target=event.character,
            critical=event.unevaded_critical,
            amount=hit.amount if hit else 0,
        )
        criticals = (*criticals, due)
    damages = tuple(d for d in state.combat.damages if d.id not in event.damages)
    return combat(state, damages=damages, criticals=criticals)


@NINJA_SLAYER.says_named(DamageTaken)
def _damage_taken_line(e: DamageTaken, names: Names) -> Message:
    endured = {"endured": e.endured}
    return Message(
        N_("{character} 体力-{lost}{cut}{critical}{endured}{becomes}"),
        {
            "character": names.of(e.character),
            "lost": e.amount - e.reduced - e.endured,
            "cut": Message(N_(" (ダメージ軽減{reduced})"), {"reduced": e.reduced})
            if e.reduced
            else "",
            "critical": in_parentheses(said(e.unevaded_critical)) if e.unevaded_critical else "",
            "endured": Message(N_(" ニンジャ耐久力の発露: 精神力-{endured}"), endured)
            if e.endured
            else "",
            "becomes": "" if e.status == "active" else spaced(becomes(e.status)),
        },
    )


@NINJA_SLAYER.event
class DamageUndone(Event):
    """ニンジャ第六感 turned a failed evasion into a success: the damage it let through is gone."""

    character: str
    amount: int  # the 【体力】 given back
    status: Status
    seishin: int = 0  # the 【精神力】 ニンジャ耐久力の発露 had taken, given back


@NINJA_SLAYER.folds(DamageUndone)
def _undone(state: NinjaState, event: DamageUndone, seq: int) -> NinjaState:
    found = state.characters.get(event.character)
    if found is None:  # a fold without the GM's secrets does not track that NPC
        return state
    current = found.now.model_copy(
        update={
            "tairyoku": found.now.tairyoku + event.amount,
            "seishin": found.now.seishin + event.seishin,
        }
    )
    return with_characters(state, found.model_copy(update={"now": current, "status": event.status}))


@NINJA_SLAYER.says_named(DamageUndone)
def _damage_undone_line(e: DamageUndone, names: Names) -> Message:
    back = (
        Message(N_("体力+{amount} 精神力+{seishin}"), {"amount": e.amount, "seishin": e.seishin})
        if e.seishin
        else Message(N_("体力+{amount}"), {"amount": e.amount})
    )
    return Message(
        N_("{character} ニンジャ第六感で回避成功: 受けたダメージは無かったことに ({back})"),
        {"character": names.of(e.character), "back": back},
    )


@NINJA_SLAYER.event
class CounterKarate(Event):
    character: str
    target: str
    damage: Damage
    enhancement: str | None = None  # the カウンター強化 ability that strengthened it


@NINJA_SLAYER.folds(CounterKarate)
def _countered(state: NinjaState, event: CounterKarate, seq: int) -> NinjaState:
    assert state.combat is not None
    current = state.combat
    return combat(
        state,
        damages=(*current.damages, event.damage),
        next_damage=max(current.next_damage, event.damage.id + 1),
        counters=tuple(r for r in current.counters if r.holder != event.character),
    )


@NINJA_SLAYER.says_named(CounterKarate)
def _counter_karate_line(e: CounterKarate, names: Names) -> Message:
    return Message(
        N_("{character} カウンターカラテ!{boost} {damage}"),
        {
            "character": names.of(e.character),
            # the カウンター強化 ability as its player named it
            "boost": in_parentheses(e.enhancement) if e.enhancement else "",
            "damage": damage_words(e.damage, names),
        },
    )


@NINJA_SLAYER.event
class StrikeRerolled(Event):
    """ニンジャ第六感 on one strike of an attack: its new result replaces the old one."""

    attacker: str
    of_seq: int
    index: int
    strike: Strike
    replaces: int | None = None  # the pending damage the old result dealt
    damage: Damage | None = None
    detail: CheckDetail | None = None
    secret: CheckDetail | None = None


@NINJA_SLAYER.folds(StrikeRerolled)
def _strike_rerolled(state: NinjaState, event: StrikeRerolled, seq: int) -> NinjaState:
    assert state.combat is not None
    current = state.combat
    damages = tuple(d for d in current.damages if d.id != event.replaces)
    next_damage = current.next_damage
    if event.damage is not None:
        damages += (event.damage,)
        next_damage = max(next_damage, event.damage.id + 1)
    return combat(state, damages=damages, next_damage=next_damage)


@NINJA_SLAYER.says_named(StrikeRerolled)
def _strike_rerolled_line(e: StrikeRerolled, names: Names) -> Message:
    replaced = (
        Message(N_(" (ダメージ#{damage}を置き換え)"), {"damage": e.replaces})
        if e.replaces is not None
        else ""
    )
    return Message(
        N_("{attacker} #{of_seq}の{index}回目を振り直し — {strike}{replaced}{detail}"),
        {
            "attacker": names.of(e.attacker),
            "of_seq": e.of_seq,
            "index": e.index,
            "strike": strike_words(e.strike, names),
            "replaced": replaced,
            "detail": detail_words(e.detail or e.secret),
        },
    )


@NINJA_SLAYER.event
class AtmosphereRaised(Event):
    turn: int
    level: int


@NINJA_SLAYER.folds(AtmosphereRaised)
def _atmosphere(state: NinjaState, event: AtmosphereRaised, seq: int) -> NinjaState:
    return combat(state, atmosphere=event.level)


@NINJA_SLAYER.says(AtmosphereRaised)
def _atmosphere_raised_line(e: AtmosphereRaised) -> Message:
    return Message(
        N_("ターン{turn}終了: 難易度が{level}モードに"),
        {"turn": e.turn, "level": ATMOSPHERE.get(e.level, e.level)},
    )


@NINJA_SLAYER.event
class WasshoiRolled(Event):
    target: int
    highest: str | None
    success: bool
    roll: RollRecord


@NINJA_SLAYER.folds(WasshoiRolled)
def _wasshoi(state: NinjaState, event: WasshoiRolled, seq: int) -> NinjaState:
    if state.combat is None:  # 「ニンジャマスターが適切と考えるあらゆるタイミング」
        return state.model_copy(update={"wasshoi_success": event.success, "entry_rolls": 0})
    return combat(state, wasshoi_rolled=True, wasshoi_success=event.success, entry_rolls=0)


@NINJA_SLAYER.says_named(WasshoiRolled)
def _wasshoi_rolled_line(e: WasshoiRolled, names: Names) -> Message:
    outcome: object = success_word(e.success)
    if e.success and e.highest:
        outcome = Message(
            N_("ニンジャスレイヤー=サンが来る! ({highest})"), {"highest": names.of(e.highest)}
        )
    return Message(
        N_("Wasshoi! 判定 (目標値{target}): {outcome} [{roll}]"),
        {"target": e.target, "outcome": outcome, "roll": rolled(e.roll)},
    )


@NINJA_SLAYER.event
class AtmosphereSet(Event):
    """The GM's call at a turn end: the atmosphere from the next turn, and where the turn count
    starts (「アトモスフィアの上昇タイミング、および経過ターン数仕切り直しなどの決定権は、常に
    マスターにある」)."""

    level: int
    count_from: int


@NINJA_SLAYER.folds(AtmosphereSet)
def _atmosphere_set(state: NinjaState, event: AtmosphereSet, seq: int) -> NinjaState:
    return combat(state, atmosphere=event.level, count_from=event.count_from)


@NINJA_SLAYER.says(AtmosphereSet)
def _atmosphere_set_line(e: AtmosphereSet) -> Message:
    return Message(
        N_("GM: アトモスフィアを{level}モードに (経過ターン数はターン{count_from}から数える)"),
        {"level": ATMOSPHERE.get(e.level, e.level), "count_from": e.count_from},
    )


@NINJA_SLAYER.event
class CharactersPlaced(Event):
    """新たなキャラの配置 (2-9): they join the combat; their first 手番 is next turn's."""

    characters: tuple[str, ...]
    weapons: dict[str, str] = {}


@NINJA_SLAYER.folds(CharactersPlaced)
def _placed(state: NinjaState, event: CharactersPlaced, seq: int) -> NinjaState:
    assert state.combat is not None
    participants = (*state.combat.participants, *event.characters)
    ready = [
        state.characters[i].model_copy(
            update={"adrenaline_used": False, "weapon": event.weapons.get(i, UNARMED)}
        )
        for i in event.characters
        if i in state.characters
    ]
    state = with_characters(state, *ready)
    return combat(state, participants=participants, placed=True)


@NINJA_SLAYER.says_named(CharactersPlaced)
def _characters_placed_line(e: CharactersPlaced, names: Names) -> Message:
    weapons = [
        Message(N_("{character}: {weapon}"), {"character": names.of(i), "weapon": said(weapon)})
        for i, weapon in e.weapons.items()
    ]
    armed = Message(N_(" (武器 {weapons})"), {"weapons": joined(weapons, "、")}) if weapons else ""
    return Message(
        N_("新たなキャラの配置: {characters} が戦闘に参加{armed}"),
        {"characters": listed(e.characters, names), "armed": armed},
    )


@NINJA_SLAYER.event
class TableRolled(Event):
    """A roll on one of the GM's tables, and the entry it landed on."""

    table: TableName
    roll: RollRecord
    value: int
    text: str | None
    attacker: str | None = None  # サツバツ!: who rolls it
    target: str | None = None  # サツバツ!: on whom


@NINJA_SLAYER.folds(TableRolled)
def _table_rolled(state: NinjaState, event: TableRolled, seq: int) -> NinjaState:
    if state.combat is None:
        if event.table == "entry":
            return state.model_copy(update={"entry_rolls": state.entry_rolls + 1})
        return state
    current = state.combat
    if event.table == "satsubatsu":
        due = [
            c for c in current.criticals if (c.attacker, c.target) == (event.attacker, event.target)
        ]
        left = tuple(c for c in current.criticals if c is not (due[0] if due else None))
        return combat(state, criticals=left, rows=(*current.rows, *due[:1]))
    if event.table == "entry":
        return combat(state, entry_rolls=current.entry_rolls + 1)
    return state


@NINJA_SLAYER.says_named(TableRolled)
def _table_rolled_line(e: TableRolled, names: Names) -> Message:
    who = (
        Message(
            N_("{attacker}→{target} "),
            {"attacker": names.of(e.attacker), "target": names.of(e.target)},
        )
        if e.attacker and e.target
        else ""
    )
    # the row as the GM's table has it (the tables are the GM's data: tables.py)
    result = (
        Message(N_("「{text}」"), {"text": e.text})
        if e.text
        else Message(N_("{value} (表に該当なし)"), {"value": e.value})
    )
    return Message(
        N_("{who}{table}: {result} [{roll}]"),
        {"who": who, "table": TABLES[e.table], "result": result, "roll": rolled(e.roll)},
    )


@NINJA_SLAYER.event
class CombatEnded(Event):
    revived: tuple[str, ...] = ()


@NINJA_SLAYER.folds(CombatEnded)
def _ended(state: NinjaState, event: CombatEnded, seq: int) -> NinjaState:
    changed = []
    for found in state.characters.values():
        update: dict[str, object] = {"next_attack_difficulty": 0}
        current = found.now.model_copy(update={"evasion": 0})
        if found.id in event.revived and revived(found):
            update["status"] = "active"
            current = current.model_copy(update={"tairyoku": 1, "seishin": 0})
        changed.append(found.model_copy(update={**update, "now": current}))
    return with_characters(state, *changed).model_copy(
        update={"combat": None, "attacks": {}, "evasions": {}}
    )


@NINJA_SLAYER.says_named(CombatEnded)
def _combat_ended_line(e: CombatEnded, names: Names) -> Message:
    if e.revived:
        return Message(
            N_("戦闘終了 気絶から復帰: {revived}"), {"revived": listed(e.revived, names)}
        )
    return Message(N_("戦闘終了"))
