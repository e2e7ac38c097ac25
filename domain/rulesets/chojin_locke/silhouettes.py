"""4.1: silhouettes chosen in secret under the playing card's restriction, revealed together,
then explorers and base players rebalanced."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.dealing import deal_cards
from domain.rulesets.chojin_locke.guards import living, playing, stage
from domain.rulesets.chojin_locke.planets import lay_planets
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.setup_events import (
    RebalanceClosed,
    SilhouetteBody,
    SilhouetteChanged,
    SilhouetteChosen,
    SilhouettesRevealed,
)
from domain.rulesets.chojin_locke.state import ChojinState, Player

Side = Literal["explorer", "base"]


def side_of(state: ChojinState, silhouette: str) -> Side:
    card = state.catalog.silhouette(silhouette)
    assert card is not None
    return "base" if card.alignment == "E" else "explorer"


def _forced(player: Player, name: str) -> bool:
    """An Ace holder's own silhouette: always granted (the rules ask the others to help)."""
    assert player.card is not None and player.sheet is not None
    return player.card.rank == 1 and name == player.sheet.silhouette


def _allowed(state: ChojinState, player: Player, name: str) -> None:
    card = state.catalog.silhouette(name)
    if card is None:
        names = ", ".join(s.name for s in state.catalog.silhouettes)
        raise RuleViolation(
            "unknown_silhouette",
            "There is no silhouette card {name} (the silhouette cards: {names}).",
            params={"name": name, "names": names},
        )
    # Only silhouettes on the table count: another seat's secret choice must never make a
    # choice fail, or refusals would tell who chose what; conflicts are settled when the
    # silhouettes are turned up (docs/rulings.md).
    taken = sum(
        1
        for other in state.players.values()
        if other.seat != player.seat
        and other.seat not in state.choosing
        and other.revealed_silhouette == name
    )
    assert player.card is not None and player.sheet is not None
    if taken >= card.count and not _forced(player, name):
        raise RuleViolation(
            "silhouette_gone",
            "Every {name} silhouette card is already on the table.",
            params={"name": name},
        )
    if player.card.rank == 1 and name != player.sheet.silhouette:
        raise RuleViolation(
            "ace_restriction", "Your playing card is an Ace: take your character's silhouette."
        )
    if player.card.rank == 10 and card.alignment != player.faction:
        raise RuleViolation(
            "ten_restriction", "Your playing card is a 10: take a silhouette of your alignment."
        )


def settle(state: ChojinState, chosen: dict[int, str], order: list[int]) -> tuple[int, ...]:
    """The seats whose choice goes back at the reveal: for each silhouette chosen by more
    seats than it has copies left on the table, an Ace holder's own comes first, then whoever
    already showed that card, then the choices in the order they were made (as a pile of
    cards would have given them out); the rest choose again."""
    returned: list[int] = []
    for name in sorted(set(chosen.values())):
        card = state.catalog.silhouette(name)
        assert card is not None
        on_table = sum(
            1
            for seat, other in state.players.items()
            if seat not in chosen and other.revealed_silhouette == name
        )
        claimants = sorted(
            (seat for seat, choice in chosen.items() if choice == name),
            key=lambda seat: (
                not _forced(state.players[seat], name),
                state.players[seat].revealed_silhouette != name,
                order.index(seat) if seat in order else len(order),
            ),
        )
        free = card.count - on_table
        for index, seat in enumerate(claimants):
            if index >= free and not _forced(state.players[seat], name):
                returned.append(seat)
    return tuple(sorted(returned))


def balanced(state: ChojinState, sides: dict[int, Side]) -> bool:
    explorers = sum(1 for side in sides.values() if side == "explorer")
    return min(explorers, len(sides) - explorers) >= state.evil_dealt()


@CHOJIN_LOCKE.command("choose_silhouette")
class ChooseSilhouette(Command):
    silhouette: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(ChooseSilhouette)
def choose(t: ChojinTable, command: ChooseSilhouette, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "silhouettes")
    if number not in state.choosing:
        raise RuleViolation("not_choosing", "You do not choose a silhouette now.")
    player = living(state, number)
    _allowed(state, player, command.silhouette)
    body = SilhouetteBody(silhouette=command.silhouette)
    drafts = [Draft(SilhouetteChosen(seat=number, secret=body), (seat_actor(number),))]
    waiting = [s for s in state.choosing if s != number and state.players[s].silhouette is None]
    if waiting:
        return drafts
    chosen = {s: p.silhouette or p.revealed_silhouette or "" for s, p in state.players.items()}
    chosen[number] = command.silhouette
    choices = {s: chosen[s] for s in state.choosing}
    order = [*(s for s in state.choice_order if s != number), number]
    returned = settle(state, choices, order)
    sides = {s: side_of(state, name) for s, name in chosen.items() if s not in returned}
    ok = not returned and balanced(state, sides)
    revealed = SilhouettesRevealed(silhouettes=chosen, sides=sides, balanced=ok, returned=returned)
    drafts.append(Draft(revealed))
    if ok:
        drafts += lay_planets(t)
    return drafts


def _larger_side(state: ChojinState) -> list[int]:
    explorers = [s for s, p in state.players.items() if p.side == "explorer"]
    bases = [s for s, p in state.players.items() if p.side == "base"]
    return explorers if len(explorers) > len(bases) else bases


@CHOJIN_LOCKE.command("change_silhouette")
class ChangeSilhouette(Command):
    """Rebalancing: a player of the larger side changes silhouette in the open."""

    silhouette: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(ChangeSilhouette)
def change(t: ChojinTable, command: ChangeSilhouette, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "rebalance")
    if number not in _larger_side(state):
        raise RuleViolation("not_larger_side", "Only the larger side may change silhouettes.")
    player = living(state, number)
    _allowed(state, player, command.silhouette)
    side = side_of(state, command.silhouette)
    return [Draft(SilhouetteChanged(seat=number, silhouette=command.silhouette, side=side))]


@CHOJIN_LOCKE.command("close_rebalance")
class CloseRebalance(Command):
    pass


@CHOJIN_LOCKE.decides(CloseRebalance)
def close(t: ChojinTable, command: CloseRebalance, actor: str) -> list[Draft]:
    t.referee_only(actor, "close the rebalancing")
    state = playing(t)
    stage(state, "rebalance")
    sides = {s: p.side for s, p in state.players.items() if p.side is not None}
    if balanced(state, sides):
        return [
            Draft(RebalanceClosed(balanced=True, redeal=())),
            *lay_planets(t),
        ]
    larger = _larger_side(state)
    return [
        Draft(RebalanceClosed(balanced=False, redeal=tuple(larger))),
        *deal_cards(t, larger),
    ]
