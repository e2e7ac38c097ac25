"""4.3 support actions: シートオープン, 改心, 勝利宣言 (with the objection window), 単独勝利宣言."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.board import same_place
from domain.rulesets.chojin_locke.combat.flow import support_turn
from domain.rulesets.chojin_locke.combat.leaving import leaver_in_support
from domain.rulesets.chojin_locke.declarations import check_declaration, declared_roll
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.fields import FACES, Faces
from domain.rulesets.chojin_locke.guards import living, no_combat_support, playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player
from domain.rulesets.chojin_locke.turn import in_phase, my_turn
from domain.rulesets.chojin_locke.turn_events import (
    Checked,
    Converted,
    GameOver,
    SheetOpened,
    VictoryAnswered,
    VictoryDeclared,
)


def _support(
    t: ChojinTable, actor: str, *roles: str, in_combat: bool = False
) -> tuple[ChojinState, Player]:
    """The turn player in a support phase; with `in_combat`, during a combat the fighter in a
    support phase of its combat turn instead (5.2)."""
    state = playing(t)
    if in_combat and state.combat is not None:
        fighter = support_turn(state, actor)
        assert fighter.seat is not None
        return state, state.players[fighter.seat]
    if in_combat and state.aftermath is not None:
        return state, state.players[leaver_in_support(state, actor)]
    turn, player = my_turn(state, actor)
    in_phase(turn, *(roles or ("support",)))
    return state, player


def _opened(player: Player) -> list[Draft]:
    if player.sheet_open:
        return []
    assert player.sheet is not None
    return [Draft(SheetOpened(seat=player.seat, sheet=player.sheet, faction=player.faction))]


@CHOJIN_LOCKE.command("open_sheet")
class OpenSheet(Command):
    pass


@CHOJIN_LOCKE.decides(OpenSheet)
def open_sheet(t: ChojinTable, command: OpenSheet, actor: str) -> list[Draft]:
    _state, player = _support(t, actor, in_combat=True)
    if player.sheet_open:
        raise RuleViolation("sheet_open", "Your sheet is already open.")
    return _opened(player)


@CHOJIN_LOCKE.command("convert")
class Convert(Command):
    """改心: open your sheet, ESP level check against a character on your square."""

    target: int = Field(ge=1, le=16)
    declared: int = Field(ge=0, le=12)
    faces: Faces = FACES


@CHOJIN_LOCKE.decides(Convert)
def convert(t: ChojinTable, command: Convert, actor: str) -> list[Draft]:
    state, player = _support(t, actor, in_combat=True)
    if player.faction == "S":
        raise RuleViolation("special_cannot_convert", "Special characters cannot 改心.")
    target = living(state, command.target)
    if command.target == player.seat:
        raise RuleViolation("convert_other", "改心 targets another character.")
    if not same_place(state, player, target):
        raise RuleViolation("not_same_square", "改心 needs the target on your square.")
    assert state.turn is not None
    tried = state.turn.converted
    if state.combat is not None:
        tried = state.combat.converted
    elif state.aftermath is not None:
        tried = state.aftermath.converted
    if command.target in tried:
        raise RuleViolation("converted_this_turn", "You have tried 改心 on them this turn.")
    check_declaration(player, "esp_level", command.declared)
    rolled = declared_roll(t.dice, "2D6", command.declared, command.faces)
    ok = rolled.success
    checked = Checked(
        seat=player.seat,
        purpose="conversion",
        stat="esp_level",
        declared=command.declared,
        roll=rolled.record,
        success=ok,
    )
    converted = Converted(
        seat=player.seat, target=command.target, faction=player.faction, success=ok
    )
    return [*_opened(player), Draft(checked), Draft(converted)]


@CHOJIN_LOCKE.command("declare_victory")
class DeclareVictory(Command):
    sole: bool = False


@CHOJIN_LOCKE.decides(DeclareVictory)
def declare_victory(t: ChojinTable, command: DeclareVictory, actor: str) -> list[Draft]:
    no_combat_support(playing(t), "勝利宣言")
    state, player = _support(t, actor, "support", "victory")
    others = [p for p in state.players.values() if p.seat != player.seat]
    if command.sole:
        if player.faction != "S":
            raise RuleViolation(
                "sole_is_special", "Only a Special character declares sole victory."
            )
        if any(p.alive for p in others):
            raise RuleViolation("others_alive", "単独勝利宣言 needs every other character dead.")
        over = GameOver(reason="sole_victory", faction="S", seat=player.seat)
        return [*_opened(player), *end_game(t, over)]
    if player.faction == "S":
        raise RuleViolation("special_no_victory", "Special characters declare only sole victory.")
    waiting = tuple(p.seat for p in others if p.alive)
    declared = VictoryDeclared(
        seat=player.seat, faction=player.faction, sole=False, waiting=waiting
    )
    drafts = [*_opened(player), Draft(declared)]
    if not waiting:
        over = GameOver(reason="victory", faction=player.faction, seat=player.seat)
        drafts += end_game(t, over)
    return drafts


@CHOJIN_LOCKE.command("answer_victory")
class AnswerVictory(Command):
    objects: bool


@CHOJIN_LOCKE.decides(AnswerVictory)
def answer_victory(t: ChojinTable, command: AnswerVictory, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    victory = t.not_ended().victory
    if victory is None or number not in victory.waiting:
        raise RuleViolation("no_answer_due", "No victory declaration waits for your answer.")
    answered = Draft(VictoryAnswered(seat=number, objects=command.objects))
    if command.objects or len(victory.waiting) > 1:
        return [answered]
    over = GameOver(reason="victory", faction=victory.faction, seat=victory.seat)
    return [answered, *end_game(t, over)]
