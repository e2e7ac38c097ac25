"""Where faces come from while a command is evaluated, in the order the command rolls them.

A command never sees where its faces come from: it asks the `Roller` for `count` dice of
`sides`, in order, and the roller answers from the faces a player gave (`given_faces`) or
from a fair draw (`Expression.roll`). Because rerolled dice (`3R6[6]`, `2U6[6]`) are asked
for only after the faces they depend on, one loop serves both, and the requests a roll made
are recorded so that a fair draw can be recomputed request by request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .errors import BAD_FACES, DiceError
from .limits import MAX_REROLLS
from .request import DiceRequest

Take = Callable[[int, int], Sequence[int]]
"""(count, sides) -> that many faces."""


class Roller:
    """Hands out faces for each roll a command makes and records the requests, in order."""

    def __init__(self, take: Take) -> None:
        self._take = take
        self.requests: list[DiceRequest] = []
        self.faces: list[int] = []
        self._rerolled = 0

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        if count == 0:  # a pool of 0 dice (evasion dice can run out) rolls nothing
            return ()
        faces = tuple(self._take(count, sides))
        self.requests.append(DiceRequest(count, sides))
        self.faces.extend(faces)
        return faces

    def mark(self) -> int:
        return len(self.faces)

    def faces_since(self, mark: int) -> tuple[int, ...]:
        """The faces rolled since `mark`: one command's own, inside a repetition too."""
        return tuple(self.faces[mark:])

    def reroll_room(self, wanted: int) -> int:
        """How many of `wanted` further rerolled dice may still be rolled (MAX_REROLLS)."""
        allowed = min(wanted, MAX_REROLLS - self._rerolled)
        self._rerolled += allowed
        return allowed


def describe(requests: Sequence[DiceRequest]) -> str:
    return " + ".join(f"{r.count}D{r.sides}" for r in requests) or "no dice"


def checked_faces(faces: object) -> tuple[int, ...]:
    """The faces as a tuple of plain integers, or a refusal saying what is wrong."""
    if isinstance(faces, str | bytes) or not isinstance(faces, Sequence):
        got = "a string" if isinstance(faces, str | bytes) else type(faces).__name__
        raise DiceError(
            BAD_FACES, "faces must be a list of whole numbers, got {got}", params={"got": got}
        )
    for index, face in enumerate(faces):
        # bool is an int subclass; True is not a face.
        if isinstance(face, bool) or not isinstance(face, int):
            raise DiceError(
                BAD_FACES,
                "face {index} must be an integer, got {face}",
                params={"index": index + 1, "face": face},
            )
    return tuple(faces)


def check_count(requests: Sequence[DiceRequest], faces: Sequence[int]) -> None:
    """For commands whose dice never depend on their faces: exactly the faces requested."""
    expected = sum(r.count for r in requests)
    if len(faces) != expected:
        raise DiceError(
            BAD_FACES,
            "expected {expected} faces for {requests}, got {n_faces}",
            params={"expected": expected, "requests": describe(requests), "n_faces": len(faces)},
        )


def given_faces(faces: tuple[int, ...]) -> Take:
    """A source that hands out `faces` in order, each checked against the die it is for."""
    state = {"next": 0, "request": 0}

    def take(count: int, sides: int) -> tuple[int, ...]:
        start = state["next"]
        state["request"] += 1
        if start + count > len(faces):
            raise DiceError(
                BAD_FACES,
                "not enough faces: {n_faces} given, but the roll needs at least {start} (a reroll "
                "asks for {count}D{sides} more)",
                params={
                    "n_faces": len(faces),
                    "start": start + count,
                    "count": count,
                    "sides": sides,
                },
            )
        taken = faces[start : start + count]
        for offset, face in enumerate(taken):
            if not 1 <= face <= sides:
                raise DiceError(
                    BAD_FACES,
                    "face {start} is {face}, outside 1..{sides} for request {state} "
                    "({count}D{sides})",
                    params={
                        "start": start + offset + 1,
                        "face": face,
                        "sides": sides,
                        "state": state["request"],
                        "count": count,
                    },
                )
        state["next"] = start + count
        return taken

    return take
