"""Who may act and when: the refusals every command shares (the table's own, plus this game's
victory window, stages and living characters)."""

from __future__ import annotations

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player


def playing(t: ChojinTable) -> ChojinState:
    state = t.started()
    if state.victory is not None:
        raise RuleViolation(
            "victory_pending", "A victory declaration is waiting for every player's answer."
        )
    if state.combat is not None and state.combat.dying:
        # 3.1 l.284–285: a death's [死亡時] window comes before what follows (combat/death.py)
        waiting = ", ".join(f"seat {n}" for n in state.combat.dying)
        raise RuleViolation(
            "death_pending",
            "A character has just died: its [死亡時] window comes first ({waiting}: "
            "death_ability).",
            params={"waiting": waiting},
        )
    return state


def no_combat_support(state: ChojinState, what: str) -> None:
    """勝利宣言 and パーティーの解散 are no combat support actions (5.2 l.963–968), and a leaver's
    支援フェイズ is a combat's (5.7 l.1132–1133 「戦闘中の支援フェイズとして扱われるので勝利宣言や
    パーティーの解散を行うことはできません」): refused while a combat or its aftermath runs,
    whoever asks, with the reason rather than a turn or phase the asker is not in."""
    if state.combat is not None:
        raise RuleViolation(
            "combat_running",
            "No {what} during a combat: its support phases allow none.",
            params={"what": what},
        )
    if state.aftermath is not None:
        raise RuleViolation(
            "aftermath_running",
            "No {what} while characters that left a combat play their phases: their 支援フェイズ "
            "is a "
            "combat's.",
            params={"what": what},
        )


def stage(state: ChojinState, *stages: str) -> None:
    if state.stage not in stages:
        raise RuleViolation(
            "wrong_stage",
            "This is not possible now (the game is at: {stage}).",
            params={"stage": state.stage},
        )


def living(state: ChojinState, number: int) -> Player:
    player = state.players.get(number)
    if player is None or player.sheet is None:
        seats = ", ".join(str(s) for s, p in sorted(state.players.items()) if p.sheet)
        raise RuleViolation(
            "no_character",
            "Seat {number} has no character (the seats: {value}).",
            params={"number": number, "value": seats or "none"},
        )
    if not player.alive:
        raise RuleViolation("character_dead", "A dead character cannot act.")
    return player
