"""The table most HTTP tests of the ruleset start from: Aki and Ben, the boss and three
クローンヤクザ added, nothing played (a module may define its own `script`)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

from .script import Script


@pytest.fixture
def script(client: TestClient) -> Script:
    table = Table.create(
        client, seats=["Aki", "Ben"], ruleset="ninja_slayer", options={"dice_policy": "both"}
    )
    script = Script(table)
    script.setup()
    return script
