"""5.7 戦闘離脱後の処理: a character that left a combat by an escape (逃避) moves its piece
(`escape_to`), and once the combat is over plays, still treated as in combat, its
マスの効果発動 → 支援 → 戦闘発生 phases (`aftermath_next`), the leavers in order from the turn
player (l.1117–1155):

「戦闘から離脱しコマを移動させたキャラクターは、元々参加していた戦闘が終了した後に以下の処理を
行います。…消費したESPパワー・手札・戦闘中に得られた効果等の状態は以下の処理が終了するまで継続された
ままとなります。」「複数のキャラクターが同じ戦闘から離脱しコマを移動させた場合、ターンプレイヤーから
近いプレイヤーから上記の処理を行います。」「全ての戦闘が終了し、全ての戦闘離脱後の処理も終了した場合、
通常ターンに戻ります。」

The CombatEnded fold (flow_events.py) opens `ChojinState.aftermath` for the leavers who moved
(keeping their spent power and their hands); `after_combat` walks the first one into its
square phase, or ends the turn as before when nobody left.
"""

from __future__ import annotations

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import acting_seat
from domain.rulesets.chojin_locke.board import key, same_place
from domain.rulesets.chojin_locke.changes import combat, fighter, player
from domain.rulesets.chojin_locke.combat.flow_events import (
    CardsBody,
    CombatDeckShuffled,
    CombatStarted,
    CombatStepEntered,
    released,
)
from domain.rulesets.chojin_locke.combat.hands import draw_to_limit, look_ahead
from domain.rulesets.chojin_locke.combat.state import AftermathPhase, Combat
from domain.rulesets.chojin_locke.fields import Col, Row, SquareNumber
from domain.rulesets.chojin_locke.grid import cell_key
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.setup_events import DeckOrder
from domain.rulesets.chojin_locke.state import Cell, ChojinState, Position
from domain.rulesets.chojin_locke.turn import base_square_effect, end_turn, square_effect
from domain.rulesets.chojin_locke.words import (
    AFTERMATH_PHASES,
    cell_words,
    fighter_words,
    named_all,
    place_words,
    seat_words,
    seats_words,
)

ORDER: tuple[AftermathPhase, ...] = ("square", "support", "combat")

# ----------------------------------------------------------------------------- the escape's move


def party_leaves(state: ChojinState, seat: int) -> list[Draft]:
    """6.1 l.1240–1243: 「パーティーを組んでいたキャラクターが戦闘から離脱した時…パーティーは
    解散されます。」: an escape by a party member dissolves its party."""
    party = state.party_of(seat)
    if len(party) <= 1:
        return []
    return [Draft(PartyDissolved(leader=party[0], forced=True))]


@CHOJIN_LOCKE.event
class EscapeMoved(Event):
    """A fighter that left the combat by an escape moves its piece (5.7 l.1118:
    「戦闘から離脱しコマを移動させたキャラクター」): a square of its planet (惑星編) or of the base
    (秘密基地編)."""

    fighter: int
    to: Position | None = None
    cell: Cell | None = None


@CHOJIN_LOCKE.folds(EscapeMoved)
def _escape_moved(state: ChojinState, event: EscapeMoved, seq: int) -> ChojinState:
    if event.to is not None:
        state = player(state, event.fighter, position=event.to)
    if event.cell is not None:
        state = player(state, event.fighter, cell=event.cell)
    if state.combat is not None and event.fighter in state.combat.fighters:
        state = fighter(state, event.fighter, moved=True)
    return state


@CHOJIN_LOCKE.says_named(EscapeMoved)
def _escape_moved_line(e: EscapeMoved, names: Names) -> Message:
    where = (
        cell_words(e.cell) if e.cell is not None else place_words(e.to) if e.to is not None else "?"
    )
    return Message(
        N_("{fighter}: 戦闘から離脱して{where}へ移動"),
        {"fighter": fighter_words(e.fighter, names), "where": where},
    )


@CHOJIN_LOCKE.command("escape_to")
class EscapeTo(Command):
    """5.7: having left the combat by an escape, move your piece — `square` (惑星編: a square of
    your planet) or `row` and `col` (秘密基地編) — other than the combat's."""

    square: SquareNumber | None = None
    row: Row | None = None
    col: Col | None = None


@CHOJIN_LOCKE.decides(EscapeTo)
def escape_to(t: ChojinTable, command: EscapeTo, actor: str) -> list[Draft]:
    state = playing(t)
    fight = state.combat
    if fight is None:
        raise RuleViolation("no_combat", "No combat is running.")
    seat = acting_seat(actor)
    me = fight.fighters.get(seat)
    if me is None or me.kind != "character" or not me.left:
        raise RuleViolation(
            "not_left", "Only a character that has left the combat by an escape moves away."
        )
    if me.moved:
        raise RuleViolation("already_moved", "Your piece has already moved away from the combat.")
    someone = state.players[seat]
    if fight.stage == "base":
        if command.row is None or command.col is None or command.square is not None:
            raise RuleViolation("bad_move", "In the base, name the row and column you move to.")
        if someone.cell is None:
            raise RuleViolation("not_on_board", "Your piece is not in the base.")
        cell = Cell(row=command.row, col=command.col)
        if cell_key(cell) == fight.square:
            raise RuleViolation("same_square", "Name a square other than the combat's.")
        return [Draft(EscapeMoved(fighter=seat, cell=cell))]
    if command.square is None or command.row is not None or command.col is not None:
        raise RuleViolation("bad_move", "On a planet, name the square of your planet you move to.")
    if someone.position is None:
        raise RuleViolation("not_on_board", "Your piece is not on the board.")
    to = Position(planet=someone.position.planet, square=command.square)
    if key(to.planet, to.square) == fight.square:
        raise RuleViolation("same_square", "Name a square other than the combat's.")
    return [Draft(EscapeMoved(fighter=seat, to=to))]


# ----------------------------------------------------------------------------- after the combat


@CHOJIN_LOCKE.event
class AftermathPhaseEntered(Event):
    """5.7 l.1124–1128: a leaver's マスの効果発動 / 支援 / 戦闘発生 phase after the combat it
    left. `hand`: how many C-cards it still holds (which are sealed to its seat)."""

    seat: int
    phase: AftermathPhase
    hand: int = 0


@CHOJIN_LOCKE.folds(AftermathPhaseEntered)
def _aftermath_phase(state: ChojinState, event: AftermathPhaseEntered, seq: int) -> ChojinState:
    if state.aftermath is None:
        return state
    return state.model_copy(
        update={"aftermath": state.aftermath.model_copy(update={"phase": event.phase})}
    )


@CHOJIN_LOCKE.says_named(AftermathPhaseEntered)
def _aftermath_phase_entered_line(e: AftermathPhaseEntered, names: Names) -> Message:
    return Message(
        N_("戦闘離脱後の処理 {seat}: {phase} (手札{hand}枚)"),
        {"seat": seat_words(e.seat, names), "phase": AFTERMATH_PHASES[e.phase], "hand": e.hand},
    )


@CHOJIN_LOCKE.event
class AftermathDone(Event):
    """A leaver's phases are over (l.1121–1122: the states kept 「以下の処理が終了するまで」):
    its spent ESP power comes back and its C-cards are collected; which they were stays
    sealed to its seat."""

    seat: int
    count: int
    secret: CardsBody | None = None


@CHOJIN_LOCKE.folds(AftermathDone)
def _aftermath_done(state: ChojinState, event: AftermathDone, seq: int) -> ChojinState:
    state = player(state, event.seat, power_spent=0)
    after = state.aftermath
    if after is None:
        return state
    queue = [n for n in after.queue if n != event.seat]
    if not queue:
        return state.model_copy(update={"aftermath": None})
    hands = {n: h for n, h in after.hands.items() if n != event.seat}
    changed = after.model_copy(
        update={
            "queue": queue,
            "hands": hands,
            "phase": "square",
            "converted": [],
            "supported": [],
        }
    )
    return state.model_copy(update={"aftermath": changed})


@CHOJIN_LOCKE.says_named(AftermathDone)
def _aftermath_done_line(e: AftermathDone, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names), "count": e.count}
    if e.secret is None or not e.secret.cards:
        return Message(
            N_("戦闘離脱後の処理 {seat}: 終了、手札{count}枚を回収、ESPパワー回復"), said
        )
    return Message(
        N_("戦闘離脱後の処理 {seat}: 終了、手札{count}枚を回収、ESPパワー回復: {cards}"),
        {**said, "cards": named_all(e.secret.cards)},
    )


def _square_phase(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """The next leaver's マスの効果発動フェイズ, 「通常ターンと同様に」 (l.1130): a face-down
    planet or base card under it is turned; a 待ち伏せ turned there starts its combat with the
    leaver's state kept (l.1136–1138)."""
    assert state.aftermath is not None
    seat = state.aftermath.queue[0]
    held = len(state.aftermath.hands.get(seat, ()))
    drafts = [Draft(AftermathPhaseEntered(seat=seat, phase="square", hand=held))]
    someone = state.players[seat]
    effects = square_effect(state, someone) + base_square_effect(t, state, someone)
    for n, draft in enumerate(effects):
        if isinstance(draft.event, CombatStarted):
            # l.1136–1138: a combat in the square phase starts with the leaver's state kept
            started = draft.event.model_copy(update={"carried": seat})
            later = look_ahead(t, state, [*drafts, *effects[:n]])
            return drafts + effects[:n] + _carried(t, later, started)
    return drafts + effects


def after_combat(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """Right after CombatEnded is folded: the first leaver's phases, or (nobody left and moved)
    the turn ends as before when the combat was its 戦闘発生フェイズ (4.3: the last phase)."""
    if state.aftermath is not None:
        return _square_phase(t, state)
    turn = state.turn
    if turn is not None and turn.phase == "combat":
        return end_turn(t, state, turn)
    return []


@CHOJIN_LOCKE.command("aftermath_next")
class AftermathNext(Command):
    """5.7: the leaver whose turn it is ends its マスの効果発動 / 支援 / 戦闘発生 phase."""


@CHOJIN_LOCKE.decides(AftermathNext)
def aftermath_next(t: ChojinTable, command: AftermathNext, actor: str) -> list[Draft]:
    state = playing(t)
    after = state.aftermath
    if after is None:
        raise RuleViolation("no_aftermath", "Nobody is playing its phases after leaving a combat.")
    if state.combat is not None:
        raise RuleViolation("combat_running", "A combat is running: its end comes first.")
    seat = after.queue[0]
    if acting_seat(actor) != seat:
        raise RuleViolation("not_your_aftermath", "Another character's phases are being played.")
    if after.phase != "combat":
        following = ORDER[ORDER.index(after.phase) + 1]
        held = len(after.hands.get(seat, ()))
        return [Draft(AftermathPhaseEntered(seat=seat, phase=following, hand=held))]
    cards = tuple(after.hands.get(seat, ()))
    done = AftermathDone(seat=seat, count=len(cards), secret=CardsBody(cards=cards))
    drafts = [Draft(done, (seat_actor(seat),))]
    later = look_ahead(t, state, drafts)
    if later.aftermath is not None:
        return drafts + _square_phase(t, later)
    turn = later.turn
    if after.ends_turn and turn is not None:
        return drafts + end_turn(t, later, turn)
    return drafts


# ----------------------------------------------------------------------------- a combat from here


def aftermath_combat(t: ChojinTable, state: ChojinState, actor: str) -> list[Draft]:
    """`start_combat` in a leaver's 戦闘発生フェイズ (l.1133–1146): 「この戦闘発生フェイズでは主要
    フェイズに行った主要行動がどんな行動であったとしても戦闘を発生させることができます。」 The
    leaver keeps its spent power and hand, the combat 「ラウンド終了フェイズを行ってから戦闘参加
    フェイズが開始されます」 (its round end: the leaver draws back to its limit from a fresh deck
    of the cards it does not hold), and the other leavers on the square are reset (their kept
    hands go, they fight anew)."""
    after = state.aftermath
    assert after is not None
    seat = after.queue[0]
    if acting_seat(actor) != seat:
        raise RuleViolation("not_your_aftermath", "Another character's phases are being played.")
    if after.phase != "combat":
        raise RuleViolation("wrong_phase", "A combat is started in the 戦闘発生フェイズ.")
    me = state.players[seat]
    if me.position is None and me.cell is None:
        raise RuleViolation("not_on_board", "Your piece is not on the board.")
    others = [
        p.seat
        for _, p in sorted(state.players.items())
        if p.seat != seat and p.active and same_place(state, me, p)
    ]
    if not others:
        raise RuleViolation("nobody_here", "No other character is on your square.")
    fighters = tuple(sorted([seat, *others]))
    if state.stage == "base":
        assert me.cell is not None
        square = cell_key(me.cell)
    else:
        assert me.position is not None
        square = key(me.position.planet, me.position.square)
    started = CombatStarted(
        seat=seat,
        square=square,
        stage="base" if state.stage == "base" else "planet",
        fighters=fighters,
        released=released(state, fighters),
        carried=seat,
    )
    return _carried(t, state, started)


@CHOJIN_LOCKE.event
class CarriedRoundEnd(Event):
    """5.7 l.1140: a combat started in a leaver's phases 「ラウンド終了フェイズを行ってから戦闘参加
    フェイズが開始されます」 — the round end's ③ for the leaver that carried its hand in (5.1 (7)
    l.937–939): at or over its hand limit it discards (`waiting`: `discard_down`), then ④ it
    draws back to the limit, and 戦闘参加 begins (ruling CL-089)."""

    seat: int
    hand: int  # how many C-cards it holds (which: sealed to its seat)
    waiting: bool


@CHOJIN_LOCKE.folds(CarriedRoundEnd)
def _carried_round_end(state: ChojinState, event: CarriedRoundEnd, seq: int) -> ChojinState:
    discarding = [event.seat] if event.waiting else []
    return combat(state, step="round_end", current=None, continuing={}, discarding=discarding)


@CHOJIN_LOCKE.says_named(CarriedRoundEnd)
def _carried_round_end_line(e: CarriedRoundEnd, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names), "hand": e.hand}
    if e.waiting:
        return Message(
            N_(
                "戦闘離脱後の戦闘: 戦闘参加の前にラウンド終了フェイズ — {seat} (手札{hand}枚)が"
                "手札を捨てる (手札上限まで、さらに1枚まで)"
            ),
            said,
        )
    return Message(
        N_(
            "戦闘離脱後の戦闘: 戦闘参加の前にラウンド終了フェイズ — {seat} (手札{hand}枚)が"
            "手札上限まで引く"
        ),
        said,
    )


def in_prelude(fight: Combat) -> bool:
    """The round end a carried combat begins with: before 戦闘参加, so before any initiative
    (every later round end comes after one, 5.1 (5))."""
    return fight.step == "round_end" and fight.round == 1 and not fight.order


def prelude_draw(state: ChojinState) -> list[Draft]:
    """④ of the carried combat's round end: the leaver draws back to its hand limit, then
    (1) 戦闘参加. (Everyone else takes a hand at (4), as new to the combat, l.1141–1146.)"""
    fight = state.combat
    assert fight is not None
    holders = [f for f in fight.fighters.values() if f.id in fight.hands]
    drawn, _exhausted = draw_to_limit(state, holders)
    return [*drawn, Draft(CombatStepEntered(step="joining", round=1))]


def _carried(t: ChojinTable, state: ChojinState, started: CombatStarted) -> list[Draft]:
    """A combat started in a leaver's phases: its state carried in, then the round end (its
    optional discard, its draw back to its limit from a deck of the cards nobody keeps), then
    戦闘参加."""
    after = state.aftermath
    assert after is not None and started.carried is not None
    seat = started.carried
    drafts = [Draft(started)]
    later = look_ahead(t, state, drafts)
    # the deck rebuilt without the cards still held: the leaver's, and those the leavers still
    # to come (elsewhere) keep — the leavers on this square were reset, their cards are back
    kept = [*after.hands.get(seat, ())]
    if later.aftermath is not None:
        kept += [card for hand in later.aftermath.hands.values() for card in hand]
    pool = list(state.catalog.combat_deck())
    for card in kept:
        if card in pool:
            pool.remove(card)
    draw = t.dice.shuffle(len(pool))
    shuffled = CombatDeckShuffled(cards=len(pool), secret=DeckOrder(draw=draw, deck=tuple(pool)))
    drafts.append(Draft(shuffled, ()))
    later = look_ahead(t, later, drafts[-1:])
    assert later.combat is not None
    held = len(later.combat.hands.get(seat, ()))
    limit = later.combat.fighters[seat].hand_limit
    ending = Draft(CarriedRoundEnd(seat=seat, hand=held, waiting=held >= limit))
    drafts.append(ending)
    if held >= limit:
        return drafts  # ③: its discard_down first (combat/round_end.py)
    return drafts + prelude_draw(look_ahead(t, later, [ending]))


@CHOJIN_LOCKE.event
class LeaversReset(Event):
    """5.7 l.1151–1153: 「戦闘から離脱した時の移動先のマスでCカードが全て回収された場合、全ての
    戦闘が終了したものとして扱われます。(消費したESPパワー・手札・戦闘中に得られた効果等の状態が
    リセットされます。)」 — a combat fought at a leaver's destination has ended with every C-card
    collected: the leavers still to play their phases (`seats`) lose what they kept, their
    spent ESP power and their hands; they still play their phases (ruling CL-091)."""

    seats: tuple[int, ...]


@CHOJIN_LOCKE.folds(LeaversReset)
def _leavers_reset(state: ChojinState, event: LeaversReset, seq: int) -> ChojinState:
    for seat in event.seats:
        state = player(state, seat, power_spent=0)
    after = state.aftermath
    if after is None:
        return state
    hands = {n: h for n, h in after.hands.items() if n not in event.seats}
    return state.model_copy(update={"aftermath": after.model_copy(update={"hands": hands})})


@CHOJIN_LOCKE.says_named(LeaversReset)
def _leavers_reset_line(e: LeaversReset, names: Names) -> Message:
    return Message(
        N_(
            "移動先でCカードが全て回収された: 全ての戦闘が終了 — {seats}の消費ESPパワー・手"
            "札をリセット"
        ),
        {"seats": seats_words(e.seats, names)},
    )


def cards_collected(before: ChojinState, after: ChojinState) -> list[Draft]:
    """Right after CombatEnded (`before` the combat ended, `after`): a combat that ran while
    leavers still waited for their phases was fought at a leaver's destination (only a leaver's
    square phase or 戦闘発生フェイズ starts one then); if none of its fighters left it and moved,
    nobody keeps a C-card of it — every one is collected there (l.1151–1153)."""
    waiting = before.aftermath
    if waiting is None or after.aftermath is None:
        return []
    if list(after.aftermath.queue) != list(waiting.queue):
        return []  # its own leavers keep their cards: not every C-card is collected
    return [Draft(LeaversReset(seats=tuple(waiting.queue)))]


def leaver_in_support(state: ChojinState, actor: str) -> int:
    """5.7 l.1131–1133: the leaver in its 支援フェイズ, 「戦闘中の支援フェイズとして扱われる」:
    改心 and シートオープン as in a combat turn's support phase, no 勝利宣言 or party dissolution
    (those stay refused: they go by the normal turn's phases)."""
    after = state.aftermath
    assert after is not None
    seat = after.queue[0]
    if acting_seat(actor) != seat:
        raise RuleViolation("not_your_aftermath", "Another character's phases are being played.")
    if after.phase != "support":
        raise RuleViolation("wrong_phase", "Support actions are taken in the 支援フェイズ.")
    return seat
