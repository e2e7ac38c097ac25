"""5.1 (3) 戦闘前フェイズ's events: 「謎の特殊能力」 and the [手下:X] count, each with its fold
(combat/before.py decides)."""

from __future__ import annotations

from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import combat, fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.setup_events import Body
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import roll_words, seat_words


class MysteryBody(Body):
    """Which [戦闘前] ability the 1D6 was for, sealed to its user; None: none (the roll has no
    effect, 3.1 l.280–281)."""

    ability: str | None = None


@CHOJIN_LOCKE.event
class MysteryAbilityRolled(Event):
    """「謎の特殊能力」 (3.1 l.279–281, 5.1 (3) l.906–907): the table sees that an unnamed
    ability rolled 1D6; which one (or none at all) is sealed to the user, so a bluff and a real
    ability look alike."""

    seat: int
    roll: RollRecord
    secret: MysteryBody | None = None


def used(state: ChojinState, seat: int, ability: str | None) -> ChojinState:
    """`ability` (if any) is used up for this combat by fighter `seat`."""
    if state.combat is None or ability is None:
        return state
    before = state.combat.before_used
    return combat(state, before_used={**before, seat: [*before.get(seat, ()), ability]})


@CHOJIN_LOCKE.folds(MysteryAbilityRolled)
def _mystery(state: ChojinState, event: MysteryAbilityRolled, seq: int) -> ChojinState:
    if state.combat is None:
        return state
    state = combat(state, mystery=[*state.combat.mystery, event.seat])
    return used(state, event.seat, event.secret.ability if event.secret else None)


@CHOJIN_LOCKE.says_named(MysteryAbilityRolled)
def _mystery_ability_rolled_line(e: MysteryAbilityRolled, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names), "roll": roll_words(e.roll)}
    if e.secret is None:
        return Message(N_("{seat}: 謎の特殊能力 [{roll}]"), said)
    if e.secret.ability:
        return Message(
            N_("{seat}: 謎の特殊能力 (「{ability}」) [{roll}]"),
            {**said, "ability": e.secret.ability},
        )
    return Message(N_("{seat}: 謎の特殊能力 (効果なし) [{roll}]"), said)


class MinionBody(Body):
    """The [手下:X] ability behind a minion declaration, sealed to its user (3.1 l.322–323)."""

    ability: str
    level: int  # X: the minions' ESP level


@CHOJIN_LOCKE.event
class MinionsDeclared(Event):
    """[手下:X] (3.1 l.319–329): only the number of minions is said; the hand limit rises by it.
    The ability and its X are sealed to the user."""

    seat: int
    count: int
    secret: MinionBody | None = None


@CHOJIN_LOCKE.folds(MinionsDeclared)
def _minions(state: ChojinState, event: MinionsDeclared, seq: int) -> ChojinState:
    if state.combat is None or event.seat not in state.combat.fighters:
        return state
    one = state.combat.fighters[event.seat]
    state = fighter(
        state,
        event.seat,
        minions=one.minions + event.count,
        hand_limit=one.hand_limit + event.count,
        minion_level=event.secret.level if event.secret is not None else one.minion_level,
    )
    return used(state, event.seat, event.secret.ability if event.secret else None)


@CHOJIN_LOCKE.says_named(MinionsDeclared)
def _minions_declared_line(e: MinionsDeclared, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names), "count": e.count}
    if e.secret is None:
        return Message(N_("{seat}: 手下{count}人を宣言 — 手札上限+{count}"), said)
    return Message(
        N_("{seat}: 手下{count}人を宣言 (「{ability}」 手下:{level}) — 手札上限+{count}"),
        {**said, "ability": e.secret.ability, "level": e.secret.level},
    )


class BeforeBody(Body):
    """The [戦闘前] ability used, sealed to its user."""

    ability: str


@CHOJIN_LOCKE.event
class BeforeAbilityUsed(Event):
    """A [戦闘前] ability used on joining (3.1 l.276–283): its name is not said; an effect on
    others is declared (`effect`), one on oneself need not be (「自分自身にのみ影響を及ぼす効果の
    場合、効果を宣言する必要はありません。」). The name is sealed to the user."""

    seat: int
    effect: str = ""
    secret: BeforeBody | None = None


@CHOJIN_LOCKE.folds(BeforeAbilityUsed)
def _before_ability(state: ChojinState, event: BeforeAbilityUsed, seq: int) -> ChojinState:
    return used(state, event.seat, event.secret.ability if event.secret else None)


@CHOJIN_LOCKE.says_named(BeforeAbilityUsed)
def _before_ability_used_line(e: BeforeAbilityUsed, names: Names) -> Message:
    said = {
        "seat": seat_words(e.seat, names),
        "ability": e.secret.ability if e.secret is not None else "",
        "effect": e.effect,  # as its user typed it
    }
    if e.secret is not None:
        if e.effect:
            return Message(N_("{seat}: [戦闘前]の能力を使用 「{ability}」: {effect}"), said)
        return Message(N_("{seat}: [戦闘前]の能力を使用 「{ability}」 (自分への効果)"), said)
    if e.effect:
        return Message(N_("{seat}: [戦闘前]の能力を使用: {effect}"), said)
    return Message(N_("{seat}: [戦闘前]の能力を使用 (自分への効果)"), said)
