"""Reading the start of a chat line as ココフォリア does: a supported command there is rolled
(the rest of the line is its comment); a word that only looks like a dice command is sent as
chat with a quiet hint; anything else is plain chat."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .errors import DiceError
from .expression import Expression
from .normalize import ascii_upper, to_halfwidth
from .parser import parse

ChatKind = Literal["roll", "hint", "chat"]

# What a typed word must look like to earn a hint rather than pass as plain chat: dice
# (`2D6x`, `(1+1)D6`, `3B`, `D20`), Kiroku's own command names with something after them,
# and a few BCDice game-system commands tables type everywhere (`CC<=50`, `RES(10-5)`).
_LOOKS_LIKE_DICE = re.compile(
    r"""S?(?:
        [(\d][\d()+\-*/]*[DBRU](?:$|[\d(<>=!+\-*/\[@]|KH|KL|DH|DL|MAX|MIN)
      | D\d
      | CHOICE(?:$|[\[(])
      | C[(\d]
      | (?:X|REP|REPEAT)\d
      | (?:NJ|AT|EV|EL|WS|UH|[KENHU])\d
      | (?:SB|WSE|NRS)(?:$|[@_\d])
      | (?:CC|CCB|CBR|RES|RESB|FAR|TY|TZ)(?:$|[\d(<>=])
    )""",
    re.VERBOSE,
)


class ChatCommand(BaseModel):
    """How the start of a chat line reads: `roll` (then `expression`), `hint` (then `hint`, one
    line for its author, and `code`, the refusal's code) or plain `chat`."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    kind: ChatKind
    expression: Expression | None = None
    hint: str | None = None
    code: str | None = None


def looks_like_dice(line: str) -> bool:
    words = to_halfwidth(line).split()
    return bool(words) and _LOOKS_LIKE_DICE.match(ascii_upper(words[0])) is not None


def chat_command(line: str) -> ChatCommand:
    """Is this chat line a dice command to roll, a near miss to hint at, or plain chat?"""
    try:
        return ChatCommand(kind="roll", expression=parse(line))
    except DiceError as error:
        if not looks_like_dice(line):
            return ChatCommand(kind="chat")
        hint = " ".join(f"Sent as chat, not rolled: {error}".split())
        return ChatCommand(kind="hint", hint=hint, code=error.code)
