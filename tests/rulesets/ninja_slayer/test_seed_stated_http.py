"""Rules the seed states that Kiroku now models, over HTTP with manual faces: placement at the
turn end, ニンジャスレイヤー's entry, 連続側転判定 modifiers, 部位損傷, the GM's atmosphere, DKK per
turn, and the GM's tables."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

from .script import MOBS, Script
from .test_refusals_http import refused
from .test_seed_fixes_http import begin, character, of_type, to_phase

SATSUBATSU = {
    "dice": "1D6",
    "entries": [
        {"low": 1, "high": 2, "text": "痛打+1"},
        {"low": 3, "high": 5, "text": "カラテ-1"},
        {"low": 6, "text": "即死!"},
    ],
}
ENTRY = {"entries": [{"low": 1, "high": 6, "text": "窓から出現"}]}


def _script(client: TestClient, **ruleset_options: Any) -> Script:
    table = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        options={"dice_policy": "both"},
        ruleset_options=ruleset_options,
    )
    script = Script(table)
    script.setup()
    return script


@pytest.fixture
def script(client: TestClient) -> Script:
    return _script(client)


def to_turn_end(script: Script) -> None:
    while script.rules()["combat"]["phase"] != "turn_end":
        script.advance()


def test_new_characters_are_placed_last_at_the_turn_end(script: Script) -> None:
    """「ここでマスターが行う最も重要な処理は、「新たなキャラの配置」である。ターン終了フェイズで
    他にも処理すべきルールがある場合、「新たなキャラの配置」を一番最後に処理すること」 (2-9): the
    newcomer is not in the fight (and cannot be attacked) until placed; after placing, nothing
    else happens in that turn end; the next turn gives it 回避ダイス and a 手番."""
    begin(script, "aki", "ben", MOBS[0])  # a combat has an enemy (ruling NS-053)
    to_phase(script, "ben", "attack")
    attack = {"type": "attack", "allocations": [{"target": "boss", "faces": [4] * 4}]}
    refused(script, "seat:2", attack, 409, "not_in_combat")
    place = {"type": "place_characters", "characters": ["boss"]}
    refused(script, "gm", place, 409, "wrong_phase")
    to_turn_end(script)
    refused(script, "gm", {**place, "characters": ["aki"]}, 409, "already_in_combat")
    script.do("gm", "place_characters", characters=["boss"])
    refused(script, "gm", {"type": "wasshoi", "faces": [1, 1]}, 409, "placement_is_last")
    refused(script, "gm", {"type": "atmosphere", "level": 1}, 409, "placement_is_last")
    script.do("gm", "next_turn")
    combat = script.rules()["combat"]
    assert combat["order"] == ["ben", "aki", "boss", MOBS[0]] and "boss" in combat["participants"]
    assert character(script, "boss")["now"]["evasion"] == 7  # max(7, 6, 5)
    to_phase(script, "ben", "attack")
    assert of_type(script.attack("seat:2", [{"target": "boss", "faces": [1] * 4}]), "AttackRolled")


def test_ninja_slayer_enters_after_a_successful_wasshoi(script: Script) -> None:
    """「判定が成功だった場合、続けてD6を振り、「死神のエントリー決定表」で出現方法を決定すること」
    (2-15), with ◆ニンジャスレイヤー's statblock as the seed prints it."""
    begin(script, "aki", "ben", MOBS[0])  # a combat has an enemy (ruling NS-053)
    to_turn_end(script)
    enter = {"type": "ninja_slayer_enters", "id": "ns"}
    refused(script, "gm", enter, 409, "no_wasshoi")
    script.do("gm", "wasshoi", faces=[6, 5])  # 11 > DKK 3: no
    refused(script, "gm", enter, 409, "no_wasshoi")
    script.do("gm", "next_turn")
    to_turn_end(script)
    script.do("gm", "wasshoi", faces=[1, 2])  # 3 ≤ 3
    events = script.do("gm", "ninja_slayer_enters", id="ns")
    added, placed = events
    assert added["public"]["sheet"]["karate"] == 13 and placed["public"]["characters"] == ["ns"]
    script.do("gm", "next_turn")
    assert script.rules()["combat"]["order"] == ["ben", "aki", "ns", MOBS[0]]  # 機先 7: after Aki
    assert character(script, "ns")["now"]["evasion"] == 14  # 回避 14


def test_sokuten_check_takes_modifiers_bonus_dice_and_injuries(client: TestClient) -> None:
    """「例えばカタナを装備した場合、素手よりも連続側転をやりにくくなってしまう」 (2-4) and
    「『●部位損傷』が1箇所でも残った状態で次のシナリオを開始した場合、あらゆる判定に難易度+1
    ペナルティ…2箇所以上残っている場合は、難易度+2ペナルティ」 (2-13)."""
    script = _script(client)
    sheet = {"karate": 3, "neuron": 20, "wazamae": 4, "tairyoku": 5, "injuries": 1}
    script.do("seat:1", "add_character", id="kai", name="Kai", sheet=sheet)
    begin(script, "kai", "boss")
    to_phase(script, "kai", "movement")
    refused(
        script, "seat:1", {"type": "move", "bonus_dice": 1}, 409, "no_check"
    )  # normal movement rolls nothing
    events = script.do(
        "seat:1",
        "move",
        style="連続側転",
        modifiers=[{"name": "カタナ", "delta": 1}],
        bonus_dice=1,
        faces=[6, 1, 1, 1, 1],
    )
    (check,) = of_type(events, "CheckRolled")
    detail = check["public"]["detail"]
    assert detail["difficulty"] == "UH" and detail["pool"]["bonus"] == 1
    assert [m["name"] for m in detail["modifiers"]] == ["カタナ", "部位損傷"]
    (check,) = of_type(
        script.do("seat:1", "check", character="kai", stat="カラテ", faces=[1, 1, 1]),
        "CheckRolled",
    )
    assert check["public"]["detail"]["difficulty"] == "H"


def test_the_gm_declares_the_atmosphere_at_a_turn_end_only(script: Script) -> None:
    """「アトモスフィアの上昇タイミング、および経過ターン数仕切り直しなどの決定権は、常にマスター
    のにある。ただし、アトモスフィアの変更宣言は必ずターン終了時に行うこと」 and 「一度上昇した
    アトモスフィアは、戦闘が終了するまで下がることはない」 (2-17)."""
    begin(script, "aki", "ben", "boss")
    refused(script, "gm", {"type": "atmosphere", "level": 1}, 409, "wrong_phase")
    for _ in range(2):
        to_turn_end(script)
        script.do("gm", "next_turn")
    to_turn_end(script)  # turn 3's end: the rise is declared by the count
    raised = script.t.events("gm")[-1]
    assert raised["type"] == "ninja_slayer.AtmosphereRaised"
    refused(script, "seat:1", {"type": "atmosphere", "level": 0}, 403, "gm_only")
    script.do("gm", "atmosphere", level=0, reset_count=True)  # held back; count again
    script.do("gm", "next_turn")
    assert script.rules()["combat"]["atmosphere"] == 0
    assert script.rules()["combat"]["elapsed"] == 1
    to_turn_end(script)
    script.do("gm", "atmosphere", level=2)  # early, straight to ULTRA-HARD
    script.do("gm", "next_turn")
    to_turn_end(script)
    refused(script, "gm", {"type": "atmosphere", "level": 1}, 409, "atmosphere_never_falls")


def test_three_dkk_in_one_turn_offers_wasshoi(script: Script) -> None:
    """「1ターン中に合計3以上の【DKK】が発生したタイミング」 (2-15): the turn's DKK is counted."""
    begin(script, "aki", "ben", MOBS[0])  # a combat has an enemy (ruling NS-053)
    script.do("gm", "adjust", character="aki", changes={"dkk": 2}, reason="民間人を殺害")
    assert not script.rules()["combat"]["wasshoi_offered"]
    script.do("gm", "adjust", character="ben", changes={"dkk": 1}, reason="略奪")
    combat = script.rules()["combat"]
    assert combat["dkk_this_turn"] == 3 and combat["wasshoi_offered"]
    to_turn_end(script)
    script.do("gm", "wasshoi", faces=[6, 6])
    assert not script.rules()["combat"]["wasshoi_offered"]
    script.do("gm", "next_turn")
    assert script.rules()["combat"]["dkk_this_turn"] == 0


def test_kiroku_rolls_on_the_gms_tables(client: TestClient) -> None:
    """「『サツバツ!』が回避されなかった場合、攻撃側は直ちに以下のクリティカル表で内容を決定する」
    (2-13) and the entry table (2-15): the seed's text has no tables; the GM's are rolled and
    recorded. 「ダイスを1回だけ振り直すこと」: the entry table at most twice."""
    script = _script(client, tables={"satsubatsu": SATSUBATSU, "entry": ENTRY})
    begin(script, "aki", "ben", "boss")
    satsubatsu = {"type": "roll_table", "table": "satsubatsu", "faces": [3]}
    refused(script, "seat:1", satsubatsu, 409, "no_critical")
    to_phase(script, "aki", "attack")
    script.attack("seat:1", [{"target": "boss", "faces": [6, 6, 1, 1, 1]}])
    script.evade("gm", "boss", script.damages(), [1])
    refused(script, "seat:2", satsubatsu, 403, "not_your_character")
    (rolled,) = script.do("seat:1", "roll_table", table="satsubatsu", faces=[3])
    assert rolled["public"]["text"] == "カラテ-1" and rolled["public"]["target"] == "boss"
    refused(script, "seat:1", satsubatsu, 409, "no_critical")
    to_turn_end(script)
    script.do("gm", "wasshoi", faces=[1, 1])
    for face in (2, 4):
        (entry,) = script.do("gm", "roll_table", table="entry", faces=[face])
        assert entry["public"]["text"] == "窓から出現"
    refused(
        script, "gm", {"type": "roll_table", "table": "entry", "faces": [1]}, 409, "entry_rolled"
    )
    refused(script, "gm", {"type": "roll_table", "table": "danmaku", "faces": [1]}, 409, "no_table")


def test_without_a_table_the_manual_path_stays(script: Script) -> None:
    """Without the GM's table: refused with what to do instead; the dice box and adjust work."""
    begin(script, "aki", "boss")
    body = {"type": "roll_table", "table": "satsubatsu", "faces": [1]}
    refused(script, "seat:1", body, 409, "no_table")
    script.t.do("gm", {"type": "roll", "expression": "1D6 サツバツ", "faces": [2]})


def test_a_table_with_overlapping_rows_is_refused_at_creation(client: TestClient) -> None:
    bad = {"entries": [{"low": 1, "high": 3, "text": "a"}, {"low": 3, "text": "b"}]}
    response = client.post(
        "/games",
        json={
            "title": "t",
            "seats": ["A"],
            "ruleset": "ninja_slayer",
            "ruleset_options": {"tables": {"satsubatsu": bad}},
        },
    )
    assert response.json()["code"] == "invalid_ruleset_options", response.text
    detail = response.json()["detail"]  # the place and the reason in words, no input echoed
    reason = "tables.satsubatsu：1と3の項目が重なっている"
    assert detail == f"ルールのオプションが正しくありません: {reason}"
