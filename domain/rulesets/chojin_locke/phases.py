"""4.3/4.4: which phases a character's turn has, and who plays next."""

from __future__ import annotations

from domain.rulesets.chojin_locke.state import (
    PHASES,
    PHASES_2002,
    ChojinState,
    Phase,
    Player,
    Turn,
)

# what each phase is for, so both turn structures share the actions
ROLES: dict[str, str] = {
    "check": "check",
    "support1": "support",
    "support2": "support",
    "main": "main",
    "square": "square",
    "combat": "combat",
    "victory": "victory",  # 2002: only 勝利宣言
    "recovery": "check",
    "move": "main",
    "instruction": "square",
    "destruction": "destruction",
}


def role(phase: str) -> str:
    return ROLES[phase]


def turn_phases(rules: str) -> tuple[Phase, ...]:
    return PHASES_2002 if rules == "2002" else PHASES


def phases_for(player: Player, rules: str = "2020", turn: Turn | None = None) -> tuple[Phase, ...]:
    """The phases of `player`'s turn; `turn` is its current turn, if it is playing one."""
    phases = turn_phases(rules)
    if player.condition in ("bound", "partner") or (turn is not None and turn.bound):
        # 4.4: everything but the check phase is skipped, in the turn a 拘束 ends too (line 705)
        return tuple(p for p in phases if role(p) == "check")
    if player.condition == "arrested":
        # the main action must be the escape check
        return tuple(p for p in phases if role(p) in ("check", "main"))
    return phases


def takes_turns(state: ChojinState, player: Player) -> bool:
    if not player.active:
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
