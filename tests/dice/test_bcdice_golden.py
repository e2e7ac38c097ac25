"""Golden vectors from BCDice's own test data (lib/bcdice/test_data.json inside the pinned npm
package, BSD-3-Clause: see NOTICE): for every vector of a broad set of systems, Kiroku's
answer — the command sent through Kiroku's engine with the vector's faces — is BCDice's: its
text, its secret/success/failure/critical/fumble flags, and the faces it consumed (BCDice's
harness lets a vector give more faces than the command uses; so does this test)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.adapters.bcdice_engine import shared_engine
from domain.application.settings import bcdice_dir
from domain.dice.bcdice import result_json
from domain.model.errors import KirokuError

# Test-data keys: a system's id, or one of the common commands' (answered by DiceBot).
SYSTEMS = (
    "Cthulhu7th",
    "Cthulhu",
    "SwordWorld2_5",
    "SwordWorld2_0",
    "ShinobiGami",
    "Insane",
    "Emoklore",
    "DoubleCross",
    "Nechronica",
    "NinjaSlayer2",
    "MagicaLogia",
    "Satasupe",
    "Arianrhod",
    "LogHorizon",
    "KanColle",
    "AddDice",
    "calc",
    "choice",
    "D66Dice",
    "Repeat",
    "UpperDice",
)


@cache
def _data() -> dict[str, Any]:
    path = Path(bcdice_dir()) / "node_modules" / "bcdice" / "lib" / "bcdice" / "test_data.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _vectors(key: str) -> list[dict[str, Any]]:
    return list(_data()[key]["test"])


def _possible(vector: dict[str, Any]) -> bool:
    """A face a real die can show: a few Cthulhu7th vectors feed a d10 the value 0, which
    Kiroku's randomizer never draws and its manual faces refuse."""
    return all(1 <= r["value"] <= r["sides"] for r in vector["rands"])


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_vector_is_bcdice_s_answer(key: str) -> None:
    engine = shared_engine()
    vectors = _vectors(key)
    assert vectors
    checked = 0
    for vector in vectors:
        system, command = vector["game_system"], vector["input"]
        faces = [r["value"] for r in vector["rands"]]
        if not _possible(vector):
            with pytest.raises(KirokuError) as refused:
                engine.evaluate(system, command, faces=faces, exact=False)
            assert refused.value.code == "bad_faces"
            continue
        evaluation = engine.evaluate(system, command, faces=faces, exact=False)
        where = f"{system} {command!r} faces {faces}"
        if not vector.get("output"):
            assert evaluation.result is None, where
            continue
        result = evaluation.result
        assert result is not None, where
        assert result.text == vector["output"], where
        given = [[r["value"], r["sides"]] for r in vector["rands"]]
        assert [list(r) for r in result.rands] == given[: len(result.rands)], where
        flags = {f: bool(vector.get(f, False)) for f in ("secret", "success", "failure")}
        flags |= {f: bool(vector.get(f, False)) for f in ("critical", "fumble")}
        recorded = result_json(result)  # what the event records
        assert {f: recorded[f] for f in flags} == flags, where
        assert recorded["explanation"] == vector["output"]
        assert recorded["faces"] == faces[: len(result.rands)]
        checked += 1
    assert checked >= len(vectors) // 2


def test_the_set_is_broad() -> None:
    counted = sum(len(_vectors(key)) for key in SYSTEMS)
    assert counted > 1000
    impossible = [v["input"] for key in SYSTEMS for v in _vectors(key) if not _possible(v)]
    assert len(impossible) == 5  # Cthulhu7th's d10 showing 0 (see _possible)
