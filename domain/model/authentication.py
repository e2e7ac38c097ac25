"""Who a caller is in a game: its bearer token checked against the game's credentials.

Tokens are never stored, only their hashes (`hash_token`), carried in the server-only data of
the events that created them (GameCreated for the GM, SeatJoined for a seat).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Protocol

from domain.model.audience import PUBLIC
from domain.model.canonical import sha256_hex
from domain.model.errors import Unauthorized
from domain.model.game import GameState


class Games(Protocol):
    """Where the games are read (the repository, domain/adapters/repository.py)."""

    def cached(self, game_id: str) -> GameState | None: ...

    def get(self, game_id: str, *, up_to_damage: bool = False) -> GameState: ...

    def forget(self, game_id: str) -> None: ...


def hash_token(token: str) -> str:
    return sha256_hex("kiroku/token:" + token)


@dataclass(frozen=True)
class Presented:
    """What a caller presented to be known by in a game, not checked yet: a bearer token, a
    browser session, or neither (a spectator). Checked by `Authenticator.identify` wherever
    the game is read: a long read of a big game checks it in the process that reads it."""

    token: str | None = None
    session: str | None = None

    def still_valid(self, state: GameState, audience: str) -> bool:
        """Does `state` still know what was presented as `audience`? False once the seat's
        sessions were revoked or its credentials rotated: an open stream ends on it."""
        if self.token is not None:
            return state.credentials.get(hash_token(self.token)) == audience
        if self.session is not None:
            return state.sessions.get(hash_token(self.session)) == audience
        return True


# After a revocation elsewhere, how long this process reads the store for every check of
# that game rather than trusting a cached state (which a read begun before it may restore).
DISTRUST_SECONDS = 5.0


class Authenticator:
    def __init__(self, games: Games) -> None:
        self.games = games
        self._distrusted: dict[str, float] = {}
        self._guard = threading.Lock()

    def revoked(self, game_id: str) -> None:
        """Another process revoked credentials of this game: forget its cached state, and
        check every credential of it against the store for a while (thread-safe)."""
        with self._guard:
            now = time.monotonic()
            for stale in [g for g, until in self._distrusted.items() if until < now]:
                del self._distrusted[stale]
            self._distrusted[game_id] = now + DISTRUST_SECONDS
        self.games.forget(game_id)

    def _cached(self, game_id: str) -> GameState | None:
        until = self._distrusted.get(game_id)
        if until is not None and until >= time.monotonic():
            return None
        return self.games.cached(game_id)

    def identify(self, game_id: str, presented: Presented) -> str:
        """The audience of whoever presented this in this game (see `audience`)."""
        if presented.token is not None:
            return self.audience(game_id, presented.token)
        if presented.session is not None:
            return self.session_audience(game_id, presented.session)
        return self.audience(game_id, None)

    def cached_identity(self, game_id: str, presented: Presented) -> str | None:
        """The actor of a token or session the game's cached state knows, answered without
        reading the store; None when the game is not cached or does not know it there (then
        `identify` reads the store). A session found here is checked again by the writer on
        the state its command is decided on (`GameService.send`)."""
        cached = self._cached(game_id)
        if cached is None:
            return None
        if presented.token is not None:
            return cached.credentials.get(hash_token(presented.token))
        if presented.session is not None:
            return cached.sessions.get(hash_token(presented.session))
        return None

    def audience(self, game_id: str, token: str | None) -> str:
        """The caller's audience in this game: gm, seat:N, or public (when spectators may).

        Options never change, and credentials are removed only by a revocation, which every
        process hears of (its own appends update its cache; others' come through the fan-out,
        `revoked`): so a cached state that knows the token (or the game's options) answers
        without reading the store.
        """
        cached = self._cached(game_id)
        if cached is not None and (token is None or hash_token(token) in cached.credentials):
            state = cached
        else:
            state = self.games.get(game_id, up_to_damage=True)
        if token is None:
            if not state.options.spectators:
                raise Unauthorized(
                    "token_required", "This game's log is private: present your seat token."
                )
            return PUBLIC
        actor = state.credentials.get(hash_token(token))
        if actor is None:
            raise Unauthorized("bad_token", "This token is not valid for this game.")
        return actor

    def session_audience(self, game_id: str, session: str) -> str:
        """The audience of a browser session of this game; revoked or foreign ones are refused.

        Read from the store's latest state: a revocation by another worker must count at once.
        """
        actor = self.games.get(game_id).sessions.get(hash_token(session))
        if actor is None:
            raise Unauthorized(
                "bad_session", "This browser is not signed in to this game: open your invite link."
            )
        return actor
