"""4.3/4.4: which phases a character's turn has, and who plays next."""

from __future__ import annotations

from domain.rulesets.chojin_locke.state import PHASES, ChojinState, Phase, Player


def phases_for(player: Player) -> tuple[Phase, ...]:
    if player.condition in ("bound", "partner"):
        return ("check",)  # 4.4: everything but the check phase is skipped
    if player.condition == "arrested":
        return ("check", "main")  # the main action must be the escape check
    return PHASES


def takes_turns(state: ChojinState, player: Player) -> bool:
    if not player.alive:
        return False
    # 4.5: base players' turns are skipped in 惑星編
    return not (state.stage == "planet" and player.side != "explorer")


def next_seat(state: ChojinState, current: int) -> tuple[int | None, tuple[int, ...]]:
    """The next player to the right (the next seat number, wrapping), and the seats skipped."""
    seats = sorted(state.players)
    start = seats.index(current)
    skipped: list[int] = []
    for offset in range(1, len(seats) + 1):
        candidate = seats[(start + offset) % len(seats)]
        if takes_turns(state, state.players[candidate]):
            return candidate, tuple(skipped)
        skipped.append(candidate)
    return None, tuple(skipped)
