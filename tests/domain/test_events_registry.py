"""Decoding a stored event depends on the rulesets the bootstrap loaded, not on which modules
happened to be imported (domain/model/events.py loads nothing by itself: no import circle)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from domain.model.errors import KirokuError
from domain.model.events import event_from_parts


def test_a_ruleset_event_decodes_in_a_fresh_process_after_the_bootstrap() -> None:
    code = (
        "import sys;"
        "from domain.model.events import event_from_parts;"
        "assert 'domain.rulesets.ninja_slayer' not in sys.modules;"
        "from domain.application.bootstrap import load_rulesets;"
        "load_rulesets();"
        "print(type(event_from_parts('PhaseAdvanced', {'phase': 'Night', 'number': 1}, None))"
        ".__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "PhaseAdvanced"


def test_an_unknown_event_type_is_a_clear_error() -> None:
    with pytest.raises(KirokuError) as error:
        event_from_parts("chess.Castled", {}, None)
    assert error.value.code == "unknown_event_type"
