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

from domain.model import commands as c
from domain.model.commands import Command
from domain.model.messages import N_


@dataclass(frozen=True)
class FormHints:
    labels: Mapping[str, str]
    defaults: Mapping[str, object] = field(default_factory=dict)
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    choices: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # fields the form leaves out (the server fills them: an id derived from the name)
    hidden: tuple[str, ...] = ()

    def label(self, path: str) -> str | None:
        return self.labels.get(path)

    def as_json(self) -> dict[str, object]:
        return {
            "labels": dict(self.labels),
            "defaults": dict(self.defaults),
            "keys": {path: list(names) for path, names in self.keys.items()},
            "choices": {path: dict(words) for path, words in self.choices.items()},
            "hidden": list(self.hidden),
        }


_HINTS: dict[type[Command], FormHints] = {}


def declare(command: type[Command], hints: FormHints) -> None:
    _HINTS[command] = hints


def hints_for(command: type[Command]) -> FormHints | None:
    return _HINTS.get(command)


def path_of(loc: tuple[str | int, ...] | list[str | int]) -> str:
    """A validation error's location as a hints path: list indexes and dict keys dropped."""
    return ".".join(str(part) for part in loc if isinstance(part, str))


# The commands every game has: their fields in words too, so a refusal of a chat line reads
# 「本文 は 2000 文字以内にしてください。」 and not 「text は …」.
def _lifecycle() -> None:
    spoken = {"speaker": N_("Speaker"), "color": N_("Colour"), "tab": N_("Tab")}
    text = N_("Message text")
    dice = {
        "secret": N_("Secret dice"),
        "blind": N_("Blind"),
        "faces": N_("Faces"),
        "entropy": N_("Your own randomness"),
    }
    line = N_("Line number (#)")
    labels: dict[type[Command], dict[str, str]] = {
        c.Roll: {**spoken, **dice, "expression": N_("Dice command")},
        c.Say: {**spoken, **dice, "text": text, "to": N_("To")},
        c.Declare: {**spoken, "text": text},
        c.Note: {"text": text, "to": N_("To")},
        c.AddTab: {"name": N_("Tab name")},
        c.RevokeSessions: {"audience": N_("Whose browsers")},
        c.MakeRuling: {"concerning_seq": line, "text": text, "effect": N_("Effect")},
        c.Amend: {"concerning_seq": line, "reason": N_("Reason"), "correction": N_("Correction")},
        c.Reveal: {"seq": line},
        c.End: {"summary": N_("Summary")},
    }
    for command, fields in labels.items():
        declare(command, FormHints(labels=fields))


_lifecycle()
