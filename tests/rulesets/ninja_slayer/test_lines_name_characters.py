"""Issue 33 item 2, names never ids: ニンジャスレイヤー's lines say characters by name (ruling
NS-054), for every reader; one added under a name another has is told apart by its number."""

from __future__ import annotations

import re
from typing import Any

from domain.rulesets.ninja_slayer.changes import fresh
from domain.rulesets.ninja_slayer.rules import NINJA_SLAYER
from domain.rulesets.ninja_slayer.sheet import Sheet
from domain.rulesets.ninja_slayer.state import Character, NinjaState

from .script import NS, Script

IDS = re.compile(r"(?<![A-Za-z0-9_\-])(?:aki|ben|boss|m1|m2|m3)(?![A-Za-z0-9_\-])")
READERS = ("public", "seat:1", "seat:2", "gm")


def _lines(script: Script, reader: str) -> list[tuple[str, dict[str, Any], str]]:
    return [(e["type"], e["public"], e["line"]["text"]) for e in script.t.events(reader)]


def _line(lines: list[tuple[str, dict[str, Any], str]], type_: str, **public: Any) -> str:
    return next(
        text
        for kind, seen, text in lines
        if kind == NS + type_ and all(seen.get(k) == v for k, v in public.items())
    )


def test_lines_say_characters_by_name_for_every_reader(script: Script) -> None:
    script.before_combat()
    script.turn_1()
    script.turn_2()
    for reader in READERS:
        lines = _lines(script, reader)
        sheet = " 【カラテ3 ニューロン2 ワザマエ3 体力1】" if reader == "gm" else ""  # sealed
        assert _line(lines, "CharacterAdded", id="m2") == "モブ クローンヤクザ(2) が登場" + sheet
        assert _line(lines, "CharacterAdded", id="boss").startswith("ボス ブラックマンバ が登場")
        assert _line(lines, "CheckRolled", character="aki").startswith("Aki 【ニューロン】判定")
        assert _line(lines, "SixthSense", character="ben").startswith("Ben ニンジャ第六感")
        began = _line(lines, "CombatBegan").split(": ", 1)[1].split("・")
        assert began == [
            "Aki",
            "Ben",
            "ブラックマンバ",
            "クローンヤクザ",
            "クローンヤクザ(2)",
            "クローンヤクザ(3)",
        ]
        order = _line(lines, "TurnStarted", turn=1).split(": ", 1)[1].split(" → ")
        assert sorted(order) == sorted(began)
        attack = _line(lines, "AttackRolled", attacker="ben")
        assert attack.startswith("Ben 遠隔攻撃")
        assert "クローンヤクザ: " in attack and "クローンヤクザ(2): " in attack
        said = [text for _kind, _public, text in lines if IDS.search(text)]
        assert not said, (reader, said)
        # the pane calls them as the lines do (the view's label), the name stays the name
        mob = script.rules(reader)["characters"]["m2"]
        assert (mob["name"], mob["label"]) == ("クローンヤクザ", "クローンヤクザ(2)")
        assert script.rules(reader)["characters"]["aki"]["label"] == "Aki"


def _character(id: str, name: str, seq: int) -> Character:
    sheet = Sheet(karate=1, neuron=1, wazamae=1, tairyoku=1)
    return Character(
        id=id,
        name=name,
        owner="gm",
        kind="mob",
        added_seq=seq,
        revealed=False,
        sheet=sheet,
        now=fresh(sheet),
    )


def test_a_shared_name_gets_its_number_in_the_order_added_and_a_sole_name_none() -> None:
    added = [_character(f"y{n}", "ヨタモノ", 100 - n) for n in range(12)]
    added.append(_character("mamba", "ブラックマンバ", 200))
    state = NinjaState(characters={c.id: c for c in added})
    for audience in ("public", "seat:1", "gm"):
        names = NINJA_SLAYER.people(state, audience)
        assert names["mamba"] == "ブラックマンバ"
        # y11 was added first (seq 89), y0 last (seq 100)
        assert (names["y11"], names["y10"], names["y0"]) == (
            "ヨタモノ",
            "ヨタモノ(2)",
            "ヨタモノ(12)",
        )
    # the names of those added before stay as they were
    earlier = NinjaState(characters={c.id: c for c in added if c.added_seq < 95})
    assert NINJA_SLAYER.people(earlier, "gm") == {
        i: n for i, n in NINJA_SLAYER.people(state, "gm").items() if i in earlier.characters
    }
