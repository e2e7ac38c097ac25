"""Field shapes several commands share."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

Stat = Literal["esp_level", "esp_power", "endurance", "willpower"]
Faces = list[int] | None
FACES = Field(default=None, max_length=2, description="Physical dice, if the dice policy allows")
