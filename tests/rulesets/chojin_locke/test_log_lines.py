"""Lines the table reads for 超人ロック events whose public part leaves a name out."""

from __future__ import annotations

from api.pages import i18n
from domain.model.events import Event
from domain.model.logline import describe
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.card_events import AbilityUsed, UnnamedAbility
from domain.rulesets.chojin_locke.party_events import PartyFormed
from domain.rulesets.chojin_locke.turn_events import (
    ConditionSet,
    Converted,
    PhaseEntered,
    SquareTurned,
)
from tests.lines import redacted
from tests.rulesets.chojin_locke.lines import described

NAMES = {1: "Aki", 2: "Ben"}


def _line(event: AbilityUsed, reader: str) -> str:
    secret = event.secret_part()
    redacted = {
        "seq": 9,
        "type": "chojin_locke.AbilityUsed",
        "actor": "seat:1",
        "public": event.public_part(),
        "sealed": {"audience": ["seat:1"], "commitment": "0" * 64} if secret else None,
        "secret": secret if reader == "seat:1" else None,
        "revealed": False,
    }
    return describe(redacted, reader, NAMES, CHOJIN_LOCKE.describe).text


def test_an_ability_used_without_its_name_reads_as_the_table_heard_it() -> None:
    used = AbilityUsed(seat=1, secret=UnnamedAbility(ability="念動力", tags=("戦闘",)))
    other = _line(used, "seat:2")
    assert "能力を使う" in other and "念動力" not in other and "None" not in other
    assert "念動力" in _line(used, "seat:1")  # its user reads the sealed name


def test_a_proxy_reads_as_a_proxy() -> None:
    used = AbilityUsed(seat=1, proxy=True, secret=UnnamedAbility(ability="ロボット", tags=()))
    assert "代理を使う" in _line(used, "seat:2")


def test_the_turns_phases_read_by_the_seeds_names() -> None:
    """2020 L540–547: 主要フェイズ, マスの効果発動フェイズ, 戦闘発生フェイズ."""
    from domain.rulesets.chojin_locke.turn_events import PhaseEntered

    said = [
        described(e.type, e.public_part(), None)
        for e in (PhaseEntered(seat=1, phase=p) for p in ("main", "square", "combat"))
    ]
    texts = [line[1] for line in said if line is not None]
    assert [t.split(" ", 1)[1] for t in texts] == [
        "主要フェイズ",
        "マスの効果発動フェイズ",
        "戦闘発生フェイズ",
    ]


def _read(event: Event, names: dict[int, str], language: str) -> str:
    """An event's line as a reader knowing `names` reads it in `language`."""
    line = describe(
        redacted(event.type, event.public_part()), "public", names, CHOJIN_LOCKE.describe
    )
    assert line.msg is not None, line.text
    assert i18n.read_line(line.msg, line.args, "ja") == line.text
    return i18n.read_line(line.msg, line.args, language)


def test_a_line_names_each_seat_by_its_players_name() -> None:
    """Issue 33 item 2: the seat's name, not 「席N」; a seat without a name still reads 「席N」."""
    converted = Converted(seat=1, target=2, faction="G", success=True)
    assert _read(converted, NAMES, "ja") == "AkiがBenをGに説得: 成功"
    assert _read(converted, {1: "Aki"}, "ja") == "Akiが席2をGに説得: 成功"
    formed = PartyFormed(leader=2, partners=(1, 3))
    assert _read(formed, {**NAMES, 3: "Chie"}, "ja") == "パーティ結成: Ben と Aki・Chie"


def test_a_line_reads_in_english_with_its_terms_and_card_names() -> None:
    """Issue 33 item 1: the rulebook's terms and the sample catalog's card names in English."""
    converted = Converted(seat=1, target=2, faction="G", success=False)
    assert _read(converted, NAMES, "en") == "Aki tries to convert Ben to G: failure"
    formed = PartyFormed(leader=2, partners=(1, 3))
    assert _read(formed, {**NAMES, 3: "Chie"}, "en") == "Party formed: Ben with Aki, Chie"
    turned = SquareTurned(seat=1, planet=2, square=3, card="情報入手", kind="info")
    assert _read(turned, NAMES, "ja") == "Akiが惑星2のマス3をめくる: 情報入手"
    assert _read(turned, NAMES, "en") == "Aki turns planet 2, square 3: Information"
    phase = PhaseEntered(seat=2, phase="square")
    assert _read(phase, NAMES, "en") == "Ben: Square Effect Phase"
    condition = ConditionSet(
        seat=1, condition="arrested", endurance_damage=2, willpower_damage=0, reason="trap"
    )
    assert _read(condition, NAMES, "ja") == "Aki: 逮捕 耐久力-2 (trap)"  # the words, not the id
    assert _read(condition, NAMES, "en") == "Aki: arrested, endurance -2 (trap)"
