"""The fonts the pages need are on the machine the browser tests run on, so the docs'
screenshots show what a reader's browser shows: Japanese in a CJK face, and the emoji the
pages use (🎲 before a game's dice system, static/system.js) in colour rather than as a box.
And `make test` installs every Debian package it checks for, each named in
docs/how-to/run-the-tests.md."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
CSS = REPO / "api" / "pages" / "static" / "kiroku.css"
MAKEFILE = REPO / "Makefile"
RUN_THE_TESTS = REPO / "docs" / "how-to" / "run-the-tests.md"

# The pixels of one glyph drawn in black in the pages' own font stack: how many are inked,
# and how many are far from grey (a colour emoji's; a missing glyph's box is black).
INK = """(family) => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const context = canvas.getContext("2d");
  context.font = `48px ${family}`;
  context.fillStyle = "#000";
  context.textBaseline = "top";
  context.fillText("🎲", 4, 4);
  const data = context.getImageData(0, 0, 64, 64).data;
  let inked = 0, coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b, a] = data.slice(i, i + 4);
    if (a > 0) inked++;
    if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
  }
  return { inked, coloured };
}"""


def pages_font_family() -> str:
    match = re.search(r":root\s*{[^}]*font-family:\s*([^;]+);", CSS.read_text(encoding="utf-8"))
    assert match, "kiroku.css sets the pages' font-family on :root"
    return match.group(1)


def test_the_dice_emoji_draws_in_colour(browser: Any) -> None:
    page = browser.new_page()
    try:
        ink = page.evaluate(INK, pages_font_family())
    finally:
        page.close()
    assert ink["inked"] > 0
    # Debian's fonts-noto-color-emoji; without it Chromium draws a monochrome box
    assert ink["coloured"] > 20, ink


def browser_packages() -> tuple[set[str], set[str]]:
    """The Debian packages `make browser-deps` checks for, and those it installs."""
    text = MAKEFILE.read_text(encoding="utf-8")
    recipe = text.split("\nbrowser-deps:", 1)[1].split("\n\n", 1)[0]
    checked = set(re.findall(r"dpkg -s ([\w.+-]+)", recipe))
    checked |= {Path(path).name for path in re.findall(r"\[ ! -x (/usr/bin/[\w-]+) \]", recipe)}
    checked |= set(re.findall(r"command -v ([\w-]+)", recipe))
    install = re.search(r"apt-get install -y -qq ([^>]+)>", recipe)
    assert install, "browser-deps installs with apt-get"
    return checked, set(install.group(1).split())


def test_make_test_installs_what_it_checks_and_the_docs_name_it() -> None:
    checked, installed = browser_packages()
    assert "fonts-noto-color-emoji" in checked
    assert checked == installed
    named = set(re.findall(r"`([\w.+-]+)`", RUN_THE_TESTS.read_text(encoding="utf-8")))
    assert installed <= named, installed - named
