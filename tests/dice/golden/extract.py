"""Turn BCDice's test data (bcdice/BCDice, test/data/*.toml) into Kiroku's golden fixtures.

    python -m tests.dice.golden.extract --source "bcdice/BCDice test/data/None.toml @1971ab5" \
        path/to/None.toml > tests/dice/golden/None.jsonl

Only facts are kept: the input (without the test's own comment), the die faces given
(`rands`, as [sides, value]), the integers of the expected output in order (the totals,
success counts, faces and targets it shows), whether it is refused (no output, or one of
BCDice's refusal messages), the flags (secret, success, failure, critical, fumble) and, for
CHOICE, which item was picked. BCDice's code and prose stay out.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

NUMBER = re.compile(r"-?\d+")
FLAGS = ("secret", "success", "failure", "critical", "fumble")
# Outputs that are BCDice refusing the command rather than rolling it.
REFUSALS = (
    "条件が間違って",
    "まちがって",
    "繰り返し回数",
    "実行できませんでした",
    "重複はできません",
)

_FAMILIES = (
    ("repeat", re.compile(r"S?(X|REP|REPEAT)\d", re.I)),
    ("choice", re.compile(r"S?CHOICE", re.I)),
    ("calc", re.compile(r"S?C[\d(]", re.I)),
    ("d66", re.compile(r"S?D66[ASND]?(\s|$)", re.I)),
    ("reroll", re.compile(r"S?[\d()+*/-]*R\d", re.I)),
    ("upper", re.compile(r"S?[\d()+*/-]*U\d", re.I)),
    ("pool", re.compile(r"S?[\d()+*/-]*B[\d(]", re.I)),
)
_NINJA_LEGACY = re.compile(r"(S?(X\d+\s+)?)(NJ|AT|EV|EL)\d", re.I)


def family(game_system: str, command: str) -> str:
    if game_system == "NinjaSlayer2":
        return "ninja_legacy" if _NINJA_LEGACY.match(command) else "ninja"
    for name, pattern in _FAMILIES:
        if pattern.match(command):
            return name
    return "sum"


_REPEAT_WORD = re.compile(r"S?(X|REP|REPEAT)\d+$", re.I)
_CHOICE_OPENING = re.compile(r"S?CHOICE([\[(])", re.I)


def command_of(text: str, kind: str) -> str:
    """The input without the test's comment: its first word; a repetition's words up to its
    inner command's; CHOICE up to its closing bracket, or the whole line in its blank form."""
    words = text.split()
    if not words:
        return ""
    if kind == "choice":
        opening = _CHOICE_OPENING.match(text)
        if opening is not None:
            end = text.find("]" if opening.group(1) == "[" else ")")
            return text[: end + 1] if end >= 0 else words[0]
        return text.strip() if words[0].lower() in ("choice", "schoice") else words[0]
    kept = [words[0]]
    while _REPEAT_WORD.match(kept[-1]) and len(kept) < len(words):
        kept.append(words[len(kept)])
    return " ".join(kept)


def chosen_index(output: str) -> int | None:
    """Which item CHOICE picked, 1-based, read from BCDice's echo of the items."""
    match = re.match(r"\(choice(?:\[(.*)\]|\((.*)\)| (.*))\) ＞ (.*)$", output, re.S)
    if match is None:
        return None
    listed, parened, spaced, picked = match.groups()
    items = spaced.split() if spaced is not None else (listed or parened or "").split(",")
    return items.index(picked) + 1


def vector(name: str, case: dict[str, Any]) -> dict[str, Any]:
    kind = family(case["game_system"], case["input"].strip())
    output: str = case.get("output", "")
    refused = output == "" or any(marker in output for marker in REFUSALS)
    row: dict[str, Any] = {
        "name": name,
        "family": kind,
        "input": command_of(case["input"], kind),
        "rands": [[r["sides"], r["value"]] for r in case.get("rands", [])],
        "refused": refused,
        "numbers": [] if refused else [int(n) for n in NUMBER.findall(output)],
        "flags": [flag for flag in FLAGS if case.get(flag)],
    }
    if kind == "choice" and not refused:
        row["chosen"] = chosen_index(output)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("toml", type=Path)
    parser.add_argument("--source", required=True, help="repository, path and commit")
    parser.add_argument("--only", help="keep only vectors whose family is this")
    parser.add_argument(
        "--first-index",
        type=int,
        default=1,
        help="the number of the file's first test in BCDice's file (for an excerpt)",
    )
    args = parser.parse_args(argv)
    data = tomllib.loads(args.toml.read_text(encoding="utf-8"))
    stem = args.toml.stem.split("_")[0]
    print(json.dumps({"source": args.source, "kept": "numbers and flags only"}, ensure_ascii=False))
    for index, case in enumerate(data["test"], start=args.first_index):
        row = vector(f"{stem}:{index}", case)
        if args.only is None or row["family"] == args.only:
            print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
