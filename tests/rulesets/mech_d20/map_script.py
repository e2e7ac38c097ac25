"""The scripted encounter on a battle map, through HTTP, every face given: アキ charges the
boss (L82–88), ベン drops a 遠隔範囲・爆発 on it (L260–263), the boss walks away and アキ takes
the opportunity attack its adjacency gives (L188), a hidden 偵察機 moves in secret, アキ pushes
the boss into a 危険な地帯 (L406–416), the GM reveals the scout's square. samples/
mech-d20-map.jsonl is this game, ended and exported (make_map_sample.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table

from .harness import RIFLE, SABER, sheet
from .script import Script

GRID = {
    "width": 12,
    "height": 10,
    "blocking": [[4, 0], [4, 1], [4, 2], [8, 8], [9, 8]],
    "difficult": [[3, 6], [3, 7]],
    "hazardous": [[10, 5], [11, 5]],
}
SHOVE = {
    "name": "シールドバッシュ",
    "keywords": ["攻撃", "武器"],
    "range": "近接",
    "attack": {"ability": "出力", "defence": "頑健"},
    "hit": {"weapon_dice": 1, "ability": "出力"},
    "forced": {"kind": "押しやる", "squares": 2},
}
MISSILE = {
    "name": "マイクロミサイル",
    "frequency": "遭遇毎",
    "keywords": ["攻撃", "特殊武装"],
    "range": "遠隔範囲",
    "shape": "爆発",
    "size": 1,
    "distance": 6,
    "attack": {"ability": "出力", "defence": "反応"},
    "hit": {"dice": "2d6", "ability": "出力"},
}
LAUNCHER = {"name": "ミサイルポッド", "kind": "特殊武装", "die": "1d6"}
BOSS = sheet(max_hp=80, defences={"AC": 19, "頑健": 17, "反応": 16, "意志": 15})
SCOUT = sheet(max_hp=30, speed=6)


def new_table(client: TestClient) -> Table:
    return Table.create(
        client,
        seats=["Aki", "Ben", "Chika"],
        ruleset="mech_d20",
        title="メカd20: 溶鉱炉の決闘",
        options={"dice_policy": "both"},
    )


def play(
    script: Script, scout: tuple[int, int] = (10, 1), scout_to: tuple[int, int] = (10, 3)
) -> dict[str, int]:
    """The encounter (the hidden scout placed at `scout`, moved to `scout_to`); the seqs of
    note. The GM reveals the scout's square last."""
    t = script.t
    for seat in (1, 2, 3):
        t.join(seat)
    t.do("gm", {"type": "start"})
    aki = sheet(speed=6, weapons=[SABER, {**RIFLE, "range": 10}], powers=[SHOVE])
    ben = sheet(weapons=[{**RIFLE, "range": 10}, LAUNCHER], powers=[MISSILE])
    script.do("seat:1", "add_unit", id="aki", name="グレイブ(アキ)", sheet=aki)
    script.do("seat:2", "add_unit", id="ben", name="ロングボウ(ベン)", sheet=ben)
    script.do("gm", "add_unit", id="boss", name="ガルムス", kind="npc", sheet=BOSS)
    script.do("gm", "add_unit", id="scout", name="偵察機", kind="npc", sheet=SCOUT)
    script.do("gm", "set_map", grid=GRID)
    script.do("seat:1", "place_unit", unit="aki", x=1, y=4)
    script.do("seat:2", "place_unit", unit="ben", x=1, y=6)
    script.do("gm", "place_unit", unit="boss", x=6, y=4)
    script.do("gm", "place_unit", unit="scout", x=scout[0], y=scout[1], hidden=True)
    faces = {"aki": [15], "ben": [12], "boss": [8], "scout": [3]}
    script.do("gm", "begin_encounter", participants=list(faces), faces=faces)

    # Round 1. アキ charges: 5 squares away, every step closer (L87–88).
    script.do("seat:1", "start_turn")
    script.refuse(
        "seat:1",
        "move",
        "path_blocked",
        unit="aki",
        to=[5, 1],
        path=[[2, 3], [3, 2], [4, 1], [5, 1]],
    )
    script.do("seat:1", "charge", unit="aki", targets=["boss"], weapon="ビームサーベル")
    script.attack("seat:1", [16], [5])
    script.do("seat:1", "end_turn")

    # ベン: マイクロミサイル, origin on the boss; アキ in the burst is left out by name.
    script.do("seat:2", "start_turn")
    script.refuse(
        "seat:2",
        "use_power",
        "out_of_range",
        unit="ben",
        power="マイクロミサイル",
        origin=[9, 4],
        targets=["boss"],
        weapon="ミサイルポッド",
    )
    script.do(
        "seat:2",
        "use_power",
        unit="ben",
        power="マイクロミサイル",
        origin=[6, 4],
        targets=["boss"],
        weapon="ミサイルポッド",
    )
    script.attack("seat:2", [14], [3, 4])
    script.do("seat:2", "end_turn")

    # The boss walks away from アキ: アキ's opportunity attack (L188), ベン has none (L187).
    script.do("gm", "start_turn")
    moved = script.do("gm", "move", unit="boss", to=[8, 4])
    trigger = moved[0]["seq"]
    script.refuse(
        "seat:2",
        "opportunity_attack",
        "not_adjacent",
        unit="ben",
        trigger=trigger,
        weapon="ビームライフル",
    )
    assert script.rules("seat:1")["encounter"]["opportunities"] == ["aki"]
    script.do("seat:1", "opportunity_attack", unit="aki", trigger=trigger, weapon="ビームサーベル")
    script.attack("seat:1", [12], [6])
    script.do("gm", "end_turn")

    # The scout moves in secret.
    script.do("gm", "start_turn")
    scout_move = script.do("gm", "move", unit="scout", to=list(scout_to))[0]["seq"]
    script.do("gm", "end_turn")

    # Round 2. アキ closes in and pushes the boss into the furnace: the save fails (L414).
    script.do("seat:1", "start_turn")
    script.do("seat:1", "move", unit="aki", to=[7, 4])
    script.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="シールドバッシュ",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    script.attack("seat:1", [15], [4])
    script.refuse(
        "seat:1",
        "force_move",
        "not_away",
        unit="aki",
        power="シールドバッシュ",
        target="boss",
        path=[[7, 5]],
    )
    script.do(
        "seat:1",
        "force_move",
        unit="aki",
        power="シールドバッシュ",
        target="boss",
        path=[[9, 5], [10, 5]],
        faces=[6],
    )
    script.do("gm", "adjust", unit="boss", hp=-10, reason="溶鉱炉 (L416: GMの裁定)")
    script.do("seat:1", "end_turn")
    script.t.do("gm", {"type": "reveal", "seq": scout_move})
    return {"scout_move": scout_move}


def run(client: TestClient) -> tuple[Table, dict[str, int]]:
    table = new_table(client)
    script = Script(table)
    seqs = play(script)
    script.do("gm", "end_encounter")
    table.do("gm", {"type": "end", "summary": "ガルムス、溶鉱炉に沈む"})
    return table, seqs
