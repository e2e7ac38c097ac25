"""Using a special ability of the sheet or an ability card from hand, timed by their tags."""

from __future__ import annotations

from pydantic import Field

from domain.audience import seat_actor
from domain.commands import Command
from domain.errors import RuleViolation
from domain.records import Draft
from domain.rulesets.chojin_locke.actions import must_pass
from domain.rulesets.chojin_locke.card_events import AbilityCardUsed, AbilityUsed, UnnamedAbility
from domain.rulesets.chojin_locke.cards import Ability
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.turn import in_phase, my_turn

# 3.1's timing tags (「能力を使用するタイミング」); [対抗(X)] is matched by its prefix
TIMINGS = frozenset({"全般", "通常", "戦闘", "主要", "支援", "先制", "戦闘前", "死亡時", "特殊"})
# 3.1, lines 261–262: 「能力を使用するタイミングに関する特性が[全般]・[通常]・[戦闘]のみの場合、
# その能力を使用する時に能力名を宣言せずに使用します。」
UNNAMED_TIMINGS = frozenset({"全般", "通常", "戦闘"})


def timings(tags: tuple[str, ...]) -> set[str]:
    return {tag for tag in tags if tag in TIMINGS or tag.startswith("対抗")}


def kind(tags: tuple[str, ...], prefix: str) -> bool:
    """Has the ability a `[prefix:X]` tag ([手下:X], [スーツ:X], [代理:X])?"""
    return any(tag.startswith(f"{prefix}:") for tag in tags)


def unnamed(ability: Ability) -> bool:
    """Used without saying its name: [全般]/[通常]/[戦闘] timing only (lines 261–262), [手下:X]
    (322–323: the number of minions is said instead), [スーツ:X] (358: its use is not even said),
    [代理:X] (373: only that a proxy is used)."""
    tags = ability.tags
    only = timings(tags)
    if only and only <= UNNAMED_TIMINGS:
        return True
    return any(kind(tags, prefix) for prefix in ("手下", "スーツ", "代理"))


@CHOJIN_LOCKE.command("use_ability")
class UseAbility(Command):
    """Use a special ability of your sheet (checked against the sealed sheet). One with a
    [主要]/[先制]/[支援] timing is named aloud; one whose timing is only [全般]/[通常]/[戦闘], or a
    [代理:X], is used without its name: the table hears that an ability was used, you alone
    (until the end) which."""

    ability: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(UseAbility)
def use_ability(t: ChojinTable, command: UseAbility, actor: str) -> list[Draft]:
    """3.1: an ability is named when used, unless its tags say otherwise. Naming one the sheet
    lacks is refused, and only the caller hears of it; [常動] abilities are always on and
    [戦闘]/[戦闘前] ones wait for combat."""
    state = playing(t)
    turn, player = my_turn(state, actor)
    assert player.sheet is not None
    ability = next((a for a in player.sheet.abilities if a.name == command.ability), None)
    if ability is None:
        names = ", ".join(a.name for a in player.sheet.abilities) or "none"
        raise RuleViolation(
            "no_such_ability",
            f"Your character has no ability by that name (yours: {names}).",
        )
    tags = ability.tags
    if "常動" in tags:
        raise RuleViolation("always_on", "That ability is always on; it is not used.")
    if kind(tags, "スーツ"):
        raise RuleViolation(
            "suit_not_declared",
            "A [スーツ] is used by declaring its endurance when damage comes, without saying so.",
        )
    if ("戦闘" in tags and not ({"全般", "通常"} & set(tags))) or "戦闘前" in tags:
        raise RuleViolation(
            "combat_only",
            "That ability is used in combat: a [戦闘前] one at a combat's 戦闘前 step "
            "(before_ability), a [戦闘] one there by the table's check or ruling.",
        )
    proxy = kind(tags, "代理")
    # 3.1, line 372: a [代理:X] without a timing is [先制] or [対抗(攻撃)]
    main = "主要" in tags or "先制" in tags or (proxy and not timings(tags))
    if main:
        in_phase(turn, "main")
        must_pass(turn)
        if turn.main is not None:
            raise RuleViolation("main_action_used", "This turn's main action is taken.")
    elif "支援" in tags:
        in_phase(turn, "support")
        if ability.name in turn.supported:
            raise RuleViolation("used_this_turn", "A [支援] ability is used once per turn.")
    if unnamed(ability):
        body = UnnamedAbility(ability=ability.name, tags=tags)
        event = AbilityUsed(seat=player.seat, main=main, proxy=proxy, secret=body)
        return [Draft(event, audience=(seat_actor(player.seat),))]
    event = AbilityUsed(seat=player.seat, ability=ability.name, tags=tags, main=main)
    return [Draft(event)]


@CHOJIN_LOCKE.command("use_ability_card")
class UseAbilityCard(Command):
    """Turn an ability card from your hand face up and use it (its effect is the table's)."""

    card: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(UseAbilityCard)
def use_card(t: ChojinTable, command: UseAbilityCard, actor: str) -> list[Draft]:
    state = playing(t)
    turn, player = my_turn(state, actor)
    if command.card not in player.abilities:
        held = ", ".join(dict.fromkeys(player.abilities)) or "none"
        raise RuleViolation("not_in_hand", f"You hold no such ability card (yours: {held}).")
    if player.abilities.count(command.card) <= player.face_up.count(command.card):
        # 4.7, lines 844–845: using a card turns it face up; it is turned face down again only
        # at the end of a combat its holder took part in (docs/rulings.md)
        raise RuleViolation(
            "card_face_up", "That card is already face up: it is used by turning it face up."
        )
    card = state.catalog.ability_card(command.card)
    tags = card.tags if card else ()
    if "戦闘" in tags:
        raise RuleViolation(
            "combat_only",
            "This card is used in combat, where the table applies its effect (check or ruling).",
        )
    main = "主要" in tags or "先制" in tags
    if main:
        in_phase(turn, "main")
        must_pass(turn)
        if turn.main is not None:
            raise RuleViolation(
                "main_action_used", "You have already taken this turn's main action."
            )
    elif "支援" in tags:
        in_phase(turn, "support")
    event = AbilityCardUsed(
        seat=player.seat, card=command.card, tags=tags, text=card.text if card else "", main=main
    )
    return [Draft(event)]
