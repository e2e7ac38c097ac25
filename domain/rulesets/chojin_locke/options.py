"""What a host chooses when creating a 超人ロック game."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.chojin_locke.cards import Catalog


class ChojinOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: Literal["2020", "2002"] = Field(
        default="2020", description="Turn structure: the 2020 basic rules or the 2002 rulebook"
    )
    catalog: Catalog | None = Field(
        default=None, description="Your own card catalog; the shipped sample when omitted"
    )
    evil_vigil_turns: int = Field(
        default=1000,
        ge=1,
        le=1_000_000,
        description="4.2: turns an Evil victory declarer must survive without moving to end "
        "the game (1000 in the rules; a house rule may shorten it)",
    )
