"""Lines the table reads for 超人ロック events whose public part leaves a name out."""

from __future__ import annotations

from domain.model.logline import describe
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.card_events import AbilityUsed, UnnamedAbility

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
        CHOJIN_LOCKE.describe(e.type, e.public_part(), None)
        for e in (PhaseEntered(seat=1, phase=p) for p in ("main", "square", "combat"))
    ]
    texts = [line[1] for line in said if line is not None]
    assert [t.split(" ", 1)[1] for t in texts] == [
        "主要フェイズ",
        "マスの効果発動フェイズ",
        "戦闘発生フェイズ",
    ]
