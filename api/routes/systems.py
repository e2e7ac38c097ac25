"""BCDice's game systems: what a game's chat rolls can be evaluated in (docs/reference/dice.md)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import Service
from api.openapi import problems
from domain.adapters.bcdice_engine import SystemInfo
from domain.dice.bcdice import DEFAULT_SYSTEM
from domain.model.errors import KirokuError, NotFound

router = APIRouter(prefix="/systems", tags=["systems"])


class SystemsOut(BaseModel):
    bcdice: str = Field(description="The BCDice version (npm package `bcdice`) new games use")
    default: str = Field(description="The system a game rolls in unless one is picked")
    systems: list[SystemInfo] = Field(description="Every system, by BCDice's sort key")


@router.get("")
def list_systems(service: Service) -> SystemsOut:
    """Every BCDice game system (id, Japanese name, sort key): the picker's list. Each one's
    help text is at /systems/{id}."""
    return SystemsOut(
        bcdice=service.bcdice.version(), default=DEFAULT_SYSTEM, systems=service.bcdice.systems()
    )


@router.get("/{system_id}", responses=problems(404))
def get_system(system_id: str, service: Service) -> SystemInfo:
    """One system with its help text (BCDice's HELP_MESSAGE): its commands, in its words."""
    try:
        return service.bcdice.info(system_id)
    except KirokuError as error:
        if error.code == "unknown_system":
            raise NotFound("unknown_system", error.template, params=error.params) from None
        raise
