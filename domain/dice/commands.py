"""The closed set of command kinds an Expression can hold."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .pools import PoolCommand
from .sums import SumCommand

Command = Annotated[SumCommand | PoolCommand, Field(discriminator="kind")]
