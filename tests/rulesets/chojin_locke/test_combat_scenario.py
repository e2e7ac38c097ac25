"""A combat of three over two rounds, told as the table plays it (issue #20's "show it works",
on a state built directly until the flow's start_combat lands; the rounds' turns are handed
out as combat_next would): an attack with a 同調, a defence, a failed activation needing
willpower checks, spent power lowering the ESP level, a 格闘 exchange with a death, and an
escape — then the audit of every declaration."""

from __future__ import annotations

from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, CardActivated
from domain.rulesets.chojin_locke.combat.death import DeathWindowOpened, FighterDied
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnBegun, CombatTurnEnded
from domain.rulesets.chojin_locke.combat.initiative import in_play
from tests.rulesets.chojin_locke.combat_domain import audit_of, fight, refused
from tests.rulesets.chojin_locke.lines import described

ROCK, NIA, COUGAR = "seat:1", "seat:2", "seat:3"


def test_three_fighters_two_rounds() -> None:
    f = fight(
        {
            1: ["ビームキャノン", "ハイテレポート"],
            2: ["ショックウェーブ", "バリアー"],
            3: ["シールド", "サイコブラスト", "ビームキャノン"],
        },
        faces=[
            *(1, 1, 1, 2),  # シールド's two willpower checks
            *(1, 1, 1, 1, 6, 6),  # サイコブラスト's three, the last failing
            *(1, 1, 6, 6),  # the 格闘: ニア's roll, クーガー's counter
            *(1, 1, 1, 1, 1, 1),  # ビームキャノン at ESP level 0: three checks
        ],
    )
    # round 1 — ロック attacks 戦士クーガー; ニア joins by 同調; クーガー's シールド holds
    f.do(ROCK, "play_card", card="ビームキャノン", kind="攻撃", target=3, esp_level=3)
    f.do(NIA, "sync", card="ショックウェーブ", esp_level=1)
    attack = f.combat.attack
    assert attack is not None and (attack.lv, attack.firepower) == (4, 9)
    events = f.do(COUGAR, "respond", card="シールド", kind="防御", esp_level=3, willpower=3)
    assert isinstance(events[-1], AttackLanded) and events[-1].outcome == "blocked"
    # ニア joined, so its turn is check-only; クーガー's サイコブラスト misfires on a check
    f.turn_of(3)
    (misfire,) = f.do(
        COUGAR,
        "play_card",
        card="サイコブラスト",
        kind="攻撃",
        target=1,
        esp_level=2,
        willpower=3,
    )
    assert isinstance(misfire, CardActivated) and not misfire.success and len(misfire.rolls) == 3
    assert f.combat.attacked  # a misfire is an attack action (5.4 l.1043–1045)
    # round 2 — every fighter's turn is its own again
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(
                update={
                    "round": 2,
                    "fighters": {
                        n: x.model_copy(update={"acted": False})
                        for n, x in f.combat.fighters.items()
                    },
                }
            )
        }
    )
    # ニア fights クーガー hand to hand, and dies of the counter
    f.turn_of(2)
    f.do(NIA, "melee", target=3, endurance=3)
    f.do(COUGAR, "respond")
    events = f.do(COUGAR, "counter", endurance=5, shift=1)
    died, window = events[-2:]
    assert isinstance(died, FighterDied) and died.fighter == 2
    assert f.state.players[2].condition == "dead" and 2 not in [x.id for x in in_play(f.state)]
    # its [死亡時] window (3.1 l.284–285): it uses none
    assert isinstance(window, DeathWindowOpened) and window.seats == (2,)
    refused(f, COUGAR, "combat_next", "death_pending")
    ended, begun = f.do(NIA, "death_ability")[-2:]
    # its combat turn ends with it; the next fighter's begins (the flow's next_turn)
    assert isinstance(ended, CombatTurnEnded) and isinstance(begun, CombatTurnBegun)
    assert f.combat.current == 3
    # クーガー has spent 10 of its 8 power: its ESP level reads 0 now
    f.turn_of(3)
    refused(
        f,
        COUGAR,
        "play_card",
        "declaration_too_high",
        card="ビームキャノン",
        kind="攻撃",
        target=1,
        esp_level=1,
        willpower=3,
    )
    f.do(
        COUGAR, "play_card", card="ビームキャノン", kind="攻撃", target=1, esp_level=0, willpower=3
    )
    events = f.do(ROCK, "respond", card="ハイテレポート", kind="逃避", esp_level=4)
    assert isinstance(events[-1], AttackLanded) and events[-1].outcome == "evaded"
    assert f.combat.fighters[1].left
    # every event reads as a line; the audit lists every declaration beside the truth
    for event, _audience in f.events:
        line = described(event.type, event.public_part(), None)
        assert line is not None and "{" not in line[1]
    rows = [(c.what, c.declared, c.truth, c.verdict) for c in audit_of(f)]
    assert rows == [
        ("ビームキャノン使用: ESP能力レベル", 3, 6, "understated"),
        ("ショックウェーブで同調: ESP能力レベル", 1, 4, "understated"),
        ("シールドで対抗: ESP能力レベル", 3, 3, "legal"),
        ("シールドで対抗: 精神力", 3, 3, "legal"),
        ("サイコブラスト使用: ESP能力レベル", 2, 3, "understated"),
        ("サイコブラスト使用: 精神力", 3, 3, "legal"),
        ("格闘: 耐久力", 3, 3, "legal"),
        ("格闘: [格闘:X]", 0, 0, "legal"),
        ("格闘: 耐久力", 5, 5, "legal"),
        ("格闘: [格闘:X]", 1, 1, "legal"),
        ("ビームキャノン使用: ESP能力レベル", 0, 0, "legal"),
        ("ビームキャノン使用: 精神力", 3, 3, "legal"),
        ("ハイテレポートで対抗: ESP能力レベル", 4, 6, "understated"),
    ]
