"""Per-audience views, folded from events: pure, no storage.

A view is the game as one audience may see it: the lifecycle summary, the ruleset's own view,
and the sealed bodies this audience may read (its own, those addressed to it, and whatever has
been revealed). The GM's view holds every secret but the dice seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from domain.model import lifecycle
from domain.model.audience import may_see
from domain.model.canonical import sha256_hex
from domain.model.game import GameState
from domain.model.lifecycle_events import GameOptions, Revealed
from domain.model.records import Recorded
from domain.model.seqmap import SeqMap


class SecretItem(BaseModel):
    """A sealed body; a view lists those its audience may read."""

    model_config = ConfigDict(frozen=True)

    seq: int
    type: str
    actor: str
    audience: tuple[str, ...]
    body: dict[str, Any]
    revealed: bool = False


@dataclass(frozen=True, slots=True)
class ProjectionState:
    """What the projection folds per game: the full state plus every sealed body. A plain
    dataclass: one is made per event, and a pydantic copy costs several times more."""

    game: GameState
    sealed: SeqMap[SecretItem] = field(default_factory=SeqMap)


PROJECTION_STATE = TypeAdapter(ProjectionState)  # its JSON form, for the view store
# Names ProjectionState's shape (beside the game's, which lifecycle.state_key covers): bump it
# when it changes, so stored projection states are folded again.
PROJECTION_VERSION = "4"  # 4: the game state holds the recovery code's hash
_KEYS: dict[str, str] = {}


def projection_key(ruleset_id: str) -> str:
    """A hash of what a stored projection state depends on; a mismatch refolds the game."""
    key = _KEYS.get(ruleset_id)
    if key is None:
        schema = json.dumps(PROJECTION_STATE.json_schema(), sort_keys=True)
        game = lifecycle.state_key(ruleset_id)
        key = sha256_hex(f"{PROJECTION_VERSION}\n{schema}\n{game}")
        _KEYS[ruleset_id] = key
    return key


class SeatView(BaseModel):
    seat: int
    name: str
    joined: bool


class AudienceView(BaseModel):
    game_id: str
    audience: str
    seq: int
    head: str
    title: str
    ruleset: str
    status: str
    options: GameOptions
    seats: list[SeatView]
    tabs: list[str]
    rules: dict[str, Any]
    secrets: list[SecretItem]


def start(recorded: Recorded) -> ProjectionState:
    game = lifecycle.initial_state(recorded)
    return ProjectionState(game=game, sealed=_sealed(SeqMap(), recorded))


def fold(state: ProjectionState | None, recorded: Recorded) -> ProjectionState:
    """Apply one event; an event the state already includes is ignored (replays are safe)."""
    if state is None:
        return start(recorded)
    if recorded.seq <= state.game.version:
        return state
    game = lifecycle.evolve(state.game, recorded)
    return ProjectionState(game, _sealed(state.sealed, recorded))


def _sealed(sealed: SeqMap[SecretItem], recorded: Recorded) -> SeqMap[SecretItem]:
    """The sealed bodies after `recorded`: its own added, or the one it reveals marked."""
    envelope, event = recorded.envelope, recorded.event
    if envelope.sealed is not None:
        # from a stored record the server wrote and validated: no need to validate again
        item = SecretItem.model_construct(
            seq=recorded.seq,
            type=envelope.type,
            actor=envelope.actor,
            audience=envelope.sealed.audience,
            body=recorded.body or {},
        )
        sealed = sealed.set(item.seq, item)
    if isinstance(event, Revealed) and event.of_seq in sealed:
        revealed = sealed[event.of_seq].model_copy(update={"revealed": True})
        sealed = sealed.set(event.of_seq, revealed)
    return sealed


def render(
    state: ProjectionState, audience: str, secrets: list[SecretItem] | None = None
) -> AudienceView:
    """The view of `audience`; with `secrets`, those stand for its secrets (a replay picks the
    few a page shows from its own index instead of reading every sealed body)."""
    game = state.game
    if secrets is None:
        secrets = [
            item
            for item in state.sealed.values()
            if may_see(audience, item.audience, revealed=item.revealed)
        ]
    return AudienceView(
        game_id=game.game_id,
        audience=audience,
        seq=game.version,
        head=game.head,
        title=game.title,
        ruleset=game.ruleset,
        status=game.status,
        options=game.options,
        seats=[SeatView(seat=s.seat, name=s.name, joined=s.joined) for s in game.seats],
        tabs=list(game.tabs),
        rules=lifecycle.rules_view(game, audience),
        secrets=secrets,
    )


def render_all(state: ProjectionState) -> dict[str, AudienceView]:
    return {audience: render(state, audience) for audience in state.game.audiences()}
