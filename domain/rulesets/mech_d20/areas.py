"""Area templates (L233–263): the squares an area power covers, and so its targets.

- 近接範囲・爆発X (L235–236): every square within X of the user.
- 近接範囲・噴射X (L238–241): an X×X square of squares touching a square adjacent to the user,
  never covering the user; `origin` is its top-left square.
- 近接範囲・直線X (L243–248): X squares in one of the eight directions from the user (`direction`,
  e.g. [1, 0] or [1, -1]), never covering the user; an L or larger user's line is two squares
  wide, its own width straight, and for a diagonal the one-square line from the corner facing
  that way copied one square to the right or left (`side`: [1, 0] or [-1, 0]) (L246–248).
- 遠隔範囲・爆発X Yマス以内 (L260–263): `origin` within Y of the user, seen by it, not a wall;
  every square within X of the origin, the origin included.

A unit is in the area if any of its squares is, and the area reaches it if a clear line runs
from the area's source (the user, or the origin) to it (L341's 効果線, ruling MD-026). Who of those
is a target is the power's text: the declaration names them, each inside the area, or leaves
them out to take every unit inside but the user (ruling MD-028).
"""

from __future__ import annotations

from domain.model.errors import KirokuError, RuleViolation

from . import geometry, sight
from .sheet import Power
from .state import Grid, Square, Unit


def _within(grid: Grid, centre: list[Square], x: int) -> set[Square]:
    xs = [s[0] for s in centre]
    ys = [s[1] for s in centre]
    return {
        (i, j)
        for i in range(min(xs) - x, max(xs) + x + 1)
        for j in range(min(ys) - x, max(ys) + x + 1)
        if geometry.inside(grid, (i, j))
    }


def template(
    grid: Grid,
    user: Unit,
    power: Power,
    origin: Square | None,
    direction: Square | None,
    side: Square | None,
) -> tuple[set[Square], list[Square]]:
    """The squares the area covers, and the squares its effects start from."""
    mine = geometry.squares_of(user)
    x = power.size
    if power.range == "遠隔範囲":
        if origin is None:
            raise KirokuError(
                "origin_needed",
                "{power}: 起点マス (origin) を示すこと。",
                params={"power": power.name},
            )
        far = geometry.from_square(user, origin)
        if power.distance is not None and (far is None or far > power.distance):
            raise RuleViolation(
                "out_of_range",
                "{power}の起点マスは{distance}マス以内でなければならない (L261)。",
                params={"power": power.name, "distance": power.distance},
            )
        if origin in set(grid.blocking) or not geometry.inside(grid, origin):
            raise RuleViolation("bad_origin", "壁などの障害物を起点マスにはできない (L262)。")
        if not sight.sees_square(grid, user, origin):
            raise RuleViolation(
                "cannot_see_square", "起点マスは使用者から見えるマスである (L261)。"
            )
        return _within(grid, [origin], x), [origin]
    shape = power.shape or "爆発"
    if shape == "爆発":
        return _within(grid, mine, x) - set(mine), mine
    if shape == "噴射":
        if origin is None:
            raise KirokuError(
                "origin_needed",
                "{power}: 噴射の左上のマス (origin) を示すこと。",
                params={"power": power.name},
            )
        area = {(origin[0] + i, origin[1] + j) for i in range(x) for j in range(x)}
        touching = _within(grid, mine, 1) - set(mine)
        if area & set(mine) or not area & touching:
            raise RuleViolation(
                "bad_template",
                "噴射の範囲は使用者に隣接するマスと重なり、使用者を含まない (L239–241)。",
            )
        return {s for s in area if geometry.inside(grid, s)}, mine
    return _line(grid, mine, x, direction, side, power), mine


def _line(
    grid: Grid,
    mine: list[Square],
    x: int,
    direction: Square | None,
    side: Square | None,
    power: Power,
) -> set[Square]:
    if direction is None or direction == (0, 0) or max(map(abs, direction)) != 1:
        raise KirokuError(
            "direction_needed",
            "{power}: 直線の向き (direction) を示すこと。",
            params={"power": power.name},
        )
    dx, dy = direction
    xs = [s[0] for s in mine]
    ys = [s[1] for s in mine]
    if len(mine) == 1 or (dx == 0 or dy == 0):
        # a 1×1 user, or a big one straight: its own width (L247)
        starts = [s for s in mine if (dx == 0 or s[0] == (max(xs) if dx > 0 else min(xs)))]
        starts = [s for s in starts if (dy == 0 or s[1] == (max(ys) if dy > 0 else min(ys)))]
        lines = [{(s[0] + dx * k, s[1] + dy * k) for k in range(1, x + 1)} for s in starts]
        area = set().union(*lines)
    else:  # a big user, diagonally: from its corner, copied right or left (L248)
        corner = (max(xs) if dx > 0 else min(xs), max(ys) if dy > 0 else min(ys))
        one = {(corner[0] + dx * k, corner[1] + dy * k) for k in range(1, x + 1)}
        if side is None or side not in ((1, 0), (-1, 0)):
            raise KirokuError("side_needed", "L以上の斜めの直線: 複写する向き (side) を示すこと。")
        area = one | {(s[0] + side[0], s[1]) for s in one}
    return {s for s in area - set(mine) if geometry.inside(grid, s)}


def inside(area: set[Square], unit: Unit) -> bool:
    return bool(area & set(geometry.squares_of(unit)))


def reached(grid: Grid, sources: list[Square], unit: Unit) -> bool:
    return sight.line(grid, sources, geometry.squares_of(unit))
