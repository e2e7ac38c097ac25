"""A seat's own settings in a game: speakers, colours, chat palette and characters, private to
that seat (the GM's NPC speakers to the GM), so every browser of the seat has them. Kept beside
the log, not in it (domain/model/seat_settings.py says why). ココフォリア's clipboard JSON in and
out."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi import Path as FastPath

from api.deps import Caller, GameId, Service, Views
from api.openapi import problems
from domain.model.audience import PUBLIC
from domain.model.errors import Forbidden, NotFound
from domain.model.seat_settings import SeatSettings, from_ccfolia, to_ccfolia

router = APIRouter(prefix="/games", tags=["sessions"])


def _own(actor: str) -> str:
    if actor == PUBLIC:
        raise Forbidden("seat_only", "Spectators keep no settings: join a seat first.")
    return actor


def _read(views: Views, game_id: str, actor: str) -> SeatSettings:
    stored = views.store.seat_settings(game_id, actor)
    return SeatSettings() if stored is None else SeatSettings.model_validate_json(stored)


def _write(views: Views, game_id: str, actor: str, settings: SeatSettings) -> SeatSettings:
    views.store.save_seat_settings(game_id, actor, settings.model_dump_json())
    return settings


@router.get("/{game_id}/seat-settings", responses=problems(403))
def get_seat_settings(game_id: GameId, actor: Caller, views: Views) -> SeatSettings:
    """The caller's speakers, palette and characters in this game (empty at first)."""
    return _read(views, game_id, _own(actor))


@router.put("/{game_id}/seat-settings", responses=problems(403, 422))
def put_seat_settings(
    game_id: GameId, body: SeatSettings, actor: Caller, views: Views
) -> SeatSettings:
    """Replace the caller's settings (what the table page saves as they change)."""
    return _write(views, game_id, _own(actor), body)


@router.post("/{game_id}/seat-settings/characters", responses=problems(403, 422))
def import_character(
    game_id: GameId,
    clipboard: Annotated[dict[str, Any], Body(description="ココフォリア's clipboard JSON")],
    actor: Caller,
    views: Views,
    service: Service,
) -> SeatSettings:
    """Import a character from ココフォリア's clipboard JSON (キャラクター駒): a speaker with
    its colour and palette, its status and params, the ruleset's fields its labels name."""
    own = _own(actor)
    character = from_ccfolia(clipboard, service.state(game_id).ruleset)
    return _write(views, game_id, own, _read(views, game_id, own).with_character(character))


@router.get("/{game_id}/seat-settings/characters/{name}/ccfolia", responses=problems(403, 404))
def export_character(
    game_id: GameId,
    name: Annotated[str, FastPath(max_length=40)],
    actor: Caller,
    views: Views,
) -> dict[str, Any]:
    """One of the caller's characters as ココフォリア's clipboard JSON."""
    for character in _read(views, game_id, _own(actor)).characters:
        if character.name == name:
            return to_ccfolia(character)
    # Not the name it was sent: a path the reader did not type (a stale link, a renamed
    # character) would read back as if it were a character.
    raise NotFound("unknown_character", "You have no such character.")
