"""The scripted encounter: アキ, ベン and チカ against the boss ガルムス and two ザコメカ over four
rounds, through HTTP, with every face given (manual dice) so the game is the same every time.

It uses every limit of the action economy and the refusals they imply, a critical hit with
maximised dice, area attacks with one damage roll, a delay, save-ends conditions, a voided
reaction, an opportunity attack that knocks its trigger's maker out, a death-save sequence to
修理不能, and 半壊. samples/mech-d20-encounter.jsonl is this game, ended and exported
(tests/rulesets/mech_d20/make_sample.py).
"""

from __future__ import annotations

from typing import Any

from tests.table import Table

from . import sheets

NS = "mech_d20."
SEATS = ("seat:1", "seat:2", "seat:3")
AUDIENCES = ("public", *SEATS)
SABER, RIFLE = "ビームサーベル", "ビームライフル"


class Script:
    """`variant` picks the NPCs' sealed numbers (0 or 1); `watch` records every byte the seats
    and the public receive (command responses, refusals, views and events after each step)."""

    def __init__(self, table: Table, variant: int = 0, watch: bool = False) -> None:
        self.t = table
        self.variant = variant
        self.watch = watch
        self.seen: list[tuple[str, str, bytes]] = []  # (audience, what, body)
        self.refusals: list[str] = []
        self.boss_seq = 0

    # ---------------------------------------------------------------------------- driving

    def do(self, actor: str, command: str, **body: Any) -> list[dict[str, Any]]:
        before = self._head()
        response = self.t.send(actor, {"type": NS + command, **body})
        assert response.status_code == 201, (command, response.text)
        self._saw(actor, command, response.content, before)
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    def refuse(self, actor: str, command: str, code: str, **body: Any) -> dict[str, Any]:
        """A refusal: problem+json with `code`, and not one byte appended to the log."""
        log = self.t.log_bytes()
        response = self.t.send(actor, {"type": NS + command, **body})
        assert response.status_code in (400, 403, 404, 409, 422), (command, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        problem: dict[str, Any] = response.json()
        assert problem["code"] == code, (command, problem)
        assert self.t.log_bytes() == log, "a refusal appended to the log"
        self.refusals.append(code)
        if self.watch and actor != "gm":
            self.seen.append((actor, f"refused {command}", response.content))
        return problem

    def _head(self) -> int:
        return len(self.t.events("gm")) if self.watch else 0

    def _saw(self, actor: str, command: str, body: bytes, before: int) -> None:
        if not self.watch:
            return
        if actor != "gm":
            self.seen.append((actor, command, body))
        game = self.t.game_id
        for audience in AUDIENCES:
            headers = self.t.auth(audience)
            for part, params in (("events", {"after": before}), ("view", {})):
                got = self.t.client.get(f"/games/{game}/{part}", params=params, headers=headers)
                assert got.status_code == 200, got.text
                self.seen.append((audience, f"{command}: {part}", got.content))

    def seq(self, events: list[dict[str, Any]], kind: str) -> int:
        return next(e["seq"] for e in events if e["type"] == NS + kind)

    def rules(self, actor: str = "gm") -> dict[str, Any]:
        response = self.t.client.get(f"/games/{self.t.game_id}/view", headers=self.t.auth(actor))
        assert response.status_code == 200, response.text
        rules: dict[str, Any] = response.json()["rules"]
        return rules

    def unit(self, uid: str, actor: str = "gm") -> dict[str, Any]:
        found: dict[str, Any] = self.rules(actor)["units"][uid]
        return found

    def attack(
        self, actor: str, faces: list[int], damage: list[int] | None = None, **crit: Any
    ) -> list[dict[str, Any]]:
        events = self.do(actor, "attack_roll", faces=faces)
        if damage is not None or crit:
            events += self.do(actor, "damage_roll", faces=damage, **crit)
        return events

    # ---------------------------------------------------------------------------- the game

    def run(self) -> None:
        self.setup()
        self.round_1()
        self.round_2()
        self.round_3()
        self.round_4()

    def finish(self) -> None:
        self.do("gm", "end_encounter")
        self.t.do("gm", {"type": "end", "summary": "ガルムス撤退、チカ機は修理不能"})

    def setup(self) -> None:
        for seat in (1, 2, 3):
            self.t.join(seat)
        self.t.do("gm", {"type": "start"})
        self.do("seat:1", "add_unit", id="aki", name="グレイブ(アキ)", sheet=sheets.AKI)
        self.do("seat:2", "add_unit", id="ben", name="ロングボウ(ベン)", sheet=sheets.BEN)
        self.do("seat:3", "add_unit", id="chika", name="アイアンウォール(チカ)", sheet=sheets.CHIKA)
        boss = self.do(
            "gm",
            "add_unit",
            id="boss",
            name="ガルムス",
            kind="npc",
            sheet=sheets.boss(self.variant),
        )
        self.boss_seq = boss[0]["seq"]
        for uid in ("m1", "m2"):
            self.do(
                "gm",
                "add_unit",
                id=uid,
                name=f"ザコメカ{uid[1]}",
                kind="npc",
                sheet=sheets.minion(uid, self.variant),
            )
        self.do("gm", "award_hero_point", seat=1, reason="得意: 近接戦闘")
        self.refuse("gm", "award_hero_point", "hero_point_full", seat=1)
        self.do("gm", "award_hero_point", seat=2, reason="苦手: 機械音痴")
        self.do(
            "gm",
            "begin_encounter",
            participants=["aki", "boss", "ben", "m1", "m2", "chika"],
            tie_order=["m1", "m2"],
            faces={"aki": [14], "boss": [10], "ben": [8], "m1": [10], "m2": [10], "chika": [4]},
        )

    def round_1(self) -> None:
        # アキ: a 精神コマンド, a move, then 斬鉄剣 — a natural 20.
        self.do("seat:1", "start_turn")
        self.do("seat:1", "use_power", unit="aki", power="集中")
        self.refuse("seat:1", "use_power", "spirit_command_used", unit="aki", power="熱血")
        self.do("seat:1", "move", unit="aki", kind="通常移動", text="ガルムスに隣接")
        self.do(
            "seat:1", "use_power", unit="aki", power="斬鉄剣", targets=["boss"], extra_dice=["1d6"]
        )
        self.attack("seat:1", [20], crit_faces=[4])
        self.do("seat:1", "end_turn")

        # ガルムス (幻惑: one action) claws チカ, who readies a カウンター; the crit drops her.
        self.do("gm", "start_turn")
        claw = self.do(
            "gm",
            "use_power",
            unit="boss",
            power="クローラッシュ",
            targets=["chika"],
            weapon="ヒートクロー",
        )
        self.do(
            "seat:3",
            "use_power",
            unit="chika",
            power="カウンター",
            targets=["boss"],
            trigger=self.seq(claw, "PowerUsed"),
        )
        self.attack("gm", [20], crit_faces=[5])
        self.refuse("gm", "move", "no_actions_left", unit="boss", kind="シフト")
        self.do("gm", "end_turn", faces=[6])  # the save against 幻惑 fails

        # ベン: two [モード] (the second paid with the move action), then the area attack.
        self.do("seat:2", "start_turn")
        self.do("seat:2", "use_power", unit="ben", power="高機動形態")
        self.do("seat:2", "use_power", unit="ben", power="砲撃形態")
        beam = self.do(
            "seat:2",
            "use_power",
            unit="ben",
            power="拡散ビーム砲",
            targets=["boss", "m1", "m2"],
            weapon=RIFLE,
        )
        trigger = self.seq(beam, "PowerUsed")
        self.refuse("gm", "opportunity_attack", "cannot_act_off_turn", unit="boss", trigger=trigger)
        self.do("gm", "opportunity_attack", unit="m1", trigger=trigger)
        self.attack("gm", [5])
        self.refuse(
            "gm", "opportunity_attack", "opportunity_action_used", unit="m1", trigger=trigger
        )
        self.attack("seat:2", [15, 12, 3], damage=[7])
        self.do("seat:2", "end_turn")

        # ザコメカ1 shoots アキ; her opportunity attack destroys it before the shot.
        self.do("gm", "start_turn")
        shot = self.do("gm", "use_power", unit="m1", power="遠隔基礎攻撃", targets=["aki"])
        self.do("seat:1", "opportunity_attack", unit="aki", trigger=self.seq(shot, "PowerUsed"))
        self.attack("seat:1", [11], damage=[8])
        self.do("gm", "end_turn")

        # ザコメカ2 strikes ベン, whose interrupt turns the hit into a miss.
        self.do("gm", "start_turn")
        strike = self.do("gm", "use_power", unit="m2", power="近接基礎攻撃", targets=["ben"])
        strike_seq = self.seq(strike, "PowerUsed")
        self.do("seat:2", "use_power", unit="ben", power="緊急回避", trigger=strike_seq)
        self.attack("gm", [14])
        self.refuse(
            "seat:2",
            "use_power",
            "immediate_action_used",
            unit="ben",
            power="牽制射撃",
            targets=["m2"],
            weapon=RIFLE,
            trigger=strike_seq,
        )
        self.do("gm", "end_turn")

        # チカ is 戦闘不能: her first death save fails.
        self.do("seat:3", "start_turn", faces=[7])
        self.do("seat:3", "end_turn")

    def round_2(self) -> None:
        self.do("seat:1", "start_turn")
        self.refuse(
            "seat:1",
            "use_power",
            "encounter_power_used",
            unit="aki",
            power="斬鉄剣",
            targets=["boss"],
        )
        self.do("seat:1", "charge", unit="aki", targets=["boss"])
        self.attack("seat:1", [9], damage=[6])
        self.refuse("seat:1", "move", "turn_over_after_charge", unit="aki", kind="シフト")
        self.do("seat:1", "end_turn")

        self.do("gm", "start_turn")
        self.do("gm", "use_power", unit="boss", power="メガ粒子砲", targets=["aki", "ben"])
        self.attack("gm", [13, 11], damage=[3, 4])
        self.do("gm", "end_turn", faces=[12])  # 幻惑 ends

        self.do("seat:2", "delay", value=12)  # takes its ongoing damage now (L168)

        self.do("gm", "start_turn")
        self.do("gm", "use_power", unit="m2", power="スタンショット", targets=["aki"])
        self.attack("gm", [15])
        self.do("gm", "end_turn")

        self.do("seat:2", "start_turn")  # the delayed turn: no ongoing damage again
        self.do(
            "seat:2",
            "use_power",
            unit="ben",
            power="ビームマシンガン",
            targets=["boss"],
            weapon=RIFLE,
        )
        self.attack("seat:2", [17], damage=[3])
        self.refuse(
            "seat:2",
            "use_power",
            "free_attack_used",
            unit="ben",
            power="ビームマシンガン",
            targets=["boss"],
            weapon=RIFLE,
        )
        self.do(
            "seat:2", "use_power", unit="ben", power="遠隔基礎攻撃", targets=["m2"], weapon=RIFLE
        )
        self.attack("seat:2", [16], damage=[10])
        self.do("seat:2", "end_turn", faces=[10])  # 継続的ダメージ ends

        self.do("seat:3", "start_turn", faces=[15])  # a success does not count
        self.do("seat:3", "end_turn")

    def round_3(self) -> None:
        self.do("seat:1", "start_turn")  # 朦朧: no action but the hero point's
        self.refuse(
            "seat:1",
            "use_power",
            "no_actions_left",
            unit="aki",
            power="近接基礎攻撃",
            targets=["boss"],
        )
        self.do("seat:1", "hero_action", unit="aki")
        self.do("seat:1", "use_power", unit="aki", power="近接基礎攻撃", targets=["boss"])
        self.attack("seat:1", [13], damage=[8])  # ガルムス 半壊
        self.do("seat:1", "end_turn", faces=[4, 15])  # ongoing stays, 朦朧 ends

        self.do("gm", "start_turn")
        self.do("gm", "use_power", unit="boss", power="マインドジャック", targets=["ben"])
        self.attack("gm", [12])
        self.do("gm", "end_turn")

        self.refuse("seat:2", "start_turn", "dominated")
        self.do("gm", "start_turn")
        self.refuse("seat:2", "hero_action", "dominated_no_hero_action", unit="ben")
        self.refuse(
            "gm",
            "use_power",
            "dominated_limited_power",
            unit="ben",
            power="スナイプ",
            targets=["aki"],
            weapon=RIFLE,
        )
        self.do("gm", "use_power", unit="ben", power="近接基礎攻撃", targets=["aki"], weapon=SABER)
        self.attack("gm", [3])
        self.refuse("gm", "move", "no_actions_left", unit="ben", kind="シフト")
        self.do("gm", "end_turn", faces=[14])  # 支配 ends
        self.do("seat:2", "give_hero_point", seat=1)

        self.do("seat:3", "start_turn", faces=[2])
        self.do("seat:3", "end_turn")

    def round_4(self) -> None:
        self.do("seat:1", "start_turn")
        self.refuse("seat:1", "hero_action", "hero_point_spent_today", unit="aki")
        self.do("seat:1", "total_defence", unit="aki")
        self.do("seat:1", "end_turn", faces=[16])

        self.do("gm", "start_turn")
        self.do(
            "gm",
            "use_power",
            unit="boss",
            power="クローラッシュ",
            targets=["aki"],
            weapon="ヒートクロー",
        )
        self.attack("gm", [8])  # 19 would hit AC 19; 防御専念 makes it 22
        self.do("gm", "end_turn")

        self.do("seat:2", "start_turn")
        self.do("seat:2", "end_turn")

        self.do("seat:3", "start_turn", faces=[4])  # the third failure: 修理不能
        self.do("seat:3", "end_turn")
