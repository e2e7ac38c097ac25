"""Every file of this tree the docs name by its path (`domain/application/writer.py`,
`deploy/haproxy.cfg`, ...) exists: a page that names a moved or deleted file fails here."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOP = ("domain", "api", "projections", "replay", "tests", "docs", "deploy", "bcdice", ".ci")
EXTENSIONS = ("py", "md", "cfg", "conf", "toml", "js", "html", "po", "json", "css", "yml", "txt")
# Files a page tells its reader to make, not files of this tree.
TO_MAKE = {"domain/rulesets/guess.py"}  # docs/how-to/write-a-ruleset.md: "put it in ..."
_TOP = "|".join(re.escape(t) for t in TOP)
_EXT = "|".join(EXTENSIONS)
PATH = re.compile(rf"(?<![\w./-])((?:{_TOP})/[\w./-]*?\.(?:{_EXT}))(?![\w-])")


def named_paths() -> dict[str, list[str]]:
    """path → the pages naming it."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    named: dict[str, list[str]] = {}
    for page in pages:
        for found in PATH.findall(page.read_text(encoding="utf-8")):
            named.setdefault(found, []).append(str(page.relative_to(REPO)))
    return named


def test_the_docs_name_paths() -> None:
    named = named_paths()
    assert "domain/application/writer.py" in named
    assert "api/routes/commands.py" in named


def test_every_path_the_docs_name_exists() -> None:
    missing = {
        path: sorted(set(pages))
        for path, pages in named_paths().items()
        if path not in TO_MAKE
        and not any(part in path for part in ("*", "<", "{"))
        and not (REPO / path).exists()
    }
    assert not missing, f"the docs name files that do not exist: {missing}"


def test_every_picture_in_docs_images_is_shown_and_every_one_shown_exists() -> None:
    """A picture no page shows is left over (KIROKU_SCREENSHOTS=1 writes only those shown:
    tests/browser/conftest.py); a page showing a missing picture shows a hole."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    shown = set(re.findall(r"images/([\w.-]+\.png)", text))
    present = {path.name for path in (REPO / "docs" / "images").glob("*")}
    assert present - shown == set(), "pictures no page shows"
    assert shown - present == set(), "pictures the pages show that are not there"
