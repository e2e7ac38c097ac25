"""The session log: the game as one self-contained HTML file people read and verify."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from api import longreads
from api.deps import GameId, Presented_, Service
from api.pages import i18n

router = APIRouter(prefix="/games", tags=["events"])


@router.get(
    "/{game_id}/log.html",
    response_class=StreamingResponse,
    responses={200: {"description": "The session log", "content": {"text/html": {}}}},
)
def session_log_html(
    request: Request,
    game_id: GameId,
    presented: Presented_,
    service: Service,
    name: Annotated[
        Literal["kiroku", "ccfolia"],
        Query(
            description="`ccfolia`: the `<title>` (ccfolia - logs) and file name "
            "(`<room>[all].html`) ココフォリア's ログ出力 gives, for tools that check them"
        ),
    ] = "kiroku",
) -> StreamingResponse:
    """The session log as one HTML file (ココフォリア's line shape, tabs, speakers, rulings
    linked to what they concern) with the game's archive and a verifier inside: opened in a
    browser it checks the chain, every reveal and, after the end, every draw.

    Before the end it shows what the caller may see (as `/events` does); after the end every
    secret, folded so readers choose when to read it.

    Sent as it is written (the file of a 100,000-event game is tens of MiB): memory stays
    bounded however long the game, and the bytes are those `kiroku log` writes.

    Written in the caller's language, as the pages choose it (the language switch's cookie,
    else `Accept-Language`, else Japanese): its frame, its verifier's words, its lines."""
    chunks, headers = longreads.session_log_stream(
        service, game_id, presented, name == "ccfolia", i18n.language_of(request)
    )
    headers["Vary"] = "Accept-Language, Cookie"
    return StreamingResponse(chunks, media_type="text/html; charset=utf-8", headers=headers)
