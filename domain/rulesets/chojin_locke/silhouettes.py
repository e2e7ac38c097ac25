"""4.1: silhouettes chosen in secret under the playing card's restriction, revealed together,
then explorers and base players rebalanced."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.audience import seat_actor
from domain.commands import Command
from domain.errors import RuleViolation
from domain.records import Draft
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


def _allowed(state: ChojinState, player: Player, name: str) -> None:
    card = state.catalog.silhouette(name)
    if card is None:
        raise RuleViolation("unknown_silhouette", f"There is no silhouette card {name!r}.")
    taken = sum(
        1
        for other in state.players.values()
        if other.seat != player.seat and name in (other.silhouette, other.revealed_silhouette)
    )
    assert player.card is not None and player.sheet is not None
    forced = player.card.rank == 1 and name == player.sheet.silhouette
    # An Ace holder always gets their own silhouette: the rules ask the others to help, and a
    # secret choice must never deadlock the setup (docs/rulings.md).
    if taken >= card.count and not forced:
        raise RuleViolation("silhouette_gone", f"No {name!r} silhouette card is left.")
    if player.card.rank == 1 and name != player.sheet.silhouette:
        raise RuleViolation(
            "ace_restriction", "Your playing card is an Ace: take your character's silhouette."
        )
    if player.card.rank == 10 and card.alignment != player.faction:
        raise RuleViolation(
            "ten_restriction", "Your playing card is a 10: take a silhouette of your alignment."
        )


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
    sides = {s: side_of(state, name) for s, name in chosen.items()}
    ok = balanced(state, sides)
    drafts.append(Draft(SilhouettesRevealed(silhouettes=chosen, sides=sides, balanced=ok)))
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
