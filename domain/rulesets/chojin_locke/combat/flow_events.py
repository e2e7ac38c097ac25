"""5.1–5.2's events of a combat's flow (start, steps, hands, initiative, combat turns, the
round end and the end), each with its fold. The attack, defence and damage events live with
the actions that make them.

A `secret` field is sealed to the Draft's audience: a hand's cards to its seat, the C-card
deck's order to nobody (like the character deal's shuffle, dealing.py).
"""

from __future__ import annotations

from typing import Literal

from domain.model.draws import ShuffleDraw
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import combat, fighter, player, players, without
from domain.rulesets.chojin_locke.combat.state import Aftermath, Combat, CombatPhase, Fighter, Step
from domain.rulesets.chojin_locke.playing_cards import PlayingCard
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.setup_events import Body, DeckOrder
from domain.rulesets.chojin_locke.state import ChojinState, Position
from domain.rulesets.chojin_locke.words import (
    COMBAT_ENDS,
    COMBAT_PHASES,
    COMBAT_STEPS,
    card_words,
    fighter_words,
    fighters_words,
    named,
    named_all,
    seat_words,
)

EndReason = Literal[
    "no_attack",  # 5.1 (7)②: 「このラウンド中に攻撃行動が行われていない場合」
    "nobody_continues",  # 「戦闘を続ける意思のあるものがいない場合」
    "one_left",  # 「戦闘に参加しているキャラクター・障害が合わせて1体以下の場合」 (and (3))
    "deck_exhausted",  # 5.1: 「山札からコンバットカードが引けなくなった場合…即座に戦闘が終了」
]


class CardsBody(Body):
    cards: tuple[str, ...]


class CardBody(Body):
    card: str


def fighter_name(state: ChojinState, seat: int) -> str:
    """A character fighter's name as the table knows it: the sheet's once open, else the seat."""
    player = state.players[seat]
    if player.sheet_open and player.sheet is not None:
        return player.sheet.name
    return f"Seat {seat}"


# ----------------------------------------------------------------------------- start


def released(state: ChojinState, seats: tuple[int, ...]) -> tuple[int, ...]:
    """4.4: 「拘束状態は…拘束状態のキャラクターが戦闘に参加した時…に解除されます。」 (l.703–704);
    「逮捕状態は脱出成功となるか、逮捕状態のキャラクターが刑務所チャート以外による戦闘に参加した時に
    解除されます。」 (l.712–713)."""
    return tuple(n for n in seats if state.players[n].condition in ("bound", "arrested"))


@CHOJIN_LOCKE.event
class CombatStarted(Event):
    """4.3 戦闘発生フェイズ: `seat` starts a combat on `square` with everyone there."""

    seat: int
    square: str  # "planet:square" (惑星編) or "row:col" (秘密基地編)
    stage: Literal["planet", "base"]
    fighters: tuple[int, ...]  # the seats taking part
    # 4.4: taking part in a combat ends 拘束 (l.703–704) and 逮捕 (l.712–713)
    released: tuple[int, ...] = ()
    # 4.5: a turned 待ち伏せ: the base player who handles it, its piece put on the square
    ambush: int | None = None
    # 5.7 l.1136–1146: started in a leaver's 戦闘発生フェイズ, that leaver carries its state (spent
    # power, its kept hand) into this combat; every other leaver on the square is reset
    carried: int | None = None


@CHOJIN_LOCKE.folds(CombatStarted)
def _started(state: ChojinState, event: CombatStarted, seq: int) -> ChojinState:
    freed = [
        state.players[n].model_copy(update={"condition": "normal", "prison_failures": 0})
        for n in event.released
    ]
    state = players(state, *freed)
    if event.ambush is not None:
        planet, square = (int(n) for n in event.square.split(":"))
        state = player(state, event.ambush, position=Position(planet=planet, square=square))
    fighters = {
        seat: Fighter(id=seat, name=fighter_name(state, seat), seat=seat) for seat in event.fighters
    }
    begun = Combat(square=event.square, stage=event.stage, started_by=event.seat, fighters=fighters)
    after = state.aftermath
    if event.carried is not None and after is not None:
        begun = begun.model_copy(update={"hands": {event.carried: after.hands[event.carried]}})
        # 「消費したESPパワー・手札・戦闘中に得られた効果等の状態がリセットされます。」: the other
        # leavers here lose their kept state (their hands went to the pile) and fight anew
        reset = [n for n in after.queue if n in event.fighters and n != event.carried]
        state = players(
            state, *[state.players[n].model_copy(update={"power_spent": 0}) for n in reset]
        )
        queue = [n for n in after.queue if n not in event.fighters]
        hands = {n: h for n, h in after.hands.items() if n in queue}
        kept = after.model_copy(
            update={
                "queue": queue,
                "hands": hands,
                "phase": "square",
                "converted": [],
                "supported": [],
            }
        )
        state = state.model_copy(update={"aftermath": kept if queue else None})
    return state.model_copy(update={"combat": begun})


@CHOJIN_LOCKE.says_named(CombatStarted)
def _combat_started_line(e: CombatStarted, names: Names) -> Message:
    freed = (
        Message(
            N_(" (拘束・逮捕解除: {fighters})"), {"fighters": fighters_words(e.released, names)}
        )
        if e.released
        else ""
    )
    carried = Message(N_(" (戦闘離脱後: 状態を継続したまま)")) if e.carried is not None else ""
    return Message(
        N_("{seat}が戦闘を発生させる ({square}){carried}: {fighters}{freed}"),
        {
            "seat": seat_words(e.seat, names),
            "square": e.square,
            "carried": carried,
            "fighters": fighters_words(e.fighters, names),
            "freed": freed,
        },
    )


@CHOJIN_LOCKE.event
class CombatStepEntered(Event):
    """5.1: the combat moves on to step (1)–(3) (joining, moving, before)."""

    step: Step
    round: int


@CHOJIN_LOCKE.folds(CombatStepEntered)
def _step(state: ChojinState, event: CombatStepEntered, seq: int) -> ChojinState:
    return combat(state, step=event.step)


@CHOJIN_LOCKE.says(CombatStepEntered)
def _combat_step_entered_line(e: CombatStepEntered) -> Message:
    return Message(
        N_("戦闘 {round}ラウンド目: {step}"), {"round": e.round, "step": COMBAT_STEPS[e.step]}
    )


# ----------------------------------------------------------------------------- hands (4)


@CHOJIN_LOCKE.event
class CombatDeckShuffled(Event):
    """The C-card deck shuffled by the verifiable stream; its order sealed to nobody."""

    cards: int  # how many: public
    secret: DeckOrder | None = None


@CHOJIN_LOCKE.folds(CombatDeckShuffled)
def _deck(state: ChojinState, event: CombatDeckShuffled, seq: int) -> ChojinState:
    state = combat(state, step="hands")
    if event.secret is None:
        return state
    order = event.secret
    return combat(state, deck=[order.deck[i] for i in order.draw.order], discard=[])


@CHOJIN_LOCKE.says(CombatDeckShuffled)
def _combat_deck_shuffled_line(e: CombatDeckShuffled) -> Message:
    return Message(N_("Cカード{cards}枚の山札を切り混ぜる"), {"cards": e.cards})


@CHOJIN_LOCKE.event
class CombatCardsDrawn(Event):
    """Cards drawn from the top of the deck into a hand: how many is public, which sealed to
    the hand's seat."""

    fighter: int
    count: int
    secret: CardsBody | None = None


@CHOJIN_LOCKE.folds(CombatCardsDrawn)
def _drawn(state: ChojinState, event: CombatCardsDrawn, seq: int) -> ChojinState:
    assert state.combat is not None
    hands = state.combat.hands
    cards = list(event.secret.cards) if event.secret is not None else []
    hand = [*hands.get(event.fighter, ()), *cards]
    deck = list(state.combat.deck[event.count :])
    return combat(state, step="hands", deck=deck, hands={**hands, event.fighter: hand})


@CHOJIN_LOCKE.says_named(CombatCardsDrawn)
def _combat_cards_drawn_line(e: CombatCardsDrawn, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names), "count": e.count}
    if e.secret is None:
        return Message(N_("{fighter}がCカードを{count}枚引く"), said)
    return Message(
        N_("{fighter}がCカードを{count}枚引く: {cards}"),
        {**said, "cards": named_all(e.secret.cards)},
    )


# ----------------------------------------------------------------------------- initiative (5)


@CHOJIN_LOCKE.event
class InitiativeDealt(Event):
    """5.1 (5): one playing card each, face up, from a fresh shuffle of the 20; black 1…10 then
    red 1…10. The shuffle is public: the cards are dealt face up."""

    round: int
    draw: ShuffleDraw
    cards: dict[int, PlayingCard]  # fighter → its card
    order: tuple[int, ...]


@CHOJIN_LOCKE.folds(InitiativeDealt)
def _initiative(state: ChojinState, event: InitiativeDealt, seq: int) -> ChojinState:
    assert state.combat is not None
    fighters = {
        n: f.model_copy(update={"initiative": event.cards.get(n), "acted": False})
        for n, f in state.combat.fighters.items()
    }
    return combat(
        state,
        step="turns",
        fighters=fighters,
        order=list(event.order),
        current=None,
        attacked=False,
        continuing={},
        discarding=[],
    )


@CHOJIN_LOCKE.says_named(InitiativeDealt)
def _initiative_dealt_line(e: InitiativeDealt, names: Names) -> Message:
    ranked = [n for n in e.order if n in e.cards] + [n for n in e.cards if n not in e.order]
    cards: str | Message = ""  # each fighter's card, the rest after it
    for n in reversed(ranked):
        said = {
            "fighter": fighter_words(n, names),
            "card": card_words(e.cards[n].color, e.cards[n].rank),
        }
        cards = (
            Message(N_("{fighter} {card}, {more}"), {**said, "more": cards})
            if cards
            else Message(N_("{fighter} {card}"), said)
        )
    return Message(
        N_("{round}ラウンド目のイニシアチブ: {cards} (行動順 {order})"),
        {"round": e.round, "cards": cards, "order": fighters_words(e.order, names)},
    )


# ----------------------------------------------------------------------------- combat turns (6)


@CHOJIN_LOCKE.event
class CombatTurnBegun(Event):
    """5.2: `fighter`'s combat turn, at its check phase. `check_only`: it joined an attack by
    同調 this round (5.5: 「チェックフェイズ以外の全てのフェイズがスキップされます」)."""

    fighter: int
    check_only: bool = False


@CHOJIN_LOCKE.folds(CombatTurnBegun)
def _turn_begun(state: ChojinState, event: CombatTurnBegun, seq: int) -> ChojinState:
    return combat(
        state,
        current=event.fighter,
        phase="check",
        main_done=False,
        converted=[],
        supported=[],
        turn_actions=[],
    )


@CHOJIN_LOCKE.says_named(CombatTurnBegun)
def _combat_turn_begun_line(e: CombatTurnBegun, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names)}
    if e.check_only:
        return Message(N_("{fighter}の戦闘手番 (同調済み: チェックフェイズのみ)"), said)
    return Message(N_("{fighter}の戦闘手番"), said)


@CHOJIN_LOCKE.event
class CombatPhaseEntered(Event):
    fighter: int
    phase: CombatPhase


@CHOJIN_LOCKE.folds(CombatPhaseEntered)
def _phase(state: ChojinState, event: CombatPhaseEntered, seq: int) -> ChojinState:
    return combat(state, phase=event.phase)


@CHOJIN_LOCKE.says_named(CombatPhaseEntered)
def _combat_phase_entered_line(e: CombatPhaseEntered, names: Names) -> Message:
    return Message(
        N_("{fighter} {phase}"),
        {"fighter": fighter_words(e.fighter, names), "phase": COMBAT_PHASES[e.phase]},
    )


@CHOJIN_LOCKE.event
class CombatTurnEnded(Event):
    fighter: int


@CHOJIN_LOCKE.folds(CombatTurnEnded)
def _turn_ended(state: ChojinState, event: CombatTurnEnded, seq: int) -> ChojinState:
    assert state.combat is not None
    if event.fighter in state.combat.fighters:
        state = fighter(state, event.fighter, acted=True)
    return combat(state, current=None, main_done=False)


@CHOJIN_LOCKE.says_named(CombatTurnEnded)
def _combat_turn_ended_line(e: CombatTurnEnded, names: Names) -> Message:
    return Message(N_("{fighter}の戦闘手番終了"), {"fighter": fighter_words(e.fighter, names)})


def main_action_taken(state: ChojinState) -> ChojinState:
    """For folds of a main action (5.2: 「主要行動は1手番中に1回しか行えません。」)."""
    return combat(state, main_done=True)


def attack_made(state: ChojinState) -> ChojinState:
    """For folds of an attack action, a misfire included (5.4 1.: 「攻撃が不発になった場合でも
    攻撃行動としては扱われます。」): the round saw an attack."""
    return combat(main_action_taken(state), attacked=True)


@CHOJIN_LOCKE.event
class CombatPassed(Event):
    """5.2 主要行動 パス: 「パスとは何もしないことです。」"""

    fighter: int


@CHOJIN_LOCKE.folds(CombatPassed)
def _passed(state: ChojinState, event: CombatPassed, seq: int) -> ChojinState:
    return main_action_taken(state)


@CHOJIN_LOCKE.says_named(CombatPassed)
def _combat_passed_line(e: CombatPassed, names: Names) -> Message:
    return Message(N_("{fighter}: パス"), {"fighter": fighter_words(e.fighter, names)})


def _to_discard(state: ChojinState, seat: int, cards: tuple[str, ...]) -> ChojinState:
    """`cards` leave `seat`'s hand for the discard pile, face down (their indices in the pile
    are kept so the view shows them as backs)."""
    assert state.combat is not None
    hand: list[str] = list(state.combat.hands.get(seat, ()))
    for card in cards:
        hand = without(hand, card)
    start = len(state.combat.discard)
    return combat(
        state,
        hands={**state.combat.hands, seat: hand},
        discard=[*state.combat.discard, *cards],
        face_down=[*state.combat.face_down, *range(start, start + len(cards))],
    )


@CHOJIN_LOCKE.event
class CombatCardDiscarded(Event):
    """5.2 主要行動: one C-card from the hand to the discard pile, face down
    (「捨て札に置いたコンバットカードは公開しなくても構いません。」): which card is sealed to
    its seat."""

    fighter: int
    secret: CardBody | None = None


@CHOJIN_LOCKE.folds(CombatCardDiscarded)
def _discarded(state: ChojinState, event: CombatCardDiscarded, seq: int) -> ChojinState:
    state = main_action_taken(state)
    if event.secret is None:
        return state
    return _to_discard(state, event.fighter, (event.secret.card,))


@CHOJIN_LOCKE.says_named(CombatCardDiscarded)
def _combat_card_discarded_line(e: CombatCardDiscarded, names: Names) -> Message:
    fighter = fighter_words(e.fighter, names)
    if e.secret is None:
        return Message(N_("{fighter}がCカードを1枚伏せて捨てる"), {"fighter": fighter})
    return Message(
        N_("{fighter}がCカードを1枚伏せて捨てる: {card}"),
        {"fighter": fighter, "card": named(e.secret.card)},
    )


# ----------------------------------------------------------------------------- round end (7)


@CHOJIN_LOCKE.event
class CombatRoundEnding(Event):
    """5.1 (7): every combat turn of the round is over; the continuation check follows."""

    round: int
    attacked: bool
    waiting: tuple[int, ...]  # the character fighters asked whether they go on


@CHOJIN_LOCKE.folds(CombatRoundEnding)
def _round_ending(state: ChojinState, event: CombatRoundEnding, seq: int) -> ChojinState:
    return combat(state, step="round_end", current=None, continuing={}, discarding=[])


@CHOJIN_LOCKE.says(CombatRoundEnding)
def _combat_round_ending_line(e: CombatRoundEnding) -> Message:
    said = {"round": e.round}
    if e.attacked:
        return Message(N_("{round}ラウンド目終了 (攻撃行動あり)"), said)
    return Message(N_("{round}ラウンド目終了 (攻撃行動なし)"), said)


@CHOJIN_LOCKE.event
class ContinueAnswered(Event):
    """5.1 (7)②: a fighter says whether it wants to go on fighting."""

    fighter: int
    go_on: bool


@CHOJIN_LOCKE.folds(ContinueAnswered)
def _continue(state: ChojinState, event: ContinueAnswered, seq: int) -> ChojinState:
    assert state.combat is not None
    return combat(state, continuing={**state.combat.continuing, event.fighter: event.go_on})


@CHOJIN_LOCKE.says_named(ContinueAnswered)
def _continue_answered_line(e: ContinueAnswered, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names)}
    if e.go_on:
        return Message(N_("{fighter}: 戦闘を続ける"), said)
    return Message(N_("{fighter}: 戦闘を続けない"), said)


@CHOJIN_LOCKE.event
class CombatContinues(Event):
    """5.1 (7)③: the combat goes on; `waiting` are the fighters at or over their hand limit,
    who discard down (and may discard one more)."""

    round: int
    waiting: tuple[int, ...]


@CHOJIN_LOCKE.folds(CombatContinues)
def _continues(state: ChojinState, event: CombatContinues, seq: int) -> ChojinState:
    return combat(state, discarding=list(event.waiting))


@CHOJIN_LOCKE.says_named(CombatContinues)
def _combat_continues_line(e: CombatContinues, names: Names) -> Message:
    if not e.waiting:
        return Message(N_("戦闘継続"))
    return Message(
        N_("戦闘継続 (手札を捨てる: {fighters})"), {"fighters": fighters_words(e.waiting, names)}
    )


@CHOJIN_LOCKE.event
class HandDiscardedDown(Event):
    """5.1 (7)③: cards discarded face down at the round end; how many public, which sealed."""

    fighter: int
    count: int
    secret: CardsBody | None = None


@CHOJIN_LOCKE.folds(HandDiscardedDown)
def _discarded_down(state: ChojinState, event: HandDiscardedDown, seq: int) -> ChojinState:
    assert state.combat is not None
    state = combat(state, discarding=without(state.combat.discarding, event.fighter))
    if event.secret is None:
        return state
    return _to_discard(state, event.fighter, event.secret.cards)


@CHOJIN_LOCKE.says_named(HandDiscardedDown)
def _hand_discarded_down_line(e: HandDiscardedDown, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names), "count": e.count}
    if e.secret is None or not e.secret.cards:
        return Message(N_("{fighter}が手札を{count}枚伏せて捨てる"), said)
    return Message(
        N_("{fighter}が手札を{count}枚伏せて捨てる: {cards}"),
        {**said, "cards": named_all(e.secret.cards)},
    )


@CHOJIN_LOCKE.event
class CombatRoundBegun(Event):
    """5.1: after (7), back to (2) コマ移動 for the next round."""

    round: int


@CHOJIN_LOCKE.folds(CombatRoundBegun)
def _round_begun(state: ChojinState, event: CombatRoundBegun, seq: int) -> ChojinState:
    # 6.1 l.1259: cards an ESPジャマー sent back are usable again after the round end
    return combat(state, round=event.round, step="moving", continuing={}, discarding=[], locked={})


@CHOJIN_LOCKE.says(CombatRoundBegun)
def _combat_round_begun_line(e: CombatRoundBegun) -> Message:
    return Message(N_("戦闘 {round}ラウンド目: コマ移動フェイズ"), {"round": e.round})


# ----------------------------------------------------------------------------- the end


@CHOJIN_LOCKE.event
class CombatEnded(Event):
    """5.1: the combat is over. Every C-card is collected (the deck is rebuilt and shuffled
    afresh at the next combat), spent ESP power comes back, and in 惑星編 the base players'
    pieces leave the board (4.5, l.754: 「惑星編では戦闘終了時に基地プレイヤーのキャラクターの
    コマは取り除かれます。」)."""

    reason: EndReason
    round: int


@CHOJIN_LOCKE.folds(CombatEnded)
def _ended(state: ChojinState, event: CombatEnded, seq: int) -> ChojinState:
    fought = state.combat
    if fought is None:
        return state
    leavers = _leavers(state, fought)
    changed = []
    for f in fought.fighters.values():
        if f.seat is None or f.seat not in state.players:
            continue
        someone = state.players[f.seat]
        # 5.7 l.1121–1122: a leaver that moved keeps its spent power until its phases are over
        update: dict[str, object] = {} if f.seat in leavers else {"power_spent": 0}
        if fought.stage == "planet" and someone.side == "base":
            update["position"] = None
        changed.append(someone.model_copy(update=update))
    # 5.7: a combat started from a leaver's phases ends with the others' still to come; its own
    # leavers join them
    aftermath = state.aftermath
    if leavers:
        turn = state.turn
        earlier = aftermath or Aftermath(
            queue=[], ends_turn=turn is not None and turn.phase == "combat"
        )
        queue = [*earlier.queue, *(n for n in leavers if n not in earlier.queue)]
        hands = {**earlier.hands, **{n: list(fought.hands.get(n, ())) for n in leavers}}
        aftermath = earlier.model_copy(update={"queue": queue, "hands": hands})
    return players(state, *changed).model_copy(update={"combat": None, "aftermath": aftermath})


@CHOJIN_LOCKE.says(CombatEnded)
def _combat_ended_line(e: CombatEnded) -> Message:
    return Message(
        N_("戦闘終了 ({why}、{round}ラウンド目)"), {"why": COMBAT_ENDS[e.reason], "round": e.round}
    )


def _leavers(state: ChojinState, fought: Combat) -> list[int]:
    """5.7: the living characters that left the combat and moved their piece, in order from the
    turn player (l.1148–1149: 「ターンプレイヤーから近いプレイヤーから上記の処理を行います」:
    the turn player itself, then the next seats to its right as turns go)."""
    first = state.turn.seat if state.turn is not None else fought.started_by
    seats = [
        f.seat
        for f in fought.fighters.values()
        if f.left
        and f.moved
        and f.seat is not None
        and f.seat in state.players
        and state.players[f.seat].alive
        # L754: a base player's piece leaves 惑星編's board at the combat's end: no square to play
        and not (fought.stage == "planet" and state.players[f.seat].side == "base")
    ]
    return sorted(seats, key=lambda n: (n - first) % max(state.seats, 1))
