"""The FastAPI application: routers per resource, problem+json errors, a body-size guard."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

from api import longreads, observe, pages
from api.errors import install_error_handlers
from api.limits import BodySizeLimit
from api.live import Live, LiveSettings
from api.openapi import install_openapi
from api.routes import (
    commands,
    events,
    games,
    health,
    log,
    pictures,
    replay,
    rulesets,
    seat_settings,
    sessions,
    stream,
    systems,
    views,
)
from api.strict import known_query
from api.throttle import Throttle
from api.web import SecurityHeaders, WebSettings
from domain.adapters.store import shorten_pool_wait
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.application.settings import Settings
from domain.model.authentication import Authenticator
from projections.runner import ViewRunner
from projections.store import open_view_store
from replay.library import Histories

logger = logging.getLogger(__name__)


def create_app(
    service: GameService | None = None,
    web: WebSettings | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """An app over `service`, or over the one the bootstrap wires from the settings (default:
    the environment's, KIROKU_*); `web` (default: KIROKU_PUBLIC_URL) says where players reach
    it."""
    settings = settings if settings is not None else Settings.load()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.live = await Live.start(
            app.state.service, LiveSettings.of(settings), on_revoked=app.state.auth.revoked
        )
        app.state.service.listeners.append(observe.on_append)
        # started: no more long waits for a connection
        shorten_pool_wait(app.state.service.log.recorder, settings.pg_wait)
        shorten_pool_wait(app.state.views.store, settings.pg_wait)
        if owned:  # a server process (`kiroku serve`), not an app a test hands a service to
            # The app's own objects (modules, schemas, routes: about 150,000) leave the cycle
            # collector's sight: a full collection would walk them all, a pause of tens of
            # milliseconds in whichever request it falls.
            gc.collect()
            gc.freeze()
        yield
        await app.state.live.stop()
        if observe.on_append in app.state.service.listeners:
            app.state.service.listeners.remove(observe.on_append)
        if owned:  # the long reads' lanes outlive an app a test hands a service to
            longreads.shutdown()
            app.state.service.close()

    owned = service is None
    app = FastAPI(
        title="Kiroku",
        summary="A tamper-evident, event-sourced game log for tabletop play at a distance",
        version="0.1.0",
        lifespan=lifespan,
        dependencies=[Depends(known_query)],  # api/strict.py: no undeclared query parameter
    )
    longreads.configure(settings.long_read_nice)
    app.state.service = service = service if service is not None else bootstrap(settings)
    app.state.auth = Authenticator(service.games)
    app.state.views = ViewRunner(service.log, open_view_store(service.env))
    app.state.histories = Histories(service, settings.replay_events)
    app.state.web = web if web is not None else WebSettings.of(settings)
    install_error_handlers(app)
    install_openapi(app)
    for module in (
        games,
        sessions,
        commands,
        events,
        log,
        views,
        stream,
        replay,
        rulesets,
        systems,
        health,
        pictures,
        seat_settings,
    ):
        app.include_router(module.router)
    app.include_router(pages.router)
    app.mount("/static", pages.static_files(), name="static")
    app.add_middleware(BodySizeLimit)
    # api/throttle.py: limits per client, counted in the fan-out's Redis when there is one
    app.add_middleware(Throttle, redis_url=settings.redis_url, prefix=settings.redis_prefix)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(observe.RequestMetrics)  # outermost: it sees every answer's status
    return app
