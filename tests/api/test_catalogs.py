"""The message catalogs (api/pages/i18n/): every key the sources use is in both languages, and
both languages hold the same keys with the same placeholders.

The keys are found by Babel's own extractors: `_()` in the templates (Jinja's i18n extension),
`t()` in the ES modules, `N_()`/`_()`, `say()` (the `kiroku` command's and the terminal replay's
texts) and the refusals' messages in Python."""

from __future__ import annotations

import ast
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
REFUSALS = ("KirokuError", "RuleViolation", "Forbidden", "NotFound", "Unauthorized", "DiceError")
# Python sources whose refusals, validators' messages and log lines players read.
PYTHON = sorted([*(ROOT / "domain").rglob("*.py"), *(ROOT / "api").rglob("*.py")])
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
    keywords = {
        "N_": None,
        "_": None,
        "say": None,  # the CLI's say("key {name}", name=…)
        "Message": (1,),
        "Invalid": (1,),
        "fail": (1,),  # a dice parser's refusal (domain/dice/tokens.py Cursor.fail)
        **{name: (2,) for name in REFUSALS},
    }
    for path in sorted({*PYTHON, *(ROOT / "replay").rglob("*.py")}):
        with path.open("rb") as source:
            for found_in_code in extract_python(source, keywords, [], {}):
                line, function = found_in_code[0], found_in_code[1]
                message: Any = found_in_code[2]
                if function in REFUSALS and not isinstance(message, str) and len(message) > 1:
                    note(message[1], path, line)
                elif not isinstance(message, str) and message:  # a tuple: its first is the key
                    note(message[0], path, line)
                else:
                    note(message, path, line)
    # Keys Babel leaves out: a key marked inside a refusal's own call (`KirokuError(code,
    # problem_text(N_("…")))`, `params={"x": N_("…")}`).
    for path in PYTHON:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in ("N_", "Message", "Invalid"):
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    note(first.value, path, node.lineno)
            # a key with its context: C_("ninja_slayer", "精神力")
            if isinstance(node, ast.Call) and _called(node) == "C_" and len(node.args) == 2:
                context, word = node.args
                if isinstance(context, ast.Constant) and isinstance(word, ast.Constant):
                    note(i18n.key(str(word.value), str(context.value)), path, node.lineno)
    return found


def po_keys(language: str) -> dict[str, str]:
    with (ROOT / "api/pages/i18n" / f"{language}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    return {
        i18n.key(m.id, m.context): str(m.string) for m in catalog if isinstance(m.id, str) and m.id
    }


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
# Files not yet through the catalogs, listed here so the list can only shrink (the exported
# session log's template and scripts now are: #33).
NOT_YET: set[str] = set()


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


# ------------------------------------------------------------------ refusals formatted too early

# A refusal's message (and a validator's) is a catalog key, its arguments apart: `RuleViolation(
# code, "{unit} is not your unit.", params=...)`, `Invalid("...", name=...)`, `Message(...)`.
# An f-string, a `%`/`+`/`.format` or a string built elsewhere cannot be looked up in the
# catalogs, so the reader would get it in the source's language. A message handed on as a
# variable is allowed only where listed here (its key is chosen with N_/Message where it is
# made, and extracted there); the list can only shrink (a stale entry fails).
PASS_THROUGH = {
    ("domain/rulesets/mech_d20/movement.py", "refusal"),
    ("domain/rulesets/mech_d20/opportunity.py", "refusal"),
    ("domain/rulesets/mech_d20/powers.py", "refusal"),
    ("domain/rulesets/mech_d20/units.py", "refusal"),
    ("domain/rulesets/chojin_locke/counts.py", "_wrong_count(players)"),
    ("domain/model/lifecycle.py", "taken"),
    ("domain/model/canonical.py", "problem.message"),
    ("api/longreads.py", "template"),
    ("api/routes/systems.py", "error.template"),
    ("domain/model/messages.py", "key"),
    ("domain/dice/arithmetic_parser.py", "self.no_dice"),
    ("domain/dice/errors.py", "error.template"),
    ("domain/dice/parser.py", "added.refused[word]"),  # a ruleset's refused words: N_ keys
    ("domain/dice/parser.py", "reason"),
    ("domain/dice/tokens.py", "message"),  # Invalid(key, ...): its callers give the key
    # domain/model/text.py's refusals: Messages with their keys (a forbidden character, blank)
    ("domain/application/service.py", "problem_text(TITLE_OR_NAME, *found)"),
    ("domain/application/service.py", "blank_text(TITLE_OR_NAME)"),
    ("domain/adapters/bcdice_engine.py", "template"),  # _FAILURES's N_ keys: BCDice's refusals
}
KEYED = {"Message": 0, "Invalid": 0, "N_": 0, "fail": 0, **{name: 1 for name in REFUSALS}}
VALIDATORS = ("field_validator", "model_validator")


def _called(node: ast.Call) -> str | None:
    function = node.func
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else None


def _message(node: ast.Call, index: int) -> ast.expr | None:
    if len(node.args) > index:
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg in ("message", "key")), None)


def _is_validator(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(d, ast.Call) and _called(d) in VALIDATORS for d in function.decorator_list
    )


def scan_python(source: str, where: str) -> list[tuple[int, str]]:
    """(line, what) for each message a reader would get untranslated."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    in_validator: set[int] = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and _is_validator(function):
            in_validator |= {id(n) for n in ast.walk(function)}
    ruleset = where.startswith("domain/rulesets/")
    # module constants that are keys: `TOO_LARGE = N_("Request bodies are limited to …")`
    keys = {
        target.id
        for statement in tree.body
        if isinstance(statement, ast.Assign)
        and isinstance(statement.value, ast.Call)
        and _called(statement.value) == "N_"
        for target in statement.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        if name == "ValueError" and (ruleset or id(node) in in_validator):
            found.append((node.lineno, "a validator's ValueError: raise Invalid(key, ...)"))
            continue
        if name == "problem" and where.startswith("api/") and len(node.args) > 2:
            detail = node.args[2]
            if isinstance(detail, ast.Constant | ast.JoinedStr):
                found.append((node.lineno, "a problem's detail not read through the catalogs"))
            continue
        if name not in KEYED:
            continue
        message = _message(node, KEYED[name])
        if message is None:
            continue
        if isinstance(message, ast.Constant) and isinstance(message.value, str):
            continue
        said = ast.get_source_segment(source, message) or ""
        if isinstance(message, ast.Call) and _called(message) in ("N_", "Message"):
            continue  # a key (and its arguments), itself checked here
        if isinstance(message, ast.Name) and message.id in keys:
            continue
        if (
            isinstance(message, ast.Name | ast.Attribute | ast.Subscript | ast.Call)
            and (where, " ".join(said.split())) in PASS_THROUGH
        ):
            continue
        found.append((node.lineno, f"{name}({said[:60]}): not a catalog key"))
    return found


def test_no_refusal_is_formatted_before_it_is_translated() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in PYTHON
        for line, what in scan_python(path.read_text(encoding="utf-8"), relative(path))
    ]
    assert not found, "messages a reader cannot get in their language:\n" + "\n".join(found)


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_pass_through_list_only_shrinks() -> None:
    seen: set[tuple[str, str]] = set()
    for path in PYTHON:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and _called(node) in KEYED:
                message = _message(node, KEYED[_called(node) or ""])
                if message is not None:
                    said = " ".join((ast.get_source_segment(source, message) or "").split())
                    seen.add((relative(path), said))
    assert seen >= PASS_THROUGH, PASS_THROUGH - seen


@pytest.mark.parametrize(
    "source",
    [
        'raise RuleViolation("x", f"{unit.name} is not your unit.")',
        'raise Forbidden("x", "It is " + name + "\'s turn.")',
        'raise NotFound("x", "No {0}.".format(name))',
        'raise KirokuError("x", message)',
        'raise RuleViolation(code="x", message=f"{a} acts.")',
        'return Message(f"{unit} is down.")',
        'raise Invalid(f"{n} is too many")',
    ],
)
def test_the_refusal_scan_catches_formatted_messages(source: str) -> None:
    assert scan_python(source, "domain/rulesets/x/guards.py"), source


def test_the_refusal_scan_catches_validators_and_details() -> None:
    validator = (
        "class Sheet(BaseModel):\n"
        "    @field_validator('abilities')\n"
        "    @classmethod\n"
        "    def _abilities(cls, value):\n"
        "        raise ValueError('abilities need 出力')\n"
    )
    assert scan_python(validator, "domain/model/sheet.py")
    assert scan_python('raise ValueError("bad")', "domain/rulesets/x/sheet.py")
    assert scan_python('return problem(429, "rate_limited", f"Wait {n}s.")', "api/x.py")
    assert scan_python('return problem(413, "too_large", "Too large.")', "api/x.py")


def test_the_refusal_scan_lets_keys_pass() -> None:
    source = (
        'raise RuleViolation("x", "{unit} is not your unit.", params={"unit": unit.name})\n'
        'raise Invalid("ability values are between -10 and 40")\n'
        'return Message("{unit} is down.", {"unit": unit.name})\n'
        'return problem(413, "too_large", i18n.translate(TOO_LARGE, language, limit=n))\n'
        'raise ValueError(f"bucket {key} is not sorted")\n'  # internal, outside a validator
    )
    assert not scan_python(source, "domain/model/seqmap.py")


def test_a_hard_coded_refusal_is_caught_as_a_missing_key() -> None:
    """A new literal refusal in a ruleset is a key the catalogs lack: the first check fails."""
    keys = used_keys()
    assert "Only ninjas have アドレナリン・ブースト." in keys
    assert "{unit} is not your unit." in keys  # a Message/params key, extracted
    assert "abilities need {missing} (the basic attacks use them)" in keys  # Invalid(...)
