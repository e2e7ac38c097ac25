"""The twenty playing cards (black 1–10, red 1–10) dealt for 4.1's order and 5.1's initiative."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class PlayingCard(BaseModel):
    model_config = ConfigDict(frozen=True)

    color: Literal["black", "red"]
    rank: int = Field(ge=1, le=10)
