"""6.2 障害に対する幻覚: which obstacles a 幻覚 works on, and where it may be used at all.

l.1312–1318: 「障害には幻覚の効果を受けるものと幻覚の効果を受けないものの2つに分けられます。
幻覚の効果を受ける障害は幻覚の抵抗チェックを行えません。必ず幻覚の効果を受けます。幻覚の効果を
受けない場合、マスやチャートに“幻覚の効果を受けない”と記載されています。幻覚の効果を受けない障害の
攻撃に対しては幻覚を使用できません。また、自分以外の全ての戦闘参加者が幻覚の効果を受けない障害の
みの場合、主要フェイズで幻覚を使用することもできません。」

A 幻覚 is a C-card the catalog marks `illusion`; an obstacle whose text says it is unaffected
joins with `illusion_immune` (add_obstacle). What the 幻覚 does is its card's text (the
table's); Kiroku refuses the uses the seed forbids and records that an affected obstacle takes
the effect without a resistance check (`IllusionTook`, ruling CL-087).
"""

from __future__ import annotations

from typing import Literal

from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import CombatCard
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.state import Attack, Fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, named


def immune(someone: Fighter) -> bool:
    """l.1315: an obstacle 「“幻覚の効果を受けない”と記載されています」."""
    return someone.kind == "obstacle" and someone.illusion_immune


def target_of(state: ChojinState, me: int, number: int) -> Fighter:
    """The fighter a 幻覚 used as a main action is aimed at, as its text asks: another fighter
    in the combat (a 残留思念 is no target, 6.1 l.1189)."""
    assert state.combat is not None
    someone = state.combat.fighters.get(number)
    if someone is not None and someone.kind == "remnant":
        raise RuleViolation(
            "remnant_not_a_target",
            "A 残留思念 cannot be chosen as the target of an action but 接触テレパス or ゲート "
            "(6.1 l.1189).",
        )
    playing = {f.id: f for f in in_play(state) if f.id != me}
    if number not in playing:
        ids = ", ".join(str(n) for n in playing)
        raise RuleViolation(
            "bad_target", "Aim it at another fighter in this combat ({ids}).", params={"ids": ids}
        )
    return playing[number]


def check_main(state: ChojinState, me: int, card: CombatCard, target: Fighter | None) -> None:
    """A 幻覚 used in the main phase (l.1317–1318): not when every other participant is an
    unaffected obstacle; never at an unaffected obstacle (l.1315–1316, ruling CL-087)."""
    if not card.illusion:
        return
    others = [f for f in in_play(state) if f.id != me]
    if others and all(immune(f) for f in others):
        raise RuleViolation(
            "illusion_no_effect",
            "Every other fighter is an obstacle 幻覚 does not affect: no 幻覚 in the main phase "
            "(6.2 l.1317–1318).",
        )
    if target is not None and immune(target):
        raise RuleViolation(
            "illusion_immune",
            "{target} is not affected by 幻覚 (6.2 l.1315).",
            params={"target": target.name},
        )


def check_response(state: ChojinState, attack: Attack, card: CombatCard) -> None:
    """l.1316: 「幻覚の効果を受けない障害の攻撃に対しては幻覚を使用できません。」"""
    assert state.combat is not None
    attacker = state.combat.fighters[attack.attacker]
    if card.illusion and immune(attacker):
        raise RuleViolation(
            "illusion_immune",
            "{attacker} is not affected by 幻覚: no 幻覚 against its attack (6.2 l.1316).",
            params={"attacker": attacker.name},
        )


@CHOJIN_LOCKE.event
class IllusionTook(Event):
    """l.1314: 「幻覚の効果を受ける障害は幻覚の抵抗チェックを行えません。必ず幻覚の効果を受け
    ます。」 — `obstacle` takes the effect of `fighter`'s 幻覚 `card` (used as its main action, or
    against the obstacle's attack), with no resistance check; the effect is the card's text."""

    fighter: int
    obstacle: int
    card: str
    use: Literal["main", "response"]


@CHOJIN_LOCKE.folds(IllusionTook)
def _took(state: ChojinState, event: IllusionTook, seq: int) -> ChojinState:
    return state  # the effect is the card's text, the table's


@CHOJIN_LOCKE.says_named(IllusionTook)
def _illusion_took_line(e: IllusionTook, names: Names) -> Message:
    said = {
        "obstacle": fighter_words(e.obstacle, names),
        "fighter": fighter_words(e.fighter, names),
        "card": named(e.card),
    }
    if e.use == "response":
        return Message(
            N_(
                "{obstacle}の攻撃に対する{fighter}の幻覚「{card}」: 障害は抵抗チェックを行えず、"
                "効果を受ける"
            ),
            said,
        )
    return Message(
        N_("{obstacle}への{fighter}の幻覚「{card}」: 障害は抵抗チェックを行えず、効果を受ける"),
        said,
    )


def took(
    state: ChojinState,
    fighter: int,
    card: CombatCard,
    on: int | None,
    use: Literal["main", "response"],
) -> list[Draft]:
    """A successful 幻覚 by `fighter` on fighter `on`: an affected obstacle takes it."""
    if not card.illusion or on is None or state.combat is None:
        return []
    someone = state.combat.fighters.get(on)
    if someone is None or someone.kind != "obstacle" or immune(someone):
        return []
    return [Draft(IllusionTook(fighter=fighter, obstacle=on, card=card.name, use=use))]
