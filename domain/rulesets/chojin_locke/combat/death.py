"""Death in combat (issue #20, 14.): a character whose endurance or willpower is 0 or less, or
who took damage at or above an endurance it declared low, dies — the death the host's
set_condition applies (turn_events.died: face-up ability cards discarded, flags lost, the piece
off the board), its party dissolved, and it leaves the combat.

3.1 l.233–235: 「耐久力が0以下になったキャラクターは死亡します。…攻撃に対して耐久力を低く
宣言した場合は、ダメージが宣言した値以上になると死亡します。」; l.239: 精神力 「0以下になると
死亡します。」; 4.4 l.726–728: 「キャラクターが死亡した時、そのキャラクターのコマを盤上から
取り除き、そのキャラクターは死亡状態となります。」

[死亡時] (3.1 l.284–285): 「そのキャラクターが死亡した瞬間に使用できることを表す特性です。特に
記載がなければ[全般]として扱われます。」 At the instant of its death each character that died
has a window (`death_ability`): it may use its [死亡時] abilities and ability cards, then says it is
done; what follows from the deaths — the game's end when nobody can act (4.2), the end of the
dead fighter's combat turn — waits until every one of them has (ruling CL-090). The window opens for
every character that dies, whatever its sheet holds, so that it tells nobody anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat, fighter_gone, player, players, without
from domain.rulesets.chojin_locke.combat.flow import next_turn
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnEnded
from domain.rulesets.chojin_locke.combat.timed import chosen
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.host import nobody_acts
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.stats import current
from domain.rulesets.chojin_locke.turn_events import died
from domain.rulesets.chojin_locke.words import (
    CAUSES,
    fighter_words,
    fighters_words,
    named,
    seat_words,
    used_words,
)


@CHOJIN_LOCKE.event
class FighterDied(Event):
    """A combatant died: `endurance` (0 or less, or damage at or above its declaration) or
    `willpower` (0 or less)."""

    fighter: int
    cause: Literal["endurance", "willpower"]


@CHOJIN_LOCKE.folds(FighterDied)
def _died(state: ChojinState, event: FighterDied, seq: int) -> ChojinState:
    before = state.players.get(event.fighter)
    if before is not None:
        state = players(state, died(before.model_copy(update={"condition": "dead"}), before))
    return fighter_gone(state, event.fighter)


@CHOJIN_LOCKE.says_named(FighterDied)
def _fighter_died_line(e: FighterDied, names: Names) -> Message:
    return Message(
        N_("{fighter}が死亡 ({cause}) — 戦闘から外れる"),
        {"fighter": fighter_words(e.fighter, names), "cause": CAUSES[e.cause]},
    )


def look_ahead(t: ChojinTable, state: ChojinState, drafts: Iterable[Draft]) -> ChojinState:
    """The state after `drafts`, through the ruleset's own folds."""
    for offset, draft in enumerate(drafts):
        state = CHOJIN_LOCKE.fold(state, draft.event, t.next_seq + offset)
    return state


def wiped_out(before: ChojinState, after: ChojinState, number: int) -> bool:
    """An obstacle whose last living member died between `before` and `after` (or an エスパー
    NPC, its endurance kept as its one member's)."""
    assert before.combat is not None and after.combat is not None
    was = before.combat.fighters.get(number)
    now = after.combat.fighters.get(number)
    if was is None or now is None or now.kind not in ("obstacle", "esper") or not now.members:
        return False
    return any(e > 0 for e in was.members) and all(e <= 0 for e in now.members)


def casualties(
    t: ChojinTable, state: ChojinState, drafts: list[Draft], killed: Iterable[int] = ()
) -> list[Draft]:
    """Who dies of `drafts` (the fighters in `killed` took damage at or above their declared
    endurance), each with its party dissolved; the game ends when nobody can act (4.2)."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    out: list[Draft] = []
    dissolved: set[int] = set()
    doomed = set(killed)
    for number in sorted(after.combat.fighters):
        if wiped_out(state, after, number):
            # 6.2 l.1296–1297: every member dead, the obstacle is out of the combat
            out.append(Draft(FighterDied(fighter=number, cause="endurance")))
            continue
        someone = after.players.get(number) if after.combat.fighters[number].seat else None
        if someone is None or someone.sheet is None or not someone.alive:
            continue
        if number in doomed or current(someone, "endurance") <= 0:
            out.append(Draft(FighterDied(fighter=number, cause="endurance")))
        elif current(someone, "willpower") <= 0:
            out.append(Draft(FighterDied(fighter=number, cause="willpower")))
        else:
            continue
        party = after.party_of(number)
        if len(party) > 1 and party[0] not in dissolved:
            # 6.1: a party that can no longer act as one is dissolved (ruling CL-029)
            dissolved.add(party[0])
            out.append(Draft(PartyDissolved(leader=party[0], forced=True)))
    if not out:
        return []
    after = look_ahead(t, state, [*drafts, *out])
    dead = tuple(
        e.fighter
        for e in (d.event for d in out)
        if isinstance(e, FighterDied) and e.fighter in after.players
    )
    if dead:
        # 3.1 l.284–285: each may use a [死亡時] ability at the instant of its death
        return [*out, Draft(DeathWindowOpened(seats=dead))]
    return out + aftermath_of_deaths(t, after)


def _gone(state: ChojinState, number: int) -> bool:
    """The fighter is out of the combat by death: a dead character, or an obstacle whose every
    member is dead (6.2 l.1296–1297), or an エスパー NPC with no endurance left."""
    assert state.combat is not None
    if number in state.players:
        return not state.players[number].alive
    one = state.combat.fighters.get(number)
    return (
        one is not None
        and one.kind in ("obstacle", "esper")
        and bool(one.members)
        and all(e <= 0 for e in one.members)
    )


def aftermath_of_deaths(t: ChojinTable, after: ChojinState) -> list[Draft]:
    """What follows from deaths: the game ends when nobody can act (4.2); a fighter that died
    in its own combat turn ends it (5.2), and the next fighter's begins (or the round end)."""
    over = nobody_acts(after)
    if over is not None:
        return end_game(t, over)
    assert after.combat is not None
    turn = after.combat.current
    if turn is None or not _gone(after, turn):
        return []
    ended = [Draft(CombatTurnEnded(fighter=turn))]
    return ended + next_turn(t, look_ahead(t, after, ended), after=turn)


# ----------------------------------------------------------------------------- [死亡時]

DEATH = "死亡時"


@CHOJIN_LOCKE.event
class DeathWindowOpened(Event):
    """3.1 l.284–285: characters have just died (`seats`); each may use [死亡時] abilities now,
    and what follows from the deaths waits until each has said it is done. Opened for every
    character that dies, whatever its sheet."""

    seats: tuple[int, ...]


@CHOJIN_LOCKE.folds(DeathWindowOpened)
def _window_opened(state: ChojinState, event: DeathWindowOpened, seq: int) -> ChojinState:
    if state.combat is None:
        return state
    dying = dict(state.combat.dying)
    for seat in event.seats:
        dying.setdefault(seat, [])
    return combat(state, dying=dying)


@CHOJIN_LOCKE.says_named(DeathWindowOpened)
def _death_window_opened_line(e: DeathWindowOpened, names: Names) -> Message:
    return Message(
        N_("{fighters}の死亡時: [死亡時]の能力を使うか、宣言を待つ"),
        {"fighters": fighters_words(e.seats, names)},
    )


@CHOJIN_LOCKE.event
class DeathAbilityUsed(Event):
    """A character that has just died uses a [死亡時] ability of its sheet (`ability`, named
    aloud, 3.1 l.254) or an ability card (`card`, turned face up — and, its holder being dead,
    discarded with its other face-up cards, 4.7 l.846). `effect`: what it does, as declared;
    the table resolves it."""

    seat: int
    ability: str | None = None
    card: str | None = None
    tags: tuple[str, ...] = ()
    text: str = ""  # the card's text, as the catalog prints it
    effect: str = ""


@CHOJIN_LOCKE.folds(DeathAbilityUsed)
def _death_ability(state: ChojinState, event: DeathAbilityUsed, seq: int) -> ChojinState:
    if event.card is not None and event.seat in state.players:
        held = state.players[event.seat].abilities
        state = player(state, event.seat, abilities=without(held, event.card))
    if state.combat is None or event.seat not in state.combat.dying:
        return state
    name = event.ability if event.ability is not None else event.card
    dying = dict(state.combat.dying)
    dying[event.seat] = [*dying[event.seat], name or ""]
    return combat(state, dying=dying)


@CHOJIN_LOCKE.says_named(DeathAbilityUsed)
def _death_ability_used_line(e: DeathAbilityUsed, names: Names) -> Message:
    return Message(
        N_("{seat}が死亡時に{used}を使う{text}{effect}"),
        {
            "seat": seat_words(e.seat, names),
            "used": used_words(e.ability, e.card, e.tags),
            "text": Message(N_(" ({text})"), {"text": named(e.text)}) if e.text else "",
            "effect": f": {e.effect}" if e.effect else "",  # as its user typed it
        },
    )


@CHOJIN_LOCKE.event
class DeathWindowClosed(Event):
    """The dead character's [死亡時] window is over (it used what it would, or nothing)."""

    seat: int


@CHOJIN_LOCKE.folds(DeathWindowClosed)
def _window_closed(state: ChojinState, event: DeathWindowClosed, seq: int) -> ChojinState:
    if state.combat is None:
        return state
    dying = {n: used for n, used in state.combat.dying.items() if n != event.seat}
    return combat(state, dying=dying)


@CHOJIN_LOCKE.says_named(DeathWindowClosed)
def _death_window_closed_line(e: DeathWindowClosed, names: Names) -> Message:
    return Message(N_("{seat}: 死亡時の宣言を終える"), {"seat": seat_words(e.seat, names)})


@CHOJIN_LOCKE.command("death_ability")
class DeathAbility(Command):
    """Your character has just died: use a [死亡時] ability of your sheet (`ability`, named
    aloud) or an ability card from your hand (`card`, turned face up), with the `effect` it has
    (the table resolves it) — one a command, each once; `{}` when you are done (or use none):
    what follows from the death goes on once every character that died has said so."""

    ability: str | None = Field(default=None, min_length=1, max_length=60)
    card: str | None = Field(default=None, min_length=1, max_length=60)
    effect: str = Field(default="", max_length=200)


@CHOJIN_LOCKE.decides(DeathAbility)
def death_ability(t: ChojinTable, command: DeathAbility, actor: str) -> list[Draft]:
    state = t.started()  # not guards.playing: this window is what the other commands wait for
    fight = state.combat
    number = t.seat_of(actor)
    if fight is None or number not in fight.dying:
        raise RuleViolation("no_death_window", "No death of yours waits for a [死亡時] ability.")
    if command.ability is None and command.card is None:
        drafts = [Draft(DeathWindowClosed(seat=number))]
        after = look_ahead(t, state, drafts)
        assert after.combat is not None
        if after.combat.dying:
            return drafts
        return drafts + aftermath_of_deaths(t, after)
    used = chosen(state, state.players[number], command.ability, command.card, DEATH)
    if used.name in fight.dying[number]:
        raise RuleViolation(
            "used_at_this_death", "「{used}」 is used already.", params={"used": used.name}
        )
    event = DeathAbilityUsed(
        seat=number,
        **used.naming(command.effect),
    )
    return [Draft(event)]
