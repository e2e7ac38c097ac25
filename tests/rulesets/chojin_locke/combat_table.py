"""Driving a 超人ロック combat over HTTP: a game with three explorers on planet 0's spaceport and
a C-card deck of unique marker names, so a card's name in any byte an audience receives shows
where it went."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    ambush_squares,
    cmd,
    new_game,
    quiet_turn,
    setup_to_ambush,
    turn_actor,
    view,
)
from tests.table import Table


def combat_catalog(cards: int = 60) -> dict[str, Any]:
    """The sample catalog with `cards` C-cards, each a unique marker."""
    from tests.rulesets.chojin_locke.table import marked_catalog

    data, _ = marked_catalog()
    data["combat_cards"] = [
        {"name": f"C-{uuid.uuid4().hex}", "lv": 1 + n % 5, "kinds": ["攻撃"], "firepower": 4}
        for n in range(cards)
    ]
    return data


def three_on_a_square(
    client: TestClient, cards: int = 60, catalog: dict[str, Any] | None = None, **body: Any
) -> tuple[Table, list[int]]:
    """A started 惑星編 with exactly three explorers on planet 0's spaceport (the others on
    planets 1, 2 …), with `catalog` (default: `combat_catalog(cards)`) and the game's `body`
    (`options`, …); returns the table and those three seats."""
    catalog = catalog if catalog is not None else combat_catalog(cards)
    table = new_game(client, ruleset_options={"catalog": catalog}, **body)
    setup_to_ambush(table)
    gm = view(table, table.creator)  # a GM, or a host: sides are public
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]
    assert len(explorers) >= 3, explorers
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=square))
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=max(index - 2, 0)))
    table.do(table.creator, cmd("begin_planets"))
    return table, explorers[:3]


def to_combat_phase(table: Table, fighters: list[int]) -> str:
    """Quiet turns until one of `fighters` plays; it passes and walks to its 戦闘発生フェイズ
    (read as the creator: a GM, or a host who sees what the public does)."""
    for _ in range(12):
        actor = turn_actor(table)
        if int(actor[5:]) in fighters:
            break
        quiet_turn(table)
    else:
        raise AssertionError("never a fighter's turn")
    for _ in range(12):  # a turn has at most 11 phases (2002's rules)
        turn = view(table, table.creator)["turn"]
        if turn["phase"] == "combat":
            return actor
        if turn["phase"] == "main" and turn["main"] is None:
            table.do(actor, cmd("pass"))
        table.do(actor, cmd("next_phase"))
    raise AssertionError(f"{actor} never reached its 戦闘発生フェイズ")


def start(table: Table, fighters: list[int]) -> str:
    """Start the combat and walk its steps (1)–(3) to the first combat turn; the starter."""
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    return starter


def combat(table: Table, actor: str | None = None) -> dict[str, Any]:
    """The combat as `actor` sees it (the creator by default: a GM, or a host)."""
    fight: dict[str, Any] = view(table, actor or table.creator)["combat"]
    return fight


def current_actor(table: Table) -> str:
    return f"seat:{combat(table)['current']}"


def hand(table: Table, seat: int) -> list[str]:
    cards: list[str] = view(table, f"seat:{seat}")["me"]["combat_hand"]
    return cards


def play_turn(table: Table, main: dict[str, Any] | None = None) -> None:
    """The current fighter walks check → support1 → main (its action, パス by default) →
    support2 → end."""
    actor = current_actor(table)
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    table.do(actor, main or cmd("combat_pass"))
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
