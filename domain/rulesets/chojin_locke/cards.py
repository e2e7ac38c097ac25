"""The card catalog's schema: what a host's catalog must hold (docs/rulesets/chojin-locke.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Faction = Literal["G", "E", "S"]
FACTIONS: tuple[str, ...] = ("G", "E", "S")


class _Card(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Ability(_Card):
    name: str
    tags: tuple[str, ...] = ()


class DefeatCondition(_Card):
    """`~が生きていると敗北` (when=alive) or `~が死亡していると敗北` (when=dead)."""

    when: Literal["alive", "dead"]
    character: str


class CharacterSheet(_Card):
    name: str
    leader: bool = False  # the (L) marker
    special: bool = False  # 特殊キャラクター: never dealt
    silhouette: str  # the silhouette card that carries this character's name
    attributes: tuple[str, ...] = ()
    rank: Literal["A", "B", "C", "D", "E", "S"]
    alignment: str = Field(pattern=r"^[GES](/[GES])*$")  # "E/G": starts E, Good may convert
    defeat: tuple[DefeatCondition, ...] = ()
    esp_level: int = Field(ge=0, le=12)
    esp_power: int = Field(ge=0, le=99)
    endurance: int = Field(ge=1, le=99)
    willpower: int = Field(ge=1, le=99)
    abilities: tuple[Ability, ...] = ()

    @property
    def steps(self) -> tuple[str, ...]:
        return tuple(self.alignment.split("/"))


class Silhouette(_Card):
    name: str
    alignment: Faction
    count: int = Field(default=2, ge=1)


class SquareCard(_Card):
    """A planet or base card."""

    name: str
    kind: Literal["info", "blank", "effect", "ambush", "key"]
    count: int = Field(default=1, ge=1)
    text: str = ""
    no_recovery: bool = False  # 回復 cannot be declared on it once face up (2002 ch. 9)
    recovery_blocked_by: str | None = None  # …or only while a card of this name lies face up


class AbilityCard(_Card):
    name: str
    tags: tuple[str, ...] = ()
    count: int = Field(default=1, ge=1)
    text: str = ""


class CombatCard(_Card):
    name: str
    lv: int = Field(ge=0)
    kinds: tuple[str, ...]
    firepower: int = Field(ge=0)
    sync: bool = False


class ChartRow(_Card):
    min: int
    max: int
    result: str
    escape: bool = False


class Chart(_Card):
    name: str
    dice: str = "2D6"
    rows: tuple[ChartRow, ...]

    def lookup(self, total: int) -> ChartRow:
        for row in self.rows:
            if row.min <= total <= row.max:
                return row
        return self.rows[-1] if total > self.rows[-1].max else self.rows[0]


class Catalog(_Card):
    name: str = "custom"
    note: str = ""
    characters: tuple[CharacterSheet, ...] = Field(min_length=5)
    silhouettes: tuple[Silhouette, ...] = Field(min_length=1)
    planet_cards: tuple[SquareCard, ...] = Field(min_length=1)
    ambush: SquareCard
    base_cards: tuple[SquareCard, ...] = ()
    ability_cards: tuple[AbilityCard, ...] = ()
    combat_cards: tuple[CombatCard, ...] = ()
    charts: tuple[Chart, ...] = ()

    @field_validator("characters")
    @classmethod
    def _unique_names(cls, value: tuple[CharacterSheet, ...]) -> tuple[CharacterSheet, ...]:
        names = [c.name for c in value]
        if len(names) != len(set(names)):
            raise ValueError("character names must be unique")
        return value

    def character(self, name: str) -> CharacterSheet:
        return next(c for c in self.characters if c.name == name)

    def silhouette(self, name: str) -> Silhouette | None:
        return next((s for s in self.silhouettes if s.name == name), None)

    def chart(self, name: str) -> Chart | None:
        return next((c for c in self.charts if c.name == name), None)

    def planet_deck(self) -> list[str]:
        return [card.name for card in self.planet_cards for _ in range(card.count)]

    def ability_deck(self) -> list[str]:
        return [card.name for card in self.ability_cards for _ in range(card.count)]

    def ability_card(self, name: str) -> AbilityCard | None:
        return next((c for c in self.ability_cards if c.name == name), None)

    def base_card(self, name: str) -> SquareCard | None:
        return next((c for c in self.base_cards if c.name == name), None)

    def planet_card(self, name: str) -> SquareCard:
        if name == self.ambush.name:
            return self.ambush
        return next(c for c in self.planet_cards if c.name == name)
