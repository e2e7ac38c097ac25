"""4.3: the normal turn's phases in order, the square effect, and the end of a turn."""

from __future__ import annotations

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.model.table import acting_seat
from domain.rulesets.chojin_locke import vigil
from domain.rulesets.chojin_locke.base import lay_base
from domain.rulesets.chojin_locke.base_events import BaseCardTurned
from domain.rulesets.chojin_locke.board import key, same_place, twin_beside
from domain.rulesets.chojin_locke.combat.flow_events import CombatStarted, released
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.grid import cell_key
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.phases import next_seat, phases_for, role
from domain.rulesets.chojin_locke.planet_end import stage_end_draws
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player, Turn
from domain.rulesets.chojin_locke.turn_events import (
    GameOver,
    PhaseEntered,
    PlanetStageEnded,
    SquareTurned,
    TurnBegun,
)

# 4.3 (l.684–685): the main actions after which a combat may be started: 移動 (a step, or to
# another spaceport), テレポート移動 (a failed one too: it was the action taken), パス
AFTER = ("move", "spaceport", "teleport", "teleport_failed", "pass")


def must_fight(state: ChojinState, seat: int) -> bool:
    """3.2 (l.396–397): 「シルエットカードが同一のキャラクターが自分と同じマスにいる場合、可能な
    限り戦闘を発生させなければいけません。」: the turn player could start a combat now and a
    character with its identical silhouette is on its square."""
    turn = state.turn
    return (
        state.rules == "2020"
        and state.combat is None
        and turn is not None
        and turn.seat == seat
        and turn.phase == "combat"
        and turn.main in AFTER
        and twin_beside(state, seat)
    )


def my_turn(state: ChojinState, actor: str) -> tuple[Turn, Player]:
    number = acting_seat(actor)
    turn = state.turn
    if state.stage not in ("planet", "base"):
        turn = None
    if turn is None or turn.seat != number:
        raise RuleViolation("not_your_turn", "It is not your turn.")
    return turn, state.players[number]


def in_phase(turn: Turn, *roles: str) -> None:
    """Is the turn in a phase for one of `roles` (main, support, victory …)?"""
    if role(turn.phase) not in roles:
        raise RuleViolation(
            "wrong_phase",
            "This is not possible in the {phase} phase of the turn.",
            params={"phase": turn.phase},
        )


def on_face_down_base_card(state: ChojinState, player: Player) -> bool:
    cell = player.cell
    return (
        state.stage == "base"
        and player.side == "explorer"
        and cell is not None
        and cell_key(cell) in state.board.base
    )


def base_square_effect(t: ChojinTable, state: ChojinState, player: Player) -> list[Draft]:
    """4.6: an explorer turns the base card under it; a turned 重要拠点 is destroyed (the
    sample card's text, docs/rulings.md); the last one destroyed ends the game."""
    if not on_face_down_base_card(state, player):
        return []
    assert player.cell is not None
    square = cell_key(player.cell)
    name = state.board.base[square]
    card = state.catalog.base_card(name)
    kind = card.kind if card else "key"
    destroyed = kind == "key" and state.rules == "2020"  # 2002: destroyed by 破壊 declared
    event = BaseCardTurned(
        seat=player.seat,
        row=player.cell.row,
        col=player.cell.col,
        card=name,
        kind=kind,
        destroyed=destroyed,
    )
    drafts = [Draft(event)]
    if destroyed and len(state.board.destroyed) + 1 >= len(state.board.keys):
        drafts += end_game(t, GameOver(reason="keys_destroyed", faction="G"))
    return drafts


def square_effect(state: ChojinState, player: Player) -> list[Draft]:
    """An explorer standing on a face-down planet card turns it face up."""
    position = player.position
    if state.stage != "planet" or player.side != "explorer" or position is None:
        return []
    name = state.board.cards.get(key(position.planet, position.square))
    if name is None:
        return []
    card = state.catalog.planet_card(name)
    event = SquareTurned(
        seat=player.seat,
        planet=position.planet,
        square=position.square,
        card=name,
        kind=card.kind,
        text=card.text,
    )
    if card.kind == "ambush":
        return [Draft(event), *ambush_combat(state, player)]
    return [Draft(event)]


def ambush_combat(state: ChojinState, player: Player) -> list[Draft]:
    """4.5 (l.744–745): a 待ち伏せ turned face up starts a combat between everyone on the square
    and the base player who handles it (its placer; if that character can no longer act, the
    first base player who can, docs/rulings.md), whose piece comes onto the square."""
    position = player.position
    assert position is not None
    square = key(position.planet, position.square)
    placer = state.board.ambush_handlers.get(square)
    bases = sorted(s for s, p in state.players.items() if p.side == "base" and p.active)
    handler = placer if placer in bases else (bases[0] if bases else None)
    if handler is None or state.combat is not None:
        return []
    here = [
        p.seat
        for p in state.players.values()
        if p.active and p.seat != handler and same_place(state, player, p)
    ]
    fighters = tuple(sorted([*here, handler]))
    started = CombatStarted(
        seat=player.seat,
        square=square,
        stage="planet",
        fighters=fighters,
        released=released(state, fighters),
        ambush=handler,
    )
    return [Draft(started)]


def _stage_end(state: ChojinState, turn: Turn) -> PlanetStageEnded | None:
    """4.5 (lines 761–764): at the end of each player's turn. A holder of 3 情報入手 ends it on
    information even when its card was the last face-down one (lines 774–778: the holder still
    inspects and gains an ability card); 6.1 (line 1234): a party's pooled count at the end of
    its leader's turn."""
    if state.stage != "planet":
        return None
    explorers = [p for p in state.players.values() if p.side == "explorer"]
    party = state.parties.get(turn.seat)
    pooled = party is not None and sum(state.players[s].info for s in [turn.seat, *party]) >= 3
    if pooled or any(p.info >= 3 for p in explorers):
        return PlanetStageEnded(reason="information")
    if not state.board.cards:
        return PlanetStageEnded(reason="no_cards")
    if not any(p.active for p in explorers):  # disabled explorers explore no more
        return PlanetStageEnded(reason="explorers_dead")
    return None


def end_turn(t: ChojinTable, state: ChojinState, turn: Turn) -> list[Draft]:
    watcher = vigil.due(state)
    if watcher is not None:
        return end_game(t, GameOver(reason="vigil", faction="E", seat=watcher))
    ended = _stage_end(state, turn)
    if ended is not None:
        # 4.6: the base is laid; turns resume once the 重要拠点 are placed and pieces entered
        base = lay_base(t, state)  # the base's shuffle is drawn first, the ability deck's after
        return [Draft(ended), base, *stage_end_draws(t, state, ended)]
    drafts: list[Draft] = []
    following, skipped = next_seat(state, turn.seat)
    if following is not None:
        drafts.append(Draft(TurnBegun(seat=following, number=turn.number + 1, skipped=skipped)))
    return drafts


@CHOJIN_LOCKE.command("next_phase")
class NextPhase(Command):
    """The turn player ends the current phase."""


@CHOJIN_LOCKE.decides(NextPhase)
def next_phase(t: ChojinTable, command: NextPhase, actor: str) -> list[Draft]:
    state = playing(t)
    turn, player = my_turn(state, actor)
    if state.combat is not None:
        # chapter 5: the turn waits while a combat runs; it goes on when the combat is over
        raise RuleViolation(
            "combat_running", "A combat is running: the turn goes on when it is over."
        )
    if state.aftermath is not None:
        # 5.7 l.1155: 「全ての戦闘離脱後の処理も終了した場合、通常ターンに戻ります。」
        raise RuleViolation(
            "aftermath_running",
            "Characters that left the combat play their phases first (aftermath_next).",
        )
    if must_fight(state, player.seat):
        raise RuleViolation(
            "must_start_combat",
            "A character with your silhouette card is on your square: start a combat "
            "(start_combat).",
        )
    phases = phases_for(player, state.rules, turn)
    held = role(turn.phase) == "check" and on_face_down_base_card(state, player)
    if state.rules == "2020" and held:
        # 4.6 (lines 816–818): only an explorer on a face-down base card *at the check phase*
        # skips 支援1 and 主要; one that moves onto such a card later plays its turn out, and the
        # card is turned in the square phase as usual (4.3, lines 668–673)
        phases = tuple(p for p in phases if p not in ("support1", "main"))
    if turn.teleport is not None:
        raise RuleViolation("teleport_pending", "Name the square your teleport reaches first.")
    if turn.party_teleport is not None:
        raise RuleViolation("declarations_pending", "Every partner must declare for the teleport.")
    if state.proposal is not None:
        raise RuleViolation("party_pending", "Every proposed partner must answer first.")
    if role(turn.phase) == "main" and turn.main is None and turn.phase in phases:
        raise RuleViolation("main_action_required", "Take a main action first (パス is one).")
    later = phases[phases.index(turn.phase) + 1 :] if turn.phase in phases else ()
    if not later:
        return end_turn(t, state, turn)
    drafts = [Draft(PhaseEntered(seat=player.seat, phase=later[0]))]
    if role(later[0]) == "square":
        drafts += square_effect(state, player) + base_square_effect(t, state, player)
    return drafts
