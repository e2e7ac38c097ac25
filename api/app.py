"""The FastAPI application: routers per resource, problem+json errors, a body-size guard."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from starlette.types import Receive, Scope, Send

from api import longreads, observe, pages
from api.affinity import Affinity, affinity_wanted
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
    sessions,
    stream,
    views,
)
from api.routes.lean import LeanCommands, lane_game_id
from api.strict import known_query
from api.throttle import Throttle
from api.web import SecurityHeaders, WebSettings
from domain.authentication import Authenticator
from domain.service import GameService
from domain.store import shorten_pool_wait
from projections.runner import ViewRunner
from projections.store import open_view_store
from replay.library import Histories

logger = logging.getLogger(__name__)


class KirokuApp(FastAPI):
    """FastAPI, with the command route's fast lane in front of its middleware and routes
    (api/routes/lean.py): a table's commands skip the layers they do not need."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        # The handlers' dict is the app's own: those installed later answer the lane too.
        self.lane = LeanCommands(behind=self.behind_lane, handlers=self.exception_handlers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game_id = lane_game_id(scope)
        if game_id is None:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self
        scope["path_params"] = {"game_id": game_id}
        await self.lane(scope, receive, send)

    async def behind_lane(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app as it is without the lane: middleware, routes, the declared route."""
        await super().__call__(scope, receive, send)


def create_app(service: GameService | None = None, web: WebSettings | None = None) -> FastAPI:
    """An app over `service`, or over the store the environment names (KIROKU_DB, …);
    `web` (default: KIROKU_PUBLIC_URL) says where players reach it."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.live = await Live.start(app.state.service, on_revoked=app.state.auth.revoked)
        app.state.service.listeners.append(observe.on_append)
        shorten_pool_wait(app.state.service.log.recorder)  # started: no more long waits
        shorten_pool_wait(app.state.views.store)
        if affinity_wanted(app.state.service.env):
            try:
                app.state.affinity = await Affinity.start(app)
            except Exception:
                logger.exception("no game affinity: every worker writes any game, under its lock")
        if owned:  # a server process (`kiroku serve`), not an app a test hands a service to
            # The app's own objects (modules, schemas, routes: about 150,000) leave the cycle
            # collector's sight: a full collection would walk them all, a pause of tens of
            # milliseconds in whichever request it falls.
            gc.collect()
            gc.freeze()
        yield
        if app.state.affinity is not None:
            await app.state.affinity.stop()
            app.state.affinity = None
        await app.state.live.stop()
        if observe.on_append in app.state.service.listeners:
            app.state.service.listeners.remove(observe.on_append)
        longreads.shutdown()
        if owned:
            app.state.service.close()

    owned = service is None
    app = KirokuApp(
        title="Kiroku",
        summary="A tamper-evident, event-sourced game log for tabletop play at a distance",
        version="0.1.0",
        lifespan=lifespan,
        dependencies=[Depends(known_query)],  # api/strict.py: no undeclared query parameter
    )
    app.state.service = service = service if service is not None else GameService()
    app.state.auth = Authenticator(service.games)
    app.state.views = ViewRunner(service.log, open_view_store(service.env))
    app.state.histories = Histories(service)
    app.state.affinity = None  # api/affinity.py: started with the app when wanted
    app.state.web = web if web is not None else WebSettings.from_env()
    install_error_handlers(app)
    install_openapi(app)
    routers = (games, sessions, commands, events, log, views, stream, replay, rulesets, health)
    for module in (*routers, pictures):
        app.include_router(module.router)
    app.include_router(pages.router)
    app.mount("/static", pages.static_files(), name="static")
    app.add_middleware(BodySizeLimit)
    live = LiveSettings.from_env()  # api/throttle.py: limits per client, counted in its Redis
    app.add_middleware(Throttle, redis_url=live.redis_url, prefix=live.redis_prefix)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(observe.RequestMetrics)  # outermost: it sees every answer's status
    return app
