"""Message catalogs: Japanese first, English too (gettext .po files read with Babel).

`ja.po` and `en.po` sit beside this module and are read once at import, so nothing needs a
compile step. A msgid is the English source text with `{name}` placeholders (str.format); the
Jinja templates use the i18n extension (`{% trans %}`, `_()`), Python marks keys with `_()` here
or `N_()` in the pure domain (domain/model/messages.py), and the ES modules look keys up with
`t()` (static/i18n.js) in a JSON catalog the app serves from the same .po files.

The language is chosen per browser: the `kiroku_lang` cookie the pages' switch sets, else
`Accept-Language`, else Japanese. The `kiroku` command's is chosen by its environment
(`from_environment`): `KIROKU_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else
Japanese.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection

from domain.model.messages import CONTEXT, N_, read_encoded, source

HERE = Path(__file__).parent
LANGUAGES: Final = ("ja", "en")
DEFAULT: Final = "ja"
COOKIE: Final = "kiroku_lang"
COOKIE_MAX_AGE: Final = 60 * 60 * 24 * 365


def _load(language: str) -> dict[str, str]:
    with (HERE / f"{language}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    return {
        key(message.id, message.context): str(message.string)
        for message in catalog
        if message.id and isinstance(message.id, str) and message.string and not message.fuzzy
    }


def key(message: str, context: str | None = None) -> str:
    """A catalog entry's key: its msgid, after its msgctxt where it has one (`C_`)."""
    return f"{context}{CONTEXT}{message}" if context else str(message)


CATALOGS: Final[Mapping[str, Mapping[str, str]]] = {lang: _load(lang) for lang in LANGUAGES}


def gettext(message: str, language: str = DEFAULT) -> str:
    """`message` in `language`; a key missing from the catalog reads as its source (the test
    of the catalogs makes sure none is)."""
    found = CATALOGS.get(language, CATALOGS[DEFAULT]).get(message)
    return found if found is not None else source(message)


def translate(message: str, language: str = DEFAULT, /, **arguments: Any) -> str:
    """`message` in `language`, with its `{name}` placeholders filled."""
    text = gettext(message, language)
    return text.format(**arguments) if arguments else text


def read_line(message: str, arguments: Mapping[str, Any] | None, language: str = DEFAULT) -> str:
    """A log line's key in `language`, its arguments as the line encodes them (a text as it
    is, a term or a message read in `language` too: domain/model/messages.py, `encode`)."""
    return read_encoded(message, arguments, lambda key: gettext(key, language))


def from_accept_language(header: str) -> str | None:
    """The first of our languages in an `Accept-Language` header, by its q-values."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, index, primary))
    return min(ranked)[2] if ranked else None


def language_of(connection: HTTPConnection) -> str:
    """This browser's language: its cookie, else `Accept-Language`, else Japanese."""
    chosen = connection.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return from_accept_language(connection.headers.get("accept-language", "")) or DEFAULT


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: `KIROKU_LANG` (ja, en or a locale such as en_US.UTF-8), else
    the first set of `LC_ALL`, `LC_MESSAGES`, `LANG` as POSIX reads them. A locale in English
    reads English; anything else (Japanese, C, POSIX, none) reads Japanese, the default."""
    environ = os.environ if environ is None else environ
    for name in ("KIROKU_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").strip()
        if value:
            primary = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            return primary if primary in LANGUAGES else DEFAULT
    return DEFAULT


class Reader:
    """Texts in one language, for the terminal (the CLI, the replay viewer): `say(key, **args)`
    is `translate(key, language, **args)`."""

    def __init__(self, language: str = DEFAULT) -> None:
        self.language = language if language in LANGUAGES else DEFAULT

    def __call__(self, message: str, /, **arguments: Any) -> str:
        return translate(message, self.language, **arguments)


class Translations:
    """What Jinja's i18n extension calls (`install_gettext_translations`)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def gettext(self, message: str) -> str:
        return gettext(message, self.language)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return gettext(singular if n == 1 else plural, self.language)


# argparse's own words a person reads (its help's headings, its error lines), as argparse
# writes them (%-style placeholders): the catalogs hold them so `kiroku --help` and its
# refusals read in the terminal's language (`argparse_words`).
ARGPARSE: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


@contextmanager
def argparse_words(language: str) -> Iterator[None]:
    """While inside, argparse reads its own words (`usage:`, `options`, `-h`'s help, its
    `error:` lines) from the catalogs in `language`. argparse looks each up when it uses it
    through its module's `_` and `ngettext` (gettext's, bound at import): those two are
    replaced for the while and put back after, so a parser made outside stays as it was."""
    saved = {name: getattr(argparse, name) for name in ("_", "ngettext")}

    def said(message: object) -> object:
        return gettext(message, language) if isinstance(message, str) else message

    def said_n(singular: str, plural: str, count: int) -> str:
        return gettext(singular if count == 1 else plural, language)

    setattr(argparse, "_", said)  # noqa: B010 (argparse's private name: no attribute to type)
    setattr(argparse, "ngettext", said_n)  # noqa: B010
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(argparse, name, value)
