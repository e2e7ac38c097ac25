"""5.1 (3) 戦闘前フェイズ (l.904–907): 「新たに戦闘に参加するキャラクターは[戦闘前]と書かれた
能力を使用できます。[戦闘前]の能力を持っていなくても「謎の特殊能力」と宣言することでこのタイミングで
1D6を振ることができます。その場合、当然ですが特に効果はありません。」, and the [手下:X] count
(3.1 l.319–329: 「[手下:X]は基本的に[戦闘前]のタイミングで使用します。使用する際に能力名は宣言せず、
代わりに手下の人数のみ宣言します。宣言した場合、手下の人数分だけ手札上限枚数が増加します。」).

Both are for a character that joins the combat this round (its fighter's `joined_round`), once
each per combat. A refusal that depends on the sheet goes to its maker alone and tells nothing
the maker does not know.
"""

from __future__ import annotations

import re

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import Ability
from domain.rulesets.chojin_locke.combat.before_events import (
    BeforeAbilityUsed,
    BeforeBody,
    MinionBody,
    MinionsDeclared,
    MysteryAbilityRolled,
    MysteryBody,
)
from domain.rulesets.chojin_locke.combat.joining import combat_step
from domain.rulesets.chojin_locke.combat.state import Combat, Fighter
from domain.rulesets.chojin_locke.fields import Faces
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player

MINIONS = re.compile(r"^手下:(\d+)$")
MAX_MINIONS = 20


def _newcomer(t: ChojinTable, actor: str) -> tuple[ChojinState, Combat, Fighter, Player]:
    """The acting seat's character, new to the combat this round, in 戦闘前フェイズ."""
    number = t.seat_of(actor)
    state = playing(t)
    fight = combat_step(state, "before")
    one = fight.fighters.get(number)
    if one is None or one.kind != "character" or one.left:
        raise RuleViolation("not_fighting", "Your character is not in this combat.")
    if one.joined_round != fight.round:
        raise RuleViolation(
            "not_new_to_combat",
            "[戦闘前] abilities are used by a character joining the combat this round.",
        )
    return state, fight, one, state.players[number]


def _unused(fight: Combat, one: Fighter, ability: str) -> None:
    if ability in fight.before_used.get(one.id, ()):
        raise RuleViolation(
            "ability_used", "That [戦闘前] ability has been used in this combat already."
        )


def minion_level(ability: Ability) -> int | None:
    """The X of a [手下:X] tag, if the ability has one."""
    for tag in ability.tags:
        match = MINIONS.match(tag)
        if match:
            return int(match.group(1))
    return None


@CHOJIN_LOCKE.command("mystery_ability")
class MysteryAbility(Command):
    """「謎の特殊能力」: roll 1D6 without naming an ability. `ability` (sealed to you) names the
    [戦闘前] ability of your sheet the roll is for; without it the roll has no effect."""

    ability: str | None = Field(default=None, min_length=1, max_length=60)
    faces: Faces = Field(default=None, max_length=1, description="A physical die, if allowed")


@CHOJIN_LOCKE.decides(MysteryAbility)
def mystery_ability(t: ChojinTable, command: MysteryAbility, actor: str) -> list[Draft]:
    _state, fight, one, player = _newcomer(t, actor)
    if one.id in fight.mystery:
        raise RuleViolation("mystery_used", "You have declared 謎の特殊能力 in this combat.")
    if command.ability is not None:
        assert player.sheet is not None
        mine = [a for a in player.sheet.abilities if "戦闘前" in a.tags]
        if not any(a.name == command.ability for a in mine):
            names = ", ".join(a.name for a in mine) or "none"
            raise RuleViolation(
                "no_such_ability",
                "Your character has no [戦闘前] ability by that name (yours: {names}).",
                params={"names": names},
            )
        _unused(fight, one, command.ability)
    rolled = t.dice.roll("1D6", command.faces)
    event = MysteryAbilityRolled(
        seat=one.id, roll=rolled.record, secret=MysteryBody(ability=command.ability)
    )
    return [Draft(event, audience=(seat_actor(one.id),))]


@CHOJIN_LOCKE.command("declare_minions")
class DeclareMinions(Command):
    """[手下:X]: declare how many minions join (not the ability's name). `ability` picks one of
    several [手下:X] abilities of your sheet (sealed to you); by default the first."""

    count: int = Field(ge=1, le=MAX_MINIONS)
    ability: str | None = Field(default=None, min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(DeclareMinions)
def declare_minions(t: ChojinTable, command: DeclareMinions, actor: str) -> list[Draft]:
    _state, fight, one, player = _newcomer(t, actor)
    if one.minions:
        raise RuleViolation("minions_declared", "You have declared your minions already.")
    assert player.sheet is not None
    leaders = [a for a in player.sheet.abilities if minion_level(a) is not None]
    if command.ability is not None:
        leaders = [a for a in leaders if a.name == command.ability]
    if not leaders:
        raise RuleViolation(
            "no_minions", "Your character has no such [手下:X] ability: no minions to declare."
        )
    ability = leaders[0]
    _unused(fight, one, ability.name)
    level = minion_level(ability)
    assert level is not None
    event = MinionsDeclared(
        seat=one.id, count=command.count, secret=MinionBody(ability=ability.name, level=level)
    )
    return [Draft(event, audience=(seat_actor(one.id),))]


@CHOJIN_LOCKE.command("before_ability")
class BeforeAbility(Command):
    """Use a [戦闘前] ability of your sheet on joining, without saying its name (sealed to you):
    `effect` declares what it does to others (3.1 l.282–283; leave it empty for an effect on
    yourself alone). A die-rolling one is 「謎の特殊能力」 (mystery_ability), minions are
    declare_minions."""

    ability: str = Field(min_length=1, max_length=60)
    effect: str = Field(default="", max_length=200)


@CHOJIN_LOCKE.decides(BeforeAbility)
def before_ability(t: ChojinTable, command: BeforeAbility, actor: str) -> list[Draft]:
    _state, fight, one, player = _newcomer(t, actor)
    assert player.sheet is not None
    mine = [a for a in player.sheet.abilities if "戦闘前" in a.tags]
    ability = next((a for a in mine if a.name == command.ability), None)
    if ability is None:
        names = ", ".join(a.name for a in mine) or "none"
        raise RuleViolation(
            "no_such_ability",
            "Your character has no [戦闘前] ability by that name (yours: {names}).",
            params={"names": names},
        )
    if minion_level(ability) is not None:
        raise RuleViolation(
            "declare_minions", "Minions are declared by their number (declare_minions)."
        )
    _unused(fight, one, ability.name)
    event = BeforeAbilityUsed(
        seat=one.id, effect=command.effect.strip(), secret=BeforeBody(ability=ability.name)
    )
    return [Draft(event, audience=(seat_actor(one.id),))]
