"""Using a special ability of the sheet or an ability card from hand, timed by their tags."""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.model.table import acting_seat
from domain.rulesets.chojin_locke.actions import must_pass
from domain.rulesets.chojin_locke.card_events import AbilityCardUsed, AbilityUsed, UnnamedAbility
from domain.rulesets.chojin_locke.cards import Ability
from domain.rulesets.chojin_locke.combat import exclusive
from domain.rulesets.chojin_locke.combat.flow import support_turn
from domain.rulesets.chojin_locke.combat.leaving import leaver_in_support, party_leaves
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player
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


def _of_sheet(player: Player, name: str) -> Ability:
    """The sheet's ability by that name; refused (to the caller alone, listing its own) if the
    sheet has none."""
    assert player.sheet is not None
    ability = next((a for a in player.sheet.abilities if a.name == name), None)
    if ability is None:
        names = ", ".join(a.name for a in player.sheet.abilities) or "none"
        raise RuleViolation(
            "no_such_ability",
            "Your character has no ability by that name (yours: {names}).",
            params={"names": names},
        )
    return ability


def _used(
    player: Player, ability: Ability, main: bool, proxy: bool = False, escaped: bool = False
) -> list[Draft]:
    """Named aloud, or (3.1 l.261–262 …) used without its name, sealed to its user."""
    if unnamed(ability):
        body = UnnamedAbility(ability=ability.name, tags=ability.tags)
        event = AbilityUsed(seat=player.seat, main=main, proxy=proxy, secret=body)
        return [Draft(event, audience=(seat_actor(player.seat),))]
    event = AbilityUsed(
        seat=player.seat, ability=ability.name, tags=ability.tags, main=main, escaped=escaped
    )
    return [Draft(event)]


def _not_support(name: str) -> RuleViolation:
    return RuleViolation(
        "not_support",
        "「{name}」 is no [支援]: after leaving a combat, its 支援フェイズ takes [支援] only.",
        params={"name": name},
    )


def _leaver_ability(state: ChojinState, actor: str, name: str) -> list[Draft]:
    """5.7 l.1132–1133: the leaver's 支援フェイズ 「戦闘中の支援フェイズとして扱われる」, and
    5.2 l.968 lists 「[支援]の特性を持つ特殊能力・能力カードの使用」 among a combat's support
    actions; l.1120 「通常ターン中及び戦闘中として扱われます」 lets a [通常] one be used there as
    well as a [戦闘] one. Each once in the phase (3.1 l.265: 「1つにつき1手番中に1回のみ」)."""
    after = state.aftermath
    assert after is not None
    player = state.players[leaver_in_support(state, actor)]
    ability = _of_sheet(player, name)
    if "常動" in ability.tags:
        raise RuleViolation("always_on", "That ability is always on; it is not used.")
    if "支援" not in ability.tags:
        raise _not_support(ability.name)
    if ability.name in after.supported:
        raise RuleViolation("used_this_turn", "A [支援] ability is used once per turn.")
    return _used(player, ability, main=False)


def _proxy_fights() -> RuleViolation:
    """3.1 l.378: 「コンバットカードや能力カード等、代理が持つ特殊能力以外は使用することができ
    ません。」 — while a 代理 fights, its user's own abilities and cards wait."""
    return RuleViolation(
        "proxy_in_use", "While your 代理 fights, only its own abilities are used (3.1 l.378)."
    )


def _combat_support(state: ChojinState, actor: str, name: str) -> list[Draft] | None:
    """5.2 l.963–968: a combat turn's support phases take 「[支援]の特性を持つ特殊能力・能力
    カードの使用」, each ability once in the turn (3.1 l.265), a [戦闘] one as well as a [全般]
    one, not a [通常] one (l.260: combat is not the normal turn; ruling CL-093). None: not a [支援]
    ability of the actor's sheet, which goes the normal turn's way. A named [攻撃] one is an
    attack action, an [逃避] one takes its user out of the combat (its party dissolved, 6.1
    l.1241), and neither follows the other in one combat turn (3.1 l.293–300, ruling CL-096)."""
    fight = state.combat
    assert fight is not None
    someone = state.players.get(acting_seat(actor))
    if someone is None or someone.sheet is None:
        return None
    ability = _of_sheet(someone, name)
    if "支援" not in ability.tags or "常動" in ability.tags:
        return None
    current = support_turn(state, actor)  # its own combat turn, a support phase
    if current.proxy and not kind(ability.tags, "代理"):
        raise _proxy_fights()
    tags = set(ability.tags)
    if "通常" in tags and not ({"全般", "戦闘"} & tags):
        raise RuleViolation(
            "not_in_combat",
            "「{ability}」 is [通常]: it is not used in combat (3.1 l.260).",
            params={"ability": ability.name},
        )
    if ability.name in fight.supported:
        raise RuleViolation("used_this_turn", "A [支援] ability is used once per turn.")
    assert current.seat == someone.seat
    if unnamed(ability):  # a [代理:X]/[手下:X]/[スーツ:X]: its tags stay sealed
        return _used(someone, ability, main=False)
    # 3.1 l.293–300: [攻撃] an attack action, [逃避] out of the combat, not both in one turn
    exclusive.check(fight, someone.seat, ability.tags)
    escaped = "逃避" in ability.tags and not current.left  # out already: nothing to leave
    drafts = _used(someone, ability, main=False, escaped=escaped)
    return drafts + (party_leaves(state, someone.seat) if escaped else [])


@CHOJIN_LOCKE.decides(UseAbility)
def use_ability(t: ChojinTable, command: UseAbility, actor: str) -> list[Draft]:
    """3.1: an ability is named when used, unless its tags say otherwise. Naming one the sheet
    lacks is refused, and only the caller hears of it; [常動] abilities are always on and
    [戦闘]/[戦闘前] ones wait for combat. After a combat, the leaver playing its 5.7 phases
    uses [支援] ones in its 支援フェイズ."""
    state = playing(t)
    if state.aftermath is not None and state.combat is None:
        return _leaver_ability(state, actor, command.ability)
    if state.combat is not None:
        in_combat = _combat_support(state, actor, command.ability)
        if in_combat is not None:
            return in_combat
    turn, player = my_turn(state, actor)
    ability = _of_sheet(player, command.ability)
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
            "(before_ability), a [主要]/[先制] one as a combat turn's main action "
            "(main_ability), a [対抗(攻撃)] one against an attack (counter_ability).",
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
    return _used(player, ability, main=main, proxy=proxy)


@CHOJIN_LOCKE.command("use_ability_card")
class UseAbilityCard(Command):
    """Turn an ability card from your hand face up and use it (its effect is the table's)."""

    card: str = Field(min_length=1, max_length=60)


def _held(state: ChojinState, player: Player, name: str) -> tuple[tuple[str, ...], str]:
    """A face-down ability card of `player`'s hand: its tags and text (refused to the caller
    alone otherwise)."""
    if name not in player.abilities:
        held = ", ".join(dict.fromkeys(player.abilities)) or "none"
        raise RuleViolation(
            "not_in_hand", "You hold no such ability card (yours: {held}).", params={"held": held}
        )
    if player.abilities.count(name) <= player.face_up.count(name):
        # 4.7, lines 844–845: using a card turns it face up; it is turned face down again only
        # at the end of a combat its holder took part in (docs/rulings.md)
        raise RuleViolation(
            "card_face_up", "That card is already face up: it is used by turning it face up."
        )
    card = state.catalog.ability_card(name)
    return (card.tags if card else ()), (card.text if card else "")


@CHOJIN_LOCKE.decides(UseAbilityCard)
def use_card(t: ChojinTable, command: UseAbilityCard, actor: str) -> list[Draft]:
    state = playing(t)
    if state.aftermath is not None and state.combat is None:
        # 5.7 l.1132–1133 and l.1120: a [支援] card in the leaver's 支援フェイズ, [戦闘] or not
        leaver = state.players[leaver_in_support(state, actor)]
        tags, text = _held(state, leaver, command.card)
        if "支援" not in tags:
            raise _not_support(command.card)
        used = AbilityCardUsed(seat=leaver.seat, card=command.card, tags=tags, text=text)
        return [Draft(used)]
    if state.combat is not None and state.combat.step == "turns":
        # 5.2 l.968: a [支援] card in its own combat turn's support phases, [戦闘] or not
        fighter = state.players.get(acting_seat(actor))
        if fighter is not None and command.card in fighter.abilities:
            tags, text = _held(state, fighter, command.card)
            if "支援" in tags:
                mine = support_turn(state, actor)
                if mine.proxy:
                    raise _proxy_fights()
                if "通常" in tags and not ({"全般", "戦闘"} & set(tags)):
                    raise RuleViolation(
                        "not_in_combat",
                        "「{card}」 is [通常]: not used in combat.",
                        params={"card": command.card},
                    )
                # 3.1 l.293–300: as an ability of the sheet (ruling CL-096)
                exclusive.check(state.combat, fighter.seat, tags)
                escaped = "逃避" in tags and not mine.left  # out already: nothing to leave
                used = AbilityCardUsed(
                    seat=fighter.seat, card=command.card, tags=tags, text=text, escaped=escaped
                )
                return [Draft(used), *(party_leaves(state, fighter.seat) if escaped else [])]
    turn, player = my_turn(state, actor)
    tags, text = _held(state, player, command.card)
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
    event = AbilityCardUsed(seat=player.seat, card=command.card, tags=tags, text=text, main=main)
    return [Draft(event)]
