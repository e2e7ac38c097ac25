"""5.1 (3) 戦闘前フェイズ: 「謎の特殊能力」 (1D6; sealed which ability, or none) and the [手下:X]
count (the hand limit rises by it), through the real decider."""

from __future__ import annotations

import json

from domain.rulesets.chojin_locke.combat.before_events import (
    MinionsDeclared,
    MysteryAbilityRolled,
)
from domain.rulesets.chojin_locke.combat.state import Fighter
from tests.rulesets.chojin_locke.decided_combat import CombatGame


def _with_diver(game: CombatGame, joined_round: int = 1) -> None:
    """Seat 3 (ヘルダイバー, [戦闘前] 戦闘予知) in the combat too."""
    diver = Fighter(id=3, name="Seat 3", seat=3, joined_round=joined_round)
    game.set_combat(fighters={**game.combat.fighters, 3: diver})


def test_a_real_and_a_bluffed_mystery_ability_look_alike_to_the_table() -> None:
    game = CombatGame(step="before")
    _with_diver(game)
    (real,) = game.do("seat:3", "mystery_ability", ability="戦闘予知", faces=[5])
    (bluff,) = game.do("seat:1", "mystery_ability", faces=[2])
    assert isinstance(real, MysteryAbilityRolled) and isinstance(bluff, MysteryAbilityRolled)
    assert real.secret is not None and real.secret.ability == "戦闘予知"
    assert bluff.secret is not None and bluff.secret.ability is None
    real_record, bluff_record = game.records[-2:]
    assert real_record.envelope.sealed is not None and bluff_record.envelope.sealed is not None
    assert real_record.envelope.sealed.audience == ("seat:3",)
    assert bluff_record.envelope.sealed.audience == ("seat:1",)
    # the public parts differ only in seat and roll: same keys, no ability name
    assert set(real_record.envelope.public) == set(bluff_record.envelope.public)
    assert "戦闘予知" not in game.public_bytes()
    public, mine, other = game.lines("public"), game.lines("seat:3"), game.lines("seat:1")
    assert public[-2].startswith("席3: 謎の特殊能力 [") and "戦闘予知" not in " ".join(public)
    assert "(「戦闘予知」)" in mine[-2] and "戦闘予知" not in other[-2]
    assert "(効果なし)" in other[-1] and "効果なし" not in public[-1]
    assert game.combat.mystery == [3, 1]
    game.refused("seat:3", "mystery_ability", "mystery_used", faces=[1])


def test_a_mystery_ability_the_sheet_lacks_is_refused_without_a_trace() -> None:
    game = CombatGame(step="before")
    error = game.refused("seat:1", "mystery_ability", "no_such_ability", ability="戦闘予知")
    assert "戦闘予知" not in error.message.split("yours:")[1]  # lists only the caller's own
    assert list(game.combat.mystery) == []


def test_only_a_newcomer_in_the_before_step_rolls() -> None:
    game = CombatGame(step="before", round_=2)
    _with_diver(game, joined_round=2)
    game.refused("seat:1", "mystery_ability", "not_new_to_combat", faces=[1])
    game.refused("seat:2", "declare_minions", "not_new_to_combat", count=2)
    game.refused("seat:4", "mystery_ability", "not_fighting", faces=[1])
    game.do("seat:3", "mystery_ability", faces=[1])
    game.set_combat(step="hands")
    game.refused("seat:3", "declare_minions", "wrong_combat_step", count=1)


def test_minions_raise_the_hand_limit_and_keep_the_ability_sealed() -> None:
    game = CombatGame(step="before")
    (declared,) = game.do("seat:2", "declare_minions", count=3)
    assert isinstance(declared, MinionsDeclared) and declared.count == 3
    assert declared.secret is not None and declared.secret.level == 2
    assert declared.secret.ability == "近衛兵"
    record = game.records[-1]
    assert record.envelope.sealed is not None and record.envelope.sealed.audience == ("seat:2",)
    assert "近衛兵" not in json.dumps(record.envelope.public, ensure_ascii=False)
    fighter = game.combat.fighters[2]
    assert (fighter.minions, fighter.hand_limit, fighter.minion_level) == (3, 10, 2)
    assert game.lines("public")[-1] == "席2: 手下3人を宣言 — 手札上限+3"
    assert "近衛兵" in game.lines("seat:2")[-1]
    game.refused("seat:2", "declare_minions", "minions_declared", count=1)


def test_minions_without_a_minion_ability_are_refused() -> None:
    game = CombatGame(step="before")
    game.refused("seat:1", "declare_minions", "no_minions", count=2)
    game.refused("seat:2", "declare_minions", "no_minions", count=2, ability="指揮")
    assert game.combat.fighters[1].hand_limit == 7


def test_a_before_ability_is_used_unnamed_once_per_combat() -> None:
    game = CombatGame(step="before")
    _with_diver(game)
    (used,) = game.do("seat:3", "before_ability", ability="戦闘予知", effect="席1の手札上限-1")
    assert used.effect == "席1の手札上限-1" and used.secret.ability == "戦闘予知"
    record = game.records[-1]
    assert record.envelope.sealed is not None and record.envelope.sealed.audience == ("seat:3",)
    assert "戦闘予知" not in game.public_bytes()
    assert game.lines("public")[-1] == "席3: [戦闘前]の能力を使用: 席1の手札上限-1"
    assert game.lines("seat:3")[-1] == "席3: [戦闘前]の能力を使用 「戦闘予知」: 席1の手札上限-1"
    game.refused("seat:3", "before_ability", "ability_used", ability="戦闘予知")
    # the same ability cannot roll as 謎の特殊能力 either; a roll for nothing still can
    game.refused("seat:3", "mystery_ability", "ability_used", ability="戦闘予知", faces=[3])
    game.do("seat:3", "mystery_ability", faces=[3])


def test_minions_are_declared_by_number_not_as_a_before_ability() -> None:
    game = CombatGame(step="before")
    game.refused("seat:2", "before_ability", "declare_minions", ability="近衛兵")
    game.refused("seat:1", "before_ability", "no_such_ability", ability="超人")
    game.do("seat:2", "declare_minions", count=1)
    game.refused("seat:2", "mystery_ability", "ability_used", ability="近衛兵", faces=[4])
    assert game.combat.before_used == {2: ["近衛兵"]}
