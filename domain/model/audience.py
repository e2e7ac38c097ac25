"""Who is acting and who may see what: the single visibility rule every read path uses."""

from __future__ import annotations

import re

GM = "gm"
HOST = "host"  # the creator of a game without a referee, when it does not also sit at a seat
PUBLIC = "public"
SYSTEM = "system"
_SEAT = re.compile(r"^seat:([1-9][0-9]?)$")


def seat_actor(seat: int) -> str:
    return f"seat:{seat}"


def seat_number(actor: str) -> int | None:
    match = _SEAT.match(actor)
    return int(match.group(1)) if match else None


def is_audience(value: str) -> bool:
    return value in (GM, HOST, PUBLIC) or seat_number(value) is not None


def may_see(viewer: str, audience: tuple[str, ...], *, revealed: bool) -> bool:
    """May `viewer` read a sealed body addressed to `audience`?

    An empty audience is the server's own secret (the dice seed): not even the GM reads it
    before it is revealed, so nobody can predict a roll. A host is not a GM: it reads only
    what is addressed to it (as `host`, or as the seat it also sits at).
    """
    if revealed:
        return True
    if not audience:
        return False
    return viewer == GM or viewer in audience
