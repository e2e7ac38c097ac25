"""5.1 (3) 戦闘前フェイズ's events: 「謎の特殊能力」 and the [手下:X] count, each with its fold
(combat/before.py decides)."""

from __future__ import annotations

from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import roll_line
from domain.rulesets.chojin_locke.changes import combat, fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.setup_events import Body
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import seat_words


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


@CHOJIN_LOCKE.says(MysteryAbilityRolled)
def _mystery_ability_rolled_line(e: MysteryAbilityRolled) -> str:
    which = ""
    if e.secret is not None:
        which = f" (「{e.secret.ability}」)" if e.secret.ability else " (効果なし)"
    return f"{seat_words(e.seat)}: 謎の特殊能力{which} [{roll_line(e.roll)}]"


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


@CHOJIN_LOCKE.says(MinionsDeclared)
def _minions_declared_line(e: MinionsDeclared) -> str:
    which = f" (「{e.secret.ability}」 手下:{e.secret.level})" if e.secret is not None else ""
    return f"{seat_words(e.seat)}: 手下{e.count}人を宣言{which} — 手札上限+{e.count}"


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


@CHOJIN_LOCKE.says(BeforeAbilityUsed)
def _before_ability_used_line(e: BeforeAbilityUsed) -> str:
    which = f" 「{e.secret.ability}」" if e.secret is not None else ""
    effect = f": {e.effect}" if e.effect else " (自分への効果)"
    return f"{seat_words(e.seat)}: [戦闘前]の能力を使用{which}{effect}"
