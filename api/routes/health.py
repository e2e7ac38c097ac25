"""Liveness, readiness and metrics: what a process supervisor, a load balancer and Prometheus
ask of each instance."""

from __future__ import annotations

import asyncio
import uuid

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from api.errors import problem
from api.live import Live
from api.observe import metrics_response
from api.openapi import problems
from api.pages import i18n
from domain.application.service import GameService
from domain.model.messages import N_

NOT_READY = N_("Not ready to serve: {problems}.")

router = APIRouter(tags=["health"])

REDIS_TIMEOUT = 1.0


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """Liveness: the process answers (whatever its store does)."""
    return {"status": "ok"}


@router.get("/readyz", responses=problems(503))
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the event store answers a read, and Redis a ping when the live fan-out
    uses it. 503 `not_ready` names what does not (a balancer stops sending players here)."""
    service: GameService = request.app.state.service
    checks: dict[str, str] = {}
    try:
        # An indexed read of a game that does not exist: a round trip to the store.
        await run_in_threadpool(service.games.exists, str(uuid.uuid4()))
        checks["store"] = "ok"
    except Exception as error:
        checks["store"] = f"unavailable ({type(error).__name__})"
    live: Live | None = getattr(request.app.state, "live", None)
    if live is not None and live.fanout is not None:
        try:
            await asyncio.wait_for(live.fanout.ping(), REDIS_TIMEOUT)
            checks["redis"] = "ok"
        except Exception as error:
            checks["redis"] = f"unavailable ({type(error).__name__})"
    failing = {name: state for name, state in checks.items() if state != "ok"}
    if failing:
        detail = "; ".join(f"{name}: {state}" for name, state in failing.items())
        said = i18n.translate(NOT_READY, i18n.language_of(request), problems=detail)
        return problem(503, "not_ready", said)
    return JSONResponse({"status": "ready", **checks})


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus metrics"}},
)
def metrics() -> Response:
    """Prometheus' text format: commands by ruleset and outcome, latencies, appends, batch
    sizes, open streams, fan-out lag, errors (api/observe.py)."""
    return metrics_response()
