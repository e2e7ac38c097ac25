"""The rulesets this server plays: their commands (with JSON schemas), options and reference
data (cards, boards … — whatever a player looks names up in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Union

from fastapi import APIRouter
from pydantic import BaseModel, Field

from domain.model.commands import LIFECYCLE_COMMANDS, Command
from domain.model.errors import NotFound
from domain.model.events import EVENT_TYPES
from domain.model.ruleset import Ruleset
from domain.rulesets import all_rulesets, form_hints

router = APIRouter(prefix="/rulesets", tags=["rulesets"])


class CommandInfo(BaseModel):
    type: str
    summary: str = Field(description="What the command does, from its declaration")
    input_schema: dict[str, Any] = Field(description="JSON schema of the command's body")
    form: dict[str, Any] | None = Field(
        default=None,
        description="For the table's form of a command carrying a sheet: labels (catalog keys), "
        "starting values, names offered for a map's keys and words for id-like choices, by "
        "field path (sheet.weapons.name)",
    )


_DATA_MODELS = tuple(r.Reference for r in all_rulesets() if r.Reference is not None)
if TYPE_CHECKING or not _DATA_MODELS:  # noqa: SIM108  (built from the registered rulesets)
    ReferenceData = BaseModel
else:
    ReferenceData = Union[_DATA_MODELS]  # noqa: UP007


class RulesetInfo(BaseModel):
    id: str
    version: str
    summary: str
    commands: list[CommandInfo] = Field(description="The ruleset's own commands")
    options_schema: dict[str, Any]
    referee: Literal["gm", "host"] = Field(
        description="Who runs a game created without `referee`: gm (an omniscient GM) or host "
        "(no referee: the creator sees only what its audience may)"
    )
    referees: list[Literal["gm", "host"]] = Field(description="The `referee` values it allows")
    data: ReferenceData | None = Field(
        default=None,
        description="The ruleset's reference data for its default options (e.g. 超人ロック: "
        "the catalog's silhouettes, sheets and cards, the abilities, both boards and how their "
        "squares are numbered); absent for rulesets that declare none",
    )


class RulesetsOut(BaseModel):
    lifecycle: list[CommandInfo] = Field(description="Commands every game has")
    rulesets: list[RulesetInfo]
    event_types: list[str] = Field(description="Every event type (the SSE `event:` names)")


def _command_info(command: type[Command]) -> CommandInfo:
    type_name = command.model_fields["type"].default
    summary = " ".join((command.__doc__ or "").split())
    hints = form_hints.hints_for(command)
    return CommandInfo(
        type=type_name,
        summary=summary,
        input_schema=command.model_json_schema(),
        form=hints.as_json() if hints is not None else None,
    )


def _ruleset_info(ruleset: Ruleset[Any, Any]) -> RulesetInfo:
    return RulesetInfo(
        id=ruleset.id,
        version=ruleset.version,
        summary=ruleset.summary,
        commands=[_command_info(c) for c in ruleset.commands],
        options_schema=ruleset.Options.model_json_schema(),
        referee="host" if ruleset.default_referee == "host" else "gm",
        referees=["gm", "host"] if ruleset.hosted else ["gm"],
        data=ruleset.reference(),
    )


@router.get("")
def list_rulesets() -> RulesetsOut:
    return RulesetsOut(
        lifecycle=[_command_info(c) for c in LIFECYCLE_COMMANDS],
        rulesets=[_ruleset_info(r) for r in all_rulesets()],
        event_types=sorted(EVENT_TYPES),
    )


@router.get("/{ruleset_id}")
def get_ruleset(ruleset_id: str) -> RulesetInfo:
    for ruleset in all_rulesets():
        if ruleset.id == ruleset_id:
            return _ruleset_info(ruleset)
    known = ", ".join(r.id for r in all_rulesets())
    raise NotFound(
        "unknown_ruleset",
        "There is no ruleset {ruleset_id} (known: {known}).",
        params={"ruleset_id": ruleset_id, "known": known},
    )
