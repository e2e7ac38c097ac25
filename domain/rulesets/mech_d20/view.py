"""What each audience sees: players their units in full and the enemies' public state (name,
半壊, out, conditions, powers used); the GM everything. Every number an audience may not see
is a Private value (domain/secrecy.py), stripped in one place."""

from __future__ import annotations

from domain.audience import GM, PUBLIC
from domain.secrecy import Private, RulesView
from domain.table import TableView

from . import actions, conditions, health
from .bonuses import Modifier
from .encounter import up
from .rules import MECH_D20
from .sheet import Sheet
from .state import Applied, Attack, MechState, Unit


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


class PowerUse(RulesView):
    name: str
    frequency: str
    action: str
    keywords: list[str]
    range: str
    uses_left: int | None  # None: 無限回


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


class PendingView(RulesView):
    seq: int
    unit: str
    power: str
    targets: list[str]
    stage: str
    off_turn: str | None
    charge: bool
    outcomes: list[OutcomeView]
    reactions: list[str]  # units with a 即応・対応 waiting on it


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


class HeroView(RulesView):
    held: int
    spent_today: bool


class MechView(RulesView):
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
                uses_left=left,
            )
        )
    return found


def unit_view(state: MechState, unit: Unit) -> UnitView:
    to = audience_of(state, unit)
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
        sheet=Private(unit.sheet, to),
        hp=Private(unit.hp, to),
        surges=Private(unit.surges, to),
        powers=Private(_powers(unit), to),
    )


def _pending(attack: Attack) -> PendingView:
    return PendingView(
        seq=attack.seq,
        unit=attack.unit,
        power=attack.power,
        targets=list(attack.targets),
        stage=attack.stage,
        off_turn=attack.off_turn,
        charge=attack.charge,
        outcomes=[
            OutcomeView(target=r.target, outcome="hit" if r.hit else "miss", critical=r.critical)
            for r in attack.rolls
        ],
        reactions=[r.unit for r in attack.reactions],
    )


def _encounter(state: MechState) -> EncounterView | None:
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
        pending=[_pending(a) for a in current.attacks],
        last_action=current.last_action,
    )


@MECH_D20.views
def view(t: TableView[MechState], audience: str) -> MechView:
    state = t.rules
    return MechView(
        units={uid: unit_view(state, u) for uid, u in state.units.items()},
        encounter=_encounter(state),
        encounters=state.encounters,
        day=state.day,
        hero_points={
            f"seat:{seat}": HeroView(held=h.held, spent_today=h.spent_day == state.day)
            for seat, h in sorted(state.hero.items())
        },
        defences=list(state.defences),
    )
