"""Using a power (L54–80, L114–136, L171–208): which action it takes, how often, on whom.

On its own turn a unit pays the power's action (標準/移動/マイナー, or a free action: one
free-action attack a turn, L158). Outside its turn only 即応 powers (one immediate action a
round, L194; never on one's own turn, ruling MD-010), free actions and 「アクション不要」 ones, by a
unit that may act off-turn (L200–208). An attack, and any power that provokes, waits after its
declaration (`attack_roll`, `resolve`) so that opportunity attacks and interrupts come first
(L189–190, L195); a 即応・対応 declared while its trigger waits resolves after it (L197).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import KirokuError, NotFound, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import actions, advantage, conditions, guards, mapped, triggers, uses
from .actions import ActionKind
from .bonuses import Modifier
from .changes import EffectIds, EffectsEnded, effects, end_effects, with_units
from .rules import MECH_D20
from .sheet import ARMAMENT, WEAPON, Power, Weapon
from .state import Attack, Encounter, MechState, OffTurn, Route, Turn, Unit
from .terms import term
from .units import UnitId, healed
from .words import bracketed, commas, noted

# The power's action, as the turn's action it takes, or as the kind of off-turn action it is.
OWN_TURN: dict[str, ActionKind] = {"標準": "標準", "移動": "移動", "マイナー": "マイナー"}
OFF_TURN: dict[str, OffTurn] = {
    "フリー": "フリー",
    "即応・割込": "即応・割込",
    "即応・対応": "即応・対応",
    "アクション不要": "アクション不要",
}
IMMEDIATE = ("即応・割込", "即応・対応")


class Declaration(Command):
    """What every power use declares: targets, weapon, and the modifiers the table states."""

    unit: str = UnitId
    targets: list[str] = Field(default_factory=list, max_length=20)
    weapon: str | None = Field(default=None, max_length=60)
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    advantage: list[Literal["挟撃", "不可視の攻撃者"]] = Field(
        default_factory=list, max_length=2, description="戦術的優位 Kiroku cannot see: no map"
    )
    unseen: list[str] = Field(
        default_factory=list, max_length=20, description="targets the unit cannot see"
    )
    extra_dice: list[str] = Field(
        default=[], max_length=6, description="class-feature damage dice, e.g. 1d6 (L299)"
    )
    crit_dice: list[str] = Field(
        default=[], max_length=6, description="crit-only dice besides the weapon's (L300)"
    )
    origin: list[int] | None = Field(
        default=None, min_length=2, max_length=2, description="an area's origin square [x, y]"
    )
    direction: list[int] | None = Field(
        default=None, min_length=2, max_length=2, description="a 直線's direction, e.g. [1, -1]"
    )
    side: list[int] | None = Field(
        default=None, min_length=2, max_length=2, description="a big user's diagonal 直線 copy"
    )


@MECH_D20.command("use_power")
class UsePower(Declaration):
    """Use a power: on the unit's turn, or outside it (即応, free, アクション不要) answering
    `trigger`, the seq of what it answers."""

    power: str = Field(min_length=1, max_length=60)
    coup_de_grace: bool = Field(default=False, description="とどめの一撃 (L395–397)")
    trigger: int | None = Field(default=None, ge=1)
    sees_trigger: bool = Field(default=True, description="L204: it sees the trigger's source")


@MECH_D20.event
class PowerUsed(Event):
    unit: str
    power: str
    targets: tuple[str, ...] = ()
    action: str | None = None  # the action it took (標準…機会, 即応); None: アクション不要
    slot: str | None = None  # which of the turn's actions paid for it
    off_turn: OffTurn | None = None
    trigger: int | None = None
    weapon: str | None = None
    modifiers: tuple[Modifier, ...] = ()
    advantage: tuple[str, ...] = ()
    unseen: tuple[str, ...] = ()
    extra_dice: tuple[str, ...] = ()
    crit_dice: tuple[str, ...] = ()
    charge: bool = False
    coup_de_grace: bool = False
    provokes: bool = False
    route: Route | None = None  # a 突撃's move on the map (it shows a hidden charger)
    pending: bool = False  # waits for attack_roll or resolve
    queued: bool = False  # a 即応・対応 waiting for its trigger to resolve
    free_attack: bool = False


def power_of(unit: Unit, name: str) -> Power:
    power = unit.sheet.power(name)
    if power is None:
        raise NotFound(
            "unknown_power", "{unit} has no power {name}.", params={"unit": unit.name, "name": name}
        )
    return power


def weapon_for(unit: Unit, power: Power, name: str | None) -> Weapon | None:
    """The weapon a [武器] power uses, or the armament of a [特殊武装] one (L265–277)."""
    needs = power.has(WEAPON) or power.has(ARMAMENT)
    uses_w = power.hit is not None and power.hit.weapon_dice > 0
    if name is None:
        if needs and (uses_w or (power.attack is not None and power.attack.ability)):
            kinds = [w.name for w in unit.sheet.weapons]
            if len(kinds) == 1:
                return unit.sheet.weapons[0]
            raise KirokuError(
                "weapon_needed",
                "Say which weapon {power} uses ({kinds}).",
                params={"power": power.name, "kinds": kinds},
            )
        return None
    weapon = unit.sheet.weapon(name)
    if weapon is None:
        raise NotFound(
            "unknown_weapon",
            "{unit} has no weapon {name}.",
            params={"unit": unit.name, "name": name},
        )
    kind = ARMAMENT if power.has(ARMAMENT) else WEAPON
    if needs and weapon.kind != kind:
        raise KirokuError(
            "wrong_weapon",
            "{power} is a [{kind}] power; {name} is not.",
            params={"power": power.name, "kind": kind, "name": name},
        )
    return weapon


def targets_of(
    state: MechState, current: Encounter, power: Power, ids: Iterable[str]
) -> list[Unit]:
    chosen = list(ids)
    if len(set(chosen)) != len(chosen):
        raise KirokuError("duplicate_target", "A target is listed twice.")
    if power.attack is not None and not chosen:
        raise KirokuError(
            "no_target", "{power} is an attack: name its target(s).", params={"power": power.name}
        )
    if not power.area and len(chosen) > max(power.targets, 1):
        raise KirokuError(
            "too_many_targets",
            "{power} has {targets} target(s).",
            params={"power": power.name, "targets": power.targets},
        )
    found = []
    for uid in chosen:
        target = guards.on_field(guards.unit(state, uid))
        guards.participant(current, target)
        found.append(target)
    return found


def check_declared(unit: Unit, declaration: Declaration) -> None:
    if "挟撃" in declaration.advantage:
        refusal = advantage.cannot_flank(unit, seen=not declaration.unseen)
        if refusal:
            raise RuleViolation("cannot_flank", refusal)
    unknown = set(declaration.unseen) - set(declaration.targets)
    if unknown:
        raise KirokuError("bad_unseen", "`unseen` names units that are not targets.")


def own_turn_cost(unit: Unit, turn: Turn, power: Power, name: str) -> str | None:
    """The slot the power's action takes on the unit's own turn (None: free or no action)."""
    if turn.charged:
        raise RuleViolation(
            "turn_over_after_charge",
            "{name} charged: its turn is over (突撃, L85).",
            params={"name": name},
        )
    kind = OWN_TURN.get(power.action)
    if kind is None:
        return None
    _, slot = actions.spend(turn, kind, conditions.action_limit(unit), name)
    return slot


def free_attack_check(current: Encounter, unit: Unit, power: Power) -> bool:
    """L158: one free-action attack per turn."""
    if power.action != "フリー" or power.attack is None:
        return False
    if unit.id in current.free_attack_used:
        raise RuleViolation(
            "free_attack_used",
            "{unit} has made a free-action attack this turn (L158).",
            params={"unit": unit.name},
        )
    return True


def off_turn_check(
    current: Encounter, unit: Unit, power: Power, trigger: int | None, sees: bool
) -> tuple[str | None, Attack | None]:
    """The trigger's source and pending power for an action outside the unit's turn."""
    if power.action not in OFF_TURN:
        what = "an opportunity attack (opportunity_attack)" if power.action == "機会" else "turn"
        raise RuleViolation(
            "not_your_turn",
            "{power} takes a {action} action: only on its {what}.",
            params={"power": power.name, "action": power.action, "what": what},
        )
    source: str | None = None
    pending: Attack | None = None
    if trigger is not None:
        source, pending = triggers.source(current, trigger)
    elif power.action in IMMEDIATE:
        raise KirokuError(
            "trigger_needed",
            "{power} answers a trigger: give `trigger`.",
            params={"power": power.name},
        )
    if power.action in IMMEDIATE and unit.id in current.immediate_used:
        raise RuleViolation(
            "immediate_action_used",
            "{unit} has taken its immediate action this round (L194).",
            params={"unit": unit.name},
        )
    if power.action != "アクション不要":
        refusal = conditions.cannot_act_off_turn(
            unit, self_trigger=source == unit.id, sees_trigger=sees
        )
        if refusal:
            raise RuleViolation("cannot_act_off_turn", refusal)
    return source, pending


@MECH_D20.decides(UsePower)
def use_power(t: Table[MechState], command: UsePower, actor: str) -> list[Draft]:
    state, current = guards.playing(t)
    unit = guards.controlled(state, command.unit, actor)
    guards.participant(current, unit)
    guards.able(unit)
    power = power_of(unit, command.power)
    turn = guards.started_turn(current, unit)
    slot: str | None = None
    pending_trigger: Attack | None = None
    if turn is not None:
        if power.action in IMMEDIATE or power.action == "機会":
            raise RuleViolation(
                "not_on_own_turn",
                "{power} is used outside {unit}'s turn (immediate actions: ruling MD-010).",
                params={"power": power.name, "unit": unit.name},
            )
        guards.nothing_pending(current, f"{unit.name} uses another power")
        if power.action == "フリー":
            refusal = conditions.no_free_action(unit, own_turn=True)
            if refusal:
                raise RuleViolation("cannot_act", refusal)
        slot = own_turn_cost(unit, turn, power, unit.name)
        off_turn: OffTurn | None = None
    else:
        _, pending_trigger = off_turn_check(
            current, unit, power, command.trigger, command.sees_trigger
        )
        off_turn = OFF_TURN[power.action]
    free_attack = free_attack_check(current, unit, power)
    uses.check(unit, power, dominated=guards.dominated(unit))
    chosen = mapped.area_targets(state, actor, unit, power, command)
    targets = targets_of(state, current, power, chosen)
    if command.coup_de_grace:
        _coup_de_grace(unit, power, targets, turn)
    weapon = weapon_for(unit, power, command.weapon)
    command = mapped.check(
        state, unit, power, weapon, targets, command, coup_de_grace=command.coup_de_grace
    )
    check_declared(unit, command)
    queued = power.action == "即応・対応" and pending_trigger is not None
    event = declared(
        command,
        unit,
        power,
        targets,
        weapon,
        action=None if power.action == "アクション不要" else power.action,
        slot=slot,
        off_turn=off_turn,
        trigger=command.trigger,
        coup_de_grace=command.coup_de_grace,
        provokes=power.provokes,
        pending=not queued and waits(power),
        queued=queued,
        free_attack=free_attack,
    )
    drafts = [Draft(event)]
    if not queued:
        ids = EffectIds(state)
        drafts += self_effects(state, unit, power, ids)
        if not waits(power):
            drafts += take_effect(state, unit, power, targets, ids)
    return drafts


def declared(
    command: Declaration,
    unit: Unit,
    power: Power,
    targets: Iterable[Unit],
    weapon: Weapon | None,
    *,
    action: str | None,
    extra_modifiers: Iterable[Modifier] = (),
    slot: str | None = None,
    off_turn: OffTurn | None = None,
    trigger: int | None = None,
    charge: bool = False,
    coup_de_grace: bool = False,
    provokes: bool = False,
    pending: bool = False,
    queued: bool = False,
    free_attack: bool = False,
    route: Route | None = None,
) -> PowerUsed:
    """The PowerUsed for a checked declaration, and what kind of use it is."""
    return PowerUsed(
        unit=unit.id,
        power=power.name,
        targets=tuple(t.id for t in targets),
        action=action,
        slot=slot,
        off_turn=off_turn,
        trigger=trigger,
        weapon=None if weapon is None else weapon.name,
        modifiers=(*command.modifiers, *extra_modifiers),
        advantage=tuple(command.advantage),
        unseen=tuple(command.unseen),
        extra_dice=tuple(command.extra_dice),
        crit_dice=tuple(command.crit_dice),
        charge=charge,
        coup_de_grace=coup_de_grace,
        provokes=provokes,
        route=route,
        pending=pending,
        queued=queued,
        free_attack=free_attack,
    )


def waits(power: Power) -> bool:
    """An attack waits for its roll; a power that provokes waits so an OA can come first."""
    return power.attack is not None or power.provokes


def _coup_de_grace(unit: Unit, power: Power, targets: list[Unit], turn: Turn | None) -> None:
    """L395–397: a standard action, one basic attack on one adjacent 無防備 unit."""
    if turn is None or power.action != "標準" or not power.basic or power.attack is None:
        raise RuleViolation(
            "bad_coup_de_grace", "とどめの一撃 is a basic attack, on one's turn (L396–397)."
        )
    if len(targets) != 1 or "無防備" not in conditions.conditions(targets[0]):
        raise RuleViolation("bad_coup_de_grace", "とどめの一撃 needs one 無防備 target (L396).")


def self_effects(state: MechState, unit: Unit, power: Power, ids: EffectIds) -> list[Draft]:
    """The power's effects on its user, as it is used ([モード] and stances, L133–136)."""
    ended = uses.mode_effects(unit, power)
    drafts: list[Draft] = []
    if ended:
        drafts.append(Draft(EffectsEnded(ids=ended, reason=f"{power.name}: another [モード]")))
    after = end_effects(state, ended).units[unit.id] if ended else unit
    drafts += effects(ids, power.self_effects, user=after, target=after, power=power.name)
    return drafts


def take_effect(
    state: MechState, unit: Unit, power: Power, targets: Iterable[Unit], ids: EffectIds
) -> list[Draft]:
    """A power without an attack roll: its riders and healing reach each target."""
    drafts: list[Draft] = []
    chosen = list(targets) or ([unit] if power.heal is not None else [])
    for target in chosen:
        drafts += effects(ids, power.effects, user=unit, target=target, power=power.name)
        if power.heal is not None:
            drafts.append(
                healed(state, target, power.heal.amount, power.heal.surge, f"{power.name}")
            )
    return drafts


@MECH_D20.folds(PowerUsed)
def _used(state: MechState, event: PowerUsed, seq: int) -> MechState:
    current = state.encounter
    unit = state.units.get(event.unit)
    if current is None or unit is None:
        return state
    power = unit.sheet.power(event.power)
    if power is not None and not event.queued:
        state = with_units(state, uses.used(unit, power))
    update: dict[str, object] = {}
    turn = current.turn
    if turn is not None and turn.unit == event.unit:
        changes: dict[str, object] = {}
        if event.slot is not None:
            changes = {event.slot: getattr(turn, event.slot) - 1, "taken": turn.taken + 1}
        if event.charge:
            changes["charged"] = True
        update["turn"] = turn.model_copy(update=changes)
    if event.off_turn == "機会":
        update["opportunity_used"] = (*current.opportunity_used, event.unit)
    if event.off_turn in IMMEDIATE:
        update["immediate_used"] = (*current.immediate_used, event.unit)
    if event.free_attack:
        update["free_attack_used"] = (*current.free_attack_used, event.unit)
    attacks = current.attacks
    if event.queued:
        reaction = pending_attack(event, seq)
        attacks = tuple(
            a.model_copy(update={"reactions": (*a.reactions, reaction)})
            if a.seq == event.trigger
            else a
            for a in attacks
        )
    elif event.pending:
        attacks = (*attacks, pending_attack(event, seq))
    update["attacks"] = attacks
    if event.off_turn is None:  # answers to an action do not replace it as the one to answer
        update.update(
            last_action=seq, last_actor=event.unit, last_provokes=event.provokes, last_left=()
        )
    state = state.model_copy(update={"encounter": current.model_copy(update=update)})
    if event.route is not None and unit.position is not None:  # a 突撃's move (movement.py)
        left = (unit.position.square, *event.route.path[:-1])
        moved = state.units[unit.id].model_copy(
            update={"position": event.route.to, "position_seq": seq, "hidden": False}
        )
        encounter = state.encounter
        assert encounter is not None
        state = with_units(state, moved).model_copy(
            update={"encounter": encounter.model_copy(update={"last_left": left})}
        )
    return state


@MECH_D20.says_named(PowerUsed)
def _power_used_line(e: PowerUsed, names: Names) -> Message:
    line = Message(N_("{unit}: {power}"), {"unit": names.of(e.unit), "power": term(e.power)})
    if e.action:
        line = bracketed(line, term(e.action))
    if e.targets:
        targets = commas([names.of(target) for target in e.targets])
        line = Message(N_("{line} → {targets}"), {"line": line, "targets": targets})
    if e.charge:
        return noted(line, N_("突撃"))
    return noted(line, N_("とどめの一撃")) if e.coup_de_grace else line


def pending_attack(event: PowerUsed, seq: int) -> Attack:
    return Attack(
        seq=seq,
        unit=event.unit,
        power=event.power,
        targets=event.targets,
        weapon=event.weapon,
        modifiers=event.modifiers,
        advantage=event.advantage,
        unseen=event.unseen,
        extra_dice=event.extra_dice,
        crit_dice=event.crit_dice,
        charge=event.charge,
        coup_de_grace=event.coup_de_grace,
        provokes=event.provokes,
        off_turn=event.off_turn,
    )
