"""The scripted combat: two PCs, a boss and three クローンヤクザ over seven turns, through HTTP.

It is also how samples/ninja-slayer-combat.jsonl is made (tests/rulesets/ninja_slayer/
make_sample.py). Every face is given (manual dice) except where noted, so the game is the same
every time.
"""

from __future__ import annotations

from typing import Any

from tests.table import Table

SECRET_SKILL = "ヒミツ・シャドウジツ"  # appears only in the boss's sealed sheet
NS = "ninja_slayer."
MOBS = ["m1", "m2", "m3"]

AKI = {  # カタナ: 即応ダイス 4
    "karate": 5,
    "neuron": 7,
    "wazamae": 3,
    "tairyoku": 5,
    "seishin": 2,
    "dkk": 3,
    "weapons": [{"name": "カタナ"}],
}
BEN = {  # ●ニンジャ第六感, ●連射2, one 緊急回避ダイス
    "karate": 4,
    "neuron": 13,
    "wazamae": 6,
    "tairyoku": 2,
    "seishin": 2,
    "dkk": 1,
    "multi_shot": 2,
    "emergency_dice": 1,
}
BOSS = {
    "karate": 7,
    "neuron": 6,
    "wazamae": 5,
    "tairyoku": 3,
    "seishin": 3,
    "evasion": True,
    "multi_attack": 2,
    "skills": [SECRET_SKILL],
}
MOB = {"karate": 3, "neuron": 2, "wazamae": 3, "tairyoku": 1, "ninja": False}


class Script:
    def __init__(self, table: Table) -> None:
        self.t = table
        self.boss_seq = 0

    def do(self, actor: str, command: str, **body: Any) -> list[dict[str, Any]]:
        return self.t.do(actor, {"type": NS + command, **body})["events"]

    def advance(self, times: int = 1, actor: str = "gm") -> None:
        for _ in range(times):
            self.do(actor, "advance")

    def rules(self, actor: str = "gm") -> dict[str, Any]:
        response = self.t.client.get(f"/games/{self.t.game_id}", headers=self.t.auth(actor))
        assert response.status_code == 200, response.text
        rules: dict[str, Any] = response.json()["rules"]
        return rules

    def damages(self) -> list[int]:
        return [d["id"] for d in self.rules()["combat"]["damages"]]

    def attack(self, actor: str, allocations: list[dict[str, Any]], **body: Any) -> list[Any]:
        return self.do(actor, "attack", allocations=allocations, **body)

    def evade(
        self, actor: str, who: str, damages: list[int], faces: list[int], **body: Any
    ) -> list[Any]:
        dice = len(faces) - body.get("emergency_dice", 0)
        return self.do(
            actor, "evade", character=who, damages=damages, evasion_dice=dice, faces=faces, **body
        )

    # ------------------------------------------------------------------------------ setup

    def setup(self) -> None:
        self.t.join(1, client_seed="aki-seed")
        self.t.join(2)
        self.t.do("gm", {"type": "start"})
        self.do("seat:1", "add_character", id="aki", name="Aki", sheet=AKI)
        self.do("seat:2", "add_character", id="ben", name="Ben", sheet=BEN)
        boss = self.t.do(
            "gm",
            {
                "type": NS + "add_character",
                "id": "boss",
                "name": "ブラックマンバ",
                "kind": "boss",
                "sheet": BOSS,
            },
        )
        self.boss_seq = boss["last_seq"]
        for mob in MOBS:
            self.do("gm", "add_character", id=mob, name="クローンヤクザ", kind="mob", sheet=MOB)

    def before_combat(self) -> None:
        # A server-rolled check with 即応ダイス, then ニンジャ第六感 on a failed one.
        self.do("seat:1", "check", character="aki", stat="ニューロン", reaction_dice=1)
        failed = self.t.do(
            "seat:2",
            {
                "type": NS + "check",
                "character": "ben",
                "stat": "ワザマエ",
                "difficulty": "H",
                "faces": [1, 2, 3, 4, 1, 2],
            },
        )
        self.do(
            "seat:2",
            "sixth_sense",
            character="ben",
            check_seq=failed["last_seq"],
            faces=[5, 1, 1, 1, 1, 1],
        )

    # ------------------------------------------------------------------------------ turns

    def turn_1(self) -> None:
        self.do(
            "gm", "begin_combat", participants=["aki", "ben", "boss", *MOBS], enemy_tie_order=MOBS
        )
        self.advance()  # → Ben's 手番
        self.do("seat:2", "concentrate")
        self.advance(actor="seat:2")  # 集中: straight to the attack phase
        self.attack(
            "seat:2",
            [
                {"target": "m1", "dice": 3, "faces": [3, 1, 1]},
                {"target": "m2", "dice": 3, "faces": [2, 1, 1]},
            ],
            kind="ranged",
        )
        self.advance(2, actor="seat:2")  # → Aki's 手番
        self.do("seat:1", "switch_weapon", weapon="カタナ")
        self.advance(actor="seat:1")
        self.do("seat:1", "move", style="連続側転", reaction_dice=1, faces=[5, 1, 1, 1])
        self.advance(actor="seat:1")
        self.attack("seat:1", [{"target": "boss", "faces": [6, 6, 5, 1, 1]}])  # HARD: サツバツ!
        (hit,) = self.damages()
        self.evade("gm", "boss", [hit], [1, 2, 3])
        self.t.do("gm", {"type": "roll", "expression": "1D6 サツバツ", "faces": [2]})
        self.do(
            "gm",
            "adjust",
            character="boss",
            changes={"karate": -1},
            reason="サツバツ! 出目2 (the table is the GM's data)",
        )
        self.advance(2, actor="seat:1")  # → the boss
        self.advance(2)
        self.attack(
            "gm",
            [
                {"target": "aki", "dice": 3, "faces": [5, 1, 1]},
                {"target": "ben", "dice": 3, "faces": [6, 6, 6]},
            ],
        )
        on_aki, on_ben = self.damages()
        self.evade("seat:1", "aki", [on_aki], [4, 5, 1])  # 2 > 1: counter earned
        self.do("seat:1", "counter_karate", character="aki", target="boss")
        counter = self.damages()[-1]
        self.evade("gm", "boss", [counter], [6, 1])  # no counter to a counter
        self.do("seat:2", "adrenaline_boost", character="ben")
        self.evade(
            "seat:2",
            "ben",
            [on_ben],
            [5, 1, 2],  # two 回避ダイス and the 緊急回避ダイス
            emergency_dice=1,
            modifiers=[{"name": "アドレナリン・ブースト", "delta": -1}],
        )
        self.advance(2)  # → m2 (m1 is gone)
        self.advance(2)
        self.attack("gm", [{"target": "aki", "faces": [4, 1, 1]}])
        self.advance(4)  # m2's damage waits for m3: the squad is evaded together
        self.attack("gm", [{"target": "aki", "faces": [5, 1, 1]}])
        self.evade("seat:1", "aki", self.damages(), [4, 4])
        self.do("seat:1", "counter_karate", character="aki", target="m3")
        self.advance(2)
        self.do("gm", "wasshoi", faces=[6, 5])
        self.do("gm", "next_turn")

    def turn_2(self) -> None:
        self.advance()  # Ben
        self.advance(actor="seat:2")
        self.do("seat:2", "move")
        self.advance(actor="seat:2")
        self.attack("seat:2", [{"target": "m2", "faces": [4, 1, 1, 1]}])
        self.advance(2, actor="seat:2")  # Aki
        self.advance(2, actor="seat:1")
        self.do("seat:1", "other_action", action="ハッキング (no check needed)")
        self.advance(2, actor="seat:1")  # the boss
        self.advance(2)
        self.attack("gm", [{"target": "aki", "faces": [1, 1, 1, 2, 2, 3]}])
        self.advance(2)  # turn end
        self.do("gm", "next_turn")

    def quiet_turn(self) -> None:
        """Nobody attacks (turns 3, 5, 6); the atmosphere rises at the ends of turns 3 and 6."""
        while self.rules()["combat"]["phase"] != "turn_end":
            self.advance()
        self.do("gm", "next_turn")

    def turn_4(self) -> None:
        self.advance()  # Ben
        self.advance(3, actor="seat:2")
        self.advance(actor="seat:2")  # Aki
        self.advance(2, actor="seat:1")
        self.attack("seat:1", [{"target": "boss", "faces": [4, 1, 1, 1, 1]}], tsuda=[1])
        (hit,) = self.damages()
        self.evade("gm", "boss", [hit], [4, 1, 1, 1, 1, 1])  # HARD mode: 4 misses
        self.advance(2, actor="seat:1")  # the boss, 気絶, still gets its 手番
        self.advance(4)  # → turn end
        self.do("gm", "next_turn")

    def turn_7(self) -> None:
        self.advance()
        self.advance(2, actor="seat:2")
        self.do("seat:2", "other_action", action="カイシャク on ブラックマンバ")
        self.do(
            "gm",
            "adjust",
            character="boss",
            status="爆発四散",
            reason="カイシャク: サツバツ! 出目6",
        )
        self.advance(actor="seat:2")
        self.advance(actor="seat:2")  # Aki
        self.advance(actor="seat:1")
        self.do("seat:1", "move")
        self.advance(2, actor="seat:1")
        self.advance(actor="seat:1")

    def knock_out_ben(self) -> None:
        """A trap in the ruins (GM): Ben faints at 体力 0 with 精神力 left."""
        self.do(
            "gm", "adjust", character="ben", changes={"tairyoku": -2}, reason="トラップ (GM ruling)"
        )
        trap = self.t.events("gm")[-1]["seq"]
        self.t.do(
            "gm",
            {
                "type": "ruling",
                "concerning_seq": trap,
                "text": "The trap deals 2: Ben faints (精神力 1 left).",
            },
        )

    def run(self) -> None:
        self.setup()
        self.before_combat()
        self.turn_1()
        self.turn_2()
        self.quiet_turn()
        self.turn_4()
        self.quiet_turn()
        self.quiet_turn()
        self.turn_7()
        self.knock_out_ben()
        self.do("gm", "end_combat")
