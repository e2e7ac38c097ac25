"""Two scenarios of a campaign in one game, through HTTP with manual faces: the stages, a trap
in the 探索シーケンス, two fights (drops into the 万札プール, a サツバツ! that leaves a ●部位損傷,
ニンジャ耐久力の発露, カイシャク and 即死!), the 評価's split, growth and a purchase in the 余暇,
the injury's penalty in the next scenario, a mob squad that hits automatically, 弾き飛ばし's
collision, and the treatment in the last 余暇.

It is also how samples/ninja-slayer-campaign.jsonl is made (make_campaign_sample.py).
"""

from __future__ import annotations

from typing import Any

from tests.table import Table

from .script import Script

SATSUBATSU = {
    "dice": "1D6",
    "entries": [
        {"low": 1, "high": 2, "text": "痛打+1"},
        {"low": 3, "high": 5, "text": "●部位損傷:頭部 (ニューロン-1)"},
        {"low": 6, "text": "即死!"},
    ],
}
SQUAD = {"karate": 3, "neuron": 2, "wazamae": 3, "tairyoku": 1, "ninja": False, "manzatsu": 1}


class Campaign(Script):
    def __init__(self, table: Table) -> None:
        super().__init__(table)

    def stage(self, name: str) -> None:
        self.do("gm", "scenario_stage", stage=name)

    def to_phase(self, character: str, phase: str) -> None:
        """The GM moves play on to `character`'s `phase` (the next one, if it is that now)."""
        for _ in range(60):
            combat = self.rules()["combat"]
            if combat["actor"] == character and combat["phase"] == phase:
                return
            if combat["phase"] == "turn_end":
                self.do("gm", "next_turn", enemy_tie_order=self.enemy_order())
            else:
                self.advance()
        raise AssertionError(f"never reached {character}'s {phase}")

    def enemy_order(self) -> list[str]:
        combat = self.rules()["combat"]
        return [c for c in combat["participants"] if c.startswith(("m", "y"))]

    def begin(self, *participants: str, **body: Any) -> None:
        self.do("gm", "begin_combat", participants=list(participants), **body)

    # ------------------------------------------------------------------ シナリオ1

    def scenario_1(self) -> None:
        self.stage("ダンゴウ")
        self.do("seat:2", "check", character="ben", stat="ニューロン", faces=[5] + [1] * 12)
        self.stage("本編")
        # 探索: a trap, evaded with 【回避】 dice (no turn hands out 回避ダイス).
        self.do("gm", "hazard", target="aki", evasion="H", text="ワイヤートラップ")
        self.evade("seat:1", "aki", [1], [5, 1])
        # The first fight: Ben's スリケン clear two クローンヤクザ; their drops fill the pool.
        self.begin("aki", "ben", "m1", "m2", enemy_tie_order=["m1", "m2"])
        self.to_phase("ben", "attack")
        self.attack(
            "seat:2",
            [
                {"target": "m1", "dice": 3, "faces": [4, 1, 1]},
                {"target": "m2", "dice": 3, "faces": [5, 1, 1]},
            ],
            kind="ranged",
            shuriken=True,
        )
        self.do("gm", "drop", character="m1", amount=1)
        self.do("gm", "drop", character="m2", amount=1)
        self.do("gm", "end_combat")
        # The boss: its サツバツ! on Aki leaves ●部位損傷:頭部; Ben's shot drops it; カイシャク.
        self.begin("aki", "ben", "boss")
        self.to_phase("boss", "attack")
        self.attack("gm", [{"target": "aki", "faces": [6, 6, 1, 1, 1, 1, 1]}], base_damage=6)
        # 体力 5 − 6: ニンジャ耐久力の発露 — 精神力 2 → 1 takes the 1 below 0; 気絶 at 体力 0.
        self.evade("seat:1", "aki", self.damages(), [1, 2])
        self.do("gm", "roll_table", table="satsubatsu", faces=[4])
        self.do("gm", "injure", character="aki", part="頭部")
        self.do("gm", "adjust", character="aki", changes={"neuron": -1}, reason="サツバツ! 頭部")
        self.to_phase("ben", "attack")
        self.attack(
            "seat:2",
            [{"target": "boss", "faces": [6, 1, 1, 1, 1, 1]}],
            kind="ranged",
            base_damage=3,
        )
        self.evade("gm", "boss", self.damages(), [1])  # 体力 3 − 3: 気絶
        self.advance()
        self.to_phase("ben", "attack")  # the next turn
        self.do("seat:2", "kaishaku", target="boss")
        self.do("seat:2", "instant_death", attacker="ben", target="boss")
        self.do("gm", "drop", character="boss", amount=5, reason="ブラックマンバの懐")
        self.do("gm", "end_combat")  # Aki (気絶, 精神力 2) revives at 体力 1
        self.do("gm", "end_scenario")
        # 評価 and 余暇.
        self.do("gm", "split_pool", shares={"aki": 4, "ben": 3})
        self.stage("余暇")
        grow = {"kind": "成長", "changes": {"karate": 1, "manzatsu": -3}, "reason": "カラテ特訓"}
        self.do("seat:1", "change_sheet", character="aki", change=grow)
        buy = {
            "kind": "購入",
            "changes": {"manzatsu": -2},
            "add_weapons": [{"name": "チャカガン", "rensha": 1}],
            "reason": "闇市",
        }
        self.do("seat:2", "change_sheet", character="ben", change=buy)

    # ------------------------------------------------------------------ シナリオ2

    def scenario_2(self) -> None:
        self.stage("ダンゴウ")
        self.stage("本編")
        # Aki carries ●部位損傷:頭部 in: +1 on every 判定 (HARD here).
        self.do("seat:1", "check", character="aki", stat="カラテ", faces=[5, 1, 1, 1, 1, 1])
        mobs = ["y1", "y2", "y3"]
        for mob in mobs:
            self.do("gm", "add_character", id=mob, name="ヨタモノ", kind="mob", sheet=SQUAD)
        self.begin("aki", "ben", *mobs, enemy_tie_order=mobs)
        self.to_phase("ben", "attack")
        self.attack("seat:2", [{"target": "y1", "faces": [4, 1, 1, 1, 1, 1]}], kind="ranged")
        self.do("gm", "drop", character="y1")
        self.to_phase("aki", "attack")
        # Aki's 弾き飛ばし sends Ben's target into a wall — here the GM's ruling on a ヨタモノ:
        # the collision's 1 damage, 『回避:NORMAL』 (a mob takes it at once).
        self.do("gm", "hazard", target="y2", source="collision", text="弾き飛ばしで壁に激突")
        self.do("gm", "drop", character="y2")
        # The last ヨタモノ's attack succeeds without dice (L16); Aki evades with HARD (●部位損傷)
        # and counters: 2 successes > its 1.
        self.to_phase("y3", "attack")
        self.attack("gm", [{"target": "aki"}], auto_success=True)
        self.evade("seat:1", "aki", self.damages(), [5, 6])
        self.do("seat:1", "counter_karate", character="aki", target="y3")
        self.do("gm", "drop", character="y3")
        self.do("gm", "end_combat")
        self.do("gm", "end_scenario")
        self.do("gm", "split_pool", shares={"aki": 2, "ben": 1})
        self.stage("余暇")
        self.do("gm", "treat", character="aki", part="頭部")

    def run(self) -> None:
        self.setup()
        self.scenario_1()
        self.scenario_2()
