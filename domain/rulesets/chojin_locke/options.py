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
