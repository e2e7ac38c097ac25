"""One language per message (issue 33 item 5): no text in the Python sources is a Japanese
sentence or label with an English gloss in parentheses (「このコマンドはダイスが多すぎます (too many
dice).」); the catalogs give each language its own sentence. An English sentence that names a
rulebook's term (「… gives カウンターカラテ」) is one language and passes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    path
    for folder in ("domain", "api", "replay", "projections")
    for path in (ROOT / folder).rglob("*.py")
)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
GLOSS = re.compile(r"[(（]\s*[A-Za-z][A-Za-z']*(?:[ ,\-]+[A-Za-z][A-Za-z']*)+\s*[)）]")
PLACEHOLDER = re.compile(r"\{\w*\}")
ENGLISH_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")
# Written by others and not yet fixed, listed so the list can only shrink.
NOT_YET: set[tuple[str, str]] = set()


def mixed(text: str) -> bool:
    """Japanese outside an English gloss in parentheses, and no English sentence around it."""
    outside = PLACEHOLDER.sub("", GLOSS.sub("", text))
    return (
        bool(GLOSS.search(text))
        and bool(JAPANESE.search(outside))
        and not ENGLISH_WORD.search(outside)
    )


def glossed(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and mixed(node.value)
    ]


def test_no_message_glosses_japanese_in_english() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in SOURCES
        for line, text in glossed(path.read_text(encoding="utf-8"))
        if (str(path.relative_to(ROOT)), text) not in NOT_YET
    ]
    assert not found, "one language per message (catalog the other):\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("このコマンドはダイスが多すぎます (too many dice).", True),
        ("{system} のダイスコマンドではありません (BCDice does not know this command).", True),
        ("公開 ✗ (does not match its commitment)", True),
        ("緊急回避ダイス（no upper limit）", True),
        ("This command rolls too many dice.", False),
        ("EV only: successes above this (the attack's successes) give カウンターカラテ.", False),
        ("このコマンドはダイスが多すぎます。", False),
        ("同調 needs LV {lv} or less (the card asking for it, {original}).", False),
    ],
)
def test_the_scan_tells_a_gloss_from_a_sentence(text: str, caught: bool) -> None:
    assert mixed(text) is caught
