"""The tables the seed's text names but does not print: the GM supplies them as data.

「『サツバツ!』が回避されなかった場合、攻撃側は直ちに以下のクリティカル表で内容を決定する」,
「判定が成功だった場合、続けてD6を振り、「死神のエントリー決定表」で出現方法を決定すること」 and
『弾幕発生』 all point at tables missing from the scrape (shared/rules/ninja-slayer.md: "the
ruleset must not invent their contents"). A game created with `options.tables` has Kiroku roll
on them and record the entry; without one the GM rolls in the dice box and applies it by hand.
"""

from __future__ import annotations

import itertools
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.model.messages import Invalid

TableName = Literal["satsubatsu", "entry", "danmaku"]
TABLE_NAMES: dict[str, str] = {
    "satsubatsu": "サツバツ・クリティカル表",
    "entry": "死神のエントリー決定表",
    "danmaku": "弾幕",
}


class TableEntry(BaseModel):
    """The rows a roll from `low` to `high` (inclusive) lands on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    low: int = Field(ge=-100, le=1000)
    high: int | None = Field(default=None, ge=-100, le=1000, description="Default: low")
    text: str = Field(min_length=1, max_length=500)

    @property
    def top(self) -> int:
        return self.low if self.high is None else self.high


class RollTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    dice: str = Field(default="1D6", min_length=3, max_length=20, description="e.g. 1D6, 2D6")
    entries: tuple[TableEntry, ...] = Field(min_length=1, max_length=100)

    @model_validator(mode="after")
    def _rows_do_not_overlap(self) -> RollTable:
        rows = sorted(self.entries, key=lambda e: e.low)
        for row in rows:
            if row.top < row.low:
                raise Invalid("entry {low}..{top} runs backwards", low=row.low, top=row.top)
        for before, after in itertools.pairwise(rows):
            if after.low <= before.top:
                raise Invalid("entries {low} and {low2} overlap", low=before.low, low2=after.low)
        return self

    def look_up(self, value: int) -> str | None:
        return next((e.text for e in self.entries if e.low <= value <= e.top), None)


class Tables(BaseModel):
    """Each table the GM brings; one left out keeps the manual path (dice box and `adjust`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    satsubatsu: RollTable | None = None
    entry: RollTable | None = None
    danmaku: RollTable | None = None

    def get(self, name: TableName) -> RollTable | None:
        table: RollTable | None = getattr(self, name)
        return table
