"""4.1 and 4.5's set-up events (deals, silhouettes, the planets), each with its fold.

A `secret` field is sealed to the Draft's audience (domain/model/events.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.model.draws import DiceDraw, ShuffleDraw
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.rulesets.chojin_locke.board import key
from domain.rulesets.chojin_locke.cards import CharacterSheet
from domain.rulesets.chojin_locke.changes import board, player, players
from domain.rulesets.chojin_locke.playing_cards import PlayingCard
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import Board, ChojinState, Player, Position
from domain.rulesets.chojin_locke.words import SIDES, seat_words, seats_words, sheet_words


class Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DeckOrder(Body):
    draw: ShuffleDraw
    deck: tuple[str, ...]  # the pool in catalog order; draw.order permutes it


class SheetBody(Body):
    sheet: CharacterSheet


# ----------------------------------------------------------------------------- the deal (4.1)


@CHOJIN_LOCKE.event
class SheetsShuffled(Event):
    """The character deal's shuffle, sealed to nobody until the end."""

    deal: int
    secret: DeckOrder | None = None


@CHOJIN_LOCKE.says(SheetsShuffled)
def _sheets_shuffled_line(e: SheetsShuffled) -> Message:
    return Message(N_("キャラクターシートを切り混ぜる (第{deal}配布)"), {"deal": e.deal})


CHOJIN_LOCKE.ignores(SheetsShuffled)  # the sheets dealt from it say what each seat holds


@CHOJIN_LOCKE.event
class SheetDealt(Event):
    seat: int
    deal: int
    secret: SheetBody | None = None


@CHOJIN_LOCKE.folds(SheetDealt)
def _sheet_dealt(state: ChojinState, event: SheetDealt, seq: int) -> ChojinState:
    holder = state.players.get(event.seat) or Player(seat=event.seat)
    sheet = event.secret.sheet if event.secret else None
    dealt = players(state, holder.model_copy(update={"sheet": sheet}))
    return dealt.model_copy(update={"deals": event.deal})


@CHOJIN_LOCKE.says_named(SheetDealt)
def _sheet_dealt_line(e: SheetDealt, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names), "deal": e.deal}
    if e.secret is None:
        return Message(N_("{seat}にキャラクターシートを配る (第{deal}配布)"), said)
    return Message(
        N_("{seat}にキャラクターシートを配る (第{deal}配布): {sheet}"),
        {**said, "sheet": sheet_words(e.secret.sheet)},
    )


@CHOJIN_LOCKE.event
class SheetRefused(Event):
    seat: int
    kind: Literal["refuse", "refuse_previous"]


@CHOJIN_LOCKE.folds(SheetRefused)
def _refused(state: ChojinState, event: SheetRefused, seq: int) -> ChojinState:
    refuser = state.players[event.seat]
    update: dict[str, object] = {}
    if event.kind == "refuse":
        update["refused"] = True
    if refuser.sheet is not None:
        update["refused_names"] = [*refuser.refused_names, refuser.sheet.name]
    return player(state, event.seat, **update)


@CHOJIN_LOCKE.says_named(SheetRefused)
def _sheet_refused_line(e: SheetRefused, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names)}
    if e.kind == "refuse_previous":
        return Message(N_("{seat}: 前のシートに戻す"), said)
    return Message(N_("{seat}: シートを拒否"), said)


@CHOJIN_LOCKE.event
class CharactersFixed(Event):
    evil: int  # Evil sheets dealt: the rebalancing threshold


@CHOJIN_LOCKE.folds(CharactersFixed)
def _fixed(state: ChojinState, event: CharactersFixed, seq: int) -> ChojinState:
    return state.model_copy(update={"fixed": True})


@CHOJIN_LOCKE.says(CharactersFixed)
def _characters_fixed_line(e: CharactersFixed) -> Message:
    return Message(N_("キャラクター確定 (悪 {evil}人)"), {"evil": e.evil})


# ----------------------------------------------------------------------------- silhouettes


@CHOJIN_LOCKE.event
class CardsShuffled(Event):
    seats: tuple[int, ...]
    secret: DeckOrder | None = None


@CHOJIN_LOCKE.folds(CardsShuffled)
def _cards_shuffled(state: ChojinState, event: CardsShuffled, seq: int) -> ChojinState:
    choosers = [state.players[s].model_copy(update={"silhouette": None}) for s in event.seats]
    return players(state, *choosers).model_copy(
        update={"stage": "silhouettes", "choosing": list(event.seats), "choice_order": []}
    )


@CHOJIN_LOCKE.says_named(CardsShuffled)
def _cards_shuffled_line(e: CardsShuffled, names: Names) -> Message:
    return Message(
        N_("トランプを切り混ぜる ({seats}に配る)"), {"seats": seats_words(e.seats, names)}
    )


@CHOJIN_LOCKE.event
class CardDealt(Event):
    seat: int
    secret: PlayingCard | None = None


@CHOJIN_LOCKE.folds(CardDealt)
def _card_dealt(state: ChojinState, event: CardDealt, seq: int) -> ChojinState:
    return player(state, event.seat, card=event.secret)


@CHOJIN_LOCKE.says_named(CardDealt)
def _card_dealt_line(e: CardDealt, names: Names) -> Message:
    seat = seat_words(e.seat, names)
    card = e.secret
    if card is None:
        return Message(N_("{seat}にトランプを配る"), {"seat": seat})
    said = {"seat": seat, "rank": card.rank}
    if card.color == "black":
        return Message(N_("{seat}にトランプを配る: 黒の{rank}"), said)
    return Message(N_("{seat}にトランプを配る: 赤の{rank}"), said)


class SilhouetteBody(Body):
    silhouette: str


@CHOJIN_LOCKE.event
class SilhouetteChosen(Event):
    seat: int
    secret: SilhouetteBody | None = None


@CHOJIN_LOCKE.folds(SilhouetteChosen)
def _chosen(state: ChojinState, event: SilhouetteChosen, seq: int) -> ChojinState:
    order = [*(s for s in state.choice_order if s != event.seat), event.seat]
    state = state.model_copy(update={"choice_order": order})
    if event.secret is None:
        return state
    return player(state, event.seat, silhouette=event.secret.silhouette)


@CHOJIN_LOCKE.says_named(SilhouetteChosen)
def _silhouette_chosen_line(e: SilhouetteChosen, names: Names) -> Message:
    seat = seat_words(e.seat, names)
    if e.secret is None:
        return Message(N_("{seat}がシルエットカードを選ぶ"), {"seat": seat})
    return Message(
        N_("{seat}がシルエットカードを選ぶ: {silhouette}"),
        {"seat": seat, "silhouette": e.secret.silhouette},
    )


@CHOJIN_LOCKE.event
class SilhouettesRevealed(Event):
    """Every silhouette turned up at once. A card chosen by more seats than it has copies
    goes to the first to have chosen it (an Ace holder's own first); the others (`returned`)
    choose again (docs/rulings.md)."""

    silhouettes: dict[int, str]
    sides: dict[int, Literal["explorer", "base"]]
    balanced: bool
    returned: tuple[int, ...] = ()


@CHOJIN_LOCKE.folds(SilhouettesRevealed)
def _revealed(state: ChojinState, event: SilhouettesRevealed, seq: int) -> ChojinState:
    shown = [
        state.players[seat].model_copy(
            update={"revealed_silhouette": name, "silhouette": name, "side": event.sides[seat]}
        )
        for seat, name in event.silhouettes.items()
        if seat not in event.returned
    ]
    back = [
        state.players[seat].model_copy(
            update={"revealed_silhouette": None, "silhouette": None, "side": None}
        )
        for seat in event.returned
    ]
    if event.returned:
        update = {"choosing": list(event.returned), "choice_order": [], "stage": "silhouettes"}
        return players(state, *shown, *back).model_copy(update=update)
    stage = "ambush" if event.balanced else "rebalance"
    return players(state, *shown).model_copy(
        update={"choosing": [], "choice_order": [], "stage": stage}
    )


@CHOJIN_LOCKE.says_named(SilhouettesRevealed)
def _silhouettes_revealed_line(e: SilhouettesRevealed, names: Names) -> Message:
    shown: str | Message = ""  # each seat's silhouette, the rest after it
    for seat, name in sorted(e.silhouettes.items(), reverse=True):
        said: dict[str, object] = {"seat": seat_words(seat, names), "silhouette": name}
        if seat in e.sides:
            said["side"] = SIDES[e.sides[seat]]
        if shown:
            said["more"] = shown
        if seat in e.sides and shown:
            shown = Message(N_("{seat} {silhouette} ({side}), {more}"), said)
        elif seat in e.sides:
            shown = Message(N_("{seat} {silhouette} ({side})"), said)
        elif shown:
            shown = Message(N_("{seat} {silhouette}, {more}"), said)
        else:
            shown = Message(N_("{seat} {silhouette}"), said)
    return Message(N_("シルエット公開: {shown}"), {"shown": shown})


@CHOJIN_LOCKE.event
class SilhouetteChanged(Event):
    seat: int
    silhouette: str
    side: Literal["explorer", "base"]


@CHOJIN_LOCKE.folds(SilhouetteChanged)
def _changed(state: ChojinState, event: SilhouetteChanged, seq: int) -> ChojinState:
    return player(
        state,
        event.seat,
        silhouette=event.silhouette,
        revealed_silhouette=event.silhouette,
        side=event.side,
    )


@CHOJIN_LOCKE.says_named(SilhouetteChanged)
def _silhouette_changed_line(e: SilhouetteChanged, names: Names) -> Message:
    return Message(
        N_("{seat}のシルエット: {silhouette} ({side})"),
        {"seat": seat_words(e.seat, names), "silhouette": e.silhouette, "side": SIDES[e.side]},
    )


@CHOJIN_LOCKE.event
class RebalanceClosed(Event):
    balanced: bool
    redeal: tuple[int, ...]  # the larger side, who get new playing cards


@CHOJIN_LOCKE.folds(RebalanceClosed)
def _rebalance_closed(state: ChojinState, event: RebalanceClosed, seq: int) -> ChojinState:
    return state.model_copy(update={"stage": "ambush" if event.balanced else "silhouettes"})


@CHOJIN_LOCKE.says_named(RebalanceClosed)
def _rebalance_closed_line(e: RebalanceClosed, names: Names) -> Message:
    balance = N_("釣り合い") if e.balanced else N_("不均衡")
    if e.redeal:
        return Message(
            N_("陣営の調整を終える ({balance}、配り直し: {seats})"),
            {"balance": balance, "seats": seats_words(e.redeal, names)},
        )
    return Message(N_("陣営の調整を終える ({balance})"), {"balance": balance})


# ----------------------------------------------------------------------------- the planets (4.5)


class PlanetLayout(Body):
    deck: DeckOrder
    squares: ShuffleDraw
    cards: dict[str, str]  # "planet:square" → card


@CHOJIN_LOCKE.event
class PlanetsLaid(Event):
    """宇宙作成: the planet cards, face down and sealed to nobody."""

    cards: int
    ambushes: int
    secret: PlanetLayout | None = None


@CHOJIN_LOCKE.folds(PlanetsLaid)
def _planets(state: ChojinState, event: PlanetsLaid, seq: int) -> ChojinState:
    laid = Board()
    if event.secret is not None:
        deck = event.secret.deck
        left = [deck.deck[i] for i in deck.draw.order[event.cards :]]
        laid = Board(cards=dict(event.secret.cards), unused=left)
    return state.model_copy(update={"stage": "ambush", "board": laid})


@CHOJIN_LOCKE.says(PlanetsLaid)
def _planets_laid_line(e: PlanetsLaid) -> Message:
    return Message(
        N_("惑星カード{cards}枚を伏せて並べる (伏兵{ambushes})"),
        {"cards": e.cards, "ambushes": e.ambushes},
    )


class AmbushBody(Body):
    planet: int
    square: int


@CHOJIN_LOCKE.event
class AmbushPlaced(Event):
    seat: int
    secret: AmbushBody | None = None


@CHOJIN_LOCKE.folds(AmbushPlaced)
def _ambush(state: ChojinState, event: AmbushPlaced, seq: int) -> ChojinState:
    if event.secret is None:
        return state
    square = key(event.secret.planet, event.secret.square)
    lafnor = list(state.board.lafnor)
    swapped = state.board.cards.get(square)
    if swapped is not None:
        lafnor.append(swapped)  # 4.5: reused as 惑星ラフノール's cards
    return board(
        state,
        cards={**state.board.cards, square: state.catalog.ambush.name},
        ambushes=[*state.board.ambushes, square],
        ambush_handlers={**state.board.ambush_handlers, square: event.seat},
        lafnor=lafnor,
    )


@CHOJIN_LOCKE.says_named(AmbushPlaced)
def _ambush_placed_line(e: AmbushPlaced, names: Names) -> Message:
    seat = seat_words(e.seat, names)
    if e.secret is None:
        return Message(N_("{seat}が伏兵を置く"), {"seat": seat})
    return Message(
        N_("{seat}が伏兵を置く: 惑星{planet}のマス{square}"),
        {"seat": seat, "planet": e.secret.planet, "square": e.secret.square},
    )


@CHOJIN_LOCKE.event
class PieceEntered(Event):
    seat: int
    planet: int


@CHOJIN_LOCKE.folds(PieceEntered)
def _entered(state: ChojinState, event: PieceEntered, seq: int) -> ChojinState:
    return player(state, event.seat, position=Position(planet=event.planet, square=0))


@CHOJIN_LOCKE.says_named(PieceEntered)
def _piece_entered_line(e: PieceEntered, names: Names) -> Message:
    return Message(
        N_("{seat}のコマが惑星{planet}に入る"),
        {"seat": seat_words(e.seat, names), "planet": e.planet},
    )


@CHOJIN_LOCKE.event
class PlanetStageBegun(Event):
    order: tuple[int, ...]  # explorers, in turn order
    draw: DiceDraw
    first: int


@CHOJIN_LOCKE.folds(PlanetStageBegun)
def _begun(state: ChojinState, event: PlanetStageBegun, seq: int) -> ChojinState:
    return state.model_copy(update={"stage": "planet"})


@CHOJIN_LOCKE.says_named(PlanetStageBegun)
def _planet_stage_begun_line(e: PlanetStageBegun, names: Names) -> Message:
    return Message(
        N_("惑星編開始: 手番順 {order} (最初は{seat}, 出目 {faces})"),
        {
            "order": seats_words(e.order, names),
            "seat": seat_words(e.first, names),
            "faces": Items(map(str, e.draw.faces)),
        },
    )
