"""One Ninja Slayer pool of d6 against a difficulty, shared by every NS command."""

from __future__ import annotations

from typing import NamedTuple

from domain.dice.words import DiceRequest, Roller

from .difficulty import Difficulty

NO_DICE = "(ダイスなし)"


class PoolRoll(NamedTuple):
    faces: tuple[int, ...]
    successes: int
    head: str
    """BCDice's first two steps: `(4B6>=4) ＞ 2,3,6,4`."""


def pool_requests(count: int) -> tuple[DiceRequest, ...]:
    # A pool of 0 dice is legal play (evasion dice can run out) and rolls nothing.
    return (DiceRequest(count, 6),) if count else ()


def roll_pool(count: int, difficulty: Difficulty, roller: Roller) -> PoolRoll:
    faces = roller.roll(count, 6)
    shown = ",".join(map(str, faces)) if faces else NO_DICE
    head = f"({difficulty.roll_label(count)}) ＞ {shown}"
    return PoolRoll(faces=faces, successes=difficulty.successes(faces), head=head)
