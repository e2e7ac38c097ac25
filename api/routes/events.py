"""The event log as the caller may see it, and its verification."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from api import longreads
from api.deps import Caller, GameId, Presented_, Service
from api.pages import i18n
from api.present import RevealedRecords, event_out, head_header
from api.schemas import EventsResponse
from domain.model.commands import MAX_SEQ
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.verification import VerificationReport

router = APIRouter(prefix="/games", tags=["events"])


def beyond_the_game(state: GameState, seq: int) -> None:
    """Refuse a seq to read after that the game has not reached (a client's mistake: another
    game's, or a store's that was reset)."""
    if seq > state.version:
        raise KirokuError(
            "unknown_seq",
            "この卓の記録はまだ {version} 件です（{seq} 件目の後はありません）。",
            params={"version": state.version, "seq": seq},
        )


@router.get("/{game_id}/events")
def list_events(
    game_id: GameId,
    audience: Caller,
    service: Service,
    response: Response,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ, description="Only events with seq > after")] = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> EventsResponse:
    state = service.state(game_id)
    beyond_the_game(state, after)
    response.headers.update(head_header(state))
    upto = min(state.version, after + limit)
    records = list(service.records(game_id, after=after, upto=upto))
    revealed = RevealedRecords(service, game_id, records)  # a page's reveals: a read or a few
    events = [event_out(state, recorded, audience, revealed) for recorded in records]
    return EventsResponse(game_id=game_id, audience=audience, last_seq=state.version, events=events)


@router.get("/{game_id}/verify")
def verify_game(
    game_id: GameId,
    presented: Presented_,
    service: Service,
    request: Request,
    seq: Annotated[
        int | None,
        Query(ge=1, le=MAX_SEQ, description="With `hash`: a head you saw (Kiroku-Head)"),
    ] = None,
    hash: Annotated[
        str | None,
        Query(pattern="^[0-9a-f]{64}$", description="With `seq`: that event's hash"),
    ] = None,
) -> VerificationReport:
    """Recompute the hash chain; after the end also the seed, every draw and every secret.

    With `seq` and `hash` (a `Kiroku-Head` you noted earlier), also confirm that this event is
    still in the chain with this hash: a log cut short or rewritten since is named here.
    Its texts (`note`, each `problem`, `what`) read in the caller's language (its cookie, else
    Accept-Language, else Japanese); `ok`, `kind`, `seq` and the counts are the same in every
    language."""
    if (seq is None) != (hash is None):
        raise KirokuError("witness_incomplete", "Give both seq and hash of the head you saw.")
    witness = None if seq is None or hash is None else (seq, hash)
    report = longreads.run(service, longreads.verify_game, game_id, presented, witness)
    return report.read(i18n.Reader(i18n.language_of(request)))
