"""Pictures a game's log carries (a メカd20 battle map's background, domain/rulesets/mech_d20/
pictures.py), served by their sha256 to whoever may read the game, as the type their bytes
were recognised as (PNG, JPEG or WebP), under headers where nothing in them can run."""

from __future__ import annotations

import base64
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

from api.deps import Caller, GameId, Service
from domain.model.errors import NotFound

router = APIRouter(prefix="/games", tags=["pictures"])

Sha256 = Annotated[str, Path(pattern=r"^[0-9a-f]{64}$", description="the picture's sha256")]


PICTURE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The picture's bytes, as the type they were recognised as",
        "content": {"image/png": {}, "image/jpeg": {}, "image/webp": {}},
    }
}


@router.get("/{game_id}/pictures/{sha256}", response_class=Response, responses=PICTURE)
def picture(game_id: GameId, sha256: Sha256, audience: Caller, service: Service) -> Response:
    """A picture in the game's log (every picture a log carries is public)."""
    pictures: dict[str, Any] = getattr(service.state(game_id).rules, "pictures", None) or {}
    found = pictures.get(sha256)
    if found is None:
        raise NotFound("unknown_picture", "この対局の記録にその画像はない。")
    return Response(
        base64.b64decode(found.data),
        media_type=found.media_type,
        headers={
            "Content-Security-Policy": "default-src 'none'; sandbox",
            "Content-Disposition": f'inline; filename="{sha256[:16]}"',
            "Cross-Origin-Resource-Policy": "same-origin",
            "Cache-Control": "private, max-age=31536000, immutable",
            "ETag": f'"{sha256}"',
        },
    )
