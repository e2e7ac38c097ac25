"""Criticals beyond the plain 【6,6】: other patterns, ヒサツ・ワザ, shots that crit (2-6, 2-13).

L153 「『サツバツ!』とは、ニンジャのみが発生させられるクリティカルヒットである」;
L92 「近接攻撃とは異なり、特殊な武器や能力を持たない限り、射撃時にクリティカル成功は
発生しない」; L167 「【6,6,6】や【6,5+】や【5+,5+】で『サツバツ!』が発生するような能力を
使用している場合であっても、『ナムアミダブツ!』のための出目目標の変化が明記されていない
ならば、通常どおり…【6,6,6】…の時のみ『ナムアミダブツ!』となる」; L168 「『サツバツ!』自体を
他の効果に置き換える能力(例えばヒサツ・ワザなど)を使用した場合は、『ナムアミダブツ!』による
回避難易度+1ではなく、その能力が持つ個別の回避難易度や効果を使用すること」.

The abilities' data is not in the scrape: an attack declares the one it uses (`critical`), by
name, and Kiroku checks what the seed says about it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from .difficulty import normalise
from .rolls import PATTERN, matches

SATSUBATSU = "サツバツ"
NAMUAMIDABUTSU = "ナムアミダブツ"
NAMUAMIDABUTSU_PATTERN = "6,6,6"  # unless the ability says otherwise (L167)


class CriticalRule(BaseModel):
    """An ability that changes when, or what, an attack crits."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ability: str = Field(
        min_length=1, max_length=60, description="Its name, e.g. ◉ツヨイ・スリケン"
    )
    pattern: str = Field(default="6,6", pattern=PATTERN, description="When サツバツ! comes: 6,5+…")
    namuamidabutsu: str = Field(
        default=NAMUAMIDABUTSU_PATTERN, pattern=PATTERN, description="Only if the ability says"
    )
    ranged: bool = Field(default=False, description="Its shots crit too (L92)")
    hissatsu: str | None = Field(
        default=None, max_length=60, description="ヒサツ・ワザ: the name replacing サツバツ!"
    )
    evasion: str = Field(default="N", description="The ヒサツ・ワザ's own 回避 difficulty")

    def checked(self) -> CriticalRule:
        normalise(self.evasion)  # refuses a label that is not a difficulty
        return self


def critical_of(rule: CriticalRule, faces: Sequence[int]) -> str | None:
    """The critical a hit's faces give under `rule` (the caller checks: a ninja, a hit)."""
    if not matches(rule.pattern, faces):
        return None
    if rule.hissatsu is not None:  # replaces サツバツ!: no ナムアミダブツ (L168)
        return rule.hissatsu
    return NAMUAMIDABUTSU if matches(rule.namuamidabutsu, faces) else SATSUBATSU
