"""損害判定's arithmetic (5.4 l.1066–1071, 5.6, 3.1 [格闘:X]): the pure functions of
combat/damage.py against the seed's own examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.rulesets.chojin_locke.combat.damage import (
    column,
    column_name,
    damage,
    melee_columns,
    shifted,
)
from tests.rulesets.chojin_locke.combat_domain import TABLE


def test_the_seeds_example_35_against_6_is_5_to_1() -> None:
    # 5.4 l.1068: 「火力:35の攻撃に対して耐久力を6で宣言した場合、5:1の損害判定」
    assert column(35, 6) == 5


def test_the_ratio_is_floored() -> None:
    assert column(11, 6) == 1  # 1.83:1 reads 1:1
    assert column(12, 6) == 2
    assert column(5, 6) == 0  # below 1:1: the 1:2以下 column


def test_below_one_to_one_reads_the_first_column() -> None:
    # 5.6 l.1113–1114: 火力5 against 4 is 1:1, 4 against 5 is 1:2以下
    assert column_name(TABLE, column(5, 4, 5)) == "1:1"
    assert column_name(TABLE, column(4, 5, 5)) == "1:2以下"


def test_the_last_column_is_open_ended() -> None:
    assert column(99, 1, 5) == 4
    assert column_name(TABLE, column(99, 1, 5)) == "4:1以上"


def test_an_endurance_below_one_is_never_declared() -> None:
    with pytest.raises(ValueError):
        column(3, 0)


def test_shifts_stay_on_the_table() -> None:
    assert shifted(0, -2, 5) == 0
    assert shifted(3, 4, 5) == 4
    assert shifted(1, 2, 5) == 3


def test_the_melee_shift_example() -> None:
    # 3.1 l.341–346: attacker 火力3 [格闘:2] against 火力6 without: 1:2以下 and 2:1 before the
    # shift, 2:1 and 1:2以下 after
    assert melee_columns(3, 6, 0, 0, 5) == (0, 2)
    assert melee_columns(3, 6, 2, 0, 5) == (2, 0)


def test_the_damage_table_reads_row_and_column() -> None:
    assert damage(TABLE, 0, 2) == 0
    assert damage(TABLE, 2, 7) == 3
    assert damage(TABLE, 4, 12) == 6


@given(st.integers(0, 200), st.integers(1, 50))
def test_column_is_n_to_1_rounded_down(firepower: int, endurance: int) -> None:
    n = column(firepower, endurance)
    assert n * endurance <= firepower < (n + 1) * endurance
