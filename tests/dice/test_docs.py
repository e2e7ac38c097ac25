"""Every example row in docs/reference/typed-dice.md must be what the code produces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.rulesets.ninja_slayer.dice import parse  # the common commands and Ninja Slayer's

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "typed-dice.md"
ROW = re.compile(r"^\| `(?P<command>[^`]+)` \| (?P<faces>[\d,]+|—) \| `(?P<explanation>[^`]+)` \|$")


def _examples() -> list[tuple[str, list[int], str]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            faces = [] if match["faces"] == "—" else [int(f) for f in match["faces"].split(",")]
            rows.append((match["command"], faces, match["explanation"]))
    return rows


EXAMPLES = _examples()


def test_the_doc_has_examples_for_every_command_family() -> None:
    commands = {command for command, _, _ in EXAMPLES}
    for needed in (
        *("2D6>=7", "(2D6+1D4)*2", "1D6+3/2U", "5D10KH3", "3D6MAX>=4", "D20+3D4", "1D3+2D66"),
        *("D66", "4B6>=4", "3R6[6]>=5", "4U6[6]", "C(1+2*3)", "choice[abc,def]", "x3 2D6"),
        *("K5", "UH6", "N5,3,4", "E1,N2,H3", "N5[S][C][>=5]"),
        *("NJ4[N]", "AT4[N]", "EV4[N]/2", "EL4[N]", "WS8"),
    ):
        assert needed in commands
    assert len(EXAMPLES) >= 85


@pytest.mark.parametrize(("command", "faces", "explanation"), EXAMPLES)
def test_doc_example(command: str, faces: list[int], explanation: str) -> None:
    assert parse(command).evaluate(faces).explanation == explanation
