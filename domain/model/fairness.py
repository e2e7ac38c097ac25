"""Provably fair randomness: every face, deal and shuffle is a pure function of the server seed
(committed by its sha256 in GameCreated, revealed at the end) and public inputs.

For draw number `roll`, the byte stream is the concatenation over block = 0, 1, 2, … of
    HMAC-SHA256(key = bytes.fromhex(server_seed),
                msg = JCS({"block": block, "entropy": entropy, "game": game_id,
                           "roll": roll, "seeds": seeds}))
read as big-endian unsigned 32-bit integers. A uniform integer in [0, n) takes the next x with
x < 2**32 - (2**32 % n) (rejection sampling, so no value is favoured) and returns x % n.
A die with S sides shows uniform(S) + 1. A shuffle of n items is Fisher-Yates: for i from n-1
down to 1, swap item i with item uniform(i + 1).
"""

from __future__ import annotations

import hmac
import secrets
import struct
from collections.abc import Iterator, Sequence
from itertools import islice

from pydantic import BaseModel, ConfigDict

from domain.model.canonical import canonical_json

_SPACE = 2**32
_EIGHT_WORDS = struct.Struct(">8I")  # an HMAC-SHA256 digest as big-endian 32-bit words


class DrawTag(BaseModel):
    """The public inputs of one draw; with the revealed seed they fix its outcome."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    roll: int
    seeds: tuple[str, ...]
    entropy: str = ""


def new_server_seed() -> str:
    return secrets.token_hex(32)


def _words(server_seed: str, game_id: str, tag: DrawTag) -> Iterator[int]:
    key = bytes.fromhex(server_seed)
    # JCS orders keys by name, so "block" comes first: each block's message is the same text
    # with only its number changed, built once (a roll reads a few blocks, a shuffle many).
    rest = canonical_json(
        {"entropy": tag.entropy, "game": game_id, "roll": tag.roll, "seeds": list(tag.seeds)}
    )
    tail = b"," + rest[1:]
    block = 0
    while True:
        digest = hmac.digest(key, b'{"block":' + str(block).encode() + tail, "sha256")
        yield from _EIGHT_WORDS.unpack(digest)
        block += 1


def stream_words(server_seed: str, game_id: str, tag: DrawTag, count: int) -> list[int]:
    """The first `count` words of a draw's stream: what `Draw.uniform` reads, for an engine
    that draws by the same rule elsewhere (BCDice's randomizer: bcdice/helper.mjs)."""
    return list(islice(_words(server_seed, game_id, tag), count))


class Draw:
    """A stream of uniform integers for one draw number."""

    def __init__(self, server_seed: str, game_id: str, tag: DrawTag) -> None:
        self._words = _words(server_seed, game_id, tag)

    def uniform(self, n: int) -> int:
        if not 1 <= n < _SPACE:
            raise ValueError(f"cannot draw uniformly from {n} values")
        limit = _SPACE - (_SPACE % n)
        for word in self._words:
            if word < limit:
                return word % n
        raise AssertionError("unreachable: the stream is infinite")

    def faces(self, requests: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        """Faces for (count, sides) requests, flat and in order."""
        return tuple(self.uniform(sides) + 1 for count, sides in requests for _ in range(count))

    def permutation(self, n: int) -> tuple[int, ...]:
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.uniform(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)
