"""4.3 戦闘発生フェイズ: starting a combat. 「自分と同じマスに他のキャラクターがいる場合、戦闘を
発生させることができます。ただし、戦闘を発生させることができるのは主要行動で移動・テレポート移動・
パスのいずれかの行動を行ったキャラクターだけです。」 Everyone on the square takes part."""

from __future__ import annotations

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.board import key, same_place, silhouette_identity
from domain.rulesets.chojin_locke.combat.flow_events import CombatStarted, released
from domain.rulesets.chojin_locke.combat.leaving import aftermath_combat
from domain.rulesets.chojin_locke.grid import cell_key
from domain.rulesets.chojin_locke.guards import playing, stage
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player
from domain.rulesets.chojin_locke.turn import AFTER, in_phase, my_turn


def no_combat(state: ChojinState) -> None:
    """The refusal of normal-turn commands while a combat runs."""
    if state.combat is not None:
        raise RuleViolation(
            "combat_running", "A combat is running: the turn goes on when it is over."
        )


def square_of(state: ChojinState, player: Player) -> str:
    if state.stage == "base":
        assert player.cell is not None
        return cell_key(player.cell)
    assert player.position is not None
    return key(player.position.planet, player.position.square)


@CHOJIN_LOCKE.command("start_combat")
class StartCombat(Command):
    """戦闘発生: the turn player starts a combat with every character on its square."""


@CHOJIN_LOCKE.decides(StartCombat)
def start_combat(t: ChojinTable, command: StartCombat, actor: str) -> list[Draft]:
    state = playing(t)
    if state.aftermath is not None and state.combat is None:
        return aftermath_combat(t, state, actor)  # 5.7: a leaver's 戦闘発生フェイズ
    turn, player = my_turn(state, actor)
    stage(state, "planet", "base")
    no_combat(state)
    in_phase(turn, "combat")
    if turn.main not in AFTER:
        raise RuleViolation(
            "no_move_or_pass",
            "Only a character whose main action was 移動, テレポート移動 or パス starts a combat.",
        )
    if player.position is None and player.cell is None:
        raise RuleViolation("not_on_board", "Your piece is not on the board.")
    others = [
        p.seat
        for _, p in sorted(state.players.items())
        if p.seat != player.seat and p.active and same_place(state, player, p)
    ]
    if not others:
        raise RuleViolation("nobody_here", "No other character is on your square.")
    fighters = tuple(sorted([player.seat, *others]))
    started = CombatStarted(
        seat=player.seat,
        square=square_of(state, player),
        stage="base" if state.stage == "base" else "planet",
        fighters=fighters,
        released=released(state, fighters),
    )
    return [Draft(started)]


def forced_targets(state: ChojinState, fighter_id: int) -> list[int]:
    """3.2 (l.401–402): 「シルエットカードが同一のキャラクターが戦闘に参加しており、自分が攻撃を
    行う場合、必ずシルエットカードが同一のキャラクターを攻撃対象に選択しなければいけません。」
    The fighters an attack by `fighter_id` must choose among; empty: any target."""
    fight = state.combat
    if fight is None or fighter_id not in state.players:
        return []
    mine = silhouette_identity(state, fighter_id)
    if mine is None:
        return []
    return [
        f.id
        for _, f in sorted(fight.fighters.items())
        if f.id != fighter_id
        and f.seat is not None
        and not f.left
        and state.players[f.seat].alive
        and silhouette_identity(state, f.seat) == mine
    ]
