"""Hard limits on what one command may ask for.

They keep a roll's event small, its faces cheap to derive, and every number JSON-safe.
"""

from __future__ import annotations

MAX_DICE = 100
"""Dice in one command, all terms and all parts of a series together."""

MAX_SIDES = 1000
"""Faces on one die."""

MAX_LENGTH = 200
"""Characters in the whole input, comment included."""

MAX_NUMBER = 1_000_000
"""Largest constant or target; keeps totals far inside JavaScript's safe integers."""
