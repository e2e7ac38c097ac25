"""What follows a player: the speakers (character and NPC names with their colours), the chat
palette and the characters a seat keeps in a game, and ココフォリア's clipboard format in and out.

These are a seat's own preferences, not facts of the game: they are kept beside the log (the
seat's settings, read and written by that seat alone), not as events in it. An event would be
hashed into the chain and shown, at the end, to everyone; a palette is edited often, says
nothing anyone may dispute, and is private (docs/explanation: "What follows the player").

ココフォリア's キャラクター駒 clipboard JSON (what キャラクター保管所, いあきゃら and other sheet
sites export) is `{"kind": "character", "data": {"name", "color", "status": [{label, value,
max}], "params": [{label, value}], "commands": "…"}}`. Imported, it becomes a character: a
speaker with its colour, its palette (`commands`), its status and params, and the ruleset's
sheet fields where a label names one (Ninja Slayer's 【カラテ】…); `to_ccfolia` writes it back.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from domain.model.errors import KirokuError
from domain.model.messages import Invalid
from domain.model.text import PlayerName, PlayerText

COLOR = r"^#[0-9a-fA-F]{6}$"
DEFAULT_COLOR = "#222222"
MAX_PALETTE = 20_000


def _no_bool(value: object) -> object:
    """JSON's true and false are not numbers here (pydantic would read them as 1 and 0)."""
    if isinstance(value, bool):
        raise Invalid("a whole number, not true or false")
    return value


Whole = Annotated[int, BeforeValidator(_no_bool)]


class Speaker(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: PlayerName = Field(min_length=1, max_length=40)
    color: str = Field(default=DEFAULT_COLOR, pattern=COLOR)


class Status(BaseModel):
    """A gauge: 体力 8/10."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: PlayerName = Field(max_length=40)
    value: Whole = Field(default=0, ge=-9999, le=9999)
    max: Whole = Field(default=0, ge=-9999, le=9999)


class Param(BaseModel):
    """A value the palette reads as {label}: カラテ 6."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: PlayerName = Field(max_length=40)
    value: PlayerName = Field(default="", max_length=200)


class Character(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: PlayerName = Field(min_length=1, max_length=40)
    color: str = Field(default=DEFAULT_COLOR, pattern=COLOR)
    status: tuple[Status, ...] = Field(default=(), max_length=40)
    params: tuple[Param, ...] = Field(default=(), max_length=80)
    palette: PlayerText = Field(default="", max_length=MAX_PALETTE)
    fields: dict[str, Whole] = Field(
        default={}, description="The ruleset's sheet fields its labels name (karate: 6, …)"
    )


class SeatSettings(BaseModel):
    """One seat's (or the GM's) settings in one game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    speakers: tuple[Speaker, ...] = Field(default=(), max_length=64)
    palette: PlayerText = Field(default="", max_length=MAX_PALETTE)
    characters: tuple[Character, ...] = Field(default=(), max_length=32)

    def with_character(self, character: Character) -> SeatSettings:
        """The character added (one of the same name replaced), and its speaker with it."""
        characters = [c for c in self.characters if c.name != character.name]
        speakers = [s for s in self.speakers if s.name != character.name]
        return SeatSettings(
            speakers=(*speakers, Speaker(name=character.name, color=character.color)),
            palette=self.palette,
            characters=(*characters, character),
        )


# A label that names a ruleset's sheet field (【】 and spaces ignored), as its path in the
# sheet (the command's `sheet`, or the command itself where it has none: 超人ロック's esper); the
# table's sheet form starts from them (docs/how-to: "Import a character from ココフォリア").
RULESET_FIELDS: dict[str, dict[str, str]] = {
    "ninja_slayer": {
        "カラテ": "karate",
        "ニューロン": "neuron",
        "ワザマエ": "wazamae",
        "ジツ": "jitsu",
        "体力": "tairyoku",
        "精神力": "seishin",
        "脚力": "kyakuryoku",
        "DKK": "dkk",
        "万札": "manzatsu",
    },
    "mech_d20": {
        "レベル": "level",
        "出力": "abilities.出力",
        "敏捷力": "abilities.敏捷力",
        "習熟ボーナス": "proficiency",
        "AC": "defences.AC",
        "頑健": "defences.頑健",
        "反応": "defences.反応",
        "意志": "defences.意志",
        "HP": "max_hp",
        "最大HP": "max_hp",
        "回復力": "surges",
        "回復力値": "surge_value",
        "移動速度": "speed",
        "移動力": "speed",
    },
    "chojin_locke": {
        "ESP": "esp_level",
        "ESP能力": "esp_level",
        "ESP能力レベル": "esp_level",
        "耐久力": "endurance",
        "格闘X": "shift",
    },
}
_BRACKETS = re.compile(r"[【】\[\]\s]")
_INTEGER = re.compile(r"^[+-]?\d{1,4}$")


def _label(text: str) -> str:
    return _BRACKETS.sub("", text)


def _number(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return int(value)
    text = str(value).strip()
    return int(text) if _INTEGER.match(text) else 0


def from_ccfolia(raw: Any, ruleset: str) -> Character:
    """A character from ココフォリア's clipboard JSON (already parsed); refused in words."""
    if not isinstance(raw, dict) or raw.get("kind") != "character":
        raise KirokuError(
            "invalid_ccfolia", 'This is not a ココフォリア character: it needs "kind": "character".'
        )
    data = raw.get("data")
    if not isinstance(data, dict) or not str(data.get("name") or "").strip():
        raise KirokuError("invalid_ccfolia", "The ココフォリア character has no name.")
    status = [s for s in data.get("status") or [] if isinstance(s, dict) and s.get("label")]
    params = [p for p in data.get("params") or [] if isinstance(p, dict) and p.get("label")]
    names = RULESET_FIELDS.get(ruleset, {})
    fields: dict[str, int] = {}
    for item in (*params, *status):
        field = names.get(_label(str(item["label"])))
        if field is not None and field not in fields:
            # a gauge's maximum is the sheet's value (体力 10/10), a param its value
            fields[field] = _number(item.get("max") or item.get("value"))
    color = str(data.get("color") or DEFAULT_COLOR)
    try:
        return Character(
            name=str(data["name"]).strip()[:40],
            color=color if re.match(COLOR, color) else DEFAULT_COLOR,
            status=tuple(
                Status(
                    label=str(s["label"])[:40],
                    value=_number(s.get("value")),
                    max=_number(s.get("max")),
                )
                for s in status
            ),
            params=tuple(
                Param(label=str(p["label"])[:40], value=str(p.get("value", ""))[:200])
                for p in params
            ),
            palette=str(data.get("commands") or ""),
            fields=fields,
        )
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        raise KirokuError(
            "invalid_ccfolia",
            "The ココフォリア character cannot be read ({where}).",
            params={"where": where},
        ) from error


def to_ccfolia(character: Character) -> dict[str, Any]:
    """The character as ココフォリア's clipboard JSON: paste it onto a ココフォリア board."""
    return {
        "kind": "character",
        "data": {
            "name": character.name,
            "color": character.color,
            "status": [s.model_dump() for s in character.status],
            "params": [p.model_dump() for p in character.params],
            "commands": character.palette,
        },
    }
