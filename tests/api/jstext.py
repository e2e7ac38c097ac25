"""A scan of the ES modules for text a person reads that does not come from the catalogs.

Every string literal (or template literal, outside its `${…}`) that reaches the page as text —
an `el(…)` child, a `textContent`/`title`/`placeholder`/… assignment, a `title`/`aria-label`/
`placeholder`/`label` attribute, an `alert`/`prompt`/`confirm`, an error shown with
`showError`, an argument of a pane's own element helpers (`button(text, …)`, `field(label, …)`)
— must hold no Latin letters unless it is a `t()` key (the catalog's) or a word the rulebooks
and the table use as is (GM, BCDice, dice notation like 2D6, d20 terms like AC and HP). Any
other literal that reads as English prose (two words or more) is caught wherever it stands:
a message kept in a constant is text too.

Japanese terms pass: the ruleset panes keep their rulebooks' terms as written (移動フェイズ,
【万札】). A Japanese *sentence* in a text position does not: a literal there with kana between
its words (hiragana: particles, verb endings — 「攻撃の解決を待っています」) is caught unless it is
a term listed in `JAPANESE_TERMS` (a rulebook's name that happens to hold kana)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.jslexer import tokenize

# call → which of its arguments are text (None: every argument from the index on)
TEXT_CALLS: dict[str, tuple[int, ...] | int] = {
    "el": 2,  # el(tag, attributes, ...children)
    "node": 2,  # sessionlog.js's el
    "alert": (0,),
    "prompt": (0, 1),
    "confirm": (0,),
    "showError": (1,),
    "append": 0,
    "prepend": 0,
    "replaceChildren": 0,
    "button": (0,),  # the panes' button(text | label, ...)
    "cmd": (0,),  # chojin_locke.js's cmd(text, type); combat.js's cmd(type): its types pass
    "advance": (0,),
    "proxyButton": (0,),
    "field": (0,),
    "submit": (0,),
    "harder": (0,),
    "numberInput": (1,),
    "select": (1,),
    "difficultySelect": (1,),
    "text": (1, 2),
    "number": (1,),
    "declaration": (1,),
    "Bad": (1,),  # logverify.js's problems, shown as the verdict
    "Error": (0,),
    "Problem": (1,),
}
# attributes / object keys whose value is read by people
TEXT_KEYS = {
    "title",
    "placeholder",
    "aria-label",
    "ariaLabel",
    "label",
    "alt",
    "summary",
    "submitText",
    "message",
    "why",
    "hint",
    "what",
    "problem",
    "confirm",
}
# properties whose assignment shows text
TEXT_PROPERTIES = {"textContent", "innerText", "title", "placeholder", "ariaLabel", "label"}
# words kept as they are in both languages
KEPT = re.compile(
    r"(?<![A-Za-z0-9])(?:GM|NPC|PC|BCDice|Kiroku|DiceBot|ココフォリア|d20|AC|HP|DC|CR|ESP|LV\d*|EV\d*|DKK|OK|JSON|URL|SHA-256|"
    r"\d*[dD]\d+(?:[+-]\d+)?|[A-Z]\d*|\d+[A-Za-z]?)(?![A-Za-z0-9])"
)
SUBSTITUTION = re.compile(r"\$\{(?:[^{}]|\{[^{}]*\})*\}")
# non-text literals: CSS classes and ids, event and command types, URLs, selectors, keys
NON_TEXT = re.compile(
    r"^(?:[a-z0-9_:.-]+(?: [a-z0-9_:.-]+)*"  # class lists, ids, keys, actors (seat:1)
    r"|[A-Z][A-Za-z0-9]*"  # event types, component names
    r"|[./?#][^ ]*|https?://\S*"  # paths, queries, fragments
    r"|[a-z]+\[[^\]]*\].*|[#.][\w-]+.*|[\w.#-]+(?:, [\w.#-]+)+"  # selectors
    r"|[a-z]+/[a-z+.-]+(?:;.*)?"  # media types
    r")$"
)
HIRAGANA = re.compile(r"[\u3040-\u309f]")
# Rulebook terms with hiragana in them, shown as written in both languages.
JAPANESE_TERMS = re.compile(r"伏せ|伏|実は生きていた|なし|あり")
COMPARISONS = {"===", "!==", "==", "!=", "in"}  # Babel's lexer reads === as == then =
PROSE = re.compile(r"[A-Za-z]{2,}[,.:;!?)]*\s+\(?[A-Za-z]{2,}")


@dataclass
class Frame:
    kind: str  # ( [ {
    findings: list[Finding] = field(default_factory=list)
    callee: str | None = None
    argument: int = 0
    key: str | None = None  # in an object: the key whose value comes next
    text: bool = False  # every string in it is text (an object of a text context)


@dataclass
class Finding:
    line: int
    literal: str
    why: str


@dataclass
class Scan:
    findings: list[Finding] = field(default_factory=list)


def words(literal: str) -> str:
    """The literal's own characters: quotes off, template substitutions out."""
    body = literal[1:-1]
    return SUBSTITUTION.sub(" ", body) if literal.startswith("`") else body


FORMAT_FIELD = re.compile(r"\{\w+\}")  # str.format's fields of a page the server fills


def has_latin(text: str) -> bool:
    if text.strip().startswith("{") and text.strip().endswith("}") and '":' in text:
        return False  # an example of JSON input
    return bool(re.search(r"[A-Za-z]", KEPT.sub(" ", FORMAT_FIELD.sub(" ", text))))


def japanese_sentence(text: str) -> bool:
    """Kana left once the listed terms are taken out: a sentence, not a term."""
    return bool(HIRAGANA.search(JAPANESE_TERMS.sub(" ", FORMAT_FIELD.sub(" ", text))))


def text_position(stack: list[Frame], assigning: int | None) -> str | None:
    """Why a literal here is shown as text, or None."""
    if assigning is not None and len(stack) >= assigning:
        return "assigned as text"
    for depth in range(len(stack) - 1, -1, -1):
        frame = stack[depth]
        if frame.text:
            return "in a text object"
        if frame.kind == "{":
            if frame.key in TEXT_KEYS:
                return f"the {frame.key} attribute"
            return None
        if frame.kind == "(":
            if frame.callee == "t":
                return None
            wanted = TEXT_CALLS.get(frame.callee or "")
            if wanted is None:
                return None
            if isinstance(wanted, int):
                return f"an argument of {frame.callee}()" if frame.argument >= wanted else None
            return f"an argument of {frame.callee}()" if frame.argument in wanted else None
        # [ ... ]: an array of children is as its enclosing call
    return None


def scan(source: str) -> list[Finding]:
    found: list[Finding] = []
    stack: list[Frame] = []
    held: list[Finding] = []  # an array's findings, dropped if a method is called on it
    previous: list[tuple[str, str]] = [("", ""), ("", "")]
    assigning: int | None = None  # depth of a `.textContent = …` being read
    in_t_key = False
    for token in tokenize(source, jsx=False, template_string=True, dotted=False):
        kind, value, line = token.type, token.value, token.lineno
        if kind in ("linecomment", "multilinecomment"):
            continue
        before = previous[-1]
        if held:
            if (kind, value) != ("operator", "."):
                (stack[-1].findings if stack and stack[-1].kind == "[" else found).extend(held)
            held = []
        if kind == "operator":
            if value in COMPARISONS and before[0] in ("string", "template_string"):
                pool = stack[-1].findings if stack and stack[-1].kind == "[" else found
                if pool and pool[-1].literal == before[1]:
                    pool.pop()
            if value in ("(", "[", "{"):
                callee = before[1] if value == "(" and before[0] == "name" else None
                parent = stack[-1] if stack else None
                textual = bool(
                    value == "{"
                    and parent
                    and parent.kind == "("
                    and parent.callee == "t"
                    and parent.argument >= 1
                )
                stack.append(Frame(value, callee=callee, text=textual))
            elif value in (")", "]", "}"):
                if stack:
                    closed = stack.pop()
                    held = closed.findings
                if assigning is not None and len(stack) < assigning:
                    assigning = None
            elif value == ",":
                if stack:
                    stack[-1].argument += 1
                    stack[-1].key = None
                if assigning is not None and len(stack) <= assigning:
                    assigning = None
            elif value == ";":
                if assigning is not None and len(stack) <= assigning:
                    assigning = None
            elif (
                value == ":" and stack and stack[-1].kind == "{" and before[0] in ("name", "string")
            ):
                if stack[-1].key is None:
                    stack[-1].key = before[1].strip("\"'")
            elif value == "=" and before[0] == "name" and previous[-2] == ("operator", "."):
                if before[1] in TEXT_PROPERTIES:
                    assigning = len(stack)
            elif value == "=" and before[0] == "name" and before[1] == "document.title":
                assigning = len(stack)
        elif kind in ("string", "template_string"):
            text = words(value)
            in_t_key = bool(
                stack
                and stack[-1].kind == "("
                and stack[-1].callee == "t"
                and stack[-1].argument == 0
            )
            compared = before[1] in COMPARISONS or (
                before[1] == "=" and previous[-2][1] in COMPARISONS
            )
            why = text_position(stack, assigning)
            if why and kind == "template_string":
                # what a template shown as text fills in is text too: `${ok ? "yes" : "no"}`
                for inner in SUBSTITUTION.findall(value):
                    for finding in scan(f"el(0, 0, {inner[2:-1]})"):
                        found.append(Finding(line, finding.literal, f"{finding.why} in {why}"))
            command_type = bool(
                stack and stack[-1].callee == "cmd" and re.fullmatch(r"[a-z_]+", text)
            )
            if not in_t_key and not compared and japanese_sentence(text):
                why_ja = text_position(stack, assigning)
                if why_ja:
                    finding = Finding(line, value, f"a Japanese sentence, {why_ja}")
                    (stack[-1].findings if stack and stack[-1].kind == "[" else found).append(
                        finding
                    )
            elif not in_t_key and has_latin(text) and not compared and not command_type:
                if (
                    why is None
                    and PROSE.search(KEPT.sub(" ", text))
                    and not NON_TEXT.match(text.strip())
                ):
                    why = "reads as prose"
                if why:
                    finding = Finding(line, value, why)
                    (stack[-1].findings if stack and stack[-1].kind == "[" else found).append(
                        finding
                    )
        if kind not in ("linecomment", "multilinecomment"):
            previous = [previous[-1], (kind, value)]
    return found


def scan_file(path: Path) -> Iterator[Finding]:
    yield from scan(path.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------ templates

JINJA = re.compile(
    r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}|\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S
)
TEXT_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "label"}


def scan_template(source: str) -> list[Finding]:
    """Text and text attributes of a Jinja template, its `{% trans %}` and `{{ _() }}` taken
    out: what is left with Latin letters is not from a catalog."""
    from html.parser import HTMLParser

    found: list[Finding] = []

    class Reader(HTMLParser):
        skipping = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("script", "style"):
                self.skipping += 1
            for name, value in attrs:
                if name in TEXT_ATTRIBUTES and value and has_latin(value):
                    found.append(Finding(self.getpos()[0], value, f"the {name} attribute"))
                button = tag in ("button", "input") and dict(attrs).get("type") in (
                    "submit",
                    "button",
                )
                if name == "value" and button and value and has_latin(value):
                    found.append(Finding(self.getpos()[0], value, "a button's label"))

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style"):
                self.skipping -= 1

        def handle_data(self, data: str) -> None:
            if not self.skipping and has_latin(data):
                found.append(Finding(self.getpos()[0], data.strip(), "text"))

    # every Jinja construct becomes a blank of the same lines (line numbers stay right)
    reader = Reader()
    reader.feed(JINJA.sub(lambda m: "\n" * m.group(0).count("\n"), source))
    reader.close()
    return found
