"""The card catalog's schema: what a host's catalog must hold
(docs/rulesets/chojin-locke/index.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from domain.model.messages import Invalid

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


CombatKind = Literal["攻撃", "防御", "逃避", "特殊"]
COMBAT_KINDS: tuple[str, ...] = ("攻撃", "防御", "逃避", "特殊")
MAIN = "主要"
COUNTER_ATTACK = "対抗(攻撃)"
# 5.3 l.1010–1015: 「[主要] (攻撃Cカード・逃避Cカード・特殊Cカード)」
# 「[対抗(攻撃)] (防御Cカード・逃避Cカード)」;
# l.1001–1002: an 逃避 card 「相手の攻撃に対して使用した場合、相手の攻撃を回避する効果も持ちます」.
KIND_TIMINGS: dict[str, tuple[str, ...]] = {
    "攻撃": (MAIN,),
    "防御": (COUNTER_ATTACK,),
    "逃避": (MAIN, COUNTER_ATTACK),
    "特殊": (MAIN,),
}


class CombatCard(_Card):
    """A C-card (5.3). `kinds`: one or more of 攻撃/防御/逃避/特殊 (one is chosen when it is used,
    l.998). `timing`: its timing tags; omitted, they follow its kinds (KIND_TIMINGS).
    `maintain`: a defence that can be kept up (5.4 l.1055–1056). `self_only`: it targets only
    its user, so nobody can 同調 to it (5.5 l.1085) and it is not 同調可 itself. `count`: copies
    in the deck. `text`: an effect the table resolves (特殊 cards). `illusion`: a 幻覚 (6.2
    l.1312–1318 limits where it is used; its effect is its text's)."""

    name: str
    lv: int = Field(ge=0)
    kinds: tuple[CombatKind, ...] = Field(min_length=1)
    firepower: int = Field(default=0, ge=0)
    sync: bool = False  # [同調可]
    count: int = Field(default=1, ge=1)
    timing: tuple[str, ...] = ()
    maintain: bool = False
    self_only: bool = False
    illusion: bool = False  # 幻覚 (combat/illusion.py)
    text: str = ""

    @model_validator(mode="before")
    @classmethod
    def _timing_by_kind(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        timing = data.get("timing")
        if isinstance(timing, str):
            return {**data, "timing": (timing,)}
        if not timing:
            kinds = data.get("kinds") or ()
            derived: list[str] = []
            for kind in kinds:
                for tag in KIND_TIMINGS.get(kind, ()):
                    if tag not in derived:
                        derived.append(tag)
            return {**data, "timing": tuple(derived)}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> CombatCard:
        if len(set(self.kinds)) != len(self.kinds):
            raise Invalid("{card}: a kind is listed twice", card=self.name)
        if "攻撃" in self.kinds and self.firepower < 1:
            raise Invalid("{card}: an attack card needs firepower ≥ 1", card=self.name)
        if self.maintain and "防御" not in self.kinds:
            raise Invalid("{card}: only a defence (防御) can be maintained", card=self.name)
        if self.self_only and self.sync:
            raise Invalid(
                "{card}: a card that targets only its user is not 同調可 (5.5)", card=self.name
            )
        if not self.timing:
            raise Invalid("{card}: no timing", card=self.name)
        return self

    def usable_as(self, kind: str, timing: str) -> bool:
        """May this card be used as `kind` at `timing`? A single-kind card: any of its timing
        tags. A card of several kinds: the chosen kind's own timings (KIND_TIMINGS) among the
        card's tags, since the kind is chosen before use (l.998)."""
        if kind not in self.kinds or timing not in self.timing:
            return False
        return len(self.kinds) == 1 or timing in KIND_TIMINGS[kind]


class DamageRow(_Card):
    total: int = Field(ge=2, le=12)
    damage: tuple[int, ...] = Field(min_length=1)

    @field_validator("damage")
    @classmethod
    def _non_negative(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(d < 0 for d in value):
            raise Invalid("damage is never negative")
        return value


class DamageTable(_Card):
    """損害判定表 (5.4 l.1066–1073): the attacker's 2D6 total (a row) against the ratio
    firepower:endurance as n:1 rounded down (a column). `columns[0]` is the column for n = 0
    (「1:2以下」: the 5.6 example reads 4:5 there), `columns[n]` for n:1, the last open-ended
    (n at or above it)."""

    dice: Literal["2D6"] = "2D6"
    columns: tuple[str, ...] = Field(min_length=2)
    rows: tuple[DamageRow, ...]

    @model_validator(mode="after")
    def _complete(self) -> DamageTable:
        totals = sorted(row.total for row in self.rows)
        if totals != list(range(2, 13)):
            raise Invalid("the damage table needs exactly one row for each 2D6 total 2–12")
        for row in self.rows:
            if len(row.damage) != len(self.columns):
                raise Invalid(
                    "row {total}: {n_damage} damages for {n_columns} columns",
                    total=row.total,
                    n_damage=len(row.damage),
                    n_columns=len(self.columns),
                )
        return self

    def at(self, column: int, total: int) -> int:
        """The damage in `column` (0-based, clamped to the table) for a 2D6 `total` (2–12)."""
        row = next(r for r in self.rows if r.total == min(max(total, 2), 12))
        return row.damage[min(max(column, 0), len(self.columns) - 1)]


class ChartRow(_Card):
    """A chart's row: totals `min`–`max` read `result`; the typed fields are what the server
    applies (the rest of `result` is the table's). 刑務所チャート: `escape`. 戦闘参加's charts
    (5.1 (1)): `joins` (the character, or the onlooker, joins the combat) after `delay` rounds,
    `revives` (実は生きていた: alive again), `remnant` (a 残留思念 joins, 6.1 l.1182–1183);
    残留思念チャート and 実は参加していたチャート: `firepower` (0: 火力なし), `endurance` (an
    onlooker joining as a participant without a hand)."""

    min: int
    max: int
    result: str
    escape: bool = False
    joins: bool = False
    delay: int = Field(default=0, ge=0, le=10)
    revives: bool = False
    remnant: bool = False
    firepower: int = Field(default=0, ge=0)
    endurance: int = Field(default=0, ge=0)


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
    damage_table: DamageTable | None = None

    @field_validator("combat_cards")
    @classmethod
    def _unique_combat_cards(cls, value: tuple[CombatCard, ...]) -> tuple[CombatCard, ...]:
        names = [c.name for c in value]
        if len(names) != len(set(names)):
            raise Invalid("combat card names must be unique")
        return value

    @field_validator("characters")
    @classmethod
    def _unique_names(cls, value: tuple[CharacterSheet, ...]) -> tuple[CharacterSheet, ...]:
        names = [c.name for c in value]
        if len(names) != len(set(names)):
            raise Invalid("character names must be unique")
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

    def combat_deck(self) -> list[str]:
        """The C-card deck (5.2): each card's name `count` times, in catalog order."""
        return [card.name for card in self.combat_cards for _ in range(card.count)]

    def combat_card(self, name: str) -> CombatCard | None:
        return next((c for c in self.combat_cards if c.name == name), None)

    def ability_card(self, name: str) -> AbilityCard | None:
        return next((c for c in self.ability_cards if c.name == name), None)

    def base_card(self, name: str) -> SquareCard | None:
        return next((c for c in self.base_cards if c.name == name), None)

    def planet_card(self, name: str) -> SquareCard:
        if name == self.ambush.name:
            return self.ambush
        return next(c for c in self.planet_cards if c.name == name)
