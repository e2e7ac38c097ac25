"""Pools: group ('+' group)* [comparison], group = NBS."""

from __future__ import annotations

from .budget import DiceBudget
from .compare import parse_comparison
from .groups import parse_groups
from .pools import PoolCommand
from .tokens import Cursor


def parse_pool(cursor: Cursor, budget: DiceBudget) -> PoolCommand:
    groups = parse_groups(cursor, "B", budget)
    comparison = parse_comparison(cursor)
    cursor.end()
    return PoolCommand(groups=groups, comparison=comparison)
