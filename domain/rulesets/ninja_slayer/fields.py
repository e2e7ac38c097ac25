"""Field shapes several commands share."""

from __future__ import annotations

from pydantic import Field

CharacterId = Field(min_length=1, max_length=40, pattern=r"^[^\s]+$")
Faces = Field(default=None, max_length=60)
Entropy = Field(default="", max_length=64)
