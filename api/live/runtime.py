"""The live machinery of one worker: started and stopped with the app's lifespan."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable

from api.live.config import LiveSettings
from api.live.hub import Hub
from api.live.redis_fanout import RedisFanout
from api.live.relay import AppendRelay
from api.live.shutdown import on_exit_signal
from api.live.stream import event_stream
from domain.application.service import GameService
from domain.model.game import GameState


class Live:
    def __init__(
        self,
        service: GameService,
        settings: LiveSettings,
        on_revoked: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.hub = Hub(service, settings.recheck)
        self._on_revoked = on_revoked or (lambda _game_id: None)
        self.fanout = (
            RedisFanout(
                settings.redis_url, settings.redis_prefix, self.hub, self._revoked_elsewhere
            )
            if settings.redis_url
            else None
        )
        self._service = service
        self._loop = asyncio.get_running_loop()
        self._relay = AppendRelay(self._loop, self._appended)
        self._restore_signals: Callable[[], None] = lambda: None

    @classmethod
    async def start(
        cls,
        service: GameService,
        settings: LiveSettings,
        on_revoked: Callable[[str], None] | None = None,
    ) -> Live:
        """`on_revoked(game_id)`: another process revoked credentials of a game (heard
        through the fan-out); called on the loop."""
        live = cls(service, settings, on_revoked)
        if live.fanout is not None:
            live.fanout.start()
        service.listeners.append(live._relay)
        live._restore_signals = on_exit_signal(live._loop, live.hub.close)
        return live

    def end_streams(self) -> None:
        """End every open stream, from any thread: the server is about to stop."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: nothing is open
            self._loop.call_soon_threadsafe(self.hub.close)

    async def stop(self) -> None:
        self._restore_signals()
        if self._relay in self._service.listeners:
            self._service.listeners.remove(self._relay)
        await self.hub.aclose()
        if self.fanout is not None:
            await self.fanout.aclose()

    def stream(
        self,
        game_id: str,
        audience: str,
        after: int,
        allowed: Callable[[GameState], bool] | None = None,
    ) -> AsyncGenerator[bytes, None]:
        """`allowed(state)`: do the caller's credentials still hold? The stream ends when not."""
        return event_stream(
            self.hub,
            game_id,
            audience,
            after,
            self.settings.heartbeat,
            self.settings.lifetime,
            allowed,
        )

    def _appended(self, game_id: str, seq: int, revoking: bool = False) -> None:
        # Local streams hear at once; other workers through Redis (which echoes this one's own
        # notice back: the feed ignores a seq it already knows).
        self.hub.notify(game_id, seq)
        if self.fanout is not None:
            self.fanout.publish(game_id, seq)
            if revoking:
                self.fanout.publish_revoked(game_id)

    def _revoked_elsewhere(self, game_id: str) -> None:
        """A revocation appended by some process (this one's own echo too): stop trusting the
        cached game, and have its streams look at the store now."""
        self._on_revoked(game_id)
        self.hub.recheck(game_id)
