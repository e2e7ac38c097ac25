"""Long games for the browser tests and the benchmarks, written straight into a store.

Tens of thousands of events through HTTP would take minutes; these are decided and folded by
the real lifecycle (as the app does) and stored through the real store (`import_game`), so the
server then reads them as any game. The GM's token and the seats' invites are known, so
browsers sign in as they would. Every tenth event is a note from seat 1 to the GM carrying a
marker (`SECRET-<n>`): seat 2 and the public must never receive one.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass

from domain.application.bootstrap import bootstrap
from domain.model import codec, lifecycle
from domain.model.authentication import hash_token
from domain.model.commands import Declare, Note, Roll, Say, Start
from domain.model.envelope import genesis_hash
from domain.model.lifecycle_events import GameOptions
from domain.model.records import Recorded
from tests.decided import decide

SECRET = "SECRET-"
AT = "2026-11-22T00:00:00Z"


@dataclass(frozen=True)
class LongGame:
    game_id: str
    gm_token: str
    invites: dict[int, str]  # seat → invite
    events: int


def long_game_records(events: int, *, seed: int = 3) -> tuple[LongGame, list[Recorded]]:
    """A freeform game of `events` events in play (not ended): chat in two tabs, rolls,
    declarations and sealed notes."""
    rng = random.Random(seed)
    game_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    gm_token = f"gm-{rng.getrandbits(64):x}"
    invites = {seat: f"invite-{seat}-{rng.getrandbits(64):x}" for seat in (1, 2, 3)}
    draft = lifecycle.create(
        ruleset="freeform",
        title="長いキャンペーン",
        seat_names=["Aki", "Ben", "Chie"],
        options=GameOptions(spectators=True),
        ruleset_options={},
        server_seed="ab" * 32,
        token_hash=hash_token(gm_token),
        invite_hashes=[hash_token(invites[seat]) for seat in (1, 2, 3)],
    )
    first = codec.seal(
        draft, game_id=game_id, seq=1, actor="gm", at=AT, prev_hash=genesis_hash(game_id)
    )
    records = [first]
    state = lifecycle.initial_state(first)

    def apply(command: object, actor: str) -> None:
        nonlocal state
        for made in decide(state, command, actor):  # type: ignore[arg-type]
            recorded = codec.seal(
                made,
                game_id=game_id,
                seq=state.version + 1,
                actor=actor,
                at=AT,
                prev_hash=state.head,
            )
            state = lifecycle.evolve(state, recorded)
            records.append(recorded)

    apply(Start(), "gm")
    while len(records) < events:
        n = len(records) + 1
        pick = rng.random()
        if n % 10 == 0:
            apply(Note(text=f"{SECRET}{n}", to=["gm"]), "seat:1")
        elif pick < 0.3:
            apply(Roll(expression="2D6+1>=8"), "seat:2")
        elif pick < 0.5:
            apply(Say(text=f"雑談 {n}", tab="雑談"), "seat:3")
        elif pick < 0.8:
            apply(Say(text=f"line {n}"), "seat:1")
        else:
            apply(Declare(text=f"I act {n}"), "seat:3")
    return LongGame(game_id, gm_token, invites, len(records)), records


def store_long_game(env: dict[str, str], events: int) -> LongGame:
    """A long game written into the store `env` names (the one the server will open)."""
    game, records = long_game_records(events)
    service = bootstrap(env=env)
    try:
        service.import_game(records)
    finally:
        service.close()
    return game
