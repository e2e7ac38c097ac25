"""What the table's form for a command needs beyond its JSON schema: the rulebook's labels.

A ruleset declares, for the commands that carry a sheet, each field's label (a catalog key,
marked with `N_`, translated where the reader's language is known), the value the form starts
with where the schema has no default, the names offered for a free map's keys (メカd20's
【出力】【敏捷力】…) and the words for enum values that are ids (`pc`, `save_ends`). The API
serves them beside the command's schema (GET /rulesets) and names a refused field by its
label (api/errors.py). Nothing here changes what the server accepts.

Paths are the field names from the command down, dot-separated, list items skipped:
`sheet.weapons.name` labels every weapon's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.model.commands import Command


@dataclass(frozen=True)
class FormHints:
    labels: Mapping[str, str]
    defaults: Mapping[str, object] = field(default_factory=dict)
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    choices: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def label(self, path: str) -> str | None:
        return self.labels.get(path)

    def as_json(self) -> dict[str, object]:
        return {
            "labels": dict(self.labels),
            "defaults": dict(self.defaults),
            "keys": {path: list(names) for path, names in self.keys.items()},
            "choices": {path: dict(words) for path, words in self.choices.items()},
        }


_HINTS: dict[type[Command], FormHints] = {}


def declare(command: type[Command], hints: FormHints) -> None:
    _HINTS[command] = hints


def hints_for(command: type[Command]) -> FormHints | None:
    return _HINTS.get(command)


def path_of(loc: tuple[str | int, ...] | list[str | int]) -> str:
    """A validation error's location as a hints path: list indexes and dict keys dropped."""
    return ".".join(str(part) for part in loc if isinstance(part, str))
