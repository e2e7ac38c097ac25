"""The battle map (L18–19, L99–103, L213–216, L411–416): an encounter may be fought on a grid
of squares, or without one (the declared mode: where units stand is the table's).

The GM sets the map between encounters (`set_map`) — its size, walls (blocking squares),
移動困難地形 and 危険な地帯 — and places units on it (`place_unit`); a seat places its own PC
before the encounter begins. An NPC the players cannot see is placed `hidden`: its square is
sealed to the GM (like an NPC's sheet) until the GM reveals that placement, or the latest move
(`reveal` of that event's seq), or places it again in the open.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import geometry, guards
from .changes import with_units
from .pictures import MAX_ENCODED, Picture, picture_of
from .rules import MECH_D20
from .state import Grid, MechState, Position, Square, Unit
from .units import UnitId


def knows(actor: str, unit: Unit) -> bool:
    """Whether `actor` knows where `unit` stands: the GM always, others unless it is hidden."""
    return actor == GM or not unit.hidden


def grid_of(state: MechState) -> Grid | None:
    return state.grid


def occupants(
    state: MechState, squares: list[Square], besides: str, *, known_to: str | None = None
) -> list[Unit]:
    """The placed units (other than `besides`) on any of `squares`; with `known_to`, only among
    the units that actor knows the place of."""
    wanted = set(squares)
    return [
        other
        for other in state.units.values()
        if other.id != besides
        and other.position is not None
        and (known_to is None or knows(known_to, other))
        and wanted & set(geometry.squares_of(other))
    ]


def occupant(
    state: MechState, squares: list[Square], besides: str, *, known_to: str | None = None
) -> Unit | None:
    found = occupants(state, squares, besides, known_to=known_to)
    return found[0] if found else None


def check_square(state: MechState, grid: Grid, unit: Unit, square: Square, what: str) -> None:
    """A unit's squares must be on the map, off the walls and free (L19, L101)."""
    squares = geometry.footprint(square, unit.sheet.size)
    if not all(geometry.inside(grid, s) for s in squares):
        raise RuleViolation(
            "off_the_map", "{what}: そのマスは戦場の外である。", params={"what": what}
        )
    blocking = set(grid.blocking)
    if any(s in blocking for s in squares):
        raise RuleViolation(
            "blocked_square", "{what}: そのマスは壁などの障害物である。", params={"what": what}
        )
    other = occupant(state, squares, unit.id)
    if other is not None:
        raise RuleViolation(
            "square_occupied",
            "{what}: そのマスには既に機体がいる (L19 「同じマスには1体だけ」)。",
            params={"what": what},
        )


@MECH_D20.command("set_map")
class SetMap(Command):
    """GM: the battle map of the next encounter, or `grid: null` to fight without one;
    `background`: a picture under the grid (PNG, JPEG or WebP, base64; pictures.py)."""

    grid: Grid | None = None
    background: str | None = Field(default=None, max_length=MAX_ENCODED + 8)


@MECH_D20.event
class MapSet(Event):
    grid: Grid | None = None
    background: Picture | None = None  # in the hashed record, so the replay shows the same


@MECH_D20.decides(SetMap)
def set_map(t: Table[MechState], command: SetMap, actor: str) -> list[Draft]:
    state = t.not_ended()
    t.referee_only(actor, "set the battle map")
    if state.encounter is not None:
        raise RuleViolation("encounter_in_progress", "戦場は遭遇の合間にだけ変えられる。")
    grid = command.grid
    if grid is not None:
        for name in ("blocking", "difficult", "hazardous"):
            if not all(geometry.inside(grid, s) for s in getattr(grid, name)):
                raise KirokuError("off_the_map", "地形のマスが戦場の外にある。")
    background = None
    if command.background is not None:
        if grid is None:
            raise KirokuError("no_map", "背景画像は戦場マップに敷くものである。")
        background = picture_of(command.background)
    return [Draft(MapSet(grid=grid, background=background))]


@MECH_D20.folds(MapSet)
def _map_set(state: MechState, event: MapSet, seq: int) -> MechState:
    """A new map clears every unit's square; the same map with a new picture keeps them."""
    units = (
        u.model_copy(update={"position": None, "hidden": False, "position_seq": 0})
        for u in state.units.values()
        if event.grid != state.grid
    )
    update: dict[str, object] = {"grid": event.grid, "background": None}
    if event.background is not None:
        picture = event.background
        update["background"] = picture.sha256
        update["pictures"] = {**state.pictures, picture.sha256: picture}
    return with_units(state, *units).model_copy(update=update)


@MECH_D20.command("place_unit")
class PlaceUnit(Command):
    """Put a unit on the map at `x`, `y` (its top-left square), flying at `altitude`; the GM
    may place an NPC `hidden` (its square sealed to the GM)."""

    unit: str = UnitId
    x: int = Field(ge=0, le=199)
    y: int = Field(ge=0, le=199)
    altitude: int = Field(default=0, ge=0, le=99)
    hidden: bool = False


@MECH_D20.event
class UnitPlaced(Event):
    unit: str
    hidden: bool = False
    position: Position | None = None  # in the open
    secret: Position | None = None  # a hidden unit's, until revealed


@MECH_D20.decides(PlaceUnit)
def place_unit(t: Table[MechState], command: PlaceUnit, actor: str) -> list[Draft]:
    state = t.started()
    grid = state.grid
    if grid is None:
        raise RuleViolation("no_map", "この遭遇には戦場マップがない (位置は宣言で扱う)。")
    unit = guards.unit(state, command.unit)
    if actor != GM:
        if actor != unit.owner:
            raise Forbidden(
                "not_your_unit", "{unit}はあなたの機体ではない。", params={"unit": unit.name}
            )
        if state.encounter is not None:
            raise RuleViolation("encounter_in_progress", "遭遇中の配置はGMだけが行なう。")
    if command.hidden and unit.kind != "npc":
        raise KirokuError("hidden_pc", "隠して配置できるのはNPCだけである。")
    check_square(state, grid, unit, (command.x, command.y), unit.name)
    position = Position(x=command.x, y=command.y, altitude=command.altitude)
    if command.hidden:
        event = UnitPlaced(unit=unit.id, hidden=True, secret=position)
        return [Draft(event, audience=(GM,))]
    return [Draft(UnitPlaced(unit=unit.id, position=position))]


@MECH_D20.folds(UnitPlaced)
def _placed(state: MechState, event: UnitPlaced, seq: int) -> MechState:
    unit = state.units.get(event.unit)
    position = event.position or event.secret
    if unit is None or position is None:
        return state
    update = {"position": position, "hidden": event.hidden, "position_seq": seq}
    return with_units(state, unit.model_copy(update=update))


@MECH_D20.says(MapSet)
def _says_map(e: MapSet) -> Message:
    if e.grid is None:
        return Message(N_("戦場マップなし (位置は宣言で扱う)"))
    g = e.grid
    said: dict[str, object] = {
        "width": g.width,
        "height": g.height,
        "blocking": len(g.blocking),
        "difficult": len(g.difficult),
        "hazardous": len(g.hazardous),
    }
    if e.background:
        return Message(
            N_(
                "戦場マップ {width}×{height} (障害物 {blocking}マス, 移動困難地形 {difficult}マス, "
                "危険な地帯 {hazardous}マス, 背景画像 {picture})"
            ),
            {**said, "picture": e.background.sha256[:12]},
        )
    return Message(
        N_(
            "戦場マップ {width}×{height} (障害物 {blocking}マス, 移動困難地形 {difficult}マス, "
            "危険な地帯 {hazardous}マス)"
        ),
        said,
    )


@MECH_D20.says_named(UnitPlaced)
def _says_placed(e: UnitPlaced, names: Names) -> Message:
    unit = names.of(e.unit)
    if e.position is None:
        if e.secret is None:
            return Message(N_("{unit} が配置された (位置は非公開)"), {"unit": unit})
        hidden = {"unit": unit, "x": e.secret.x, "y": e.secret.y}
        return Message(N_("{unit} を ({x}, {y}) に隠して配置"), hidden)
    at = {"unit": unit, "x": e.position.x, "y": e.position.y}
    if e.position.altitude:
        return Message(
            N_("{unit} を ({x}, {y}) 高度{altitude} に配置"),
            {**at, "altitude": e.position.altitude},
        )
    return Message(N_("{unit} を ({x}, {y}) に配置"), at)
