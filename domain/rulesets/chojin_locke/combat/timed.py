"""A special ability of the sheet, or an ability card from hand, used at one of combat's own
timings — [対抗(攻撃)] against an attack (combat/counter.py), [死亡時] at a death
(combat/death.py), [主要]/[先制] as a combat turn's main action (combat/main_ability.py).

3.1 l.254: 「基本的に能力を使用する際には能力名を宣言する必要があります。」 — an ability with such
a timing is named aloud (only [全般]/[通常]/[戦闘]-only ones, and [手下:X]/[スーツ:X]/[代理:X],
go unnamed, and those have their own commands). 4.7 l.841, 844: 「能力カードも特殊能力と同様に
特性を持ち、使用するタイミングやルールは特殊能力に準拠します。…能力カードを使用する場合、使用する
時に能力カードを表向きにする必要があります。」 3.1 l.260: 「[通常]は通常ターンのみ、[戦闘]は
戦闘中のみ、[全般]はその両方で使用できることを表しています。」 — a [通常] one is not used in
combat.

Whether the sheet has the ability, or the hand the card, is the user's secret: a refusal goes to
its maker alone (the server's RuleViolation answers only the caller) and nothing is appended.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypedDict

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.abilities import kind
from domain.rulesets.chojin_locke.state import ChojinState, Player

# an ability's LV is part of its printed name (6.1 l.1252: 「ESPジャマーLV:X[戦闘]…」)
LEVEL = re.compile(r"LV[:：]?\s*(\d+)")


class Naming(TypedDict):
    """The fields an ability-use event names what was used by (CounterAbilityUsed,
    DeathAbilityUsed, MainAbilityUsed)."""

    ability: str | None
    card: str | None
    tags: tuple[str, ...]
    text: str
    effect: str


@dataclass(frozen=True)
class Used:
    """What is used: its name (public once used), its tags, and whether it is an ability card
    (turned face up) rather than an ability of the sheet."""

    name: str
    tags: tuple[str, ...]
    card: bool = False
    text: str = ""

    def naming(self, effect: str) -> Naming:
        """Its event's fields: the ability's name, or the card's and its text; `effect` as
        declared."""
        return Naming(
            ability=None if self.card else self.name,
            card=self.name if self.card else None,
            tags=self.tags,
            text=self.text,
            effect=effect.strip(),
        )

    def level(self) -> int | None:
        """The LV printed in its name or a tag (「…LV:3」), if any."""
        for source in (self.name, *self.tags):
            found = LEVEL.search(source)
            if found:
                return int(found.group(1))
        return None


def _in_combat(used: Used) -> None:
    tags = set(used.tags)
    if "通常" in tags and not ({"全般", "戦闘"} & tags):
        raise RuleViolation(
            "not_in_combat",
            "「{used}」 is [通常]: it is not used in combat (3.1 l.260).",
            params={"used": used.name},
        )


def _named(name: str, tags: tuple[str, ...]) -> None:
    """The ones used without their name have their own commands (ruling CL-031)."""
    if "常動" in tags:
        raise RuleViolation("always_on", "That ability is always on; it is not used.")
    if kind(tags, "スーツ"):
        raise RuleViolation(
            "suit_not_declared",
            "A [スーツ] is used by declaring its endurance when damage comes, without saying so.",
        )
    if kind(tags, "代理"):
        raise RuleViolation("use_proxy", "A [代理] is used by saying only that: use_proxy.")
    if kind(tags, "手下"):
        raise RuleViolation(
            "declare_minions", "Minions are declared by their number (declare_minions)."
        )


def chosen(
    state: ChojinState,
    someone: Player,
    ability: str | None,
    card: str | None,
    timing: str,
    *others: str,
) -> Used:
    """`ability` of `someone`'s sheet, or ability `card` from its hand (face down), with the
    `timing` tag ([対抗(攻撃)], [死亡時]) or one of `others` ([主要] or [先制]), and usable in
    combat."""
    timings = {timing, *others}
    said = "/".join(f"[{t}]" for t in (timing, *others))
    if (ability is None) == (card is None):
        raise RuleViolation(
            "ability_or_card", "Name one ability of your sheet (ability) or one card (card)."
        )
    if ability is not None:
        assert someone.sheet is not None
        mine = next((a for a in someone.sheet.abilities if a.name == ability), None)
        if mine is None:
            names = ", ".join(a.name for a in someone.sheet.abilities) or "none"
            raise RuleViolation(
                "no_such_ability",
                "Your character has no ability by that name (yours: {names}).",
                params={"names": names},
            )
        if not timings & set(mine.tags):
            raise RuleViolation(
                "wrong_timing",
                "「{mine}」 is not a {said} ability.",
                params={"mine": mine.name, "said": said},
            )
        _named(mine.name, mine.tags)
        used = Used(name=mine.name, tags=mine.tags)
    else:
        assert card is not None
        if card not in someone.abilities:
            held = ", ".join(dict.fromkeys(someone.abilities)) or "none"
            raise RuleViolation(
                "not_in_hand",
                "You hold no such ability card (yours: {held}).",
                params={"held": held},
            )
        if someone.abilities.count(card) <= someone.face_up.count(card):
            raise RuleViolation(
                "card_face_up", "That card is already face up: it is used by turning it face up."
            )
        printed = state.catalog.ability_card(card)
        tags = printed.tags if printed is not None else ()
        if not timings & set(tags):
            raise RuleViolation(
                "wrong_timing",
                "「{card}」 is not a {said} card.",
                params={"card": card, "said": said},
            )
        _named(card, tags)
        used = Used(name=card, tags=tags, card=True, text=printed.text if printed else "")
    _in_combat(used)
    return used
