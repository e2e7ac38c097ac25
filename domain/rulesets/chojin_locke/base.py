"""4.6 setup: 秘密基地作成, the secret 重要拠点, explorers' entry, base players' random squares."""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.base_events import (
    BaseEntered,
    BaseLaid,
    BaseLayout,
    BaseStageBegun,
    KeyBody,
    KeyPlaced,
    SheetInspected,
)
from domain.rulesets.chojin_locke.fields import Col, Row
from domain.rulesets.chojin_locke.grid import SIZE, is_outer
from domain.rulesets.chojin_locke.guards import living, playing, stage
from domain.rulesets.chojin_locke.phases import next_seat
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.setup_events import DeckOrder, SheetBody
from domain.rulesets.chojin_locke.state import Cell, ChojinState, Player
from domain.rulesets.chojin_locke.turn_events import TurnBegun

KEYS = 4


def lay_base(t: ChojinTable, state: ChojinState) -> Draft:
    # 重要拠点 are not shuffled in: the base players place them afterwards
    deck = [
        card.name
        for card in state.catalog.base_cards
        if card.kind != "key"
        for _ in range(card.count)
    ]
    if len(deck) < SIZE * SIZE:
        raise KirokuError("catalog_too_small", "The catalog has fewer than 36 base cards.")
    draw = t.dice.shuffle(len(deck))
    cards = {f"{i // SIZE}:{i % SIZE}": deck[draw.order[i]] for i in range(SIZE * SIZE)}
    body = BaseLayout(deck=DeckOrder(draw=draw, deck=tuple(deck)), cards=cards)
    return Draft(BaseLaid(keys=KEYS, secret=body), audience=())


def _base_audience(state: ChojinState) -> tuple[str, ...]:
    return tuple(seat_actor(s) for s, p in sorted(state.players.items()) if p.side == "base")


@CHOJIN_LOCKE.command("place_key")
class PlaceKey(Command):
    """A base player's secret placement of a 重要拠点."""

    row: Row
    col: Col


@CHOJIN_LOCKE.decides(PlaceKey)
def place_key(t: ChojinTable, command: PlaceKey, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "keys")
    if living(state, number).side != "base":
        raise RuleViolation("base_players_only", "Only base players place 重要拠点.")
    if len(state.board.keys) >= KEYS:
        raise RuleViolation("keys_placed", "Every 重要拠点 is already placed.")
    if f"{command.row}:{command.col}" in state.board.keys:
        raise RuleViolation("square_taken", "A 重要拠点 already lies on that square.")
    body = KeyBody(row=command.row, col=command.col)
    return [Draft(KeyPlaced(seat=number, secret=body), audience=_base_audience(state))]


def entrants(state: ChojinState) -> list[Player]:
    """4.6: the explorers holding the most 情報入手 (all of them on a tie), unless bound or
    arrested."""
    explorers = [p for p in state.players.values() if p.side == "explorer" and p.alive]
    most = max((p.info for p in explorers), default=0)
    return [p for p in explorers if p.info == most and p.condition not in ("bound", "arrested")]


def entry_order(state: ChojinState) -> list[Player]:
    """4.6 l.793: 「惑星編で最後にターンプレイヤーだったプレイヤーの次のプレイヤーから反時計回りの
    順番で配置します。」 — the entrants from the seat after the last 惑星編 turn player, the way
    turns go (反時計回り, l.748: the next seat, as `next_seat`)."""
    seats = sorted(state.players)
    last = seats.index(state.turn.seat) if state.turn is not None else -1
    return sorted(entrants(state), key=lambda p: (seats.index(p.seat) - last - 1) % len(seats))


@CHOJIN_LOCKE.command("enter_base")
class EnterBase(Command):
    """An explorer with the most 情報入手 enters on one of the 20 outer squares."""

    row: Row
    col: Col


@CHOJIN_LOCKE.decides(EnterBase)
def enter_base(t: ChojinTable, command: EnterBase, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "keys")
    player = living(state, number)
    if player not in entrants(state):
        raise RuleViolation(
            "not_an_entrant", "Only the explorers with the most 情報入手 enter the base."
        )
    if player.cell is not None:
        raise RuleViolation("already_entered", "Your piece is already in the base.")
    if len(state.board.keys) < KEYS:
        # l.790: 「重要拠点の配置が終わったら、探索プレイヤーの中で情報入手を最も多く所持している
        # プレイヤーは…配置します。」 (how many are placed is public: KeyPlaced)
        raise RuleViolation(
            "keys_missing",
            "「重要拠点の配置が終わったら」 (4.6): the base players place every 重要拠点 first.",
        )
    due = next(p for p in entry_order(state) if p.cell is None)
    if due.seat != number:
        seat = t.seat(due.seat)
        raise RuleViolation(
            "not_your_entry",
            "「惑星編で最後にターンプレイヤーだったプレイヤーの次のプレイヤーから反時計回りの順"
            "番で配置します。」 (4.6): {value} places first.",
            params={"value": seat.name if seat else due.seat},
        )
    cell = Cell(row=command.row, col=command.col)
    if not is_outer(cell):
        raise RuleViolation("not_outer_square", "Enter on one of the 20 outer squares.")
    return [Draft(BaseEntered(seat=number, how="entry", to=cell))]


@CHOJIN_LOCKE.command("begin_base")
class BeginBase(Command):
    """Host: the others wait around the base, base players go to random squares; first turn."""


@CHOJIN_LOCKE.decides(BeginBase)
def begin_base(t: ChojinTable, command: BeginBase, actor: str) -> list[Draft]:
    t.referee_only(actor, "begin 秘密基地編")
    state = playing(t)
    stage(state, "keys")
    if len(state.board.keys) < KEYS:
        raise RuleViolation("keys_missing", "The base players have not placed every 重要拠点.")
    if any(p.cell is None for p in entrants(state)):
        raise RuleViolation("entrants_missing", "The explorers with most 情報入手 must enter.")
    outside = tuple(
        s
        for s, p in sorted(state.players.items())
        if p.side == "explorer" and p.alive and p.cell is None
    )
    bases = [s for s, p in sorted(state.players.items()) if p.side == "base" and p.alive]
    draw = t.dice.draw([(1, SIZE)] * (2 * len(bases))) if bases else None
    last = state.turn.seat if state.turn else min(state.players)
    base_state = state.model_copy(update={"stage": "base"})
    first, _skipped = next_seat(base_state, last)
    assert first is not None
    return [
        Draft(BaseStageBegun(outside=outside, draw=draw, first=first)),
        Draft(TurnBegun(seat=first, number=(state.turn.number + 1) if state.turn else 1)),
    ]


@CHOJIN_LOCKE.command("inspect_sheet")
class InspectSheet(Command):
    """4.5: after 惑星編 ends on 情報入手, look at a base player's sheet (one per card held)."""

    target: int = Field(ge=1, le=16)


@CHOJIN_LOCKE.decides(InspectSheet)
def inspect_sheet(t: ChojinTable, command: InspectSheet, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "keys", "base")
    player = living(state, number)
    if player.inspections <= 0:
        raise RuleViolation("no_inspections", "You have no base player's sheet to look at.")
    target = state.players.get(command.target)
    if target is None or target.side != "base" or target.sheet is None:
        bases = ", ".join(str(s) for s, p in sorted(state.players.items()) if p.side == "base")
        raise RuleViolation(
            "not_a_base_player",
            "You may look only at a base player's sheet (base players: seats {bases}).",
            params={"bases": bases},
        )
    if command.target in player.inspected:
        raise RuleViolation("already_inspected", "You have already seen that sheet.")
    body = SheetBody(sheet=target.sheet)
    event = SheetInspected(seat=number, target=command.target, secret=body)
    return [Draft(event, audience=(seat_actor(number),))]
