"""Issue 33 item 2: a refusal about a character or a pending damage says the character by the
name the lines call it (クローンヤクザ(2) for the second of a shared name, ruling NS-054), in the
reader's language and the rulebook's words — never a character id or a damage's number."""

from __future__ import annotations

from typing import Any

import pytest

from domain.model.errors import RuleViolation
from domain.rulesets.ninja_slayer import placement

from .harness import BOSS_SHEET, Game
from .script import MOB, NS, Script


def refusal(script: Script, actor: str, body: dict[str, Any], language: str) -> dict[str, Any]:
    before = script.t.log_bytes()
    response = script.t.send(
        actor, {**body, "type": NS + body["type"]}, **{"Accept-Language": language}
    )
    assert response.status_code >= 400, response.text
    assert script.t.log_bytes() == before, "a refused command must append nothing"
    problem: dict[str, Any] = response.json()
    return problem


def said(script: Script, actor: str, body: dict[str, Any]) -> tuple[str, str, str]:
    """The refusal's code, and its words in Japanese and in English."""
    ja = refusal(script, actor, body, "ja")
    en = refusal(script, actor, body, "en")
    assert ja["code"] == en["code"]
    return ja["code"], ja["detail"], en["detail"]


def test_a_character_added_again_is_named(script: Script) -> None:
    boss = {"type": "add_character", "id": "boss", "name": "X", "kind": "boss", "sheet": MOB}
    assert said(script, "gm", boss) == (
        "duplicate_character",
        "ブラックマンバはすでに登場している。",
        "ブラックマンバ has already entered the game.",
    )
    mob = {**boss, "id": "m2", "kind": "mob"}
    code, ja, en = said(script, "gm", mob)
    assert (code, ja) == ("duplicate_character", "クローンヤクザ(2)はすでに登場している。")
    assert "m2" not in en


def test_pending_damage_is_said_by_whom_it_is_dealt_to(script: Script) -> None:
    script.do("gm", "hazard", target="aki", amount=1, text="燃えるタタミ")
    script.do("gm", "hazard", target="ben", amount=1, text="落石")
    aki, ben = (d["id"] for d in script.rules()["hazards"])

    code, ja, en = said(script, "gm", {"type": "take_damage", "damages": [aki, ben]})
    assert code == "unknown_damage"
    assert ja == "そのダメージはAki・Benに与えられている。それぞれが自分の分を受ける。"
    assert en == "That damage is dealt to Aki・Ben: each takes its own."

    evade = {"type": "evade", "character": "aki", "damages": [aki, ben], "evasion_dice": 1}
    code, ja, en = said(script, "gm", evade)
    assert code == "not_your_damage"
    assert ja == "トラップのダメージはAkiではなくBenに向けられている。"  # a hazard's source
    assert en == "トラップ's damage is aimed at Ben, not at Aki."

    gone = max(aki, ben) + 1
    code, ja, en = said(script, "gm", {"type": "take_damage", "damages": [gone]})
    assert code == "unknown_damage" and str(gone) not in ja + en
    assert ja.startswith("そのダメージはもう『回避判定』を待っていない")

    begin = {"type": "begin_combat", "participants": ["aki", "ben", "boss"]}
    code, ja, en = said(script, "gm", begin)
    assert code == "damage_pending"
    assert ja == "Aki・Benへのダメージが、『回避判定』か受けるのを待っている。"
    assert en == "The damage dealt to Aki・Ben waits for its 回避判定 or to be taken."


def test_a_character_in_ninja_slayers_place_is_named() -> None:
    """ニンジャスレイヤー enters as the character of his id; another one there is named."""
    game = Game()
    body = {"type": NS + "add_character", "id": "ninja_slayer", "name": "ダークニンジャ"}
    game.do("gm", {**body, "kind": "boss", "sheet": BOSS_SHEET})
    with pytest.raises(RuleViolation) as refused:
        placement._added(game.rules, "ninja_slayer")
    assert refused.value.code == "duplicate_character"
    assert refused.value.params == {"name": "ダークニンジャ"}
