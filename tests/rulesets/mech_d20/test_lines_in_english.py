"""メカd20's lines in the reader's language (issue 33, item 1): the rulebook's words read in
English on an English page, the names the players typed as they are, the Japanese as it was.

tests/domain/test_lines_in_english.py reads every line with its names blanked; these read a few
whole lines, names and all, where the line takes words apart that the event records together
(an hp change's 「<attacker>の<power>」, a void reaction's recorded reason, a mode switch)."""

from __future__ import annotations

from typing import Any

from api.pages import i18n
from domain.model.logline import LogLine, describe
from domain.rulesets import ruleset_for
from domain.rulesets.mech_d20.changes import EffectsEnded, HpChanged
from domain.rulesets.mech_d20.resolution import ReactionResolved
from domain.rulesets.mech_d20.sheet import Power, Sheet, Weapon
from domain.rulesets.mech_d20.units import UnitAdded
from tests.lines import redacted

PEOPLE = {"aki": "グレイブ(アキ)", "boss": "ガルムス", "chika": "アイアンウォール(チカ)"}


def line_of(event: Any) -> LogLine:
    seen = redacted(event.type, event.public_part())
    return describe(seen, "gm", {1: "Aki"}, ruleset_for("mech_d20").describe, people=PEOPLE)


def english(line: LogLine) -> str:
    assert line.msg is not None, line.text
    return i18n.read_line(line.msg, line.args, "en")


def test_an_hp_change_names_the_attacker_and_its_power_in_each_language() -> None:
    change = HpChanged(
        unit="boss",
        change=-14,
        cause="グレイブ(アキ)の近接基礎攻撃",
        bloodied=True,
        status="active",
        out=False,
        hp=60,
    )
    line = line_of(change)
    assert line.text == "ガルムス -14 (グレイブ(アキ)の近接基礎攻撃) hp 60 [半壊]"
    assert english(line) == "ガルムス -14 (グレイブ(アキ)'s melee basic attack) hp 60 [bloodied]"


def test_an_hp_change_by_a_cause_the_rules_write_reads_in_english() -> None:
    dying = HpChanged(
        unit="chika", change=-5, cause="継続的ダメージ", bloodied=True, status="戦闘不能", out=False
    )
    line = line_of(dying)
    assert line.text == "アイアンウォール(チカ) -5 (継続的ダメージ) [半壊, 戦闘不能]"
    assert english(line) == "アイアンウォール(チカ) -5 (ongoing damage) [bloodied, dying]"
    # the GM's heal with no reason given records "heal" (units.py): no English on the page
    healed = HpChanged(
        unit="aki", change=8, cause="heal", bloodied=False, status="active", out=False
    )
    line = line_of(healed)
    assert line.text == "グレイブ(アキ) +8 (GMの回復)"
    assert english(line) == "グレイブ(アキ) +8 (GM's healing)"


def test_a_void_reactions_recorded_reason_reads_in_each_language() -> None:
    """The event records `cannot_act_off_turn`'s message in its source words; the line says it
    in the reader's language (it read in English on the Japanese page before)."""
    unseen = "cannot see the trigger's source, so cannot act outside its turn."
    reasons = {
        "アイアンウォール(チカ) is 戦闘不能 and cannot act outside its turn.": (
            "アイアンウォール(チカ)は戦闘不能で、手番の外では行動できない。",
            "アイアンウォール(チカ) is dying and cannot act outside its turn.",
        ),
        "アイアンウォール(チカ) is 幻惑・朦朧状態 and cannot act outside its turn.": (
            "アイアンウォール(チカ)は幻惑・朦朧状態で、手番の外では行動できない。",
            "アイアンウォール(チカ) is dazed, stunned and cannot act outside its turn.",
        ),
        f"アイアンウォール(チカ) {unseen}": (
            "アイアンウォール(チカ)はトリガーの発生源が見えないため、手番の外では行動できない。",
            f"アイアンウォール(チカ) {unseen}",
        ),
    }
    for recorded, (japanese, in_english) in reasons.items():
        void = ReactionResolved(
            unit="chika", power="カウンター", declared=4, voided=True, reason=recorded
        )
        line = line_of(void)
        assert line.text == f"アイアンウォール(チカ) の カウンター は無効 (消費なし): {japanese}"
        assert english(line) == (
            f"アイアンウォール(チカ)'s カウンター is void (nothing spent): {in_english}"
        )


def test_a_mode_switch_reads_in_each_language() -> None:
    line = line_of(EffectsEnded(ids=(3,), reason="砲撃形態: another [モード]"))
    assert line.text == "効果終了 (3): 砲撃形態: 別の[モード]"
    assert english(line) == "Effects end (3): 砲撃形態: another [Mode]"


def test_a_sheet_reads_as_a_sheet_in_each_language() -> None:
    sheet = Sheet(
        level=5,
        abilities={"出力": 5, "敏捷力": 2},
        proficiency=2,
        defences={"AC": 19, "頑健": 16, "反応": 14, "意志": 14},
        max_hp=44,
        surges=3,
        surge_value=11,
        durability=9,
        speed=6,
        weapons=(Weapon(name="ビームサーベル", die="1d8"),),
        powers=(Power(name="斬鉄剣", frequency="遭遇毎"), Power(name="熱血", frequency="1日毎")),
    )
    line = line_of(
        UnitAdded(id="aki", name="グレイブ(アキ)", owner="seat:1", kind="pc", sheet=sheet)
    )
    assert line.text == (
        "グレイブ(アキ) (PC) が戦場に — レベル5 【出力】5 【敏捷力】2 習熟ボーナス+2; "
        "AC19 頑健16 反応14 意志14; hp44 回復力3 (回復力値11) 耐久力基本値9; 移動力6 サイズM; "
        "武器: ビームサーベル 1d8; パワー: 斬鉄剣 [遭遇毎]・熱血 [1日毎]"
    )
    assert english(line) == (
        "グレイブ(アキ) (PC) takes the field — level 5, Output 5 Agility 2, proficiency bonus +2; "
        "AC 19 Fortitude 16 Reflex 14 Will 14; hp 44, healing surges 3 (surge value 11), "
        "durability 9; speed 6, size M; weapons: ビームサーベル 1d8; "
        "powers: 斬鉄剣 [encounter], 熱血 [daily]"
    )
