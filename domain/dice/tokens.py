"""Tokeniser and token cursor shared by every command parser.

Letters are one token each, so that `5DKH3`, `3D6MAX` and `D66S` split where the grammar
needs them to; `Cursor.word()` reads a run of letters where a command name is expected.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple, NoReturn

from domain.model.messages import N_, Message

from .errors import DICE_LIMIT, DICE_SYNTAX, DiceError
from .limits import MAX_NUMBER


class Kind(Enum):
    INT = "number"
    LETTER = "letter"
    OP = "comparison"
    PUNCT = "symbol"
    END = "end of command"


class Token(NamedTuple):
    kind: Kind
    text: str
    position: int
    """0-based index in the raw input."""


_PUNCT = frozenset("+-*/()[],@?_")
_COMPARE_CHARS = frozenset("<>=!")
# BCDice accepts the reversed spellings; each maps to one canonical operator.
_COMPARE_SPELLINGS = {
    ">=": ">=",
    "=>": ">=",
    "<=": "<=",
    "=<": "<=",
    ">": ">",
    "<": "<",
    "=": "=",
    "==": "=",
    "!=": "!=",
    "<>": "!=",
    "=!": "!=",
}


# Explicit sets, not str.isdigit/isalpha: those accept digits and letters of every script.
_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _run(text: str, start: int, accept: frozenset[str]) -> int:
    end = start
    while end < len(text) and text[end] in accept:
        end += 1
    return end


def tokenize(command: str, offset: int) -> list[Token]:
    """Tokens of an upper-cased, half-width command; positions are `offset` + index."""
    tokens: list[Token] = []
    i = 0
    while i < len(command):
        char = command[i]
        at = offset + i
        end = i + 1
        if char in _DIGITS:
            end = _run(command, i, _DIGITS)
            tokens.append(Token(Kind.INT, command[i:end], at))
        elif char in _LETTERS:
            tokens.append(Token(Kind.LETTER, char, at))
        elif char in _COMPARE_CHARS:
            end = _run(command, i, _COMPARE_CHARS)
            spelled = command[i:end]
            if spelled not in _COMPARE_SPELLINGS:
                raise DiceError(
                    DICE_SYNTAX, "'{spelled}' is not a comparison", at, params={"spelled": spelled}
                )
            tokens.append(Token(Kind.OP, _COMPARE_SPELLINGS[spelled], at))
        elif char in _PUNCT:
            tokens.append(Token(Kind.PUNCT, char, at))
        else:
            raise DiceError(DICE_SYNTAX, "unexpected character '{char}'", at, params={"char": char})
        i = end
    tokens.append(Token(Kind.END, "", offset + len(command)))
    return tokens


def describe(token: Token) -> str:
    return N_("the end of the command") if token.kind is Kind.END else f"'{token.text}'"


class Cursor:
    """Recursive-descent helper: look at, take, or demand the next token."""

    def __init__(self, tokens: list[Token]) -> None:
        self._tokens = tokens
        self._index = 0

    @property
    def peek(self) -> Token:
        return self._tokens[self._index]

    def peek_at(self, ahead: int) -> Token:
        return self._tokens[min(self._index + ahead, len(self._tokens) - 1)]

    def mark(self) -> int:
        return self._index

    def reset(self, mark: int) -> None:
        self._index = mark

    def take(self) -> Token:
        token = self._tokens[self._index]
        if token.kind is not Kind.END:
            self._index += 1
        return token

    def accept(self, kind: Kind, text: str | None = None) -> Token | None:
        token = self.peek
        if token.kind is kind and (text is None or token.text == text):
            return self.take()
        return None

    def at(self, kind: Kind, text: str | None = None) -> bool:
        token = self.peek
        return token.kind is kind and (text is None or token.text == text)

    def accept_letters(self, letters: str) -> Token | None:
        """Take the letters of `letters` if they come next, one token each; else take none."""
        for ahead, letter in enumerate(letters):
            token = self.peek_at(ahead)
            if token.kind is not Kind.LETTER or token.text != letter:
                return None
        first = self.peek
        for _ in letters:
            self.take()
        return first

    def word(self) -> str:
        """Take the run of letters that comes next (maybe empty)."""
        letters = []
        while self.peek.kind is Kind.LETTER:
            letters.append(self.take().text)
        return "".join(letters)

    def peek_word(self) -> str:
        letters = []
        ahead = 0
        while (token := self.peek_at(ahead)).kind is Kind.LETTER:
            letters.append(token.text)
            ahead += 1
        return "".join(letters)

    def expect(self, kind: Kind, what: str | Message, text: str | None = None) -> Token:
        token = self.accept(kind, text)
        if token is None and self.peek.kind is Kind.END:
            self.fail(Message("expected {what} but found the end of the command", {"what": what}))
        if token is None:
            found = {"what": what, "peek": describe(self.peek)}
            self.fail(Message("expected {what} but found {peek}", found))
        return token

    def number(self, what: str) -> tuple[int, int]:
        """An integer literal within MAX_NUMBER, with its position."""
        token = self.expect(Kind.INT, what)
        return literal(token), token.position

    def end(self) -> None:
        if self.peek.kind is not Kind.END:
            self.fail(Message("unexpected {peek}", {"peek": describe(self.peek)}))

    def fail(self, message: str | Message, token: Token | None = None) -> NoReturn:
        raise DiceError(DICE_SYNTAX, message, (token or self.peek).position)


def literal(token: Token) -> int:
    value = int(token.text)
    if value > MAX_NUMBER:
        raise DiceError(
            DICE_LIMIT,
            "numbers may be at most {MAX_NUMBER}",
            token.position,
            params={"MAX_NUMBER": MAX_NUMBER},
        )
    return value
