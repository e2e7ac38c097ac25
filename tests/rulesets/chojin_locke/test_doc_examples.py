"""docs/rulesets/chojin-locke/commands.notes.md (read into the generated command reference)
gives a JSON example for every command, each accepted by the command's schema, so the page
cannot drift from the commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

from domain.rulesets.chojin_locke import CHOJIN_LOCKE

DOC = Path(__file__).parents[3] / "docs" / "rulesets" / "chojin-locke" / "commands.notes.md"


def _examples() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"```json\n(.*?)\n```", text, flags=re.DOTALL)


def test_every_command_has_an_example_its_schema_accepts() -> None:
    models = {c.model_fields["type"].default: c for c in CHOJIN_LOCKE.commands}
    examples = _examples()
    covered = set()
    for example in examples:
        body = json.loads(example)
        model = models[body["type"]]  # an example of a command that does not exist fails here
        model.model_validate_json(example)  # strict, extra fields forbidden: as the API reads it
        covered.add(body["type"])
    assert covered == set(models), sorted(set(models) - covered)
