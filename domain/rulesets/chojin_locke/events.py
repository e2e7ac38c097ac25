"""The ruleset's events. A `secret` field is sealed to the Draft's audience (domain/events.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.draws import DiceDraw, ShuffleDraw
from domain.events import Event
from domain.lifecycle_events import RollRecord
from domain.rulesets.chojin_locke.cards import CharacterSheet
from domain.rulesets.chojin_locke.state import Cell, EndReason, PlayingCard, Position


class _Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ------------------------------------------------------------------------------------- setup


class DeckOrder(_Body):
    draw: ShuffleDraw
    deck: tuple[str, ...]  # the pool in catalog order; draw.order permutes it


class SheetsShuffled(Event):
    """The character deal's shuffle, sealed to nobody until the end."""

    type = "chojin_locke.SheetsShuffled"
    deal: int
    secret: DeckOrder | None = None


class SheetBody(_Body):
    sheet: CharacterSheet


class SheetDealt(Event):
    type = "chojin_locke.SheetDealt"
    seat: int
    deal: int
    secret: SheetBody | None = None


class SheetRefused(Event):
    type = "chojin_locke.SheetRefused"
    seat: int
    kind: Literal["refuse", "refuse_previous"]


class CharactersFixed(Event):
    type = "chojin_locke.CharactersFixed"
    evil: int  # Evil sheets dealt: the rebalancing threshold


class CardsShuffled(Event):
    type = "chojin_locke.CardsShuffled"
    seats: tuple[int, ...]
    secret: DeckOrder | None = None


class CardDealt(Event):
    type = "chojin_locke.CardDealt"
    seat: int
    secret: PlayingCard | None = None


class SilhouetteBody(_Body):
    silhouette: str


class SilhouetteChosen(Event):
    type = "chojin_locke.SilhouetteChosen"
    seat: int
    secret: SilhouetteBody | None = None


class SilhouettesRevealed(Event):
    type = "chojin_locke.SilhouettesRevealed"
    silhouettes: dict[int, str]
    sides: dict[int, Literal["explorer", "base"]]
    balanced: bool


class SilhouetteChanged(Event):
    type = "chojin_locke.SilhouetteChanged"
    seat: int
    silhouette: str
    side: Literal["explorer", "base"]


class RebalanceClosed(Event):
    type = "chojin_locke.RebalanceClosed"
    balanced: bool
    redeal: tuple[int, ...]  # the larger side, who get new playing cards


class PlanetLayout(_Body):
    deck: DeckOrder
    squares: ShuffleDraw
    cards: dict[str, str]  # "planet:square" → card


class PlanetsLaid(Event):
    """宇宙作成: the planet cards, face down and sealed to nobody."""

    type = "chojin_locke.PlanetsLaid"
    cards: int
    ambushes: int
    secret: PlanetLayout | None = None


class AmbushBody(_Body):
    planet: int
    square: int


class AmbushPlaced(Event):
    type = "chojin_locke.AmbushPlaced"
    seat: int
    secret: AmbushBody | None = None


class PieceEntered(Event):
    type = "chojin_locke.PieceEntered"
    seat: int
    planet: int


class PlanetStageBegun(Event):
    type = "chojin_locke.PlanetStageBegun"
    order: tuple[int, ...]  # explorers, in turn order
    draw: DiceDraw
    first: int


# -------------------------------------------------------------------------------------- turn


class PhaseEntered(Event):
    type = "chojin_locke.PhaseEntered"
    seat: int
    phase: str


class TurnBegun(Event):
    type = "chojin_locke.TurnBegun"
    seat: int
    number: int
    skipped: tuple[int, ...] = ()  # seats passed over (dead, base players in 惑星編 …)


class Checked(Event):
    """A declared value and the roll it decided. The truth is on the sealed sheet."""

    type = "chojin_locke.Checked"
    seat: int
    purpose: Literal["check", "teleport", "conversion", "intrusion"]
    stat: Literal["esp_level", "esp_power", "endurance", "willpower"]
    declared: int
    roll: RollRecord | None = None
    success: bool
    reason: str = ""


class Moved(Event):
    type = "chojin_locke.Moved"
    seat: int
    how: Literal["move", "spaceport", "teleport"]
    to: Position


class Acted(Event):
    """A main action without a roll: 回復, 治療, パス."""

    type = "chojin_locke.Acted"
    seat: int
    action: Literal["recover", "treat", "pass", "teleport_failed"]
    stat: str | None = None
    target: int | None = None


class EscapeChecked(Event):
    type = "chojin_locke.EscapeChecked"
    seat: int
    modifier: int
    roll: RollRecord
    total: int
    result: str
    escaped: bool


class SquareTurned(Event):
    type = "chojin_locke.SquareTurned"
    seat: int
    planet: int
    square: int
    card: str
    kind: str
    text: str = ""


class SheetOpened(Event):
    type = "chojin_locke.SheetOpened"
    seat: int
    sheet: CharacterSheet
    faction: str


class Converted(Event):
    type = "chojin_locke.Converted"
    seat: int
    target: int
    faction: str  # the converter's faction: the flag the target gains
    success: bool


class VictoryDeclared(Event):
    type = "chojin_locke.VictoryDeclared"
    seat: int
    faction: str
    sole: bool
    waiting: tuple[int, ...]


class VictoryAnswered(Event):
    type = "chojin_locke.VictoryAnswered"
    seat: int
    objects: bool


class ConditionSet(Event):
    """The host applies an effect the ruleset does not resolve itself (combat, card texts)."""

    type = "chojin_locke.ConditionSet"
    seat: int
    condition: str
    endurance_damage: int
    willpower_damage: int
    reason: str


class PlanetStageEnded(Event):
    type = "chojin_locke.PlanetStageEnded"
    reason: Literal["no_cards", "information", "explorers_dead"]


class GameOver(Event):
    type = "chojin_locke.GameOver"
    reason: EndReason
    faction: str | None = None
    seat: int | None = None


# ------------------------------------------------------------------------------- 秘密基地編


class BaseLayout(_Body):
    deck: DeckOrder
    cards: dict[str, str]  # "row:col" → card


class BaseLaid(Event):
    """秘密基地作成: 36 base cards face down, sealed to nobody."""

    type = "chojin_locke.BaseLaid"
    keys: int
    secret: BaseLayout | None = None


class KeyBody(_Body):
    row: int
    col: int


class KeyPlaced(Event):
    type = "chojin_locke.KeyPlaced"
    seat: int
    secret: KeyBody | None = None


class BaseEntered(Event):
    type = "chojin_locke.BaseEntered"
    seat: int
    how: Literal["entry", "intrusion", "random"]
    to: Cell


class BaseStageBegun(Event):
    type = "chojin_locke.BaseStageBegun"
    outside: tuple[int, ...]  # explorers left around the base
    draw: DiceDraw | None = None  # the base players' random squares (row, col per player)
    first: int


class BaseMoved(Event):
    type = "chojin_locke.BaseMoved"
    seat: int
    how: Literal["move", "teleport"]
    to: Cell


class TeleportGranted(Event):
    """秘密基地編: the teleport succeeded; the player now names the square it reaches."""

    type = "chojin_locke.TeleportGranted"
    seat: int
    squares: int


class BaseCardTurned(Event):
    type = "chojin_locke.BaseCardTurned"
    seat: int
    row: int
    col: int
    card: str
    kind: str
    destroyed: bool


# ------------------------------------------------------------------------------------ party


class PartyProposed(Event):
    type = "chojin_locke.PartyProposed"
    leader: int
    partners: tuple[int, ...]


class PartyAnswered(Event):
    type = "chojin_locke.PartyAnswered"
    seat: int
    accepts: bool


class PartyFormed(Event):
    type = "chojin_locke.PartyFormed"
    leader: int
    partners: tuple[int, ...]


class PartyDissolved(Event):
    type = "chojin_locke.PartyDissolved"
    leader: int
    # the party can no longer act as one (a member died, fell, was taken …): no one's action
    forced: bool = False


class KeyDestroyed(Event):
    """2002: a Good character on a 重要拠点 declares 破壊."""

    type = "chojin_locke.KeyDestroyed"
    seat: int
    row: int
    col: int


class SheetInspected(Event):
    """A base player's sheet, sealed to the explorer who may look at it."""

    type = "chojin_locke.SheetInspected"
    seat: int
    target: int
    secret: SheetBody | None = None


# ------------------------------------------------------------------------------ ability cards


class PlanetCardsFlipped(Event):
    """4.5: a base player turns unused planet cards; each blank one gives an ability card."""

    type = "chojin_locke.PlanetCardsFlipped"
    seat: int
    cards: tuple[str, ...]
    gains: int


class AbilityDeckShuffled(Event):
    type = "chojin_locke.AbilityDeckShuffled"
    secret: DeckOrder | None = None


class AbilityBody(_Body):
    card: str


class AbilityCardDrawn(Event):
    type = "chojin_locke.AbilityCardDrawn"
    seat: int
    secret: AbilityBody | None = None


class AbilityCardUsed(Event):
    type = "chojin_locke.AbilityCardUsed"
    seat: int
    card: str
    tags: tuple[str, ...]
    text: str = ""
    main: bool = False


class AbilityUsed(Event):
    """A special ability named aloud; the sheet that has it stays sealed."""

    type = "chojin_locke.AbilityUsed"
    seat: int
    ability: str
    tags: tuple[str, ...]
    main: bool = False


class PartyTeleportDeclared(Event):
    """A party member's ESP level declaration for the leader's teleport; the lowest counts."""

    type = "chojin_locke.PartyTeleportDeclared"
    seat: int
    declared: int
    direction: Literal["left", "right"] | None = None
    waiting: tuple[int, ...] = ()  # partners still to declare (on the leader's declaration)
    faces: tuple[int, ...] | None = None
