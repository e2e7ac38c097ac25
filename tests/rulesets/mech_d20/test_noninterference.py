"""Attacker's property: what a seat or a spectator receives never depends on an NPC's sealed
numbers (hypothesis). Two games differ only in the boss's defences, max hp and attack bonus,
drawn so that every public outcome is the same; after every command, each event as redacted
for the seat (with its log line) and the seat's view must be byte-identical in both."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.logline import describe
from domain.model.redaction import Disclosure, redact
from domain.rulesets.mech_d20 import MECH_D20

from .harness import Game

HASH = re.compile(r"[0-9a-f]{64}")
AUDIENCES = ("public", "seat:1")
# Faces that keep the totals away from every drawn defence (PC: bonus 10 melee, 8 ranged,
# against 20–25; boss: its bonus 5–8 against AC 18), so hits and misses are the same in both
# games.
PC_FACES = st.sampled_from([1, 2, 3, 4, 5, 18, 19, 20])
BOSS_FACES = st.sampled_from([1, 2, 3, 4, 20])


def sealed_numbers() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "AC": st.integers(20, 25),
            "反応": st.integers(20, 25),
            "max_hp": st.integers(200, 240),
            "bonus": st.integers(5, 8),
        }
    )


def boss_sheet(numbers: dict[str, Any]) -> dict[str, Any]:
    claw = {
        "name": "クロー",
        "keywords": ["攻撃"],
        "range": "近接",
        "attack": {"ability": None, "defence": "AC", "bonus": numbers["bonus"]},
        "hit": {"dice": "1d6", "bonus": 2},
    }
    defences = {"AC": numbers["AC"], "頑健": 20, "反応": numbers["反応"], "意志": 20}
    return {"defences": defences, "max_hp": numbers["max_hp"], "powers": [claw]}


def seen(game: Game, since: int) -> list[str]:
    """What each audience receives for the events after `since`, and its view."""
    out = []
    disclosure = Disclosure.of(game.state)
    names = {1: "P1", 2: "P2", 3: "P3"}
    for audience in AUDIENCES:
        for recorded in game.records[since:]:
            event = redact(recorded, audience, disclosure)
            line = describe(event, audience, names, MECH_D20.describe)
            out.append(json.dumps([event, line.model_dump(mode="json")], ensure_ascii=False))
        out.append(json.dumps(MECH_D20.view(game.state, audience), ensure_ascii=False))
    return [HASH.sub("H", text) for text in out]


def play(numbers: dict[str, Any], turns: list[tuple[int, int, int]]) -> list[str]:
    game = Game()
    game.add("aki")
    game.add("boss", kind="npc", **boss_sheet(numbers))
    game.begin({"aki": 15, "boss": 1})
    trace: list[str] = []

    def step(actor: str, command: str, **body: Any) -> None:
        before = len(game.records)
        game.do(actor, command, **body)
        trace.extend(seen(game, before))

    for pc_face, boss_face, damage in turns:
        step("seat:1", "start_turn")
        power = "近接基礎攻撃" if pc_face % 2 else "遠隔基礎攻撃"
        weapon = "ビームサーベル" if pc_face % 2 else "ビームライフル"
        step("seat:1", "use_power", unit="aki", power=power, targets=["boss"], weapon=weapon)
        step("seat:1", "attack_roll", faces=[pc_face])
        if game.encounter.attacks:
            step("seat:1", "damage_roll", faces=[min(damage, 8)])
        step("seat:1", "end_turn")
        step("gm", "start_turn")
        step("gm", "use_power", unit="boss", power="クロー", targets=["aki"])
        step("gm", "attack_roll", faces=[boss_face])
        if game.encounter.attacks:
            step("gm", "damage_roll", faces=[min(damage, 6)])
        step("gm", "end_turn")
    return trace


@settings(max_examples=25, deadline=None)
@given(
    first=sealed_numbers(),
    second=sealed_numbers(),
    turns=st.lists(st.tuples(PC_FACES, BOSS_FACES, st.integers(1, 6)), min_size=1, max_size=3),
)
def test_no_audience_learns_the_sealed_numbers(
    first: dict[str, Any], second: dict[str, Any], turns: list[tuple[int, int, int]]
) -> None:
    assert play(first, turns) == play(second, turns)
