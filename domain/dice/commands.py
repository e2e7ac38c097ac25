"""The closed set of command kinds an Expression can hold."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .ninja_checks import NinjaCheckCommand
from .ninja_legacy import NinjaLegacyCommand
from .pools import PoolCommand
from .sums import SumCommand
from .wasshoi import WasshoiCommand

Command = Annotated[
    SumCommand | PoolCommand | NinjaCheckCommand | NinjaLegacyCommand | WasshoiCommand,
    Field(discriminator="kind"),
]
