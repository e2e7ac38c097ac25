"""What a player looks names up in: the catalog (silhouettes, sheets, cards, charts), the
special abilities and how each is used, and both boards with their squares' numbering, as
`GET /rulesets/chojin_locke` lists them. Everything here is public: the catalog is the box's
contents, not what any seat holds."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.chojin_locke.abilities import timings, unnamed
from domain.rulesets.chojin_locke.board import PLANETS, SQUARES, key
from domain.rulesets.chojin_locke.cards import Catalog
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.grid import SIZE, STEPS, cell_key, is_outer, step_to
from domain.rulesets.chojin_locke.options import ChojinOptions
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import Cell


class _Ref(BaseModel):
    model_config = ConfigDict(frozen=True)


class AbilityRef(_Ref):
    name: str
    tags: tuple[str, ...]
    timing: tuple[str, ...] = Field(description="Its timing tags (3.1)")
    named: bool = Field(
        description="Said aloud when used; false: used without naming it (3.1, lines 261–262, "
        "322–323, 358, 373), the name sealed to its user"
    )
    characters: tuple[str, ...] = Field(description="The sheets that have it")


class PlanetSquare(_Ref):
    key: str = Field(description='"planet:square", as commands, views and events write it')
    planet: int
    square: int
    spaceport: bool
    left: str
    right: str


class PlanetBoard(_Ref):
    numbering: str
    planets: int
    squares_per_planet: int
    squares: tuple[PlanetSquare, ...]


class BaseSquare(_Ref):
    key: str = Field(description='"row:col", as commands, views and events write it')
    row: int
    col: int
    outer: bool = Field(description="One of the 20 edge squares where explorers enter")
    neighbours: dict[str, str] = Field(description="direction (up/down/left/right) → square")


class BaseBoard(_Ref):
    numbering: str
    size: int
    squares: tuple[BaseSquare, ...]


class ChojinReference(_Ref):
    rules: Literal["2020", "2002"]
    catalog: Catalog = Field(
        description="The game's catalog: characters, silhouette cards (`count` copies each), "
        "planet cards, the 待ち伏せ, base cards, ability cards, combat cards, charts"
    )
    abilities: tuple[AbilityRef, ...] = Field(description="Every special ability of the sheets")
    planets: PlanetBoard = Field(description="惑星編's board (4.5)")
    base: BaseBoard = Field(description="秘密基地編's board (4.6)")


def _abilities(catalog: Catalog) -> tuple[AbilityRef, ...]:
    found: dict[str, AbilityRef] = {}
    for sheet in catalog.characters:
        for ability in sheet.abilities:
            known = found.get(ability.name)
            holders = (*known.characters, sheet.name) if known else (sheet.name,)
            found[ability.name] = AbilityRef(
                name=ability.name,
                tags=ability.tags,
                timing=tuple(t for t in ability.tags if t in timings(ability.tags)),
                named=not unnamed(ability),
                characters=holders,
            )
    return tuple(found.values())


def _planets() -> PlanetBoard:
    squares = tuple(
        PlanetSquare(
            key=key(planet, square),
            planet=planet,
            square=square,
            spaceport=square == 0,
            left=key(planet, (square - 1) % SQUARES),
            right=key(planet, (square + 1) % SQUARES),
        )
        for planet in range(PLANETS)
        for square in range(SQUARES)
    )
    return PlanetBoard(
        numbering="Planets 0–5, each of squares 0–5 from left to right; square 0 is the "
        "planet's spaceport (its left end) and touches square 5 (each planet is a torus). "
        '"right" is the next square number, "left" the one before; a move from a spaceport '
        "may hop to another planet's spaceport.",
        planets=PLANETS,
        squares_per_planet=SQUARES,
        squares=squares,
    )


def _base() -> BaseBoard:
    squares = []
    for row in range(SIZE):
        for col in range(SIZE):
            cell = Cell(row=row, col=col)
            around = {d: step_to(cell, d) for d in STEPS}
            squares.append(
                BaseSquare(
                    key=cell_key(cell),
                    row=row,
                    col=col,
                    outer=is_outer(cell),
                    neighbours={d: cell_key(c) for d, c in around.items() if c is not None},
                )
            )
    return BaseBoard(
        numbering="Rows 0–5 from the top, columns 0–5 from the left; up is row − 1, left is "
        "column − 1; no edge wraps.",
        size=SIZE,
        squares=tuple(squares),
    )


@CHOJIN_LOCKE.references(ChojinReference)
def reference(options: ChojinOptions) -> ChojinReference:
    catalog = options.catalog or sample()
    return ChojinReference(
        rules=options.rules,
        catalog=catalog,
        abilities=_abilities(catalog),
        planets=_planets(),
        base=_base(),
    )
