"""パーティー (6.1): proposing as the main action, every partner's consent, dissolving."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.actions import free_main
from domain.rulesets.chojin_locke.board import same_place
from domain.rulesets.chojin_locke.guards import living, no_combat_support, playing
from domain.rulesets.chojin_locke.party_events import (
    PartyAnswered,
    PartyDissolved,
    PartyFormed,
    PartyProposed,
)
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.turn import in_phase, my_turn


@CHOJIN_LOCKE.command("form_party")
class FormParty(Command):
    """パーティーを組む (main action): propose to characters on your square."""

    partners: list[int] = Field(min_length=1, max_length=10)


@CHOJIN_LOCKE.decides(FormParty)
def form_party(t: ChojinTable, command: FormParty, actor: str) -> list[Draft]:
    state, player = free_main(t, actor)
    if player.seat in state.parties or len(state.party_of(player.seat)) > 1:
        raise RuleViolation("already_in_party", "You are already in a party.")
    partners = sorted(set(command.partners))
    for number in partners:
        if number == player.seat:
            raise RuleViolation("party_with_self", "Propose the party to others.")
        other = living(state, number)
        if not same_place(state, player, other):
            raise RuleViolation("not_same_square", "Partners must be on your square.")
        if other.revealed_silhouette == player.revealed_silhouette:
            raise RuleViolation(
                "same_silhouette", "Characters with the same silhouette cannot form a party."
            )
        if len(state.party_of(number)) > 1:
            raise RuleViolation("already_in_party", "A proposed partner is already in a party.")
    return [Draft(PartyProposed(leader=player.seat, partners=tuple(partners)))]


@CHOJIN_LOCKE.command("answer_party")
class AnswerParty(Command):
    accepts: bool


@CHOJIN_LOCKE.decides(AnswerParty)
def answer_party(t: ChojinTable, command: AnswerParty, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    proposal = t.not_ended().proposal
    if proposal is None or number not in proposal.waiting:
        raise RuleViolation("no_answer_due", "No party proposal waits for your answer.")
    answered = Draft(PartyAnswered(seat=number, accepts=command.accepts))
    if not command.accepts or len(proposal.waiting) > 1:
        return [answered]
    formed = PartyFormed(leader=proposal.leader, partners=tuple(proposal.partners))
    return [answered, Draft(formed)]


@CHOJIN_LOCKE.command("dissolve_party")
class DissolveParty(Command):
    """パーティーの解散 (support action of the leader)."""


@CHOJIN_LOCKE.decides(DissolveParty)
def dissolve_party(t: ChojinTable, command: DissolveParty, actor: str) -> list[Draft]:
    state = playing(t)
    no_combat_support(state, "パーティーの解散")
    turn, player = my_turn(state, actor)
    in_phase(turn, "support", "main")  # 2002: 組み外し is a move-phase action
    if state.rules == "2020" and turn.phase == "main":
        raise RuleViolation("wrong_phase", "Dissolve a party in a support phase.")
    if player.seat not in state.parties:
        raise RuleViolation("not_a_leader", "Only a party's leader dissolves it.")
    return [Draft(PartyDissolved(leader=player.seat))]
