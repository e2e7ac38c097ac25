"""docs/tutorial/settle-a-dispute.md's terminal sessions run as printed: each `$ kiroku …`
line is run in a scratch directory holding the repository's samples (one store, ./kiroku.db,
for the whole page), and prints exactly the lines written under it."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial" / "settle-a-dispute.md"
LOCALE = ("KIROKU_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "KIROKU_DB", "KIROKU_DATABASE_URL")


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """Each `$ ` command of the page's code blocks, with the lines printed under it."""
    found: list[tuple[str, list[str]]] = []
    for block in text.split("```")[1::2]:
        for line in block.strip("\n").splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return [(command, "\n".join(out).rstrip("\n").splitlines()) for command, out in found]


def run(command: str, where: Path) -> list[str]:
    words = shlex.split(command)
    env = {k: v for k, v in os.environ.items() if k not in LOCALE}
    while "=" in words[0]:
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    assert words[0] == "kiroku", command
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", *words[1:]],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (command, done.stderr)
    return [line.rstrip() for line in done.stdout.rstrip("\n").splitlines()]


def test_the_dispute_tutorial_prints_what_it_says(tmp_path: Path) -> None:
    shown = sessions(TUTORIAL.read_text(encoding="utf-8"))
    assert any(c.startswith("kiroku import samples/") for c, _ in shown), "it starts from a sample"
    assert any(c.startswith("KIROKU_LANG=en ") for c, _ in shown), "it shows the English too"
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    for command, printed in shown:
        assert run(command, tmp_path) == printed, command
