"""The README stays one screen or two, and its curl session runs as printed against a live
`kiroku serve`: every line it prints is the `# →` line written under its command."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serverproc import KirokuServer

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def _session() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## A game with curl", 1)[1]
    (block,) = re.findall(r"```sh\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    return block


@pytest.fixture
def server(tmp_path: Path) -> Iterator[KirokuServer]:
    with KirokuServer(db=tmp_path / "kiroku.db") as running:
        yield running


def test_the_readme_is_at_most_12_kb() -> None:
    assert len(README.read_bytes()) <= 12 * 1024


def test_the_readme_keeps_the_makefiles_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("serve", "test"):
        assert f"make {target}" in text
        assert re.search(rf"^{target}:", makefile, re.M)


@pytest.mark.slow
def test_the_curl_session_prints_what_the_readme_says(server: KirokuServer) -> None:
    for tool in ("bash", "curl", "jq"):
        if shutil.which(tool) is None:  # Debian's packages; CI's machine has them
            pytest.fail(f"{tool} is needed to run the README's curl session")
    block = _session()
    expected = [line[4:] for line in block.splitlines() if line.startswith("# → ")]
    assert expected, "the README's curl session shows no output"
    script = block.replace("K=http://127.0.0.1:8000", f"K={server.base_url}", 1)
    assert script != block, "the session no longer starts with K=http://127.0.0.1:8000"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected, done.stdout
