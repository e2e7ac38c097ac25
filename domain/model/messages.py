"""Marks a string a person reads as a catalog key (gettext's `N_`, "no-op gettext").

The domain is pure: it names the message (English source text, `{name}` placeholders) and its
arguments; the catalogs under api/pages/i18n/ translate it where a reader's language is known
(Japanese by default). `tests/api/test_catalogs.py` extracts every `N_(...)` and fails on one
missing from a catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


class Term(str):
    """A catalog key given as a message's argument (a phase, a status, "start the game"): the
    reader's language reads it too. Any other text argument — a name a player typed, a
    command as written — reads as it is, even one spelled like a catalog key (a seat named
    「GM」 or 「手番」)."""

    __slots__ = ()


def N_(message: str) -> Term:
    """`message`, marked: the extractor finds it, the catalogs translate it, and as a
    message's argument it is a `Term` (read in the reader's language)."""
    return Term(message)


CONTEXT = "\x04"  # gettext's separator of a key's context and its text (pgettext, msgctxt)


def C_(context: str, message: str) -> Term:
    """`N_` for a word two rulebooks write alike and translate apart (精神力: 超人ロック's
    willpower, ニンジャスレイヤー's Seishinryoku): the catalogs hold it under `msgctxt context`;
    where no catalog reads it (`source`, a missing key) it is `message`."""
    return Term(f"{context}{CONTEXT}{message}")


@dataclass(frozen=True)
class Message:
    """A sentence not yet read in a language: its catalog key (`{name}` placeholders) and the
    arguments that fill them. An argument may itself be a `Message` or a `Term` (a catalog key:
    a phase, a condition's name, `N_("…")`): the reader's language reads those too
    (api/errors.py); any other text (a name a player typed) reads as it is.

    What a helper hands back for a caller to raise with its own code (a condition that keeps
    a unit from acting, a player count the game refuses), so no sentence is formatted before
    its reader's language is known."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self.key, self.params)


def render(key: str, params: Mapping[str, object]) -> str:
    """The source text with its arguments, for logs and tests (never what a player reads)."""
    if not params:
        return key
    return key.format(**{name: str(value) for name, value in params.items()})


class Invalid(ValueError):
    """A pydantic validator's refusal, in the catalogs' words: `Invalid(N_key, name=value)`.
    The API reads it in the caller's language, naming the field by its label."""

    def __init__(self, key: str, **params: object) -> None:
        self.message = Message(key, params)
        super().__init__(str(self.message))


OR = N_(" or ")  # joins a tuple argument: 「移動フェイズか攻撃フェイズ」
AND = N_("・")  # joins an `Items` argument: 「フジキド・ヤモト」


class Items(tuple[object, ...]):
    """A message's argument that lists several things at once (「フジキド・ヤモト」), joined by
    `AND` in the reader's language; a plain tuple lists alternatives, joined by `OR`."""

    __slots__ = ()


# Placeholders a message names for a term: what fills them is a term even as plain text (a
# status, a phase, a stage a ruleset's state reads back from its events, never a name).
TERM_PLACEHOLDERS = frozenset({"status", "phase", "stage"})


def read(key: str, params: Mapping[str, object], gettext: Callable[[str], str]) -> str:
    """A catalog key with its arguments, each text looked up with `gettext` (a language's
    catalog): an argument that is a `Message` or a `Term` (or fills a placeholder the message
    names for a term: `TERM_PLACEHOLDERS`) is read too, a tuple of them each and joined by
    `OR`; numbers and any other text (a name a player typed) as they are."""

    def argument(value: object, term: bool) -> object:
        if isinstance(value, Message):
            return read(value.key, value.params, gettext)
        if isinstance(value, tuple):
            joiner = AND if isinstance(value, Items) else OR
            return gettext(joiner).join(str(argument(v, term)) for v in value)
        return (
            gettext(value)
            if isinstance(value, Term) or (term and isinstance(value, str))
            else value
        )

    text = gettext(key)
    if not params:
        return text
    return text.format(**{k: argument(v, k in TERM_PLACEHOLDERS) for k, v in params.items()})


def source(key: str) -> str:
    """The catalog key itself (without a `C_` context): a log line's keys are its Japanese
    text (api/pages/i18n/ja.po reads each as itself), so `read(key, params, source)` is the line
    in Japanese."""
    return key.rpartition(CONTEXT)[2]


def encode(params: Mapping[str, object]) -> dict[str, object]:
    """A message's arguments as JSON, for a reader elsewhere to read in its own language
    (`read_encoded` here, `t` in static/i18n.js): a text or number as its text; a `Term` (or
    text filling a term's placeholder) `{"term": key}`; a `Message` `{"msg": key, "args": …}`;
    a tuple `{"list": […], "sep": AND or OR}`."""
    return {name: _encoded(value, name in TERM_PLACEHOLDERS) for name, value in params.items()}


def _encoded(value: object, term: bool) -> object:
    if isinstance(value, Message):
        return {"msg": value.key, "args": encode(value.params)}
    if isinstance(value, tuple):
        joiner = AND if isinstance(value, Items) else OR
        return {"list": [_encoded(v, term) for v in value], "sep": joiner}
    if isinstance(value, Term) or (term and isinstance(value, str)):
        return {"term": str(value)}
    return str(value)


def read_encoded(key: str, args: Mapping[str, object] | None, gettext: Callable[[str], str]) -> str:
    """`read` for a message whose arguments came as JSON (`encode`'s output)."""
    return read(key, decode(args or {}), gettext)


def decode(args: Mapping[str, object]) -> dict[str, object]:
    """`encode`'s output back as a message's arguments: terms, messages, lists of them."""

    def value(item: object) -> object:
        if isinstance(item, dict):
            if isinstance(item.get("list"), list):
                items = tuple(value(v) for v in item["list"])
                return Items(items) if item.get("sep", AND) == AND else items
            if "term" in item:
                return Term(str(item["term"]))
            if "msg" in item:
                key = str(item["msg"])  # a key encode wrote from a Message: read in the catalogs
                inner = item.get("args")
                return Message(key, decode(inner if isinstance(inner, dict) else {}))
        return str(item)

    return {name: value(item) for name, item in args.items()}
