"""6.1's party events (proposal, answers, forming, dissolving, a party's teleport), each with
its fold."""

from __future__ import annotations

from typing import Literal

from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import players, turn
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState, PartyTeleport, Proposal
from domain.rulesets.chojin_locke.words import seat_words, seats_words


@CHOJIN_LOCKE.event
class PartyProposed(Event):
    leader: int
    partners: tuple[int, ...]


@CHOJIN_LOCKE.folds(PartyProposed)
def _proposed(state: ChojinState, event: PartyProposed, seq: int) -> ChojinState:
    proposal = Proposal(
        leader=event.leader, partners=list(event.partners), waiting=list(event.partners)
    )
    return turn(state.model_copy(update={"proposal": proposal}), main="party")


@CHOJIN_LOCKE.says_named(PartyProposed)
def _party_proposed_line(e: PartyProposed, names: Names) -> Message:
    return Message(
        N_("{seat}がパーティを提案: {partners}"),
        {"seat": seat_words(e.leader, names), "partners": seats_words(e.partners, names)},
    )


@CHOJIN_LOCKE.event
class PartyAnswered(Event):
    seat: int
    accepts: bool


@CHOJIN_LOCKE.folds(PartyAnswered)
def _party_answered(state: ChojinState, event: PartyAnswered, seq: int) -> ChojinState:
    proposal = state.proposal
    if proposal is None:
        return state
    if not event.accepts:
        return state.model_copy(update={"proposal": None})
    waiting = [w for w in proposal.waiting if w != event.seat]
    return state.model_copy(update={"proposal": proposal.model_copy(update={"waiting": waiting})})


@CHOJIN_LOCKE.says_named(PartyAnswered)
def _party_answered_line(e: PartyAnswered, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names)}
    if e.accepts:
        return Message(N_("{seat}: パーティに加わる"), said)
    return Message(N_("{seat}: パーティに加わらない"), said)


@CHOJIN_LOCKE.event
class PartyFormed(Event):
    leader: int
    partners: tuple[int, ...]


@CHOJIN_LOCKE.folds(PartyFormed)
def _formed(state: ChojinState, event: PartyFormed, seq: int) -> ChojinState:
    partners = [
        state.players[s].model_copy(update={"condition": "partner"}) for s in event.partners
    ]
    parties = {**state.parties, event.leader: list(event.partners)}
    return players(state, *partners).model_copy(update={"parties": parties, "proposal": None})


@CHOJIN_LOCKE.says_named(PartyFormed)
def _party_formed_line(e: PartyFormed, names: Names) -> Message:
    return Message(
        N_("パーティ結成: {seat} と {partners}"),
        {"seat": seat_words(e.leader, names), "partners": seats_words(e.partners, names)},
    )


@CHOJIN_LOCKE.event
class PartyDissolved(Event):
    leader: int
    # the party can no longer act as one (a member died, fell, was taken …): no one's action
    forced: bool = False


@CHOJIN_LOCKE.folds(PartyDissolved)
def _dissolved(state: ChojinState, event: PartyDissolved, seq: int) -> ChojinState:
    if state.turn is not None and state.turn.phase == "move" and not event.forced:
        state = turn(state, main="dissolve")  # 2002: 組み外し is the move phase's action
    parties = dict(state.parties)
    released = [
        state.players[s].model_copy(update={"condition": "normal"})
        for s in parties.pop(event.leader, [])
        if state.players[s].condition == "partner"
    ]
    return players(state, *released).model_copy(update={"parties": parties})


@CHOJIN_LOCKE.says_named(PartyDissolved)
def _party_dissolved_line(e: PartyDissolved, names: Names) -> Message:
    said = {"seat": seat_words(e.leader, names)}
    if e.forced:
        return Message(N_("{seat}のパーティ解散 (強制)"), said)
    return Message(N_("{seat}のパーティ解散"), said)


@CHOJIN_LOCKE.event
class PartyTeleportDeclared(Event):
    """A party member's ESP level declaration for the leader's teleport; the lowest counts."""

    seat: int
    declared: int
    direction: Literal["left", "right"] | None = None
    waiting: tuple[int, ...] = ()  # partners still to declare (on the leader's declaration)
    faces: tuple[int, ...] | None = None


@CHOJIN_LOCKE.folds(PartyTeleportDeclared)
def _party_teleport(state: ChojinState, event: PartyTeleportDeclared, seq: int) -> ChojinState:
    current = state.turn
    if current is None:
        return state
    if event.waiting:  # the leader's declaration opens the round
        opened = PartyTeleport(
            declared={event.seat: event.declared},
            direction=event.direction,
            faces=list(event.faces) if event.faces is not None else None,
            waiting=list(event.waiting),
        )
        return turn(state, party_teleport=opened, main="teleport")
    pending = current.party_teleport
    if pending is None:
        return state
    waiting = [w for w in pending.waiting if w != event.seat]
    if not waiting:
        return turn(state, party_teleport=None)
    declared = {**pending.declared, event.seat: event.declared}
    return turn(
        state,
        party_teleport=pending.model_copy(update={"declared": declared, "waiting": waiting}),
    )


@CHOJIN_LOCKE.says_named(PartyTeleportDeclared)
def _party_teleport_declared_line(e: PartyTeleportDeclared, names: Names) -> Message:
    directions = {"left": Message(N_(" 左へ")), "right": Message(N_(" 右へ")), None: ""}
    faces = Message(N_(" 出目 {faces}"), {"faces": str(list(e.faces))}) if e.faces else ""
    return Message(
        N_("{seat}: パーティでテレポート ESP能力レベル{declared}を宣言{direction}{faces}"),
        {
            "seat": seat_words(e.seat, names),
            "declared": e.declared,
            "direction": directions[e.direction],
            "faces": faces,
        },
    )
