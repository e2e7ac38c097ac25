"""4.6's 秘密基地編 events (the base, its 重要拠点, entering, moving, turning cards) and 4.5's
sheet inspection, each with its fold."""

from __future__ import annotations

from typing import Literal

from domain.model.draws import DiceDraw
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import board, player, players, turn
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.setup_events import Body, DeckOrder, SheetBody
from domain.rulesets.chojin_locke.state import Cell, ChojinState
from domain.rulesets.chojin_locke.words import (
    ENTRIES,
    MOVES,
    cell_words,
    named,
    seat_words,
    seats_words,
    sheet_words,
)


class BaseLayout(Body):
    deck: DeckOrder
    cards: dict[str, str]  # "row:col" → card


@CHOJIN_LOCKE.event
class BaseLaid(Event):
    """秘密基地作成: 36 base cards face down, sealed to nobody."""

    keys: int
    secret: BaseLayout | None = None


@CHOJIN_LOCKE.folds(BaseLaid)
def _base_laid(state: ChojinState, event: BaseLaid, seq: int) -> ChojinState:
    return board(state, base=dict(event.secret.cards) if event.secret else {})


@CHOJIN_LOCKE.says(BaseLaid)
def _base_laid_line(e: BaseLaid) -> Message:
    return Message(N_("秘密基地を伏せて並べる (キー{keys}個)"), {"keys": e.keys})


class KeyBody(Body):
    row: int
    col: int


@CHOJIN_LOCKE.event
class KeyPlaced(Event):
    seat: int
    secret: KeyBody | None = None


@CHOJIN_LOCKE.folds(KeyPlaced)
def _key_placed(state: ChojinState, event: KeyPlaced, seq: int) -> ChojinState:
    if event.secret is None:
        return state
    square = f"{event.secret.row}:{event.secret.col}"
    key_card = next((c.name for c in state.catalog.base_cards if c.kind == "key"), "重要拠点")
    return board(  # the card it replaces goes back to the deck
        state,
        base={**state.board.base, square: key_card},
        keys=[*state.board.keys, square],
    )


@CHOJIN_LOCKE.says_named(KeyPlaced)
def _key_placed_line(e: KeyPlaced, names: Names) -> Message:
    seat = seat_words(e.seat, names)
    if e.secret is None:
        return Message(N_("{seat}がキーを置く"), {"seat": seat})
    cell = cell_words(Cell(row=e.secret.row, col=e.secret.col))
    return Message(N_("{seat}がキーを置く: {cell}"), {"seat": seat, "cell": cell})


@CHOJIN_LOCKE.event
class BaseEntered(Event):
    seat: int
    how: Literal["entry", "intrusion", "random"]
    to: Cell


@CHOJIN_LOCKE.folds(BaseEntered)
def _base_entered(state: ChojinState, event: BaseEntered, seq: int) -> ChojinState:
    state = player(state, event.seat, cell=event.to, outside=False)
    if event.how == "intrusion":
        state = player(state, event.seat, intrusion_failures=0)
    return state


@CHOJIN_LOCKE.says_named(BaseEntered)
def _base_entered_line(e: BaseEntered, names: Names) -> Message:
    return Message(
        N_("{seat}が{how} → {cell}"),
        {"seat": seat_words(e.seat, names), "how": ENTRIES[e.how], "cell": cell_words(e.to)},
    )


@CHOJIN_LOCKE.event
class BaseStageBegun(Event):
    outside: tuple[int, ...]  # explorers left around the base
    draw: DiceDraw | None = None  # the base players' random squares (row, col per player)
    first: int


def base_cells(event: BaseStageBegun, state: ChojinState) -> dict[int, Cell]:
    """The base players' random squares: 1D6 row and 1D6 column each, in seat order."""
    if event.draw is None:
        return {}
    bases = [s for s, p in sorted(state.players.items()) if p.side == "base" and p.alive]
    faces = event.draw.faces
    return {s: Cell(row=faces[2 * i] - 1, col=faces[2 * i + 1] - 1) for i, s in enumerate(bases)}


@CHOJIN_LOCKE.folds(BaseStageBegun)
def _base_begun(state: ChojinState, event: BaseStageBegun, seq: int) -> ChojinState:
    placed = [
        state.players[seat].model_copy(update={"cell": cell})
        for seat, cell in base_cells(event, state).items()
    ]
    state = players(state, *placed)
    waiting = [state.players[seat].model_copy(update={"outside": True}) for seat in event.outside]
    return players(state, *waiting).model_copy(update={"stage": "base"})


@CHOJIN_LOCKE.says_named(BaseStageBegun)
def _base_stage_begun_line(e: BaseStageBegun, names: Names) -> Message:
    outside = (
        Message(N_(" (外: {seats})"), {"seats": seats_words(e.outside, names)}) if e.outside else ""
    )
    faces = Message(N_(" 出目 {faces}"), {"faces": str(list(e.draw.faces))}) if e.draw else ""
    return Message(
        N_("秘密基地編開始: 最初は{seat}{outside}{faces}"),
        {"seat": seat_words(e.first, names), "outside": outside, "faces": faces},
    )


@CHOJIN_LOCKE.event
class BaseMoved(Event):
    seat: int
    how: Literal["move", "teleport"]
    to: Cell


@CHOJIN_LOCKE.folds(BaseMoved)
def _base_moved(state: ChojinState, event: BaseMoved, seq: int) -> ChojinState:
    party = state.party_of(event.seat)
    moved = [state.players[s].model_copy(update={"cell": event.to}) for s in party]
    return turn(players(state, *moved), main=event.how, teleport=None)


@CHOJIN_LOCKE.says_named(BaseMoved)
def _base_moved_line(e: BaseMoved, names: Names) -> Message:
    return Message(
        N_("{seat}: {how} → {cell}"),
        {"seat": seat_words(e.seat, names), "how": MOVES[e.how], "cell": cell_words(e.to)},
    )


@CHOJIN_LOCKE.event
class TeleportGranted(Event):
    """秘密基地編: the teleport succeeded; the player now names the square it reaches."""

    seat: int
    squares: int


@CHOJIN_LOCKE.folds(TeleportGranted)
def _teleport_granted(state: ChojinState, event: TeleportGranted, seq: int) -> ChojinState:
    return turn(state, teleport=event.squares)


@CHOJIN_LOCKE.says_named(TeleportGranted)
def _teleport_granted_line(e: TeleportGranted, names: Names) -> Message:
    return Message(
        N_("{seat}: テレポート{squares}マス"),
        {"seat": seat_words(e.seat, names), "squares": e.squares},
    )


@CHOJIN_LOCKE.event
class BaseCardTurned(Event):
    seat: int
    row: int
    col: int
    card: str
    kind: str
    destroyed: bool


@CHOJIN_LOCKE.folds(BaseCardTurned)
def _base_turned(state: ChojinState, event: BaseCardTurned, seq: int) -> ChojinState:
    square = f"{event.row}:{event.col}"
    face_down = {k: v for k, v in state.board.base.items() if k != square}
    if event.destroyed:
        return board(state, base=face_down, destroyed=[*state.board.destroyed, square])
    turned = {**state.board.base_turned, square: event.card}
    return board(state, base=face_down, base_turned=turned)


@CHOJIN_LOCKE.says_named(BaseCardTurned)
def _base_card_turned_line(e: BaseCardTurned, names: Names) -> Message:
    said = {
        "seat": seat_words(e.seat, names),
        "cell": cell_words(Cell(row=e.row, col=e.col)),
        "card": named(e.card),  # its name, not its kind
    }
    if e.destroyed:
        return Message(N_("{seat}が{cell}をめくる: {card} — 破壊"), said)
    return Message(N_("{seat}が{cell}をめくる: {card}"), said)


@CHOJIN_LOCKE.event
class KeyDestroyed(Event):
    """2002: a Good character on a 重要拠点 declares 破壊."""

    seat: int
    row: int
    col: int


@CHOJIN_LOCKE.folds(KeyDestroyed)
def _key_destroyed(state: ChojinState, event: KeyDestroyed, seq: int) -> ChojinState:
    square = f"{event.row}:{event.col}"
    turned = {k: v for k, v in state.board.base_turned.items() if k != square}
    state = board(state, base_turned=turned, destroyed=[*state.board.destroyed, square])
    return turn(state, main="destroy")


@CHOJIN_LOCKE.says_named(KeyDestroyed)
def _key_destroyed_line(e: KeyDestroyed, names: Names) -> Message:
    return Message(
        N_("{seat}が{cell}のキーを破壊"),
        {"seat": seat_words(e.seat, names), "cell": cell_words(Cell(row=e.row, col=e.col))},
    )


@CHOJIN_LOCKE.event
class SheetInspected(Event):
    """A base player's sheet, sealed to the explorer who may look at it."""

    seat: int
    target: int
    secret: SheetBody | None = None


@CHOJIN_LOCKE.folds(SheetInspected)
def _inspected(state: ChojinState, event: SheetInspected, seq: int) -> ChojinState:
    looker = state.players[event.seat]
    inspected = looker.inspected
    if event.secret is not None:
        inspected = {**inspected, event.target: event.secret.sheet}
    return player(state, event.seat, inspections=looker.inspections - 1, inspected=inspected)


@CHOJIN_LOCKE.says_named(SheetInspected)
def _sheet_inspected_line(e: SheetInspected, names: Names) -> Message:
    seats = {"seat": seat_words(e.seat, names), "target": seat_words(e.target, names)}
    if e.secret is None:
        return Message(N_("{seat}が{target}のシートを見る"), seats)
    return Message(
        N_("{seat}が{target}のシートを見る: {sheet}"),
        {**seats, "sheet": sheet_words(e.secret.sheet)},
    )
