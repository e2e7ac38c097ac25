"""Random commands from every seat: each is either refused (state untouched) or folds cleanly,
and no seat's view ever shows the boss's secret sheet."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from pydantic import ValidationError

from domain.dice import DiceError
from domain.model.errors import KirokuError
from domain.rulesets.ninja_slayer import NINJA_SLAYER
from tests.decided import decide

from .combat_setup import MOBS, table
from .harness import Game

IDS = ["aki", "ben", "boss", *MOBS, "nobody"]
ACTORS = ["gm", "gm", "seat:1", "seat:2"]  # the GM runs most of the table
MARKER = "ヒミツ・ジツ"  # in the boss sheet of the harness


def faces(rng: random.Random, count: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(count)]


def stat(game: Game, who: str | None, name: str, rng: random.Random) -> int:
    """Usually the right pool size, sometimes a wrong one (refused as bad faces)."""
    character = game.rules.characters.get(who or "")
    if character is None or rng.random() < 0.1:
        return rng.randint(0, 9)
    return int(getattr(character.now, name))


def random_command(rng: random.Random, game: Game) -> dict[str, Any]:
    who = rng.choice(IDS)
    actor_id = game.rules.combat.actor if game.rules.combat else None
    damages = [d.id for d in game.rules.combat.damages] if game.rules.combat else []
    pick = rng.randrange(12)
    combat = game.rules.combat
    if combat is not None and rng.random() < 0.5:  # mostly what the phase is for
        natural = {
            "turn_start": [1],
            "teban_start": [8, 1],
            "movement": [7, 1],
            "attack": [3, 4] if damages else [2, 11, 1],
            "teban_end": [1],
            "turn_end": [10, 6],
        }
        pick = rng.choice(natural[combat.phase])
    if game.rules.combat is None:
        on_map = [i for i, c in game.rules.characters.items() if c.on_map]
        return {
            "type": "ninja_slayer.begin_combat",
            "participants": on_map,
            "enemy_tie_order": [m for m in MOBS if m in on_map],
        }
    if pick == 0:
        return {
            "type": "ninja_slayer.check",
            "character": who,
            "stat": "カラテ",
            "reaction_dice": (extra := rng.randint(0, 2)),
            "faces": faces(rng, stat(game, who, "karate", rng) + extra),
        }
    if pick == 1:
        return {"type": "ninja_slayer.advance"}
    if pick == 2:
        return {
            "type": "ninja_slayer.attack",
            "kind": (kind := rng.choice(["melee", "ranged"])),
            "allocations": [
                {
                    "target": rng.choice(IDS),
                    "faces": faces(
                        rng, stat(game, actor_id, "karate" if kind == "melee" else "wazamae", rng)
                    ),
                }
            ],
        }
    if pick == 3 and damages:
        return {
            "type": "ninja_slayer.evade",
            "character": who,
            "damages": rng.sample(damages, rng.randint(1, len(damages))),
            "evasion_dice": (n := rng.randint(0, 4)),
            "faces": faces(rng, n),
        }
    if pick == 4 and damages:
        return {"type": "ninja_slayer.take_damage", "damages": [rng.choice(damages)]}
    if pick == 11 and rng.random() < 0.05:
        return {"type": "ninja_slayer.end_combat"}
    if pick == 5:
        return {"type": "ninja_slayer.counter_karate", "character": who, "target": rng.choice(IDS)}
    if pick == 6:
        return {"type": "ninja_slayer.next_turn", "enemy_tie_order": MOBS}
    if pick == 7:
        return {
            "type": "ninja_slayer.move",
            "style": rng.choice([None, "連続側転"]),
            "faces": faces(rng, stat(game, actor_id, "wazamae", rng)),
        }
    if pick == 8:
        return {"type": "ninja_slayer.concentrate"}
    if pick == 9:
        return {"type": "ninja_slayer.adrenaline_boost", "character": who}
    if pick == 10:
        return {"type": "ninja_slayer.wasshoi", "faces": faces(rng, 2)}
    return {"type": "ninja_slayer.other_action", "action": "ジツ"}


@pytest.mark.parametrize("seed", range(6))
def test_random_play_never_breaks_the_books_or_leaks(seed: int) -> None:
    rng = random.Random(seed)
    game = table()
    game.do(
        "gm",
        {
            "type": "ninja_slayer.begin_combat",
            "participants": ["aki", "ben", "boss", *MOBS],
            "enemy_tie_order": MOBS,
        },
    )
    appended = 0
    for _ in range(800):
        body = random_command(rng, game)
        actor = rng.choice(ACTORS)
        before = game.state
        try:
            drafts = decide(game.state, game.parse(body), actor)
        except (KirokuError, DiceError, ValidationError):
            assert game.state == before
            continue
        game.apply(drafts, actor)
        appended += len(drafts)
        for seat in ("seat:1", "seat:2", "public"):
            assert MARKER not in json.dumps(NINJA_SLAYER.view(game.state, seat), ensure_ascii=False)
    assert appended > 60
    rules = game.rules
    # Snapshots store the state as JSON: it must come back exactly.
    assert NINJA_SLAYER.restore(json.loads(rules.model_dump_json())) == rules
    for character in rules.characters.values():
        assert character.now.reaction >= 0 and character.now.emergency >= 0
