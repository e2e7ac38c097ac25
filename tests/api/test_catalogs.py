"""The message catalogs (api/pages/i18n/): every key the sources use is in both languages, and
both languages hold the same keys with the same placeholders.

The keys are found by Babel's own extractors: `_()` in the templates (Jinja's i18n extension),
`t()` in the ES modules, `N_()`/`_()`, `say()` (the `kiroku` command's and the terminal replay's
texts) and the refusals' messages in Python."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_javascript, extract_python
from babel.messages.pofile import read_po
from jinja2.ext import babel_extract

from api.pages import i18n
from tests.api.jstext import Finding, scan, scan_file, scan_template

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = ("KirokuError", "RuleViolation", "Forbidden", "NotFound", "Unauthorized")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
T_CALL = re.compile(r'(?<![\w.$])t\(\s*"((?:[^"\\\n]|\\.)*)"')


def used_keys() -> dict[str, str]:
    """Every catalog key in the sources → where it is first used."""
    found: dict[str, str] = {}

    def note(message: object, path: Path, line: int) -> None:
        if isinstance(message, str) and message:
            found.setdefault(message, f"{path.relative_to(ROOT)}:{line}")

    for path in sorted((ROOT / "api/pages/templates").glob("*.html")):
        with path.open("rb") as source:
            for found_in_template in babel_extract(source, ("_", "gettext"), [], {}):
                note(found_in_template[2], path, found_in_template[0])
    for path in sorted((ROOT / "api/pages/static").rglob("*.js")):
        with path.open("rb") as source:
            for found_in_script in extract_javascript(source, {"t": None}, [], {}):
                note(found_in_script[2], path, found_in_script[0])
        # Babel's lexer loses a t() whose arguments call t() again: its key, read as written
        text = path.read_text(encoding="utf-8")
        for match in T_CALL.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            concatenated = text[match.end() :].lstrip().startswith("+")  # Babel joins those
            if text[line_start:].lstrip().startswith("//") or concatenated:
                continue
            note(json.loads(f'"{match.group(1)}"'), path, text.count("\n", 0, match.start()) + 1)
    keywords = {"N_": None, "_": None, "say": None, **{name: (2,) for name in REFUSALS}}
    python = [*(ROOT / "domain").glob("*.py"), *(ROOT / "api").rglob("*.py")]
    for path in sorted([*python, *(ROOT / "replay").rglob("*.py")]):
        with path.open("rb") as source:
            for found_in_code in extract_python(source, keywords, [], {}):
                line, function = found_in_code[0], found_in_code[1]
                message: Any = found_in_code[2]
                if function in REFUSALS and not isinstance(message, str) and len(message) > 1:
                    note(message[1], path, line)
                elif isinstance(message, tuple):  # say("key {name}", name=…): the key
                    note(message[0], path, line)
                else:
                    note(message, path, line)
    return found


def po_keys(language: str) -> dict[str, str]:
    with (ROOT / "api/pages/i18n" / f"{language}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str)}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_key_the_sources_use_is_translated(language: str) -> None:
    catalog = po_keys(language)
    missing = {key: where for key, where in used_keys().items() if not catalog.get(key)}
    assert not missing, f"not in {language}.po: {missing}"


def test_both_languages_hold_the_same_keys_and_placeholders() -> None:
    ja, en = po_keys("ja"), po_keys("en")
    assert set(ja) == set(en), set(ja) ^ set(en)
    for key in ja:
        assert ja[key] and en[key], key
        wanted = set(PLACEHOLDER.findall(key))
        assert set(PLACEHOLDER.findall(ja[key])) == wanted, (key, ja[key])
        assert set(PLACEHOLDER.findall(en[key])) == wanted, (key, en[key])


def test_a_missing_key_is_caught() -> None:
    """The check above could fail: a key in a source but not in a catalog is reported."""
    assert "Start a table" in used_keys()
    # a key whose arguments call t() again (Babel's lexer loses it; the second pass finds it)
    assert "{attacker} → {amount} ({kind}, evasion {difficulty})" in used_keys()
    assert "Start a table" in po_keys("ja")
    assert "no such message, surely" not in po_keys("ja")


def test_language_negotiation() -> None:
    assert i18n.from_accept_language("en-US,en;q=0.9,ja;q=0.8") == "en"
    assert i18n.from_accept_language("ja,en-US;q=0.9") == "ja"
    assert i18n.from_accept_language("fr-FR,en;q=0.5,ja;q=0.7") == "ja"
    assert i18n.from_accept_language("fr-FR") is None
    assert i18n.translate("There is no seat {seat} in this game.", "ja", seat=3) == (
        "このゲームに席3はありません。"
    )


# ------------------------------------------------------------------ text not from a catalog

SCRIPTS = sorted((ROOT / "api/pages/static").rglob("*.js"))
TEMPLATES = sorted((ROOT / "api/pages/templates").glob("*.html"))
# Pages the server fills with str.format rather than Jinja (the exported session log): not yet
# through the catalogs (#33), listed here so the list can only shrink.
NOT_YET = {"session_log.html", "sessionlog.js", "logverify.js"}


def where(path: Path, finding: Finding) -> str:
    return f"{path.relative_to(ROOT)}:{finding.line}: {finding.literal} ({finding.why})"


def test_no_text_in_the_scripts_is_not_from_a_catalog() -> None:
    found = [
        where(path, finding)
        for path in SCRIPTS
        if path.name not in NOT_YET
        for finding in scan_file(path)
    ]
    assert not found, "text not through t():\n" + "\n".join(found)


def test_no_text_in_the_templates_is_not_from_a_catalog() -> None:
    found = [
        where(path, finding)
        for path in TEMPLATES
        if path.name not in NOT_YET
        for finding in scan_template(path.read_text(encoding="utf-8"))
    ]
    assert not found, "text not through _():\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        'el("button", { type: "button" }, "Start the game")',
        'el("p", {}, ok ? t("yes") : "no")',
        'el("p", {}, `You are ${name}.`)',
        'el("span", {}, ` ${joined ? "joined" : t("not joined yet")} `)',
        'el("input", { placeholder: "Search the log" })',
        'el("a", { title: `Go to event ${seq}` }, "#1")',
        'node.textContent = { live: "● live", offline: t("offline") }[state];',
        "document.title = `${title} — replay`;",
        'alert("Something went wrong")',
        'showError(box, "You are not signed in.")',
        'button("To the 移動フェイズ", () => send())',
        'const LABEL = "Take the damage now";',
        'el("li", {}, [t("a"), "Reveal to all"])',
        't("Hello {name}", { name: "stranger" })',
        'el("p", {}, "攻撃の解決を待っています。")',
        'button("同調する", null, go)',
        'el("p", {}, `${name} があなたを攻撃: ${what}。`)',
        'el("input", { "aria-label": "障害の名前" })',
    ],
)
def test_the_scan_catches_hard_coded_text(source: str) -> None:
    """The scan could fail: each of these puts English on a page without the catalogs."""
    assert scan(source), source


@pytest.mark.parametrize(
    "source",
    [
        'el("button", { type: "button", class: "primary", "data-command": "deal" }, t("Deal"))',
        'el("option", { value: "seat:1" }, name)',
        'if (event.type === "GameStarted") refresh();',
        'el("li", {}, kind === "ruling" ? t("ruling") : name)',
        'el("span", { class: "dice" }, "2D6")',
        'el("strong", {}, "GM")',
        'el("span", {}, `${name}（LV${lv}）`)',
        'document.querySelector("a.seq, a.concerns")',
        'el("p", {}, ["phase", "ruling"].includes(kind) ? t("x") : null)',
        'el("h3", {}, "移動フェイズ")',
        'el("th", {}, "【万札】")',
        'button("伏せ", null, stand)',
        'el("p", {}, t("Enter 集中状態"))',
    ],
)
def test_the_scan_lets_non_text_pass(source: str) -> None:
    assert not scan(source), scan(source)


def test_the_template_scan_catches_hard_coded_text() -> None:
    caught = scan_template('<button title="Send it">Send</button> <p>{{ _("Hello") }}</p>')
    assert [f.literal for f in caught] == ["Send it", "Send"]
