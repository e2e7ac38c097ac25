"""4.3: the main actions (exactly one a turn) and the (stat) check effects ask for."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke import recovery
from domain.rulesets.chojin_locke.base_events import BaseMoved, TeleportGranted
from domain.rulesets.chojin_locke.board import same_place, step
from domain.rulesets.chojin_locke.combat.conditions import fainted
from domain.rulesets.chojin_locke.declarations import check_declaration, declared_roll
from domain.rulesets.chojin_locke.fields import FACES, Faces, PlanetNumber, Stat
from domain.rulesets.chojin_locke.grid import step_to
from domain.rulesets.chojin_locke.guards import living, playing, stage
from domain.rulesets.chojin_locke.party_events import PartyTeleportDeclared
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import Cell, ChojinState, Player, Position, Turn
from domain.rulesets.chojin_locke.turn import in_phase, my_turn
from domain.rulesets.chojin_locke.turn_events import Acted, Checked, EscapeChecked, Moved

PRISON_CHART = "刑務所チャート"


def _main(t: ChojinTable, actor: str) -> tuple[ChojinState, Turn, Player]:
    state = playing(t)
    turn, player = my_turn(state, actor)
    in_phase(turn, "main")
    if turn.main is not None:
        raise RuleViolation("main_action_used", "You have already taken this turn's main action.")
    return state, turn, player


def must_pass(turn: Turn) -> None:
    """3.2, lines 398–399: 「通常ターン開始時の時点でシルエットカードが同一のキャラクターが
    同じマスにいる場合、そのターンの主要フェイズでは必ずパスを行います。」"""
    if turn.must_pass:
        raise RuleViolation(
            "must_pass",
            "A character with your silhouette card was on your square when your turn began: "
            "this turn's main action is パス.",
        )


def free_main(
    t: ChojinTable, actor: str, *, outside_ok: bool = False, passing: bool = False
) -> tuple[ChojinState, Player]:
    state, turn, player = _main(t, actor)
    if player.condition == "arrested":
        raise RuleViolation("must_escape", "An arrested character's main action is 脱出チェック.")
    if not passing:
        must_pass(turn)
    if player.outside and not outside_ok:
        raise RuleViolation(
            "outside_the_base", "Around the base your main action is 侵入チェック or 回復."
        )
    return state, player


def in_base(state: ChojinState, player: Player) -> Cell:
    if player.cell is None:
        raise RuleViolation("not_on_board", "Your piece is not in the base.")
    return player.cell


def _on_board(state: ChojinState, player: Player) -> Position:
    stage(state, "planet")
    if player.position is None:
        raise RuleViolation("not_on_board", "Your piece is not on the board.")
    return player.position


def _base_move(state: ChojinState, player: Player, command: Move) -> list[Draft]:
    cell = in_base(state, player)
    if command.direction is None:
        raise RuleViolation("bad_move", "In the base, move up, down, left or right.")
    target = step_to(cell, command.direction)
    if target is None:
        raise RuleViolation("off_the_base", "The base's edges do not wrap.")
    return [Draft(BaseMoved(seat=player.seat, how="move", to=target))]


@CHOJIN_LOCKE.command("move")
class Move(Command):
    """通常移動: one square left or right, or from a spaceport to another planet's."""

    direction: Literal["left", "right", "up", "down"] | None = None
    planet: PlanetNumber | None = None


@CHOJIN_LOCKE.decides(Move)
def move(t: ChojinTable, command: Move, actor: str) -> list[Draft]:
    state, player = free_main(t, actor)
    if state.stage == "base":
        return _base_move(state, player, command)
    position = _on_board(state, player)
    if command.direction in ("up", "down"):
        raise RuleViolation("bad_move", "On a planet you move left or right only.")
    if (command.direction is None) == (command.planet is None):
        raise RuleViolation("bad_move", "Give either a direction or a planet's spaceport.")
    if command.planet is not None:
        if position.square != 0 or command.planet == position.planet:
            raise RuleViolation(
                "not_from_spaceport", "Only from a spaceport to another planet's spaceport."
            )
        target = Position(planet=command.planet, square=0)
        return [Draft(Moved(seat=player.seat, how="spaceport", to=target))]
    assert command.direction in ("left", "right")  # up and down were refused above
    return [Draft(Moved(seat=player.seat, how="move", to=step(position, command.direction, 1)))]


@CHOJIN_LOCKE.command("teleport")
class Teleport(Command):
    """テレポート移動: declare ESP level, 1D6 ≤ declared moves that many squares one way."""

    declared: int = Field(ge=0, le=12)
    direction: Literal["left", "right"] | None = None  # 惑星編 only: one way round the planet
    faces: Faces = FACES


@CHOJIN_LOCKE.decides(Teleport)
def teleport(t: ChojinTable, command: Teleport, actor: str) -> list[Draft]:
    state, player = free_main(t, actor)
    if state.stage == "base":
        in_base(state, player)
    else:
        _on_board(state, player)
        if command.direction is None:
            raise RuleViolation("direction_required", "On a planet, teleport left or right.")
    check_declaration(player, "esp_level", command.declared, minimum=1)
    partners = state.parties.get(player.seat)
    if partners:
        # 6.1: every partner declares too, each checked against its own sheet
        faces = tuple(command.faces) if command.faces is not None else None
        event = PartyTeleportDeclared(
            seat=player.seat,
            declared=command.declared,
            direction=command.direction,
            waiting=tuple(partners),
            faces=faces,
        )
        return [Draft(event)]
    return _teleport_roll(t, state, player, command.declared, command.direction, command.faces)


def _teleport_roll(
    t: ChojinTable,
    state: ChojinState,
    player: Player,
    declared: int,
    direction: Literal["left", "right"] | None,
    faces: list[int] | None,
) -> list[Draft]:
    rolled = declared_roll(t.dice, "1D6", declared, faces)
    ok = rolled.success
    checked = Checked(
        seat=player.seat,
        purpose="teleport",
        stat="esp_level",
        declared=declared,
        roll=rolled.record,
        success=ok,
    )
    if not ok:
        return [Draft(checked), Draft(Acted(seat=player.seat, action="teleport_failed"))]
    if state.stage == "base":
        return [Draft(checked), Draft(TeleportGranted(seat=player.seat, squares=rolled.total))]
    assert player.position is not None and direction is not None
    target = step(player.position, direction, rolled.total)
    return [Draft(checked), Draft(Moved(seat=player.seat, how="teleport", to=target))]


@CHOJIN_LOCKE.command("declare_teleport")
class DeclareTeleport(Command):
    """A partner's own ESP level declaration for the leader's teleport."""

    declared: int = Field(ge=0, le=12)


@CHOJIN_LOCKE.decides(DeclareTeleport)
def declare_teleport(t: ChojinTable, command: DeclareTeleport, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    turn = state.turn
    pending = turn.party_teleport if turn else None
    if turn is None or pending is None or number not in pending.waiting:
        raise RuleViolation("no_declaration_due", "No party teleport waits for your declaration.")
    player = living(state, number)
    # a partner without ESP may declare 0: the party's teleport then fails
    check_declaration(player, "esp_level", command.declared)
    drafts = [Draft(PartyTeleportDeclared(seat=number, declared=command.declared))]
    if len(pending.waiting) > 1:
        return drafts
    lowest = min([*pending.declared.values(), command.declared])
    leader = state.players[turn.seat]
    # the roll is the leader's teleport at the lowest declaration (6.1)
    faces = list(pending.faces) if pending.faces is not None else None
    return drafts + _teleport_roll(t, state, leader, lowest, pending.direction, faces)


@CHOJIN_LOCKE.command("recover")
class Recover(Command):
    stat: Literal["endurance", "willpower"]


@CHOJIN_LOCKE.decides(Recover)
def recover(t: ChojinTable, command: Recover, actor: str) -> list[Draft]:
    state, player = free_main(t, actor, outside_ok=True)
    if state.rules == "2002" and command.stat != "endurance":
        raise RuleViolation("not_in_2002", "The 2002 rules recover endurance only.")
    card = recovery.blocked_by(state, player)
    if card is not None:
        raise RuleViolation(
            "no_recovery_here", "回復 cannot be declared on {card}.", params={"card": card}
        )
    return [Draft(Acted(seat=player.seat, action="recover", stat=command.stat))]


@CHOJIN_LOCKE.command("treat")
class Treat(Command):
    target: int = Field(ge=1, le=16)


@CHOJIN_LOCKE.decides(Treat)
def treat(t: ChojinTable, command: Treat, actor: str) -> list[Draft]:
    state, player = free_main(t, actor)
    if state.rules == "2002":
        raise RuleViolation("not_in_2002", "The 2002 rules have no 治療.")
    if command.target == player.seat:
        raise RuleViolation("treat_other", "治療 heals another character; use 回復 for yourself.")
    target = living(state, command.target)
    if not same_place(state, player, target):
        raise RuleViolation("not_same_square", "治療 needs the character on your square.")
    return [Draft(Acted(seat=player.seat, action="treat", target=command.target))]


@CHOJIN_LOCKE.command("pass")
class Pass(Command):
    pass


@CHOJIN_LOCKE.decides(Pass)
def pass_(t: ChojinTable, command: Pass, actor: str) -> list[Draft]:
    _state, player = free_main(t, actor, passing=True)
    return [Draft(Acted(seat=player.seat, action="pass"))]


@CHOJIN_LOCKE.command("escape")
class Escape(Command):
    """脱出チェック: an arrested player's main action."""

    faces: Faces = FACES


@CHOJIN_LOCKE.decides(Escape)
def escape(t: ChojinTable, command: Escape, actor: str) -> list[Draft]:
    state, _turn, player = _main(t, actor)
    if player.condition != "arrested":
        raise RuleViolation("not_arrested", "Only an arrested character makes 脱出チェック.")
    modifier = player.prison_failures  # +1 per earlier failure
    rolled = t.dice.roll("2D6", command.faces)
    natural = sum(rolled.faces)
    chart = state.catalog.chart(PRISON_CHART)
    result = chart.lookup(natural + modifier) if chart else None
    # 4.4: 2–5 on the dice always escapes, whatever is added
    escaped = natural <= 5 or bool(result and result.escape)
    text = "脱出成功" if natural <= 5 else (result.result if result else "脱出失敗")
    event = EscapeChecked(
        seat=player.seat,
        modifier=modifier,
        roll=rolled.record,
        total=natural + modifier,
        result=text,
        escaped=escaped,
    )
    return [Draft(event)]


@CHOJIN_LOCKE.command("check")
class Check(Command):
    """A (stat) check asked for by a card or effect: declare the stat, roll 2D6 ≤ declared."""

    stat: Stat
    declared: int = Field(ge=0, le=99)
    reason: str = Field(default="", max_length=200)
    faces: Faces = FACES


@CHOJIN_LOCKE.decides(Check)
def check(t: ChojinTable, command: Check, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "planet", "base")
    player = living(state, number)
    fight = state.combat
    if fight is not None and number in fight.fighters and fainted(fight, fight.fighters[number]):
        # 6.1 l.1266: 「気絶状態のキャラクターはあらゆる行動・チェックを行うことができません。」
        raise RuleViolation("fainted", "A fainted character makes no check (6.1 気絶状態).")
    check_declaration(player, command.stat, command.declared)
    rolled = declared_roll(t.dice, "2D6", command.declared, command.faces)
    event = Checked(
        seat=number,
        purpose="check",
        stat=command.stat,
        declared=command.declared,
        roll=rolled.record,
        success=rolled.success,
        reason=command.reason,
    )
    return [Draft(event)]
