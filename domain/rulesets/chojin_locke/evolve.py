"""Folding every event (lifecycle ones included) into ChojinState."""

from __future__ import annotations

from typing import Any

from domain.events import Event
from domain.lifecycle_events import GameEnded
from domain.records import Recorded
from domain.rulesets.chojin_locke import conversion, vigil
from domain.rulesets.chojin_locke import events as ev
from domain.rulesets.chojin_locke.base import base_cells
from domain.rulesets.chojin_locke.board import key
from domain.rulesets.chojin_locke.phases import turn_phases
from domain.rulesets.chojin_locke.state import (
    Board,
    ChojinState,
    Ending,
    PartyTeleport,
    Player,
    Position,
    Proposal,
    Turn,
    Victory,
)


def evolve(state: ChojinState, recorded: Recorded) -> ChojinState:
    return apply(state, recorded.event)


def apply(state: ChojinState, event: Event) -> ChojinState:
    """The state after one event; deciders also use it to look ahead at a draft's effect."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        if isinstance(event, GameEnded) and state.ending is None:
            return state.model_copy(update={"ending": Ending(reason="host"), "stage": "over"})
        return state
    # copy what handlers mutate; the catalog is shared and never changed
    new = state.model_copy(
        update={
            "players": {s: p.model_copy(deep=True) for s, p in state.players.items()},
            "board": state.board.model_copy(deep=True),
            "turn": state.turn.model_copy(deep=True) if state.turn else None,
            "choosing": list(state.choosing),
            "parties": {k: list(v) for k, v in state.parties.items()},
            "proposal": state.proposal.model_copy(deep=True) if state.proposal else None,
            "vigils": dict(state.vigils),
        }
    )
    handler(new, event)
    if new.vigils:
        vigil.watch(state, new)
    return new


def _sheet_dealt(s: ChojinState, e: ev.SheetDealt) -> None:
    old = s.players.get(e.seat)
    player = old or Player(seat=e.seat)
    player.sheet = e.secret.sheet if e.secret else None
    s.players[e.seat] = player
    s.deals = e.deal


def _refused(s: ChojinState, e: ev.SheetRefused) -> None:
    player = s.players[e.seat]
    if e.kind == "refuse":
        player.refused = True
    if player.sheet is not None:
        player.refused_names.append(player.sheet.name)


def _fixed(s: ChojinState, e: ev.CharactersFixed) -> None:
    s.fixed = True


def _cards_shuffled(s: ChojinState, e: ev.CardsShuffled) -> None:
    s.stage = "silhouettes"
    s.choosing = list(e.seats)
    for seat in e.seats:
        s.players[seat].silhouette = None


def _card_dealt(s: ChojinState, e: ev.CardDealt) -> None:
    s.players[e.seat].card = e.secret


def _chosen(s: ChojinState, e: ev.SilhouetteChosen) -> None:
    if e.secret is not None:
        s.players[e.seat].silhouette = e.secret.silhouette


def _revealed(s: ChojinState, e: ev.SilhouettesRevealed) -> None:
    for seat, name in e.silhouettes.items():
        player = s.players[seat]
        player.revealed_silhouette = name
        player.silhouette = name
        player.side = e.sides[seat]
    s.choosing = []
    s.stage = "ambush" if e.balanced else "rebalance"


def _changed(s: ChojinState, e: ev.SilhouetteChanged) -> None:
    player = s.players[e.seat]
    player.silhouette = player.revealed_silhouette = e.silhouette
    player.side = e.side


def _rebalance_closed(s: ChojinState, e: ev.RebalanceClosed) -> None:
    s.stage = "ambush" if e.balanced else "silhouettes"


def _planets(s: ChojinState, e: ev.PlanetsLaid) -> None:
    s.stage = "ambush"
    if e.secret is None:
        s.board = Board()
        return
    deck = e.secret.deck
    left = [deck.deck[i] for i in deck.draw.order[e.cards :]]
    s.board = Board(cards=dict(e.secret.cards), unused=left)


def _ambush(s: ChojinState, e: ev.AmbushPlaced) -> None:
    if e.secret is None:
        return
    square = key(e.secret.planet, e.secret.square)
    swapped = s.board.cards.get(square)
    if swapped is not None:
        s.board.lafnor.append(swapped)  # 4.5: reused as 惑星ラフノール's cards
    s.board.cards[square] = s.catalog.ambush.name
    s.board.ambushes.append(square)


def _entered(s: ChojinState, e: ev.PieceEntered) -> None:
    s.players[e.seat].position = Position(planet=e.planet, square=0)


def _begun(s: ChojinState, e: ev.PlanetStageBegun) -> None:
    s.stage = "planet"


def _turn_begun(s: ChojinState, e: ev.TurnBegun) -> None:
    s.turn = Turn(seat=e.seat, number=e.number, phase=turn_phases(s.rules)[0])
    vigil.turn_begun(s)


def _phase(s: ChojinState, e: ev.PhaseEntered) -> None:
    assert s.turn is not None
    s.turn.phase = e.phase  # type: ignore[assignment]


def _checked(s: ChojinState, e: ev.Checked) -> None:
    if e.purpose in ("teleport", "intrusion") and s.turn is not None:
        s.turn.main = e.purpose
    if e.purpose == "intrusion" and not e.success:
        s.players[e.seat].intrusion_failures += 1


def _moved(s: ChojinState, e: ev.Moved) -> None:
    for seat in s.party_of(e.seat):  # partners move with their leader
        s.players[seat].position = e.to
    if s.turn is not None:
        s.turn.main = e.how


def _acted(s: ChojinState, e: ev.Acted) -> None:
    if s.turn is not None:
        s.turn.main = e.action
    if e.action == "recover":
        player = s.players[e.seat]
        if e.stat == "endurance":
            player.endurance_damage = max(player.endurance_damage - 1, 0)
        else:
            player.willpower_damage = max(player.willpower_damage - 1, 0)
    elif e.action == "treat" and e.target is not None:
        target = s.players[e.target]
        target.endurance_damage = max(target.endurance_damage - 1, 0)


def _escape(s: ChojinState, e: ev.EscapeChecked) -> None:
    player = s.players[e.seat]
    if s.turn is not None:
        s.turn.main = "escape"
    if e.escaped:
        player.condition = "normal"
        player.prison_failures = 0
    else:
        player.prison_failures += 1


def _turned(s: ChojinState, e: ev.SquareTurned) -> None:
    square = key(e.planet, e.square)
    s.board.cards.pop(square, None)
    if e.kind == "info":
        s.players[e.seat].info += 1  # the explorer takes 情報入手
    else:
        s.board.turned[square] = e.card


def _opened(s: ChojinState, e: ev.SheetOpened) -> None:
    s.players[e.seat].sheet_open = True


def _converted(s: ChojinState, e: ev.Converted) -> None:
    assert s.turn is not None
    s.turn.converted.append(e.target)
    conversion.apply(s.players[e.target], e.faction, e.success)


def _declared(s: ChojinState, e: ev.VictoryDeclared) -> None:
    if e.faction == "E":
        vigil.start(s, e.seat)
    if e.waiting:
        s.victory = Victory(seat=e.seat, faction=e.faction, waiting=list(e.waiting))


def _answered(s: ChojinState, e: ev.VictoryAnswered) -> None:
    if s.victory is None:
        return
    if e.objects:
        s.victory = None
    else:
        s.victory.waiting = [w for w in s.victory.waiting if w != e.seat]


def _condition(s: ChojinState, e: ev.ConditionSet) -> None:
    player = s.players[e.seat]
    player.condition = e.condition  # type: ignore[assignment]
    player.endurance_damage = e.endurance_damage
    player.willpower_damage = e.willpower_damage
    if not player.alive:
        player.flags = []
        player.step = 0  # 3.1: conversion lasts until the character comes back
        # 4.4: 「キャラクターが死亡した時、そのキャラクターのコマを盤上から取り除き」
        player.position, player.cell, player.outside = None, None, False


def _stage_ended(s: ChojinState, e: ev.PlanetStageEnded) -> None:
    s.stage = "keys"
    if e.reason == "information":
        # 4.5/6.1: whoever (or whose party) holds 3 or more may look at as many base sheets
        # as the 情報入手 they hold themselves
        for player in s.players.values():
            pooled = sum(s.players[m].info for m in s.party_of(player.seat))
            if player.side == "explorer" and pooled >= 3:
                player.inspections = player.info
    for player in s.players.values():
        player.position = None  # the pieces leave the planets
        if player.side == "base":  # 4.5: base players recover fully
            player.endurance_damage = player.willpower_damage = 0


def _base_laid(s: ChojinState, e: ev.BaseLaid) -> None:
    s.board.base = dict(e.secret.cards) if e.secret else {}


def _key_placed(s: ChojinState, e: ev.KeyPlaced) -> None:
    if e.secret is None:
        return
    square = f"{e.secret.row}:{e.secret.col}"
    key_card = next((c.name for c in s.catalog.base_cards if c.kind == "key"), "重要拠点")
    s.board.base[square] = key_card  # the card it replaces goes back to the deck
    s.board.keys.append(square)


def _base_entered(s: ChojinState, e: ev.BaseEntered) -> None:
    player = s.players[e.seat]
    player.cell = e.to
    player.outside = False
    if e.how == "intrusion":
        player.intrusion_failures = 0


def _base_begun(s: ChojinState, e: ev.BaseStageBegun) -> None:
    for seat, cell in base_cells(e, s).items():
        s.players[seat].cell = cell
    for seat in e.outside:
        s.players[seat].outside = True
    s.stage = "base"


def _base_moved(s: ChojinState, e: ev.BaseMoved) -> None:
    for seat in s.party_of(e.seat):
        s.players[seat].cell = e.to
    if s.turn is not None:
        s.turn.main = e.how
        s.turn.teleport = None


def _teleport_granted(s: ChojinState, e: ev.TeleportGranted) -> None:
    if s.turn is not None:
        s.turn.teleport = e.squares


def _base_turned(s: ChojinState, e: ev.BaseCardTurned) -> None:
    square = f"{e.row}:{e.col}"
    s.board.base.pop(square, None)
    if e.destroyed:
        s.board.destroyed.append(square)
    else:
        s.board.base_turned[square] = e.card


def _over(s: ChojinState, e: ev.GameOver) -> None:
    s.ending = Ending(reason=e.reason, faction=e.faction, seat=e.seat)
    s.stage = "over"
    s.victory = None


def _proposed(s: ChojinState, e: ev.PartyProposed) -> None:
    s.proposal = Proposal(leader=e.leader, partners=list(e.partners), waiting=list(e.partners))
    if s.turn is not None:
        s.turn.main = "party"


def _party_answered(s: ChojinState, e: ev.PartyAnswered) -> None:
    if s.proposal is None:
        return
    if e.accepts:
        s.proposal.waiting = [w for w in s.proposal.waiting if w != e.seat]
    else:
        s.proposal = None


def _formed(s: ChojinState, e: ev.PartyFormed) -> None:
    s.parties = {**s.parties, e.leader: list(e.partners)}
    for seat in e.partners:
        s.players[seat].condition = "partner"
    s.proposal = None


def _dissolved(s: ChojinState, e: ev.PartyDissolved) -> None:
    if s.turn is not None and s.turn.phase == "move" and not e.forced:
        s.turn.main = "dissolve"  # 2002: 組み外し is the move phase's action
    parties = dict(s.parties)
    for seat in parties.pop(e.leader, []):
        if s.players[seat].condition == "partner":
            s.players[seat].condition = "normal"
    s.parties = parties


def _key_destroyed(s: ChojinState, e: ev.KeyDestroyed) -> None:
    square = f"{e.row}:{e.col}"
    s.board.base_turned.pop(square, None)
    s.board.destroyed.append(square)
    if s.turn is not None:
        s.turn.main = "destroy"


def _inspected(s: ChojinState, e: ev.SheetInspected) -> None:
    player = s.players[e.seat]
    player.inspections -= 1
    if e.secret is not None:
        player.inspected = {**player.inspected, e.target: e.secret.sheet}


def _flipped(s: ChojinState, e: ev.PlanetCardsFlipped) -> None:
    s.board.unused = s.board.unused[len(e.cards) :]


def _ability_deck(s: ChojinState, e: ev.AbilityDeckShuffled) -> None:
    if e.secret is not None:
        s.board.ability_deck = [e.secret.deck[i] for i in e.secret.draw.order]


def _ability_drawn(s: ChojinState, e: ev.AbilityCardDrawn) -> None:
    if e.secret is not None:
        s.players[e.seat].abilities.append(e.secret.card)
        if e.secret.card in s.board.ability_deck:
            s.board.ability_deck.remove(e.secret.card)


def _ability_used(s: ChojinState, e: ev.AbilityCardUsed) -> None:
    s.players[e.seat].abilities.remove(e.card)
    if e.main and s.turn is not None:
        s.turn.main = "ability"


def _ability_used_from_sheet(s: ChojinState, e: ev.AbilityUsed) -> None:
    if s.turn is None:
        return
    if e.main:
        s.turn.main = "ability"
    elif "支援" in e.tags:
        s.turn.supported.append(e.ability)


def _party_teleport(s: ChojinState, e: ev.PartyTeleportDeclared) -> None:
    if s.turn is None:
        return
    if e.waiting:  # the leader's declaration opens the round
        faces = list(e.faces) if e.faces is not None else None
        s.turn.party_teleport = PartyTeleport(
            declared={e.seat: e.declared},
            direction=e.direction,
            faces=faces,
            waiting=list(e.waiting),
        )
        s.turn.main = "teleport"
        return
    pending = s.turn.party_teleport
    if pending is not None:
        pending.declared[e.seat] = e.declared
        pending.waiting = [w for w in pending.waiting if w != e.seat]
        if not pending.waiting:
            s.turn.party_teleport = None


_HANDLERS: dict[type[Any], Any] = {
    ev.SheetDealt: _sheet_dealt,
    ev.SheetRefused: _refused,
    ev.CharactersFixed: _fixed,
    ev.CardsShuffled: _cards_shuffled,
    ev.CardDealt: _card_dealt,
    ev.SilhouetteChosen: _chosen,
    ev.SilhouettesRevealed: _revealed,
    ev.SilhouetteChanged: _changed,
    ev.RebalanceClosed: _rebalance_closed,
    ev.PlanetsLaid: _planets,
    ev.AmbushPlaced: _ambush,
    ev.PieceEntered: _entered,
    ev.PlanetStageBegun: _begun,
    ev.TurnBegun: _turn_begun,
    ev.PhaseEntered: _phase,
    ev.Checked: _checked,
    ev.Moved: _moved,
    ev.Acted: _acted,
    ev.EscapeChecked: _escape,
    ev.SquareTurned: _turned,
    ev.SheetOpened: _opened,
    ev.Converted: _converted,
    ev.VictoryDeclared: _declared,
    ev.VictoryAnswered: _answered,
    ev.ConditionSet: _condition,
    ev.PlanetStageEnded: _stage_ended,
    ev.BaseLaid: _base_laid,
    ev.KeyPlaced: _key_placed,
    ev.BaseEntered: _base_entered,
    ev.BaseStageBegun: _base_begun,
    ev.BaseMoved: _base_moved,
    ev.TeleportGranted: _teleport_granted,
    ev.BaseCardTurned: _base_turned,
    ev.GameOver: _over,
    ev.PartyProposed: _proposed,
    ev.PartyAnswered: _party_answered,
    ev.PartyFormed: _formed,
    ev.PartyDissolved: _dissolved,
    ev.KeyDestroyed: _key_destroyed,
    ev.SheetInspected: _inspected,
    ev.PlanetCardsFlipped: _flipped,
    ev.AbilityDeckShuffled: _ability_deck,
    ev.AbilityCardDrawn: _ability_drawn,
    ev.AbilityCardUsed: _ability_used,
    ev.AbilityUsed: _ability_used_from_sheet,
    ev.PartyTeleportDeclared: _party_teleport,
}
