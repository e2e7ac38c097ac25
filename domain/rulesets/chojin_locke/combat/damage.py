"""損害判定 (5.4 3., 5.6): the arithmetic of damage — which column of the catalog's table a
firepower against an endurance reads, 格闘 column shifts, the damage a 2D6 total deals — and
the judgement itself (`judge`): the roller's 2D6 on the table, as its event.

5.4 l.1066–1071: 「まず、(攻撃の火力:耐久力)の比をn:1 (端数切捨て)の形で算出します。
例えば、火力:35の攻撃に対して耐久力を6で宣言した場合、5:1の損害判定が行われます。
次に攻撃者は2D6を振り、損害判定表を参照して与えるダメージを決定させます。」
"""

from __future__ import annotations

from domain.model.errors import RuleViolation
from domain.model.messages import Invalid
from domain.model.table import Dice
from domain.rulesets.chojin_locke.cards import DamageTable
from domain.rulesets.chojin_locke.combat.action_events import DamageRolled, Layer
from domain.rulesets.chojin_locke.state import ChojinState


def table_of(state: ChojinState) -> DamageTable:
    """The catalog's 損害判定表; without one the server judges no damage (the table does)."""
    table = state.catalog.damage_table
    if table is None:
        raise RuleViolation(
            "no_damage_table",
            "The catalog has no 損害判定表: the table resolves the damage (set_condition).",
        )
    return table


def column(firepower: int, endurance: int, columns: int | None = None) -> int:
    """The column index for `firepower` against a (declared) `endurance`: n = firepower //
    endurance (n:1, 端数切捨て); n == 0 reads column 0, 「1:2以下」 (5.6 l.1113–1114 reads
    火力5 against 4 as 1:1 and 4 against 5 as 1:2以下), n ≥ 1 reads column n, capped at the
    last of `columns` (the open-ended one) when given."""
    if endurance < 1:
        raise Invalid("an endurance is declared as 1 or more")
    n = max(firepower, 0) // endurance
    return n if columns is None else min(n, columns - 1)


def shifted(index: int, by: int, columns: int | None = None) -> int:
    """`index` moved `by` columns (right for +, left for −), kept on the table (3.1 l.337–340:
    「Xの数が大きい方が行う損害判定の列がその差分だけ右にずれ、Xの数が小さい方が行う損害判定の
    列がその差分だけ左にずれます。」)."""
    moved = max(index + by, 0)
    return moved if columns is None else min(moved, columns - 1)


def melee_columns(
    attacker: int, defender: int, attacker_shift: int, defender_shift: int, columns: int
) -> tuple[int, int]:
    """Both columns of a 格闘 exchange (5.6 l.1109–1114, 3.1 l.330–346): each side's firepower
    against the other's (each declared endurance is its firepower), the side with the larger
    [格闘:X] shifted right by the difference, the other left.

    (attacker's column on the defender, defender's column on the attacker)."""
    diff = attacker_shift - defender_shift
    own = shifted(column(attacker, defender, columns), diff, columns)
    theirs = shifted(column(defender, attacker, columns), -diff, columns)
    return own, theirs


def damage(table: DamageTable, index: int, total: int) -> int:
    """The damage the attacker's 2D6 `total` deals in column `index`."""
    return table.at(index, total)


def column_name(table: DamageTable, index: int) -> str:
    return table.columns[min(max(index, 0), len(table.columns) - 1)]


def judge(
    dice: Dice,
    table: DamageTable,
    index: int,
    *,
    roller: int,
    target: int,
    firepower: int,
    endurance: int,
    melee: bool = False,
    proxy: bool = False,
    secret: Layer | None = None,
    member: int | None = None,
) -> DamageRolled:
    """One 損害判定: `roller`'s 2D6 (5.4 l.1070 「攻撃者は2D6を振り」) read in column `index`."""
    rolled = dice.roll("2D6")
    return DamageRolled(
        roller=roller,
        target=target,
        firepower=firepower,
        endurance=endurance,
        column=column_name(table, index),
        roll=rolled.record,
        damage=damage(table, index, rolled.total),
        melee=melee,
        proxy=proxy,
        secret=secret,
        member=member,
    )
