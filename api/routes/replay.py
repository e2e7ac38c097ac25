"""Replay and audit over HTTP, with the same permissions as the terminal tool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from api import longreads
from api.deps import Caller, GameId, Presented_, Service
from api.openapi import problems
from api.pages import i18n
from api.schemas import EventOut
from domain.model.audience import GM, HOST, is_audience, seat_number
from domain.model.commands import MAX_SEQ
from domain.model.errors import KirokuError
from domain.model.game import GameState
from replay.audit import AuditReport
from replay.cursor import LOG_WINDOW, Frame, Marks, ReplayCursor, check_replay_permission, marks
from replay.library import Histories

CHUNK = 64 * 1024  # bytes of an archive sent at a time
router = APIRouter(prefix="/games", tags=["replay"])


def get_histories(request: Request) -> Histories:
    histories: Histories = request.app.state.histories
    return histories


Histories_ = Annotated[Histories, Depends(get_histories)]


def replay_cursor(
    game_id: GameId,
    viewer: Caller,
    service: Service,
    histories: Histories_,
    at: Annotated[
        int | None, Query(ge=1, le=MAX_SEQ, description="seq to show (default: the last)")
    ] = None,
    as_: Annotated[
        str | None, Query(alias="as", max_length=12, description="gm, seat:N or public")
    ] = None,
) -> ReplayCursor:
    """A cursor for `as` (default: the caller) at `at`, if the caller may replay as it."""
    audience = as_ or viewer
    if not is_audience(audience):
        raise KirokuError(
            "bad_audience", "{audience} is not gm, public or seat:N.", params={"audience": audience}
        )
    state = service.state(game_id)
    if not audience_exists(state, audience):
        raise KirokuError(
            "unknown_audience", "この卓には {audience} がいません。", params={"audience": audience}
        )
    ended = state.status == "ended"
    check_replay_permission(viewer, audience, ended=ended)
    return ReplayCursor(histories.get(game_id), audience, at)


Cursor = Annotated[ReplayCursor, Depends(replay_cursor)]


def audience_exists(state: GameState, audience: str) -> bool:
    """Is there such an audience at this table: a seat it has, its GM or its host, the
    public?"""
    number = seat_number(audience)
    if number is not None:
        return state.seat(number) is not None
    if audience == GM:
        return state.host is None
    if audience == HOST:
        return state.host is not None
    return True


@router.get("/{game_id}/replay", responses=problems(403))
def replay_at(
    cursor: Cursor,
    secrets: Annotated[
        int | None,
        Query(
            ge=0,
            le=10_000,
            description="at most this many of the view's secrets, the latest (default: all); "
            "`secrets_total` says how many there are",
        ),
    ] = None,
) -> Frame:
    """What `as` (default: you) saw right after event `at`, the line the table read for it,
    what that event changed, and how its roll follows from its faces."""
    return cursor.at(cursor.seq, secrets)


class ReplayLog(BaseModel):
    game_id: str
    audience: str
    seq: int = Field(description="the events are as this audience saw them right after `seq`")
    last_seq: int
    events: list[EventOut] = Field(
        description="the last `limit` events up to `seq`, each with its line"
    )


@router.get("/{game_id}/replay/log", responses=problems(403))
def replay_log(
    cursor: Cursor,
    limit: Annotated[
        int, Query(ge=1, le=1000, description="how many events up to `at`")
    ] = LOG_WINDOW,
) -> ReplayLog:
    """The log as `as` (default: you) read it right after event `at`: a note revealed later
    still reads sealed. The same permissions as `/replay`."""
    events = [EventOut(**event, line=line) for event, line in cursor.log(cursor.seq, limit)]
    return ReplayLog(
        game_id=cursor.history.final.game.game_id,
        audience=cursor.audience,
        seq=cursor.seq,
        last_seq=cursor.history.last_seq,
        events=events,
    )


@router.get("/{game_id}/replay/marks")
def replay_marks(game_id: GameId, _viewer: Caller, histories: Histories_) -> Marks:
    """The seqs of the rulings, amendments and declarations, for jumping between them."""
    return marks(histories.get(game_id))


@router.get("/{game_id}/audit", responses=problems(409))
def audit_game(
    game_id: GameId, presented: Presented_, service: Service, request: Request
) -> AuditReport:
    """The dispute report: chain, seed, draws, rolls, commitments, declarations, rulings; its
    summary and findings in the caller's language (`verdict` and each `kind` are the same in
    every language)."""
    report = longreads.run(service, longreads.audit_game, game_id, presented)
    return report.read(i18n.Reader(i18n.language_of(request)))


@router.get(
    "/{game_id}/archive",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/jsonl": {}}}, **problems(409)},
)
def archive_game(game_id: GameId, presented: Presented_, service: Service) -> StreamingResponse:
    """The finished game as a JSON Lines archive, for `kiroku audit FILE` or `kiroku import`."""
    content = longreads.run(service, longreads.archive_bytes, game_id, presented)

    def body() -> Iterator[bytes]:
        for start in range(0, len(content), CHUNK):
            yield content[start : start + CHUNK]

    filename = f"kiroku-{game_id}.jsonl"
    return StreamingResponse(
        body(),
        media_type="application/jsonl",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
