"""Field shapes several commands share."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from domain.model.messages import N_, Invalid

Stat = Literal["esp_level", "esp_power", "endurance", "willpower"]
Faces = list[int] | None
FACES = Field(default=None, max_length=2, description="Physical dice, if the dice policy allows")


def _within(what: str, valid: str) -> AfterValidator:
    def check(value: int) -> int:
        if not 0 <= value <= 5:
            raise Invalid(
                "{value} is no {what}: {valid} (GET /rulesets/chojin_locke)",
                value=value,
                what=what,
                valid=valid,
            )
        return value

    return AfterValidator(check)


_RANGE = {"minimum": 0, "maximum": 5}
# a number outside the boards is refused naming the valid ones (the schema says it too)
PlanetNumber = Annotated[
    int,
    Field(json_schema_extra=_RANGE, description="Planet 0–5"),
    _within(N_("planet"), N_("the planets are 0–5")),
]
SquareNumber = Annotated[
    int,
    Field(json_schema_extra=_RANGE, description="Square 0–5 of the planet; 0 is its spaceport"),
    _within(N_("square of a planet"), N_("squares are 0–5, 0 the spaceport")),
]
Row = Annotated[
    int,
    Field(json_schema_extra=_RANGE, description="Row 0–5 of the base, from the top"),
    _within(N_("row of the base"), N_("rows are 0–5 from the top")),
]
Col = Annotated[
    int,
    Field(json_schema_extra=_RANGE, description="Column 0–5 of the base, from the left"),
    _within(N_("column of the base"), N_("columns are 0–5 from the left")),
]
