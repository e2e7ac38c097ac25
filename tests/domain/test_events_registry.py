"""Decoding a stored event must not depend on which modules happened to be imported."""

from __future__ import annotations

import subprocess
import sys

import pytest

from domain.errors import KirokuError
from domain.events import event_from_parts


def test_a_ruleset_event_decodes_in_a_fresh_process() -> None:
    code = (
        "from domain.events import event_from_parts;"
        "print(type(event_from_parts('PhaseAdvanced', {'phase': 'Night', 'number': 1}, None))"
        ".__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "PhaseAdvanced"


def test_an_unknown_event_type_is_a_clear_error() -> None:
    with pytest.raises(KirokuError) as error:
        event_from_parts("chess.Castled", {}, None)
    assert error.value.code == "unknown_event_type"
