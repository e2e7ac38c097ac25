"""The caller's view of a game, from the materialised projections."""

from __future__ import annotations

from fastapi import APIRouter, Response

from api.deps import Caller, GameId, Views
from api.present import HEAD_HEADER
from projections.views import AudienceView

router = APIRouter(prefix="/games", tags=["views"])


@router.get("/{game_id}/view")
def get_view(game_id: GameId, audience: Caller, views: Views, response: Response) -> AudienceView:
    """The game as the caller may see it, at `seq`: at least the caller's own last write."""
    view = views.view(game_id, audience)
    response.headers[HEAD_HEADER] = f"{view.seq} {view.head}"
    return view
