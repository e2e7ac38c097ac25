"""The closed set of command kinds an Expression can hold."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .sums import SumCommand

Command = Annotated[SumCommand, Field(discriminator="kind")]
