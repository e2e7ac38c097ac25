"""秘密基地編's own main actions: finishing a teleport route, 侵入チェック, and 2002's 破壊."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.actions import free_main, in_base
from domain.rulesets.chojin_locke.base_events import BaseEntered, BaseMoved, KeyDestroyed
from domain.rulesets.chojin_locke.declarations import check_declaration, declared_roll
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.fields import FACES, Col, Faces, Row
from domain.rulesets.chojin_locke.grid import is_outer, reachable
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import Cell
from domain.rulesets.chojin_locke.turn import my_turn
from domain.rulesets.chojin_locke.turn_events import Checked, GameOver


@CHOJIN_LOCKE.command("teleport_to")
class TeleportTo(Command):
    """秘密基地編: after a successful teleport, the square reached (exactly the rolled number
    of steps, turning as you like, never through a square twice)."""

    row: Row
    col: Col


@CHOJIN_LOCKE.decides(TeleportTo)
def teleport_to(t: ChojinTable, command: TeleportTo, actor: str) -> list[Draft]:
    state = playing(t)
    turn, player = my_turn(state, actor)
    if turn.teleport is None or player.cell is None:
        raise RuleViolation("no_teleport", "You have no successful teleport to finish.")
    target = Cell(row=command.row, col=command.col)
    if not reachable(player.cell, target, turn.teleport):
        raise RuleViolation(
            "unreachable",
            "That square is not exactly {teleport} squares away without passing a square twice or "
            "returning to where you started.",
            params={"teleport": turn.teleport},
        )
    return [Draft(BaseMoved(seat=player.seat, how="teleport", to=target))]


@CHOJIN_LOCKE.command("intrude")
class Intrude(Command):
    """侵入チェック: ESP level check, −1 on the dice per earlier failure; success enters at
    the outer square given."""

    declared: int = Field(ge=0, le=12)
    row: Row
    col: Col
    faces: Faces = FACES


@CHOJIN_LOCKE.decides(Intrude)
def intrude(t: ChojinTable, command: Intrude, actor: str) -> list[Draft]:
    state, player = free_main(t, actor, outside_ok=True)
    if not player.outside:
        raise RuleViolation("not_outside", "Only a character around the base makes 侵入チェック.")
    cell = Cell(row=command.row, col=command.col)
    if not is_outer(cell):
        raise RuleViolation("not_outer_square", "Enter on one of the 20 outer squares.")
    check_declaration(player, "esp_level", command.declared)
    failures = player.intrusion_failures
    if state.rules == "2002":
        # 9.3.1: 2D6 ≤ declared level + 情報入手 held + earlier attempts
        target = command.declared + player.info + failures
        rolled = t.dice.roll(f"2D6<={target}", command.faces)
    else:
        # 4.6: −1 on the dice per earlier failure, cumulative
        dice = f"2D6-{failures}" if failures else "2D6"
        rolled = declared_roll(t.dice, dice, command.declared, command.faces)
    ok = rolled.success
    checked = Checked(
        seat=player.seat,
        purpose="intrusion",
        stat="esp_level",
        declared=command.declared,
        roll=rolled.record,
        success=ok,
    )
    if not ok:
        return [Draft(checked)]
    return [Draft(checked), Draft(BaseEntered(seat=player.seat, how="intrusion", to=cell))]


@CHOJIN_LOCKE.command("destroy_key")
class DestroyKey(Command):
    """2002 rules: a Good character on a turned 重要拠点 declares 破壊 (the move-phase action)."""


@CHOJIN_LOCKE.decides(DestroyKey)
def destroy_key(t: ChojinTable, command: DestroyKey, actor: str) -> list[Draft]:
    state, player = free_main(t, actor)
    if state.rules != "2002":
        raise RuleViolation("not_in_2020", "Under the 2020 rules a turned 重要拠点 is destroyed.")
    cell = in_base(state, player)
    square = f"{cell.row}:{cell.col}"
    if square in state.board.base:
        # the same answer for any face-down card: telling a face-down 重要拠点 from another
        # card would show what the base players hid (4.6, line 786: 「この時、探索プレイヤーは
        # 配置場所を見てはいけません。」)
        raise RuleViolation(
            "card_face_down",
            "The card on your square is face down: only an opened 重要拠点 can be destroyed.",
        )
    if square not in state.board.keys or square in state.board.destroyed:
        raise RuleViolation("no_key_here", "There is no standing 重要拠点 on your square.")
    if player.faction != "G":
        raise RuleViolation("good_only", "Only a Good character can destroy a 重要拠点.")
    drafts = [Draft(KeyDestroyed(seat=player.seat, row=cell.row, col=cell.col))]
    if len(state.board.destroyed) + 1 >= len(state.board.keys):
        drafts += end_game(t, GameOver(reason="keys_destroyed", faction="G"))
    return drafts
