"""What each audience sees: players their units in full and the enemies' public state (name,
半壊, out, conditions, powers used); the GM everything. Every number an audience may not see
is a Private value (domain/model/secrecy.py), stripped in one place.

The dice commands a power and a waiting attack will roll (`1D20+9`, `2D8+6`) are its user's
numbers: shown to whoever reads that unit's sheet, so the table's pane can say what a button
rolls. An attack roll's dice never carry the defence (seed notes §3)."""

from __future__ import annotations

from domain.model.audience import GM, PUBLIC
from domain.model.secrecy import Private, RulesView
from domain.model.table import TableView

from . import actions, conditions, health, routes
from .attacks import plan
from .bonuses import Modifier
from .damage_rolls import damage_terms
from .encounter import up
from .grid import knows
from .guards import controllers
from .opportunity import opportunity_offers
from .rules import MECH_D20
from .sheet import ARMAMENT, WEAPON, Power, Sheet, Weapon
from .state import Applied, Attack, Grid, MechState, Position, Unit


class EffectView(RulesView):
    id: int
    conditions: list[str]
    ongoing: int
    modifiers: list[Modifier]
    duration: str
    ends_on: str | None  # whose turn a turn-bound duration counts
    ends_at_turn: int
    source: str | None
    power: str | None
    failed_saves: int
    text: str


class PowerDice(RulesView):
    """What a power rolls with one weapon (or none), before any target's situation."""

    weapon: str | None
    attack: str | None  # e.g. 1D20+8
    defence: str | None  # the defence's name it is compared with
    damage: str | None  # e.g. 2D8+6


class PowerUse(RulesView):
    name: str
    frequency: str
    action: str
    keywords: list[str]
    range: str
    area: bool
    distance: int | None  # 近接X, 遠隔X (the weapon's for 遠隔・武器), Y of 遠隔範囲 (Yマス以内)
    shape: str | None  # 爆発, 噴射, 直線
    size: int
    targets: int
    uses_left: int | None  # None: 無限回
    dice: list[PowerDice]  # one per weapon it may use


class UnitView(RulesView):
    id: str
    name: str
    owner: str
    kind: str
    status: str
    bloodied: bool  # 半壊 is open information (L438)
    out: bool
    prone: bool
    conditions: list[str]
    effects: list[EffectView]
    mode: str | None
    used_powers: list[str]  # names, as their use was announced
    spirit_used: bool
    death_failures: int
    revealed: bool
    hidden: bool  # placed on the map in secret: its square is the GM's until revealed
    position: Private[Position | None]
    size: Private[str]
    sheet: Private[Sheet]
    hp: Private[int]
    surges: Private[int]
    powers: Private[list[PowerUse]]


class OrderEntry(RulesView):
    unit: str
    initiative: Private[int]


class TurnView(RulesView):
    unit: str
    standard: int
    move: int
    minor: int
    charged: bool
    hero_actions: int


class OutcomeView(RulesView):
    target: str
    outcome: str
    critical: bool


class PlannedRoll(RulesView):
    target: str
    dice: str  # the attack roll's dice command against this target, e.g. 1D20+9
    defence: str  # the defence's name (never its value)


class PendingView(RulesView):
    seq: int
    unit: str
    power: str
    targets: list[str]
    stage: str
    off_turn: str | None
    charge: bool
    provokes: bool
    attack: bool  # it waits for attack_roll (else for resolve)
    outcomes: list[OutcomeView]
    reactions: list[str]  # units with a 即応・対応 waiting on it
    rolls: Private[list[PlannedRoll]]  # for whoever reads the attacker's numbers
    damage: Private[str | None]


class EncounterView(RulesView):
    round: int
    order: list[OrderEntry]
    up: str | None  # whose turn comes next, when none is under way
    turn: TurnView | None
    done: list[str]
    immediate_used: list[str]
    opportunity_used: list[str]
    free_attack_used: list[str]
    pending: list[PendingView]
    last_action: int | None
    moves: dict[str, list[list[int]]]  # on a map: where the turn's unit may go, by kind
    opportunities: list[str]  # units that may answer the latest act with an opportunity attack


class HeroView(RulesView):
    held: int
    spent_today: bool


class BackgroundView(RulesView):
    """The picture under the grid: fetch it from /games/{id}/pictures/{sha256}."""

    sha256: str
    media_type: str
    size: int


class MechView(RulesView):
    grid: Grid | None  # the battle map, or None: positions are declared
    background: BackgroundView | None
    units: dict[str, UnitView]
    encounter: EncounterView | None
    encounters: int
    day: int
    hero_points: dict[str, HeroView]
    defences: list[str]


def audience_of(state: MechState, unit: Unit) -> tuple[str, ...]:
    """Who reads a unit's numbers: everyone for a public PC or a revealed sheet; else its
    seat (a private PC) and the GM."""
    if unit.revealed:
        return (PUBLIC,)
    return (GM,) if unit.kind == "npc" else (unit.owner,)


def _effect(applied: Applied) -> EffectView:
    effect = applied.effect
    return EffectView(
        id=applied.id,
        conditions=list(effect.conditions),
        ongoing=effect.ongoing,
        modifiers=list(effect.modifiers),
        duration=effect.duration,
        ends_on=applied.ending.unit,
        ends_at_turn=applied.ending.turn,
        source=applied.source,
        power=applied.power,
        failed_saves=applied.failed,
        text=effect.text,
    )


def _weapons(unit: Unit, power: Power) -> list[Weapon | None]:
    """The weapons a [武器] or [特殊武装] power may be used with (powers.weapon_for)."""
    if not (power.has(WEAPON) or power.has(ARMAMENT)):
        return [None]
    kind = ARMAMENT if power.has(ARMAMENT) else WEAPON
    fitting = [w for w in unit.sheet.weapons if w.kind == kind]
    return list(fitting or unit.sheet.weapons[:1]) or [None]


def _dice(unit: Unit, power: Power) -> list[PowerDice]:
    if power.attack is None and power.hit is None:
        return []
    blank = Attack(seq=0, unit=unit.id, power=power.name, targets=())
    found = []
    for weapon in _weapons(unit, power):
        terms = damage_terms(blank, unit, power, weapon)
        attack = None if power.attack is None else plan(blank, unit, power, weapon, None)
        found.append(
            PowerDice(
                weapon=None if weapon is None else weapon.name,
                attack=None if attack is None else attack.dice,
                defence=None if power.attack is None else power.attack.defence,
                damage=None if power.hit is None else terms.expression,
            )
        )
    return found


def _distance(unit: Unit, power: Power) -> int | None:
    if power.distance is not None:
        return power.distance
    if power.range == "近接":
        return 1
    if power.range == "遠隔":
        ranged = [w.range for w in unit.sheet.weapons if w.range is not None]
        return max(ranged) if ranged else None
    return None


def _powers(unit: Unit) -> list[PowerUse]:
    found = []
    for power in unit.sheet.all_powers():
        left: int | None = None
        if power.frequency == "遭遇毎":
            left = 0 if power.name in unit.used_encounter else 1
        elif power.frequency == "1日毎":
            left = 0 if power.name in unit.used_daily else 1
        if "精神コマンド" in power.keywords and unit.spirit_used:
            left = 0
        found.append(
            PowerUse(
                name=power.name,
                frequency=power.frequency,
                action=power.action,
                keywords=list(power.keywords),
                range=power.range,
                area=power.area,
                distance=_distance(unit, power),
                shape=power.shape,
                size=power.size,
                targets=power.targets,
                uses_left=left,
                dice=_dice(unit, power),
            )
        )
    return found


def unit_view(state: MechState, unit: Unit) -> UnitView:
    to = audience_of(state, unit)
    where = (GM,) if unit.hidden else (PUBLIC,)
    return UnitView(
        id=unit.id,
        name=unit.name,
        owner=unit.owner,
        kind=unit.kind,
        status=unit.status,
        bloodied=health.bloodied(unit.hp, unit.sheet.max_hp),
        out=health.out(unit),
        prone=unit.prone or "伏せ" in conditions.conditions(unit),
        conditions=conditions.listed(unit),
        effects=[_effect(a) for a in unit.effects],
        mode=unit.mode,
        used_powers=[*unit.used_encounter, *unit.used_daily],
        spirit_used=unit.spirit_used,
        death_failures=unit.death_failures,
        revealed=unit.revealed,
        hidden=unit.hidden,
        position=Private(unit.position, where),
        size=Private(unit.sheet.size, where),
        sheet=Private(unit.sheet, to),
        hp=Private(unit.hp, to),
        surges=Private(unit.surges, to),
        powers=Private(_powers(unit), to),
    )


def _planned(state: MechState, attack: Attack) -> tuple[list[PlannedRoll], str | None]:
    """The dice the waiting attack's `attack_roll` and `damage_roll` will roll."""
    attacker = state.units.get(attack.unit)
    power = attacker.sheet.power(attack.power) if attacker is not None else None
    if attacker is None or power is None:
        return [], None
    weapon = attacker.sheet.weapon(attack.weapon) if attack.weapon else None
    if weapon is None and _weapons(attacker, power) != [None] and len(attacker.sheet.weapons) == 1:
        weapon = attacker.sheet.weapons[0]  # powers.weapon_for's choice when none is named
    rolls = []
    if power.attack is not None:
        for uid in attack.targets:
            target = state.units.get(uid)
            if target is None or health.out(target):
                continue
            planned = plan(attack, attacker, power, weapon, target)
            rolls.append(PlannedRoll(target=uid, dice=planned.dice, defence=power.attack.defence))
    damage = None if power.hit is None else damage_terms(attack, attacker, power, weapon).expression
    return rolls, damage


def _pending(state: MechState, attack: Attack) -> PendingView:
    rolls, damage = _planned(state, attack)
    to = audience_of(state, state.units[attack.unit])
    return PendingView(
        seq=attack.seq,
        unit=attack.unit,
        power=attack.power,
        targets=list(attack.targets),
        stage=attack.stage,
        off_turn=attack.off_turn,
        charge=attack.charge,
        provokes=attack.provokes,
        attack=_attacks(state, attack),
        outcomes=[
            OutcomeView(target=r.target, outcome="hit" if r.hit else "miss", critical=r.critical)
            for r in attack.rolls
        ],
        reactions=[r.unit for r in attack.reactions],
        rolls=Private(rolls, to),
        damage=Private(damage, to),
    )


def _attacks(state: MechState, attack: Attack) -> bool:
    attacker = state.units.get(attack.unit)
    power = attacker.sheet.power(attack.power) if attacker is not None else None
    return power is not None and power.attack is not None


def _moves(state: MechState, audience: str) -> dict[str, list[list[int]]]:
    """Legal squares for the turn's unit, for its controllers, from what they know."""
    current = state.encounter
    grid = state.grid
    if current is None or current.turn is None or grid is None:
        return {}
    holder = state.units[current.turn.unit]
    if audience not in controllers(state, holder) or holder.position is None:
        return {}
    if not knows(audience, holder):
        return {}
    has = conditions.conditions(holder)
    kinds = ["這い進み"] if "伏せ" in has else ["通常移動", "シフト"]
    if "動けない" in has:
        kinds = []
    return {
        kind: sorted([x, y] for x, y in routes.reachable(state, grid, holder, kind, audience))
        for kind in kinds
    }


def _encounter(state: MechState, audience: str) -> EncounterView | None:
    current = state.encounter
    if current is None:
        return None
    turn = None
    if current.turn is not None:
        holder = state.units[current.turn.unit]
        left = actions.left(current.turn, conditions.action_limit(holder))
        turn = TurnView(
            unit=holder.id,
            charged=current.turn.charged,
            hero_actions=current.turn.extra,
            **left,
        )
    return EncounterView(
        round=current.round,
        order=[
            OrderEntry(
                unit=p.unit, initiative=Private(p.value, audience_of(state, state.units[p.unit]))
            )
            for p in current.order
        ],
        up=up(state),
        turn=turn,
        done=list(current.done),
        immediate_used=list(current.immediate_used),
        opportunity_used=list(current.opportunity_used),
        free_attack_used=list(current.free_attack_used),
        pending=[_pending(state, a) for a in current.attacks],
        last_action=current.last_action,
        moves=_moves(state, audience),
        opportunities=opportunity_offers(state, audience),
    )


def _background(state: MechState) -> BackgroundView | None:
    picture = state.pictures.get(state.background or "")
    if picture is None:
        return None
    return BackgroundView(sha256=picture.sha256, media_type=picture.media_type, size=picture.size)


@MECH_D20.views
def view(t: TableView[MechState], audience: str) -> MechView:
    state = t.rules
    return MechView(
        units={uid: unit_view(state, u) for uid, u in state.units.items()},
        encounter=_encounter(state, audience),
        grid=state.grid,
        background=_background(state),
        encounters=state.encounters,
        day=state.day,
        hero_points={
            f"seat:{seat}": HeroView(held=h.held, spent_today=h.spent_day == state.day)
            for seat, h in sorted(state.hero.items())
        },
        defences=list(state.defences),
    )
