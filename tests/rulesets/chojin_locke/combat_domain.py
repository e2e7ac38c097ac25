"""A combat in its turns, on a state built directly (until the flow's start_combat lands): the
real deciders and folds of CHOJIN_LOCKE, dice from a scripted list of faces.

`Fight.do(actor, type, **fields)` decides like the server (nothing appended on a refusal: the
state stays as it was) and folds the drafts; `Fight.events` keeps every event with its
audience, so tests can look for secrets where they must not be."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from domain import dice
from domain.model.draws import DiceDraw, ShuffleDraw
from domain.model.envelope import Envelope
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.game import SeatState
from domain.model.lifecycle_events import GameCreated, GameOptions, RollRecord, SeatInfo
from domain.model.records import Draft, Recorded
from domain.model.table import Dice, Table
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.audit import audit
from domain.rulesets.chojin_locke.cards import Ability, Catalog, CombatCard, DamageRow, DamageTable
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.combat.state import Combat, Fighter
from domain.rulesets.chojin_locke.state import ChojinState, Player, Position, Turn

CARDS = (
    CombatCard(name="ショックウェーブ", lv=1, kinds=("攻撃",), firepower=3, sync=True, count=4),
    CombatCard(name="ビームキャノン", lv=3, kinds=("攻撃",), firepower=6, sync=True, count=4),
    CombatCard(name="サイコブラスト", lv=5, kinds=("攻撃",), firepower=12, count=2),
    CombatCard(name="バリアー", lv=2, kinds=("防御",), maintain=True, count=4),
    CombatCard(name="シールド", lv=5, kinds=("防御",), count=2),
    CombatCard(name="テレポート", lv=1, kinds=("逃避",), count=4),
    CombatCard(name="ハイテレポート", lv=4, kinds=("逃避",), count=2),
)
# columns 1:2以下, 1:1, 2:1, 3:1, 4:1+; damage = column + (total ≥ 7) + (total ≥ 11)
TABLE = DamageTable(
    columns=("1:2以下", "1:1", "2:1", "3:1", "4:1以上"),
    rows=tuple(
        DamageRow(total=total, damage=tuple(c + (total >= 7) + (total >= 11) for c in range(5)))
        for total in range(2, 13)
    ),
)


def catalog() -> Catalog:
    return sample().model_copy(update={"combat_cards": CARDS, "damage_table": TABLE})


def sheet_of(cat: Catalog, name: str, **update: Any) -> Any:
    return cat.character(name).model_copy(update=update)


@dataclass
class Fight:
    state: ChojinState
    faces: list[int] = field(default_factory=list)
    seq: int = 100
    draws: int = 1
    events: list[tuple[Event, tuple[str, ...]]] = field(default_factory=list)
    actors: list[str] = field(default_factory=list)  # who sent the command of each event
    start: ChojinState | None = None  # the state before the first command

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = self.state

    def _dice(self) -> Dice:
        def roller(
            expression: str, manual: Sequence[int] | None, entropy: str, number: int
        ) -> RollRecord:
            parsed = dice.parse(expression)
            wanted = sum(r.count for r in parsed.dice)
            if manual is None:
                assert len(self.faces) >= wanted, f"no faces scripted for {expression}"
                given, self.faces = self.faces[:wanted], self.faces[wanted:]
            else:
                given = list(manual)
            result = parsed.evaluate(given)
            return RollRecord(
                expression=parsed.text, result=result.model_dump(mode="json"), manual=False
            )

        def drawer(requests: Sequence[tuple[int, int]], number: int, entropy: str) -> DiceDraw:
            faces = tuple(1 for count, _sides in requests for _ in range(count))
            return DiceDraw(roll=number, seeds=(), dice=tuple(requests), faces=faces)

        def shuffler(items: int, number: int, entropy: str) -> ShuffleDraw:
            # the flow's shuffles (a round end's initiative) in their dealt order
            return ShuffleDraw(roll=number, seeds=(), shuffle=items, order=tuple(range(items)))

        return Dice(roller, drawer, shuffler, first=self.draws)

    def table(self) -> Table[ChojinState]:
        seats = tuple(
            SeatState(seat=n, name=f"P{n}", joined=True) for n in range(1, self.state.seats + 1)
        )
        return Table(
            status="started",
            seats=seats,
            options=GameOptions(),
            rules=self.state,
            referee="host",
            referee_actor="host",
            next_seq=self.seq,
            dice=self._dice(),
        )

    def decide(self, actor: str, name: str, /, **fields: Any) -> list[Draft]:
        models = {c.model_fields["type"].default: c for c in CHOJIN_LOCKE.commands}
        command = models[f"chojin_locke.{name}"].model_validate(
            {"type": f"chojin_locke.{name}", **fields}
        )
        return CHOJIN_LOCKE.decide(self.table(), command, actor)

    def do(self, actor: str, name: str, /, **fields: Any) -> list[Event]:
        drafts = self.decide(actor, name, **fields)
        out = []
        for draft in drafts:
            self.state = CHOJIN_LOCKE.fold(self.state, draft.event, self.seq)
            self.seq += 1
            self.events.append((draft.event, draft.audience))
            self.actors.append(actor)
            out.append(draft.event)
        return out

    @property
    def combat(self) -> Combat:
        assert self.state.combat is not None
        return self.state.combat

    def hand(self, seat: int) -> list[str]:
        return list(self.combat.hands.get(seat, ()))

    def turn_of(self, seat: int) -> None:
        """The combat turn passes to `seat`, main phase (the flow's combat_next does this)."""
        self.state = self.state.model_copy(
            update={
                "combat": self.combat.model_copy(
                    update={"current": seat, "phase": "main", "main_done": False}
                )
            }
        )


ROCK = "ロック"  # ESP 6, power 30, endurance 5, willpower 6
NIA = "ニア"  # ESP 4, power 12, endurance 3, willpower 5
COUGAR = "戦士クーガー"  # ESP 3, power 8, endurance 5, willpower 3, [格闘:1]


def fight(
    hands: dict[int, list[str]],
    sheets: Sequence[str] = (ROCK, NIA, COUGAR),
    *,
    faces: Sequence[int] = (),
    sheet_updates: dict[int, dict[str, Any]] | None = None,
    fighter_updates: dict[int, dict[str, Any]] | None = None,
    parties: dict[int, list[int]] | None = None,
) -> Fight:
    """Seats 1… hold `sheets` on planet 2 square 3 in 惑星編; a combat in its first round's
    turns, seat 1's main phase, with `hands`."""
    cat = catalog()
    where = Position(planet=2, square=3)
    players = {}
    for n, name in enumerate(sheets, start=1):
        sheet = sheet_of(cat, name, **(sheet_updates or {}).get(n, {}))
        condition: Literal["normal", "partner"] = "normal"
        for partners in (parties or {}).values():
            if n in partners:
                condition = "partner"
        players[n] = Player(
            seat=n, sheet=sheet, side="explorer", position=where, condition=condition
        )
    fighters = {
        n: Fighter(id=n, name=f"Seat {n}", seat=n, **(fighter_updates or {}).get(n, {}))
        for n in players
    }
    combat = Combat(
        square="2:3",
        stage="planet",
        started_by=1,
        step="turns",
        fighters=fighters,
        order=list(players),
        current=1,
        phase="main",
        hands=hands,
    )
    state = ChojinState(
        catalog=cat,
        seats=len(players),
        stage="planet",
        players=players,
        turn=Turn(seat=1, number=1, phase="combat"),
        parties=parties or {},
        combat=combat,
    )
    return Fight(state=state, faces=list(faces))


def with_ability(name: str, *tags: str) -> dict[str, Any]:
    return {"abilities": (Ability(name=name, tags=("戦闘", *tags)),)}


def refused(f: Fight, actor: str, name: str, code: str, /, **fields: object) -> RuleViolation:
    """The command is refused with `code`, and nothing changes (nothing would be appended)."""
    before, count = f.state, len(f.events)
    with pytest.raises(RuleViolation) as caught:
        f.do(actor, name, **fields)
    assert caught.value.code == code, caught.value
    assert f.state is before and len(f.events) == count
    return caught.value


def _recorded(seq: int, event: Any, actor: str) -> Recorded:
    envelope = Envelope(
        game_id="g",
        seq=seq,
        type=event.type,
        actor=actor,
        at="2026-11-23T00:00:00Z",
        public=event.public_part(),
        prev_hash="",
        hash="",
    )
    return Recorded(envelope=envelope, event=event)


def audit_of(f: Fight) -> list[Any]:
    created = GameCreated(
        ruleset="chojin_locke",
        ruleset_version="3",
        title="t",
        seats=tuple(SeatInfo(seat=n, name=f"P{n}") for n in range(1, f.state.seats + 1)),
        options=GameOptions(),
        server_seed_hash="0" * 64,
    )
    history = [_recorded(1, created, "host")]
    history += [
        _recorded(n, event, actor)
        for n, ((event, _audience), actor) in enumerate(zip(f.events, f.actors, strict=True), 2)
    ]
    assert f.start is not None
    start: ChojinState = f.start

    def fold(state: ChojinState, recorded: Recorded) -> ChojinState:
        return CHOJIN_LOCKE.fold(state, recorded.event, recorded.seq)

    return audit(history, lambda _created: start, fold)
