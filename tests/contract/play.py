"""A generated game for any ruleset, played over HTTP by random actors, with every byte each
audience receives checked against what it may see.

Where a string may go is read from the server's own books, independently of the code under
test: an event's public part goes to everyone; a sealed body to its audience and the GM (to
everyone once revealed; a host is not a GM); a ruleset view's field to the audience it was
made for, unless it sits in a Private value that audience may not see. A string found in an
audience's bytes that none of these places allows it — and that it did not type itself — is
a leak. The
strings traced are the markers the fuzzer types into commands and every longer string of a
sealed body or Private value (sheet names, card names: whatever a secret is made of).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from pydantic import BaseModel

from domain.application.service import GameService
from domain.model.audience import PUBLIC, may_see
from domain.model.commands import LIFECYCLE_COMMANDS, Command
from domain.model.errors import KirokuError
from domain.model.records import Recorded
from domain.model.ruleset import Ruleset
from domain.model.secrecy import Private, RulesView
from tests.contract.fuzz import Fuzzer, Vocabulary
from tests.table import Table

EVERYONE = "*"
LIFECYCLE_PLAY = ("note", "roll", "say", "declare", "reveal")  # never ends the game early
NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fuyu", "Gen", "Hana", "Ito", "Jun", "Kei", "Rin"]


def seat_count(ruleset: Ruleset[Any, Any]) -> int:
    for count in (3, 2, *range(4, 13)):
        try:
            ruleset.check_seats(count)
        except KirokuError:
            continue
        return count
    raise AssertionError(f"{ruleset.id} accepts no seat count")


@dataclass
class Played:
    game_id: str
    records: list[Recorded]
    accepted: int
    leaks: list[str] = field(default_factory=list)


def _strings(value: Any, keys: bool = True) -> Iterator[str]:
    """The strings in a JSON value (keys too, unless they are only its structure)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if keys:
                yield str(key)
            yield from _strings(item, keys)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item, keys)


def _view_strings(value: Any, audience: str, secret: bool = False) -> Iterator[tuple[str, bool]]:
    """(string, whether it came through a Private value) of a view as made for `audience`,
    leaving out Private values it may not see."""
    if isinstance(value, Private):
        # the declared audience read by the one visibility rule, not by Private's own method
        if may_see(audience, value.to, revealed=PUBLIC in value.to):
            yield from _view_strings(value.value, audience, True)
    elif isinstance(value, RulesView):
        for name in type(value).model_fields:
            yield from _view_strings(getattr(value, name), audience, secret)
    elif isinstance(value, BaseModel):
        yield from ((s, secret) for s in _strings(value.model_dump(mode="json"), keys=False))
    elif isinstance(value, dict):
        for item in value.values():
            yield from _view_strings(item, audience, secret)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _view_strings(item, audience, secret)
    elif isinstance(value, str):
        yield value, secret


def _whole(token: str, escaped: str) -> tuple[str, ...]:
    return tuple(f"{q}{form}{q}" for form in {token, escaped} for q in ('"', "'", '\\"'))


class Ledger:
    """Where each traced string may go, from the server's books."""

    def __init__(self, audiences: list[str]) -> None:
        self.audiences = audiences
        self.allowed: dict[str, set[str]] = {}
        self.secret: set[str] = set()  # strings found in sealed bodies or Private values

    def allow(self, text: str, who: set[str] | str) -> None:
        self.allowed.setdefault(text, set()).update({who} if isinstance(who, str) else who)

    def record(self, recorded: Recorded, revealed: bool) -> None:
        for text in _strings(recorded.envelope.public):
            self.allow(text, EVERYONE)
        sealed = recorded.envelope.sealed
        if sealed is None or recorded.body is None:
            return
        readers = {a for a in self.audiences if may_see(a, sealed.audience, revealed=revealed)}
        for text in _strings(recorded.body, keys=False):
            self.secret.add(text)
            self.allow(text, readers)

    def view(self, view: RulesView, audience: str) -> None:
        for text, secret in _view_strings(view, audience):
            if secret:
                self.secret.add(text)
            self.allow(text, audience)

    def public(self, text: str) -> bool:
        return EVERYONE in self.allowed.get(text, set())

    def traced(self, markers: list[str]) -> set[str]:
        """Strings worth searching for: the markers, and the longer secret strings (made by
        the rules: actors type only markers and public strings) that are public nowhere."""
        made = {t for t in self.secret if len(t) >= 4 and not t.isdigit()}
        return {t for t in (*markers, *made) if not self.public(t)}

    def leaks(
        self, audience: str, received: bytes, typed: set[str], traced: set[str], markers: set[str]
    ) -> list[str]:
        """Traced strings in `received` that `audience` may not see. A marker is unique, so
        found anywhere; another string only whole (a JSON string, or quoted in a message),
        as names may be parts of other names."""
        text = received.decode("utf-8", errors="replace")
        found = []
        for token in traced:
            if token in typed or audience in self.allowed.get(token, set()):
                continue
            escaped = json.dumps(token)[1:-1]
            forms = (token, escaped) if token in markers else _whole(token, escaped)
            if any(form in text for form in forms):
                found.append(f"{audience} received {token!r}")
        return found


class GeneratedGame:
    def __init__(
        self, client: TestClient, service: GameService, ruleset: Ruleset[Any, Any], seed: int
    ) -> None:
        self.client, self.service, self.ruleset = client, service, ruleset
        self.rng = random.Random(seed)
        self.fuzzer = Fuzzer(self.rng)
        seats = NAMES[: seat_count(ruleset)]
        # the ruleset's default referee: a 超人ロック game is played by a host who sees no
        # secrets, so its bytes are searched like any other player's
        self.table = Table.create(client, seats=seats, ruleset=ruleset.id)
        self.table.join_all()
        creator = self.table.creator
        self.table.do(creator, {"type": "start"})
        self.actors = [creator, *(f"seat:{n}" for n in range(1, len(seats) + 1))]
        self.audiences = [*self.actors, "public"]
        self.vocabulary = {a: Vocabulary() for a in self.audiences}
        self.typed: dict[str, set[str]] = {a: set() for a in self.audiences}
        self.pending: dict[str, bytes] = {a: b"" for a in self.audiences}
        self.seen_seq = {a: 0 for a in self.audiences}
        self.ledger = Ledger(self.audiences)
        self.indexed = 0
        lifecycle = [c for c in LIFECYCLE_COMMANDS if _type(c) in LIFECYCLE_PLAY]
        self.commands: list[type[Command]] = list(ruleset.commands)
        self.lifecycle: list[type[Command]] = lifecycle

    def receive(self, audience: str, body: bytes, learn: bool = True) -> None:
        self.pending[audience] += body
        if learn:
            with contextlib.suppress(ValueError):
                self.vocabulary[audience].learn(json.loads(body))

    def step(self) -> bool:
        """One command, tried by up to three actors; True when one was accepted."""
        pool = self.commands if self.rng.random() < 0.75 else self.lifecycle
        command = self.rng.choice(pool)
        for actor in self.rng.sample(self.actors, min(3, len(self.actors))):
            body = self.fuzzer.body(command, self.vocabulary[actor].only(self.ledger.public))
            if self.send(actor, body):
                return True
        return False

    def send(self, actor: str, body: dict[str, Any]) -> bool:
        """One command from `actor`; its answer (or refusal) is among what it received."""
        self.typed[actor].update(_strings(body))
        response = self.table.send(actor, body)
        self.receive(actor, response.content, learn=response.status_code == 201)
        return response.status_code == 201

    def read_all(self) -> None:
        """Every read an audience can make: the game, its view, the events it has not seen."""
        url = f"/games/{self.table.game_id}"
        for audience in self.audiences:
            headers = self.table.auth(audience)
            for path in ("", "/view"):
                self.receive(audience, self.client.get(url + path, headers=headers).content)
            response = self.client.get(
                f"{url}/events", params={"after": self.seen_seq[audience]}, headers=headers
            )
            self.receive(audience, response.content)
            self.seen_seq[audience] = response.json()["last_seq"]

    def read_replays(self) -> None:
        url = f"/games/{self.table.game_id}/replay"
        last = self.service.state(self.table.game_id).version
        for audience in self.audiences:
            for seq in {1, last // 2 or 1, last}:
                response = self.client.get(
                    url, params={"at": seq}, headers=self.table.auth(audience)
                )
                self.receive(audience, response.content)

    def check(self) -> list[str]:
        """Index what the books allow by now, then search what each audience received."""
        state = self.service.state(self.table.game_id)
        for recorded in self.service.records(self.table.game_id, after=self.indexed):
            self.ledger.record(recorded, revealed=recorded.seq not in state.unrevealed)
        self.indexed = state.version
        # a body revealed since it was indexed goes to everyone now
        for recorded in self.service.records(self.table.game_id):
            if recorded.envelope.sealed is not None and recorded.seq not in state.unrevealed:
                self.ledger.record(recorded, revealed=True)
        for audience in self.audiences:
            self.ledger.view(self.ruleset.view_model(state, audience), audience)
        traced = self.ledger.traced(self.fuzzer.markers)
        markers = set(self.fuzzer.markers)
        leaks = []
        for audience in self.audiences:
            leaks += self.ledger.leaks(
                audience, self.pending[audience], self.typed[audience], traced, markers
            )
            self.pending[audience] = b""
        return leaks

    def play(self, steps: int, read_every: int = 4) -> Played:
        accepted = 0
        leaks: list[str] = []
        for step in range(steps):
            accepted += self.step()
            if step % read_every == 0:
                self.read_all()
                leaks += self.check()
        self.read_all()
        self.read_replays()
        leaks += self.check()
        records = list(self.service.records(self.table.game_id))
        return Played(self.table.game_id, records, accepted, leaks)


def _type(command: type[Command]) -> str:
    return str(command.model_fields["type"].default)
