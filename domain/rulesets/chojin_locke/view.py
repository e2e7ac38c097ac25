"""What each audience may see: a seat its own secrets and everything public; a GM (in a game
created with one) all that is sealed to anyone; the public — and the host of a game without a
referee, the default — only what lies open on the table. Face-down planet cards are sealed to
nobody, so no view holds them.

Every secret part is a Private value naming its audience; the kit strips the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, ConfigDict

from domain.model.audience import GM, PUBLIC, seat_actor, seat_number
from domain.model.secrecy import NULL_WHEN_HIDDEN, Private, RulesView
from domain.model.table import TableView
from domain.rulesets.chojin_locke.base import entry_order
from domain.rulesets.chojin_locke.cards import CharacterSheet
from domain.rulesets.chojin_locke.combat.view import CombatView, combat_view
from domain.rulesets.chojin_locke.playing_cards import PlayingCard
from domain.rulesets.chojin_locke.results import Result, results
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import (
    Cell,
    ChojinState,
    Ending,
    Player,
    Position,
    Proposal,
    Stage,
    Turn,
    Victory,
)
from domain.rulesets.chojin_locke.stats import current

_STATS = ("esp_level", "esp_power", "endurance", "willpower")


class PlayerView(RulesView):
    """A player as the table sees it; the sheet once opened (or at the end)."""

    seat: int
    silhouette: str | None
    side: str | None
    condition: str
    position: Position | None
    cell: Cell | None
    outside: bool
    intrusion_failures: int
    information: int
    sheet_open: bool
    chosen: bool
    ability_cards: int  # how many are held (face up or down), as a hand on the table shows
    face_up_abilities: Sequence[str]  # 4.7: the cards turned face up by using them
    sheet: Private[CharacterSheet] | None = None
    faction: Private[str] | None = None


class Damage(BaseModel):
    model_config = ConfigDict(frozen=True)

    endurance: int
    willpower: int


class SeatSecrets(RulesView):
    """What only the seat (and a GM, if the game has one) knows of its character."""

    sheet: CharacterSheet | None
    playing_card: PlayingCard | None
    silhouette_choice: str | None
    refused: bool
    conversion_flags: Sequence[str]
    damage: Damage
    ability_cards: Sequence[str]
    inspections_left: int
    inspected: dict[str, CharacterSheet]
    combat_hand: Sequence[str] = ()  # the C-cards in hand during a combat (5.1 (4)), its alone
    faction: Private[str] | None = None
    stats: Private[dict[str, int]] | None = None


class BoardView(RulesView):
    face_down: int
    # the squares a face-down card lies on, as anyone at the table sees them (ruling CL-036)
    face_down_squares: Sequence[str]
    turned: dict[str, str]
    ambushes: Annotated[Private[Sequence[str]], NULL_WHEN_HIDDEN]  # the base side's
    base_face_down: int
    base_face_down_squares: Sequence[str]
    base_turned: dict[str, str]
    keys: Annotated[Private[Sequence[str]], NULL_WHEN_HIDDEN]  # the base side's
    keys_destroyed: Sequence[str]


class VigilView(BaseModel):
    """Public: Evil victory declarers (their sheets are open) and their unmoved turns."""

    model_config = ConfigDict(frozen=True)

    turns: int
    declarers: dict[str, int]


class AftermathView(BaseModel):
    """5.7, public: who still plays its phases after leaving the combat, in order, the current
    one's phase, and how many C-cards each keeps (which: its own secrets' `combat_hand`)."""

    queue: list[int]
    phase: str
    hands: dict[str, int]


def _aftermath(state: ChojinState) -> AftermathView | None:
    after = state.aftermath
    if after is None:
        return None
    return AftermathView(
        queue=list(after.queue),
        phase=after.phase,
        hands={str(n): len(cards) for n, cards in after.hands.items()},
    )


class ChojinView(RulesView):
    stage: Stage
    deals: int
    players: list[PlayerView]
    turn: Turn | None
    victory: Victory | None
    proposal: Proposal | None
    parties: dict[str, Sequence[int]]
    board: BoardView
    vigil: VigilView
    ending: Ending | None
    results: dict[str, Result] | None  # at the end, when every sheet is public
    combat: CombatView | None = None  # chapter 5, while a combat runs
    aftermath: AftermathView | None = None  # 5.7, the leavers' phases after the combat
    # 4.6 l.793: the explorers still to enter the base, in the order they place their pieces
    entry_order: Sequence[int] = ()
    me: Private[SeatSecrets] | None = None
    secrets: Private[dict[str, SeatSecrets]] | None = None


def _public(player: Player, ended: bool) -> PlayerView:
    shown = (PUBLIC,) if player.sheet_open or ended else ()  # else the seat reads it under me
    sheet = player.sheet
    return PlayerView(
        seat=player.seat,
        silhouette=player.revealed_silhouette,
        side=player.side,
        condition=player.condition,
        position=player.position,
        cell=player.cell,
        outside=player.outside,
        intrusion_failures=player.intrusion_failures,
        information=player.info,
        sheet_open=player.sheet_open,
        chosen=player.silhouette is not None,
        ability_cards=len(player.abilities),
        face_up_abilities=list(player.face_up),
        sheet=Private(sheet, shown) if sheet is not None else None,
        faction=Private(player.faction, shown) if sheet is not None else None,
    )


def _combat_hand(state: ChojinState, seat: int) -> list[str]:
    """The seat's C-cards: in the combat, or kept after leaving one (5.7, combat/leaving.py)."""
    if state.combat is not None:
        return list(state.combat.hands.get(seat, ()))
    if state.aftermath is not None:
        return list(state.aftermath.hands.get(seat, ()))
    return []


def _secrets(state: ChojinState, player: Player) -> SeatSecrets:
    mine = (seat_actor(player.seat),)
    has_sheet = player.sheet is not None
    return SeatSecrets(
        sheet=player.sheet,
        playing_card=player.card,
        silhouette_choice=player.silhouette,
        refused=player.refused,
        conversion_flags=list(player.flags),
        damage=Damage(endurance=player.endurance_damage, willpower=player.willpower_damage),
        ability_cards=list(player.abilities),
        inspections_left=player.inspections,
        inspected={str(s): sheet for s, sheet in player.inspected.items()},
        combat_hand=_combat_hand(state, player.seat),
        faction=Private(player.faction, mine) if has_sheet else None,
        stats=Private({s: current(player, s) for s in _STATS}, mine) if has_sheet else None,
    )


def _board(state: ChojinState, ended: bool) -> BoardView:
    board = state.board
    base_side = tuple(seat_actor(s) for s, p in sorted(state.players.items()) if p.side == "base")
    readers = (GM, *base_side, *((PUBLIC,) if ended else ()))
    return BoardView(
        face_down=len(board.cards),
        face_down_squares=sorted(board.cards),
        turned=dict(board.turned),
        ambushes=Private(list(board.ambushes), readers),
        base_face_down=len(board.base),
        base_face_down_squares=sorted(board.base),
        base_turned=dict(board.base_turned),
        keys=Private(list(board.keys), readers),
        keys_destroyed=list(board.destroyed),
    )


@CHOJIN_LOCKE.views
def view(t: TableView[ChojinState], audience: str) -> ChojinView:
    state = t.rules
    seat = seat_number(audience)
    me = state.players.get(seat) if seat is not None else None
    players = [p for _, p in sorted(state.players.items())]
    return ChojinView(
        stage=state.stage,
        deals=state.deals,
        players=[_public(p, t.ended) for p in players],
        turn=state.turn,
        victory=state.victory,
        proposal=state.proposal,
        parties={str(leader): partners for leader, partners in state.parties.items()},
        board=_board(state, t.ended),
        vigil=VigilView(
            turns=state.vigil_turns,
            declarers={str(s): n for s, n in sorted(state.vigils.items())},
        ),
        ending=state.ending,
        combat=combat_view(state.combat) if state.combat is not None else None,
        aftermath=_aftermath(state),
        entry_order=(
            [p.seat for p in entry_order(state) if p.cell is None] if state.stage == "keys" else []
        ),
        results={str(s): r for s, r in results(state).items()} if t.ended else None,
        me=Private(_secrets(state, me), (audience,)) if me is not None else None,
        secrets=(
            Private({str(p.seat): _secrets(state, p) for p in players}, (GM,))
            if audience == GM
            else None
        ),
    )
