"""The ruleset's state: units with their current values, the encounter, hero points per seat."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.messages import N_

from .bonuses import Modifier
from .effects import ConditionName, Duration, Effect
from .pictures import Picture
from .sheet import Sheet

Kind = Literal["pc", "npc"]
Status = Literal["active", "戦闘不能", "修理不能", "爆散"]
# How a refusal reads a status (api/errors.py reads a text argument through the catalogs).
STATUS_WORDS = (N_("戦闘不能"), N_("修理不能"), N_("爆散"))
OffTurn = Literal["機会", "即応・割込", "即応・対応", "フリー", "アクション不要"]
Stage = Literal["declared", "rolled"]
DEFAULT_DEFENCES = ("AC", "頑健", "反応", "意志")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Ending(Frozen):
    """When an applied effect ends: by a save, with the encounter, or at the start or end of
    `unit`'s turn number `turn` (turns are counted from the encounter's beginning)."""

    kind: Duration
    unit: str | None = None
    turn: int = 0


class Applied(Frozen):
    """An effect on a unit: the rider, where it came from, and its failed saves so far."""

    id: int
    effect: Effect
    source: str | None = None  # the unit whose power made it
    power: str | None = None
    ending: Ending
    failed: int = 0  # failed end-of-turn saves (extra saves never count, L327–329)


Square = tuple[int, int]  # (x, y), 0-based, x to the right and y down


class Position(Frozen):
    """Where a unit stands: its top-left square (a 2×2 unit covers x..x+1, y..y+1, L216) and
    its altitude in squares while flying (0: on the ground, L110–111, L369)."""

    x: int = Field(ge=0, le=199)
    y: int = Field(ge=0, le=199)
    altitude: int = Field(default=0, ge=0, le=99)

    @property
    def square(self) -> Square:
        return (self.x, self.y)


class Route(Frozen):
    """Where a move went on the map: each square stepped on, and where it ended."""

    path: tuple[Square, ...] = ()
    to: Position


class Grid(Frozen):
    """An encounter's battle map of squares (L18–19): its size and its terrain. Blocking squares
    (walls, L262) stop movement and sight; difficult ones cost a square more to enter (L102–103);
    hazardous ones are the GM's 危険な地帯 (L411–416)."""

    width: int = Field(ge=1, le=200)
    height: int = Field(ge=1, le=200)
    blocking: tuple[Square, ...] = Field(default=(), max_length=4000)
    difficult: tuple[Square, ...] = Field(default=(), max_length=4000)
    hazardous: tuple[Square, ...] = Field(default=(), max_length=4000)


class Unit(Frozen):
    id: str
    name: str
    owner: str  # "seat:<n>" for a PC, "gm" for an NPC
    kind: Kind
    added_seq: int
    revealed: bool  # an NPC's (or a private PC's) sheet is sealed until revealed
    sheet: Sheet
    hp: int
    surges: int
    status: Status = "active"
    prone: bool = False  # 伏せ: knocked or dropped down, or back from 戦闘不能 (L463)
    effects: tuple[Applied, ...] = ()
    used_encounter: tuple[str, ...] = ()  # 遭遇毎 powers used this encounter
    used_daily: tuple[str, ...] = ()  # 1日毎 powers used this day
    spirit_used: bool = False  # one [精神コマンド] per encounter (L10)
    mode: str | None = None  # the active [モード] power (L136)
    death_failures: int = 0  # this encounter (L447, ruling MD-006)
    turns: int = 0  # turns started this encounter
    position: Position | None = None  # on the grid, once placed
    hidden: bool = False  # its position is the GM's secret until revealed
    position_seq: int = 0  # the event that last set its position (revealing it reveals it)


class Place(Frozen):
    """A unit's place in the initiative order (L38–42)."""

    unit: str
    value: int
    agility: int
    pc: bool
    tie: int  # the table's stated order, for ties the seed leaves open (ruling MD-003)


class Turn(Frozen):
    """The turn under way (the unit whose turn is next is worked out from the order)."""

    unit: str
    standard: int = 1
    move: int = 1
    minor: int = 1
    taken: int = 0  # actions taken (幻惑・支配: one; 朦朧: none)
    extra: int = 0  # actions bought with a hero point
    charged: bool = False  # 突撃 ends the turn (L85)


class TargetRoll(Frozen):
    target: str
    natural: int
    total: int
    defence: int
    hit: bool
    critical: bool


class Attack(Frozen):
    """A power declared and not yet resolved (an attack, or a power that provokes)."""

    seq: int
    unit: str
    power: str
    targets: tuple[str, ...]
    weapon: str | None = None
    modifiers: tuple[Modifier, ...] = ()
    advantage: tuple[str, ...] = ()  # declared sources of 戦術的優位 (挟撃, 不可視の攻撃者)
    unseen: tuple[str, ...] = ()  # targets the attacker cannot see
    extra_dice: tuple[str, ...] = ()  # class-feature damage dice (maximised on a crit, L299)
    crit_dice: tuple[str, ...] = ()  # crit-only dice (rolled on a crit, L300–301)
    charge: bool = False
    coup_de_grace: bool = False
    provokes: bool = False  # a 遠隔 power or a charge's move: opportunity attacks come first
    off_turn: OffTurn | None = None
    stage: Stage = "declared"
    rolls: tuple[TargetRoll, ...] = ()
    reactions: tuple[Attack, ...] = ()  # 即応・対応 declared while this waits (L197–199)
    rerolled: bool = False


Attack.model_rebuild()


class Encounter(Frozen):
    round: int = 1
    participants: tuple[str, ...] = ()
    order: tuple[Place, ...] = ()
    done: tuple[str, ...] = ()  # units whose turn this round is over
    turn: Turn | None = None  # the turn under way, once started
    immediate_used: tuple[str, ...] = ()  # this round (ruling MD-001)
    opportunity_used: tuple[str, ...] = ()  # this turn (L183)
    free_attack_used: tuple[str, ...] = ()  # this turn (L158)
    ongoing_taken: tuple[str, ...] = ()  # took ongoing damage on delaying, this round (L168)
    attacks: tuple[Attack, ...] = ()  # pending, innermost last
    last_action: int | None = None  # seq of the latest action off-turn actions may answer
    last_actor: str | None = None
    last_provokes: bool = False
    last_left: tuple[Square, ...] = ()  # the squares the latest move left (L188), with a grid


class Hero(Frozen):
    held: int = 0  # at most 1 (L424)
    spent_day: int = 0  # the day a point was last spent (0: never)


class MechOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    private_pc_sheets: bool = False  # each PC sheet only for its seat (and the GM)
    defences: tuple[str, ...] = Field(
        default=DEFAULT_DEFENCES, min_length=1, max_length=6, description="AC and the others"
    )


class MechState(Frozen):
    private_pc_sheets: bool = False
    defences: tuple[str, ...] = DEFAULT_DEFENCES
    units: dict[str, Unit] = {}
    encounter: Encounter | None = None
    encounters: int = 0
    hero: dict[int, Hero] = {}  # by seat number
    day: int = 1
    next_effect: int = 1
    grid: Grid | None = None  # None: no map, positions are the table's (declared mode)
    background: str | None = None  # the sha256 of the picture under the grid
    pictures: dict[str, Picture] = {}  # every background set, by sha256 (the replay's too)


CONDITION_ORDER: tuple[ConditionName, ...] = (
    "無防備",
    "伏せ",
    "朦朧",
    "幻惑",
    "支配",
    "盲目",
    "動けない",
    "減速",
    "不可視",
)
