"""4.3/4.4's events of a turn (phases, checks, moves, main and support actions, conditions)
and 4.2's endings, each with its fold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.model.events import Event
from domain.model.lifecycle_events import GameEnded, RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke import conversion, vigil
from domain.rulesets.chojin_locke.board import key, twin_beside
from domain.rulesets.chojin_locke.cards import CharacterSheet
from domain.rulesets.chojin_locke.changes import (
    board,
    combat,
    fighter_gone,
    player,
    players,
    turn,
    without,
)
from domain.rulesets.chojin_locke.phases import turn_phases
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import (
    ChojinState,
    Ending,
    EndReason,
    Player,
    Position,
    Turn,
    Victory,
)
from domain.rulesets.chojin_locke.words import (
    ACTIONS,
    CONDITIONS,
    ENDINGS,
    MOVES,
    NOBODY,
    PHASES,
    PURPOSES,
    STAGE_ENDS,
    STATS,
    named,
    place_words,
    roll_words,
    seat_words,
    seats_words,
    sheet_words,
    success_word,
)


@CHOJIN_LOCKE.event
class PhaseEntered(Event):
    seat: int
    phase: str


@CHOJIN_LOCKE.folds(PhaseEntered)
def _phase(state: ChojinState, event: PhaseEntered, seq: int) -> ChojinState:
    assert state.turn is not None
    return turn(state, phase=event.phase)


@CHOJIN_LOCKE.says_named(PhaseEntered)
def _phase_entered_line(e: PhaseEntered, names: Names) -> Message:
    return Message(
        N_("{seat} {phase}"),
        {"seat": seat_words(e.seat, names), "phase": PHASES.get(e.phase) or e.phase},
    )


@CHOJIN_LOCKE.event
class TurnBegun(Event):
    seat: int
    number: int
    skipped: tuple[int, ...] = ()  # seats passed over (dead, base players in 惑星編 …)


@CHOJIN_LOCKE.folds(TurnBegun)
def _turn_begun(state: ChojinState, event: TurnBegun, seq: int) -> ChojinState:
    bound = state.players[event.seat].condition == "bound"
    begun = Turn(
        seat=event.seat,
        number=event.number,
        phase=turn_phases(state.rules)[0],
        bound=bound,
        # 2020 only: the 2002 turn forces a combat instead (ch. 9), which is not run
        must_pass=state.rules == "2020" and twin_beside(state, event.seat),
    )
    return vigil.turn_begun(state.model_copy(update={"turn": begun}))


@CHOJIN_LOCKE.says_named(TurnBegun)
def _turn_begun_line(e: TurnBegun, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names), "number": e.number}
    if e.skipped:
        return Message(
            N_("{seat}の手番 ({number}) (飛ばす: {skipped})"),
            {**said, "skipped": seats_words(e.skipped, names)},
        )
    return Message(N_("{seat}の手番 ({number})"), said)


@CHOJIN_LOCKE.event
class Checked(Event):
    """A declared value and the roll it decided. The truth is on the sealed sheet."""

    seat: int
    purpose: Literal["check", "teleport", "conversion", "intrusion"]
    stat: Literal["esp_level", "esp_power", "endurance", "willpower"]
    declared: int
    roll: RollRecord | None = None
    success: bool
    reason: str = ""


@CHOJIN_LOCKE.folds(Checked)
def _checked(state: ChojinState, event: Checked, seq: int) -> ChojinState:
    if event.purpose in ("teleport", "intrusion") and state.turn is not None:
        state = turn(state, main=event.purpose)
    if event.purpose == "intrusion" and not event.success:
        failures = state.players[event.seat].intrusion_failures + 1
        state = player(state, event.seat, intrusion_failures=failures)
    return state


@CHOJIN_LOCKE.says_named(Checked)
def _checked_line(e: Checked, names: Names) -> Message:
    return Message(
        N_("{seat}: {stat}{declared}を宣言、{purpose}{outcome}{roll}{reason}"),
        {
            "seat": seat_words(e.seat, names),
            "stat": STATS[e.stat],
            "declared": e.declared,
            "purpose": PURPOSES[e.purpose],
            "outcome": success_word(e.success),
            "roll": Message(N_(" [{roll}]"), {"roll": roll_words(e.roll)}) if e.roll else "",
            "reason": f" ({e.reason})" if e.reason else "",  # as the host typed it
        },
    )


@CHOJIN_LOCKE.event
class Moved(Event):
    seat: int
    how: Literal["move", "spaceport", "teleport"]
    to: Position


@CHOJIN_LOCKE.folds(Moved)
def _moved(state: ChojinState, event: Moved, seq: int) -> ChojinState:
    party = state.party_of(event.seat)  # partners move with their leader
    moved = [state.players[s].model_copy(update={"position": event.to}) for s in party]
    return turn(players(state, *moved), main=event.how)


@CHOJIN_LOCKE.says_named(Moved)
def _moved_line(e: Moved, names: Names) -> Message:
    return Message(
        N_("{seat}: {how} → {place}"),
        {"seat": seat_words(e.seat, names), "how": MOVES[e.how], "place": place_words(e.to)},
    )


@CHOJIN_LOCKE.event
class Acted(Event):
    """A main action without a roll: 回復, 治療, パス."""

    seat: int
    action: Literal["recover", "treat", "pass", "teleport_failed"]
    stat: str | None = None
    target: int | None = None


@CHOJIN_LOCKE.folds(Acted)
def _acted(state: ChojinState, event: Acted, seq: int) -> ChojinState:
    state = turn(state, main=event.action)
    if event.action == "recover":
        actor = state.players[event.seat]
        if event.stat == "endurance":
            return player(state, event.seat, endurance_damage=max(actor.endurance_damage - 1, 0))
        return player(state, event.seat, willpower_damage=max(actor.willpower_damage - 1, 0))
    if event.action == "treat" and event.target is not None:
        treated = state.players[event.target]
        return player(state, event.target, endurance_damage=max(treated.endurance_damage - 1, 0))
    return state


@CHOJIN_LOCKE.says_named(Acted)
def _acted_line(e: Acted, names: Names) -> Message:
    said: dict[str, object] = {"seat": seat_words(e.seat, names), "action": ACTIONS[e.action]}
    if e.stat:
        said["stat"] = STATS.get(e.stat) or e.stat
    if e.target is not None:
        said["target"] = seat_words(e.target, names)
    if e.stat and e.target is not None:
        return Message(N_("{seat}: {action} {stat} → {target}"), said)
    if e.stat:
        return Message(N_("{seat}: {action} {stat}"), said)
    if e.target is not None:
        return Message(N_("{seat}: {action} → {target}"), said)
    return Message(N_("{seat}: {action}"), said)


@CHOJIN_LOCKE.event
class EscapeChecked(Event):
    seat: int
    modifier: int
    roll: RollRecord
    total: int
    result: str
    escaped: bool


@CHOJIN_LOCKE.folds(EscapeChecked)
def _escape(state: ChojinState, event: EscapeChecked, seq: int) -> ChojinState:
    state = turn(state, main="escape")
    if event.escaped:
        return player(state, event.seat, condition="normal", prison_failures=0)
    failures = state.players[event.seat].prison_failures + 1
    return player(state, event.seat, prison_failures=failures)


@CHOJIN_LOCKE.says_named(EscapeChecked)
def _escape_checked_line(e: EscapeChecked, names: Names) -> Message:
    said = {
        "seat": seat_words(e.seat, names),
        "modifier": format(e.modifier, "+d"),
        "total": e.total,
        "result": named(e.result),
        "roll": roll_words(e.roll),
    }
    if e.escaped:
        return Message(N_("{seat} 脱出判定 ({modifier}) 計{total}: {result} — 脱出 [{roll}]"), said)
    return Message(
        N_("{seat} 脱出判定 ({modifier}) 計{total}: {result} — 脱出できず [{roll}]"), said
    )


@CHOJIN_LOCKE.event
class SquareTurned(Event):
    seat: int
    planet: int
    square: int
    card: str
    kind: str
    text: str = ""


@CHOJIN_LOCKE.folds(SquareTurned)
def _turned(state: ChojinState, event: SquareTurned, seq: int) -> ChojinState:
    square = key(event.planet, event.square)
    face_down = {k: v for k, v in state.board.cards.items() if k != square}
    if event.kind == "info":  # the explorer takes 情報入手
        state = player(state, event.seat, info=state.players[event.seat].info + 1)
        return board(state, cards=face_down)
    return board(state, cards=face_down, turned={**state.board.turned, square: event.card})


@CHOJIN_LOCKE.says_named(SquareTurned)
def _square_turned_line(e: SquareTurned, names: Names) -> Message:
    """The card by its name, the rulebook's word (情報入手, 白紙, 待ち伏せ…): its `kind` is
    the catalog's id, read by the rules, never by people."""
    said: dict[str, object] = {
        "seat": seat_words(e.seat, names),
        "planet": e.planet,
        "square": e.square,
        "card": named(e.card),
    }
    if e.text:
        return Message(
            N_("{seat}が惑星{planet}のマス{square}をめくる: {card} {text}"),
            {**said, "text": named(e.text)},
        )
    return Message(N_("{seat}が惑星{planet}のマス{square}をめくる: {card}"), said)


@CHOJIN_LOCKE.event
class SheetOpened(Event):
    seat: int
    sheet: CharacterSheet
    faction: str


@CHOJIN_LOCKE.folds(SheetOpened)
def _opened(state: ChojinState, event: SheetOpened, seq: int) -> ChojinState:
    return player(state, event.seat, sheet_open=True)


@CHOJIN_LOCKE.says_named(SheetOpened)
def _sheet_opened_line(e: SheetOpened, names: Names) -> Message:
    return Message(
        N_("{seat}がシートを公開: {sheet} — {faction}"),
        {"seat": seat_words(e.seat, names), "sheet": sheet_words(e.sheet), "faction": e.faction},
    )


@CHOJIN_LOCKE.event
class Converted(Event):
    seat: int
    target: int
    faction: str  # the converter's faction: the flag the target gains
    success: bool


@CHOJIN_LOCKE.folds(Converted)
def _converted(state: ChojinState, event: Converted, seq: int) -> ChojinState:
    current = state.turn
    assert current is not None
    if state.combat is not None:  # 4.3's once per target per turn: per combat turn in a combat
        state = combat(state, converted=[*state.combat.converted, event.target])
    elif state.aftermath is not None:  # 5.7: a leaver's 支援フェイズ
        after = state.aftermath
        changed = after.model_copy(update={"converted": [*after.converted, event.target]})
        state = state.model_copy(update={"aftermath": changed})
    else:
        state = turn(state, converted=[*current.converted, event.target])
    target = conversion.apply(state.players[event.target], event.faction, event.success)
    return players(state, target)


@CHOJIN_LOCKE.says_named(Converted)
def _converted_line(e: Converted, names: Names) -> Message:
    return Message(
        N_("{seat}が{target}を{faction}に説得: {outcome}"),
        {
            "seat": seat_words(e.seat, names),
            "target": seat_words(e.target, names),
            "faction": e.faction,
            "outcome": success_word(e.success),
        },
    )


@CHOJIN_LOCKE.event
class VictoryDeclared(Event):
    seat: int
    faction: str
    sole: bool
    waiting: tuple[int, ...]


@CHOJIN_LOCKE.folds(VictoryDeclared)
def _declared(state: ChojinState, event: VictoryDeclared, seq: int) -> ChojinState:
    if event.faction == "E":
        state = vigil.start(state, event.seat)
    if not event.waiting:
        return state
    pending = Victory(seat=event.seat, faction=event.faction, waiting=list(event.waiting))
    return state.model_copy(update={"victory": pending})


@CHOJIN_LOCKE.says_named(VictoryDeclared)
def _victory_declared_line(e: VictoryDeclared, names: Names) -> Message:
    said = {
        "seat": seat_words(e.seat, names),
        "faction": e.faction,
        "waiting": seats_words(e.waiting, names) if e.waiting else NOBODY,
    }
    if e.sole:
        return Message(N_("{seat}が{faction}の単独勝利を宣言 (返答待ち: {waiting})"), said)
    return Message(N_("{seat}が{faction}の勝利を宣言 (返答待ち: {waiting})"), said)


@CHOJIN_LOCKE.event
class VictoryAnswered(Event):
    seat: int
    objects: bool


@CHOJIN_LOCKE.folds(VictoryAnswered)
def _answered(state: ChojinState, event: VictoryAnswered, seq: int) -> ChojinState:
    pending = state.victory
    if pending is None:
        return state
    if event.objects:
        return state.model_copy(update={"victory": None})
    waiting = [w for w in pending.waiting if w != event.seat]
    return state.model_copy(update={"victory": pending.model_copy(update={"waiting": waiting})})


@CHOJIN_LOCKE.says_named(VictoryAnswered)
def _victory_answered_line(e: VictoryAnswered, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names)}
    if e.objects:
        return Message(N_("{seat}: 異議あり"), said)
    return Message(N_("{seat}: 異議なし"), said)


def _discard(held: Sequence[str], face_up: Sequence[str]) -> list[str]:
    """The cards `held` without those face up (one each)."""
    kept = list(held)
    for card in face_up:
        kept = without(kept, card)
    return kept


def died(changed: Player, before: Player) -> Player:
    """What death does to a character (`changed`, already dead; `before`, as it was): shared
    by the host's set_condition and combat's deaths (combat/death.py)."""
    return changed.model_copy(
        update={
            # 4.3: 「改心フラグは…死亡すると失われます。」; the alignment itself stays
            # (3.1, line 199: 「改心によるアライメント変更は次に復活するまで持続され」),
            # so a converted character that dies is judged on its converted side
            "flags": [],
            # 4.7, line 846: 「キャラクターが死亡した時、そのキャラクターが所持している
            # 表向きの能力カードは全て破棄されます。」
            "abilities": _discard(before.abilities, before.face_up),
            "face_up": [],
            # 4.4: 「キャラクターが死亡した時、そのキャラクターのコマを盤上から取り除き」
            "position": None,
            "cell": None,
            "outside": False,
            # 3.1 l.361: a broken suit is unusable 「死亡するまで」: usable again once revived
            "suit_damage": 0,
            "suit_broken": False,
            "proxy_damage": 0,  # l.376: the same for a destroyed 代理
            "proxy_broken": False,
        }
    )


@CHOJIN_LOCKE.event
class ConditionSet(Event):
    """The host applies an effect the ruleset does not resolve itself (combat, card texts)."""

    seat: int
    condition: str
    endurance_damage: int
    willpower_damage: int
    reason: str


@CHOJIN_LOCKE.folds(ConditionSet)
def _condition(state: ChojinState, event: ConditionSet, seq: int) -> ChojinState:
    before = state.players[event.seat]
    changed = before.model_copy(
        update={
            "condition": event.condition,
            "endurance_damage": event.endurance_damage,
            "willpower_damage": event.willpower_damage,
        }
    )
    gone = not changed.alive
    if gone:
        changed = died(changed, before)
    elif not before.alive:
        # 3.1, line 199: 「復活した時に初期状態に戻ります。」
        changed = changed.model_copy(update={"step": 0, "flags": []})
    state = players(state, changed)
    if gone:
        state = fighter_gone(state, event.seat)  # a death during a combat: it leaves it
    if event.condition == "bound" and state.turn is not None and state.turn.seat == event.seat:
        state = turn(state, bound=True)  # the rest of this turn is skipped, released or not
    return state


@CHOJIN_LOCKE.says_named(ConditionSet)
def _condition_set_line(e: ConditionSet, names: Names) -> Message:
    said = {
        "seat": seat_words(e.seat, names),
        "condition": CONDITIONS.get(e.condition) or e.condition,
        "endurance": e.endurance_damage,
        "willpower": e.willpower_damage,
        "reason": e.reason,  # as the host typed it
    }
    if e.endurance_damage and e.willpower_damage:
        return Message(
            N_("{seat}: {condition} 耐久力-{endurance} 精神力-{willpower} ({reason})"), said
        )
    if e.endurance_damage:
        return Message(N_("{seat}: {condition} 耐久力-{endurance} ({reason})"), said)
    if e.willpower_damage:
        return Message(N_("{seat}: {condition} 精神力-{willpower} ({reason})"), said)
    return Message(N_("{seat}: {condition} ({reason})"), said)


@CHOJIN_LOCKE.event
class PlanetStageEnded(Event):
    reason: Literal["no_cards", "information", "explorers_dead"]


@CHOJIN_LOCKE.folds(PlanetStageEnded)
def _stage_ended(state: ChojinState, event: PlanetStageEnded, seq: int) -> ChojinState:
    changed = []
    for seat, someone in state.players.items():
        update: dict[str, object] = {"position": None}  # the pieces leave the planets
        # 4.5/6.1: whoever (or whose party) holds 3 or more may look at as many base sheets
        # as the 情報入手 they hold themselves
        pooled = sum(state.players[m].info for m in state.party_of(seat))
        if event.reason == "information" and someone.side == "explorer" and pooled >= 3:
            update["inspections"] = someone.info
        if someone.side == "base":  # 4.5: base players recover fully
            update.update(endurance_damage=0, willpower_damage=0)
        changed.append(someone.model_copy(update=update))
    return players(state, *changed).model_copy(update={"stage": "keys"})


@CHOJIN_LOCKE.says(PlanetStageEnded)
def _planet_stage_ended_line(e: PlanetStageEnded) -> Message:
    return Message(N_("惑星編終了: {why}"), {"why": STAGE_ENDS[e.reason]})


@CHOJIN_LOCKE.event
class GameOver(Event):
    reason: EndReason
    faction: str | None = None
    seat: int | None = None


@CHOJIN_LOCKE.folds(GameOver)
def _over(state: ChojinState, event: GameOver, seq: int) -> ChojinState:
    ending = Ending(reason=event.reason, faction=event.faction, seat=event.seat)
    return state.model_copy(update={"ending": ending, "stage": "over", "victory": None})


@CHOJIN_LOCKE.says_named(GameOver)
def _game_over_line(e: GameOver, names: Names) -> Message:
    said = {
        "ending": ENDINGS[e.reason],
        "faction": e.faction or "",
        "seat": seat_words(e.seat, names) if e.seat else "",
    }
    if e.faction and e.seat:
        return Message(N_("ゲーム終了: {ending} ({faction} {seat})"), said)
    if e.faction:
        return Message(N_("ゲーム終了: {ending} ({faction})"), said)
    if e.seat:
        return Message(N_("ゲーム終了: {ending} ({seat})"), said)
    return Message(N_("ゲーム終了: {ending}"), said)


@CHOJIN_LOCKE.folds(GameEnded)
def _game_ended(state: ChojinState, event: GameEnded, seq: int) -> ChojinState:
    """The host ended the game without a GameOver (4.2 names no reason for it)."""
    if state.ending is not None:
        return state
    return state.model_copy(update={"ending": Ending(reason="host"), "stage": "over"})
