"""4.1: how many characters of each kind are dealt for a number of players."""

from __future__ import annotations

from domain.model.errors import KirokuError, RuleViolation
from domain.model.messages import Message

# players → ((L), G, E, S), from the table in 4.1 of the 2020 basic rules
COUNTS: dict[int, tuple[int, int, int, int]] = {
    5: (1, 1, 2, 1),
    6: (1, 1, 2, 2),
    7: (1, 2, 3, 1),
    8: (1, 2, 3, 2),
    9: (1, 2, 3, 3),
    10: (1, 3, 4, 2),
    11: (1, 3, 4, 3),
}


def character_counts(players: int) -> tuple[int, int, int, int]:
    try:
        return COUNTS[players]
    except KeyError:
        raise RuleViolation("bad_player_count", _wrong_count(players)) from None


def check_player_count(players: int) -> None:
    """At game creation: the same refusal, as a bad request (422) rather than a conflict."""
    if players not in COUNTS:
        raise KirokuError("bad_player_count", _wrong_count(players))


def _wrong_count(players: int) -> Message:
    return Message("超人ロック is played by 5 to 11 players, not {players}.", {"players": players})


def planet_card_count(players: int) -> int:
    """6.2: fewer planet cards with 5 or 6 players."""
    return {5: 18, 6: 24}.get(players, 36)


def flip_count(players: int, explorers: int) -> int:
    """4.5 (line 769): each base player turns 「[18÷(探索プレイヤーの人数)](端数切り上げ)」
    unused planet cards; 6.2 (line 1354), with 6 players or fewer, the cards laid instead of 18."""
    dividend = planet_card_count(players) if players <= 6 else 18
    return -(-dividend // max(explorers, 1))


def ambush_count(players: int) -> int:
    return {5: 2, 6: 3}.get(players, 4)
