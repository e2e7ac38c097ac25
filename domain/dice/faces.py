"""Checking given faces against the requests, then handing them out in order."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import BAD_FACES, DiceError
from .request import DiceRequest


def _describe(requests: Sequence[DiceRequest]) -> str:
    return " + ".join(f"{r.count}D{r.sides}" for r in requests) or "no dice"


def check_faces(requests: Sequence[DiceRequest], faces: Sequence[int]) -> tuple[int, ...]:
    """Return the faces as a tuple, or refuse them with a message saying what was expected."""
    expected = sum(r.count for r in requests)
    if isinstance(faces, str | bytes) or len(faces) != expected:
        got = "a string" if isinstance(faces, str | bytes) else f"{len(faces)}"
        raise DiceError(
            BAD_FACES, f"expected {expected} faces for {_describe(requests)}, got {got}"
        )
    index = 0
    for number, request in enumerate(requests, start=1):
        for _ in range(request.count):
            face = faces[index]
            # bool is an int subclass; True is not a face.
            if isinstance(face, bool) or not isinstance(face, int):
                raise DiceError(BAD_FACES, f"face {index + 1} must be an integer, got {face!r}")
            if not 1 <= face <= request.sides:
                raise DiceError(
                    BAD_FACES,
                    f"face {index + 1} is {face}, outside 1..{request.sides} "
                    f"for request {number} ({request.count}D{request.sides})",
                )
            index += 1
    return tuple(faces)


class FaceReader:
    """Hands out already-checked faces to commands in request order."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self._faces = faces
        self._next = 0

    def take(self, count: int) -> tuple[int, ...]:
        taken = self._faces[self._next : self._next + count]
        self._next += count
        return taken
