"""Kiroku against BCDice's own test vectors (tests/dice/golden), family by family."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.dice.golden import EXCLUDED, Vector, agreement, disagreement, vectors

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "dice.md"
VECTORS = list(vectors())


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS if v.name not in EXCLUDED], ids=lambda v: v.name
)
def test_agrees_with_bcdice(vector: Vector) -> None:
    assert disagreement(vector) is None


def test_every_family_is_covered() -> None:
    counts = agreement()
    expected = {"sum", "pool", "reroll", "upper", "d66", "calc", "choice", "repeat"}
    assert expected | {"ninja", "ninja_legacy"} == set(counts)
    for family, (agree, compared, _) in counts.items():
        assert compared >= 5, family
        assert agree == compared, family


def test_exclusions_are_real_vectors_and_documented() -> None:
    names = {v.name for v in VECTORS}
    doc = DOC.read_text(encoding="utf-8")
    for name in EXCLUDED:
        assert name in names
        assert re.search(rf"`{re.escape(name)}`", doc), f"{name} is not in docs/reference/dice.md"


def test_names_are_unique() -> None:
    names = [v.name for v in VECTORS]
    assert len(names) == len(set(names))


def test_a_wrong_face_is_noticed() -> None:
    """The comparison can fail: the same vector with one face changed disagrees."""
    vector = next(v for v in VECTORS if v.name == "None:2")  # 2D6 with 5 and 3
    changed = Vector(**{**vector.__dict__, "rands": [[6, 5], [6, 4]]})
    assert disagreement(changed) is not None
