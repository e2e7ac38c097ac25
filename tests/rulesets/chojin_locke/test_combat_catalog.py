"""The catalog's combat data (issue #20 item 16): C-cards, the deck and the damage table."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from pydantic import ValidationError

from domain.rulesets.chojin_locke.cards import Catalog, CombatCard, DamageTable
from domain.rulesets.chojin_locke.catalog import sample


def _card(**fields: Any) -> CombatCard:
    return CombatCard.model_validate({"name": "X", "lv": 1, **fields})


def test_timing_follows_the_kinds_when_omitted() -> None:
    # 5.3 l.1010–1015: [主要] for 攻撃/逃避/特殊, [対抗(攻撃)] for 防御/逃避.
    assert _card(kinds=["攻撃"], firepower=3).timing == ("主要",)
    assert _card(kinds=["防御"]).timing == ("対抗(攻撃)",)
    assert _card(kinds=["特殊"]).timing == ("主要",)
    assert _card(kinds=["逃避"]).timing == ("主要", "対抗(攻撃)")
    assert _card(kinds=["防御"], timing="主要").timing == ("主要",)


def test_a_card_of_two_kinds_answers_an_attack_only_as_its_defence() -> None:
    card = _card(kinds=["攻撃", "防御"], firepower=5)
    assert card.timing == ("主要", "対抗(攻撃)")
    assert card.usable_as("防御", "対抗(攻撃)")
    assert card.usable_as("攻撃", "主要")
    assert not card.usable_as("攻撃", "対抗(攻撃)")
    assert not card.usable_as("防御", "主要")
    assert not card.usable_as("逃避", "主要")
    escape = _card(kinds=["逃避"])
    assert escape.usable_as("逃避", "主要") and escape.usable_as("逃避", "対抗(攻撃)")


@pytest.mark.parametrize(
    "fields",
    [
        {"kinds": []},
        {"kinds": ["攻撃"], "firepower": 0},  # an attack without firepower
        {"kinds": ["魔法"]},
        {"kinds": ["防御", "防御"]},
        {"kinds": ["攻撃"], "firepower": 3, "maintain": True},  # only a defence is kept up
        {"kinds": ["特殊"], "self_only": True, "sync": True},  # 5.5 l.1085
        {"kinds": ["防御"], "count": 0},
    ],
)
def test_inconsistent_cards_are_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        _card(**fields)


def _table(**change: Any) -> dict[str, Any]:
    table: dict[str, Any] = {
        "columns": ["1:2以下", "1:1", "2:1"],
        "rows": [{"total": t, "damage": [0, t // 4, t // 2]} for t in range(2, 13)],
    }
    return {**table, **change}


def test_the_damage_table_needs_every_total_and_full_rows() -> None:
    DamageTable.model_validate(_table())
    rows = _table()["rows"]
    with pytest.raises(ValidationError, match="2–12"):
        DamageTable.model_validate(_table(rows=rows[1:]))
    with pytest.raises(ValidationError, match="2–12"):
        DamageTable.model_validate(_table(rows=[*rows, rows[0]]))
    short = [*rows[:-1], {"total": 12, "damage": [1, 2]}]
    with pytest.raises(ValidationError, match="columns"):
        DamageTable.model_validate(_table(rows=short))
    with pytest.raises(ValidationError):
        DamageTable.model_validate(_table(dice="1D6"))


def test_damage_lookup_clamps_to_the_open_ended_last_column() -> None:
    table = DamageTable.model_validate(_table())
    assert table.at(0, 12) == 0
    assert table.at(2, 12) == 6
    assert table.at(9, 12) == 6  # 9:1 reads the last column
    assert table.at(1, 8) == 2


def test_the_sample_deck_spans_every_kind_and_level() -> None:
    catalog = sample()
    deck = catalog.combat_deck()
    assert 55 <= len(deck) <= 65
    counts = Counter(deck)
    for card in catalog.combat_cards:
        assert counts[card.name] == card.count
        assert catalog.combat_card(card.name) == card
    assert catalog.combat_card("存在しない") is None
    kinds = {kind for card in catalog.combat_cards for kind in card.kinds}
    assert kinds == {"攻撃", "防御", "逃避", "特殊"}
    assert {card.lv for card in catalog.combat_cards} == set(range(1, 8))
    assert any(c.maintain for c in catalog.combat_cards)
    assert any(c.sync for c in catalog.combat_cards)
    assert any(c.self_only for c in catalog.combat_cards)
    assert all(c.text for c in catalog.combat_cards if "特殊" in c.kinds)
    # Firepower rises with LV among the attacks.
    attacks = sorted((c.lv, c.firepower) for c in catalog.combat_cards if "攻撃" in c.kinds)
    best = {lv: max(f for level, f in attacks if level == lv) for lv, _ in attacks}
    levels = sorted(best)
    assert all(best[a] < best[b] for a, b in itertools.pairwise(levels))


def test_the_sample_damage_table_rises_with_the_ratio_and_the_dice() -> None:
    table = sample().damage_table
    assert table is not None
    assert table.columns[0] == "1:2以下" and table.columns[1] == "1:1"
    for total in range(2, 13):
        row = [table.at(c, total) for c in range(len(table.columns))]
        assert row == sorted(row)
    for column in range(len(table.columns)):
        col = [table.at(column, t) for t in range(2, 13)]
        assert col == sorted(col)
    assert sample().chart("損害判定表") is None  # the old 2-row stand-in is gone


def test_an_old_catalog_without_combat_data_still_loads() -> None:
    data = sample().model_dump(mode="json")
    data.pop("damage_table")
    for card in data["combat_cards"]:
        for key in ("count", "timing", "maintain", "self_only", "text"):
            card.pop(key)
    catalog = Catalog.model_validate(data)
    assert catalog.damage_table is None
    assert len(catalog.combat_deck()) == len(catalog.combat_cards)
    assert catalog.combat_card("バリアー") is not None
    assert catalog.combat_card("バリアー").timing == ("対抗(攻撃)",)  # type: ignore[union-attr]


def test_combat_card_names_are_unique() -> None:
    data = sample().model_dump(mode="json")
    data["combat_cards"].append(data["combat_cards"][0])
    with pytest.raises(ValidationError, match="unique"):
        Catalog.model_validate(data)
