"""The generic views (static/render.js) show people by the names they typed (issue 33 item 4): a
seat named exactly like a catalog key (「移動フェイズ」, "phase") keeps its name in an English page,
while a field's name is still read from the catalog. render.js runs in Node.js with its two
imports stubbed (the page's `el`, and `t` over the English catalog)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from api.pages import i18n
from domain.application.settings import node_binary

ROOT = Path(__file__).resolve().parents[2]
API = "export const el = (tag, attributes, ...children) => ({ tag, children: children.flat() });\n"
I18N = "export const t = (key) => globalThis.CATALOG[key] ?? key;\n"
RUN = """
import { readFileSync } from "node:fs";
globalThis.CATALOG = JSON.parse(readFileSync("catalog.json", "utf8"));
const { renderValue, withNames } = await import("./render.js");
const names = { "seat:1": "移動フェイズ", "seat:2": "phase" };
const view = withNames(JSON.parse(process.argv[3]), (actor) => names[actor] ?? actor);
const texts = [];
const walk = (node) => {
  if (node === null || node === undefined) return;
  if (typeof node !== "object") { texts.push(String(node)); return; }
  if (node.tag === "dt" || node.tag === "th") texts.push(`${node.tag}:${node.children.join("")}`);
  else node.children.forEach(walk);
};
walk(renderValue(view));
console.log(JSON.stringify(texts));
"""


@pytest.fixture
def node() -> str:
    found = node_binary()
    if found is None or not Path(found).exists():
        pytest.skip("no Node.js")
    return found


def headings(node: str, tmp_path: Path, view: object, language: str) -> list[str]:
    shutil.copy(ROOT / "api/pages/static/render.js", tmp_path / "render.js")
    (tmp_path / "api.js").write_text(API)
    (tmp_path / "i18n.js").write_text(I18N)
    (tmp_path / "run.mjs").write_text(RUN)
    catalog = json.dumps(dict(i18n.CATALOGS[language]), ensure_ascii=False)
    (tmp_path / "catalog.json").write_text(catalog, encoding="utf-8")
    done = subprocess.run(
        [node, "run.mjs", "", json.dumps(view, ensure_ascii=False)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [text for text in json.loads(done.stdout) if text.startswith(("dt:", "th:"))]


def test_a_seat_named_like_a_catalog_key_keeps_its_name(node: str, tmp_path: Path) -> None:
    assert i18n.gettext("移動フェイズ", "en") == "Movement Phase"  # keys, as the test needs
    assert i18n.gettext("phase", "ja") == "フェイズ"
    view = {"seat:1": {"phase": 2}, "seat:2": {"phase": 3}}
    # an English page: the seat 「移動フェイズ」 as typed; a Japanese page: the seat "phase"
    assert headings(node, tmp_path, view, "en") == [
        "dt:移動フェイズ",
        "dt:phase",
        "dt:phase",
        "dt:phase",
    ]
    assert headings(node, tmp_path, view, "ja") == [
        "dt:移動フェイズ",
        "dt:フェイズ",
        "dt:phase",
        "dt:フェイズ",
    ]
    rows = [{"seat:2": 1, "移動フェイズ": 2}]  # a column of a person, and one of a field
    assert headings(node, tmp_path, rows, "ja") == ["th:phase", "th:移動フェイズ"]
    assert headings(node, tmp_path, rows, "en") == ["th:phase", "th:Movement Phase"]
