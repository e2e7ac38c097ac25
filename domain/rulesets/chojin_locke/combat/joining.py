"""5.1 (1) 戦闘参加フェイズ: characters away from the square, dead ones and onlookers roll 2D6 on
the catalog's charts to join the combat (seed lines 881–893).

「①実はそこにいたチェック 生存しており、戦闘予定地にいないキャラクターは
「実はそこにいたチェック」を行うことができます。」 「②実は生きていたチェック
死亡状態のキャラクターは「実は生きていたチェック」を行うことができます。」
「③実は参加していたチェック ゲームに参加していない人は参加プレイヤー全員の同意が得られた場合に
限り「実は参加していたチェック」を行うことができます。」「1人につきゲーム中に1回しか行えません。」

The rolls are the server's verifiable dice (or physical faces where the dice policy allows);
what a row does is typed in the catalog (cards.ChartRow: `joins`, `delay`, `revives`,
`remnant`, `firepower`, `endurance`), the rest of its text is the table's.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.model.table import Rolled
from domain.rulesets.chojin_locke.board import key
from domain.rulesets.chojin_locke.cards import Chart, ChartRow
from domain.rulesets.chojin_locke.combat.joining_events import (
    ArrivedOnSquare,
    JoinAnswered,
    JoinChecked,
    JoinedCombat,
    JoinKind,
    JoinRequested,
    RemnantsLeft,
)
from domain.rulesets.chojin_locke.combat.state import NPC_IDS_START, Combat, Fighter
from domain.rulesets.chojin_locke.fields import FACES, Faces
from domain.rulesets.chojin_locke.grid import cell_key
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player

THERE_CHART = "実はそこにいたチャート"
ALIVE_CHART = "実は生きていたチャート"
JOINED_CHART = "実は参加していたチャート"
REMNANT_CHART = "残留思念チャート"
CHARTS: dict[str, str] = {"there": THERE_CHART, "alive": ALIVE_CHART, "joined": JOINED_CHART}


def combat_step(state: ChojinState, *steps: str) -> Combat:
    """The running combat, at one of `steps` (5.1's flow)."""
    fight = state.combat
    if fight is None:
        raise RuleViolation("no_combat", "No combat is running.")
    if fight.step not in steps:
        raise RuleViolation(
            "wrong_combat_step",
            "This is not possible now (the combat is at: {step}).",
            params={"step": fight.step},
        )
    return fight


def square_of(state: ChojinState, one: Player) -> str | None:
    """The board key of the square the piece stands on (惑星編 or inside the base), if any."""
    if state.stage == "base":
        return cell_key(one.cell) if one.cell is not None else None
    return key(one.position.planet, one.position.square) if one.position is not None else None


def fighter_name(one: Player) -> str:
    """A character's name once its sheet is open, else its seat (flow_events.fighter_name)."""
    if one.sheet_open and one.sheet is not None:
        return one.sheet.name
    return f"Seat {one.seat}"


def present(fight: Combat, fighter: Fighter) -> bool:
    """Has the fighter arrived (rule 71: a delayed arrival joins at its `joined_round`)?"""
    return fighter.joined_round <= fight.round


def arrivals(state: ChojinState) -> list[Draft]:
    """5.1 (2) コマ移動: the pieces of the characters joining this round move onto the square."""
    fight = state.combat
    assert fight is not None
    return [
        Draft(ArrivedOnSquare(seat=f.seat, square=fight.square))
        for _, f in sorted(fight.fighters.items())
        if f.kind == "character"
        and f.seat is not None
        and f.joined_round == fight.round
        and not f.left
        and square_of(state, state.players[f.seat]) != fight.square
    ]


def remnants_leave(state: ChojinState) -> list[Draft]:
    """6.1 l.1187: the 残留思念 that fought this round leave at its end."""
    fight = state.combat
    assert fight is not None
    leaving = tuple(
        n
        for n, f in sorted(fight.fighters.items())
        if f.kind == "remnant" and not f.left and present(fight, f)
    )
    return [Draft(RemnantsLeft(ids=leaving))] if leaving else []


def next_npc_id(fight: Combat, taken: int = 0) -> int:
    """The next free id from 101 (NPCs, obstacles, 残留思念, onlookers); `taken` more reserved."""
    highest = max((i for i in fight.fighters if i >= NPC_IDS_START), default=NPC_IDS_START - 1)
    return highest + 1 + taken


def _chart(state: ChojinState, name: str) -> Chart:
    chart = state.catalog.chart(name)
    if chart is None:
        raise RuleViolation(
            "no_chart",
            "The catalog has no {name}: the table resolves this check by hand.",
            params={"name": name},
        )
    return chart


def _read(chart: Chart, rolled: Rolled) -> tuple[int, ChartRow]:
    total = sum(rolled.faces)
    return total, chart.lookup(total)


@CHOJIN_LOCKE.command("join_check")
class JoinCheck(Command):
    """戦闘参加フェイズ: `there` (実はそこにいた: your living character away from the square),
    `alive` (実は生きていた: your dead character), `joined` (実は参加していた: the host asks it for
    an onlooker named `person`, once per person per game; every player answers `answer_join`)."""

    check: JoinKind
    person: str | None = Field(default=None, min_length=1, max_length=40)
    faces: Faces = FACES
    remnant_faces: Faces = Field(
        default=None, max_length=2, description="実は生きていた: physical dice for 残留思念チャート"
    )


@CHOJIN_LOCKE.decides(JoinCheck)
def join_check(t: ChojinTable, command: JoinCheck, actor: str) -> list[Draft]:
    state = playing(t)
    fight = combat_step(state, "joining")
    if command.check == "joined":
        return _request(t, state, fight, command, actor)
    if command.person is not None:
        raise RuleViolation("person_only_joined", "Only 実は参加していた names a person.")
    number = t.seat_of(actor)
    one = state.players.get(number)
    if one is None or one.sheet is None:
        raise RuleViolation("no_character", "You have no character.")
    if number in fight.fighters:
        raise RuleViolation("already_fighting", "Your character is in this combat already.")
    if number in fight.join_checked:
        raise RuleViolation("already_checked", "You have made your check for this combat.")
    if command.check == "there":
        return _there(t, state, fight, one, command.faces)
    return _alive(t, state, fight, one, command.faces, command.remnant_faces)


def _there(
    t: ChojinTable, state: ChojinState, fight: Combat, one: Player, faces: Faces
) -> list[Draft]:
    """① 実はそこにいた: living, away from the square; a partner cannot (4.4 l.720–721: パートナー
    状態 「実はそこにいたチェックを行うことができません」); a leader's partners come along (6.1
    l.1231)."""
    if not one.alive:
        raise RuleViolation("character_dead", "A dead character makes 実は生きていたチェック.")
    if not one.active:
        raise RuleViolation("cannot_act", "Your character can no longer act.")
    if one.condition == "partner":
        raise RuleViolation(
            "partner_cannot_check", "A partner does not make 実はそこにいたチェック (4.4)."
        )
    if square_of(state, one) == fight.square:
        raise RuleViolation("on_the_square", "Your character is on the combat's square.")
    chart = _chart(state, THERE_CHART)
    rolled = t.dice.roll("2D6", faces)
    total, row = _read(chart, rolled)
    checked = JoinChecked(
        check="there",
        seat=one.seat,
        roll=rolled.record,
        total=total,
        result=row.result,
        joins=row.joins,
        delay=row.delay,
    )
    drafts = [Draft(checked)]
    if row.joins:
        arriving = fight.round + row.delay
        for number in state.party_of(one.seat):
            member = state.players[number]
            if number in fight.fighters or not member.active:
                continue
            drafts.append(
                Draft(
                    JoinedCombat(
                        id=number,
                        name=fighter_name(member),
                        seat=number,
                        joined_round=arriving,
                    )
                )
            )
    return drafts


def _alive(
    t: ChojinTable,
    state: ChojinState,
    fight: Combat,
    one: Player,
    faces: Faces,
    remnant_faces: Faces,
) -> list[Draft]:
    """② 実は生きていた: a dead character; 3–5 (the catalog's `remnant` rows) sends a 残留思念
    whose 火力 the 残留思念チャート decides (6.1 l.1182–1186)."""
    if one.alive:
        raise RuleViolation(
            "character_alive", "Only a dead character makes 実は生きていたチェック."
        )
    chart = _chart(state, ALIVE_CHART)
    rolled = t.dice.roll("2D6", faces)
    total, row = _read(chart, rolled)
    remnant_roll = None
    remnant_result = ""
    firepower = 0
    if row.remnant:
        second = t.dice.roll("2D6", remnant_faces)
        _second_total, remnant_row = _read(_chart(state, REMNANT_CHART), second)
        remnant_roll, remnant_result, firepower = (
            second.record,
            remnant_row.result,
            remnant_row.firepower,
        )
    checked = JoinChecked(
        check="alive",
        seat=one.seat,
        roll=rolled.record,
        total=total,
        result=row.result,
        joins=row.joins,
        delay=row.delay,
        revives=row.revives,
        remnant=row.remnant,
        remnant_roll=remnant_roll,
        remnant_result=remnant_result,
        firepower=firepower,
    )
    drafts = [Draft(checked)]
    arriving = fight.round + row.delay
    if row.joins and row.revives:
        joined = JoinedCombat(
            id=one.seat, name=fighter_name(one), seat=one.seat, joined_round=arriving
        )
        drafts.append(Draft(joined))
    if row.remnant:
        remnant = JoinedCombat(
            id=next_npc_id(fight),
            name=f"残留思念 ({fighter_name(one)})",
            kind="remnant",
            seat=one.seat,
            joined_round=arriving,
            firepower=firepower,
        )
        drafts.append(Draft(remnant))
    return drafts


def _request(
    t: ChojinTable, state: ChojinState, fight: Combat, command: JoinCheck, actor: str
) -> list[Draft]:
    """③ 実は参加していた: an onlooker has no seat, so the host (or GM) asks for the named person
    (ruling CL-067); every player must consent."""
    t.referee_only(actor, "ask 実は参加していたチェック for an onlooker")
    person = (command.person or "").strip()
    if not person:
        raise RuleViolation("person_required", "Name the onlooker who makes the check.")
    if person in state.joined_persons:
        raise RuleViolation(
            "person_checked",
            "{person} has made 実は参加していたチェック in this game already.",
            params={"person": person},
        )
    if fight.join_request is not None:
        raise RuleViolation(
            "join_request_pending", "An earlier 実は参加していたチェック waits for its answers."
        )
    _chart(state, JOINED_CHART)
    waiting = tuple(sorted(state.players))
    return [Draft(JoinRequested(person=person, waiting=waiting))]


@CHOJIN_LOCKE.command("answer_join")
class AnswerJoin(Command):
    """Consent (or not) to an onlooker's 実は参加していたチェック; one refusal cancels it."""

    consents: bool
    faces: Faces = FACES


@CHOJIN_LOCKE.decides(AnswerJoin)
def answer_join(t: ChojinTable, command: AnswerJoin, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    fight = combat_step(state, "joining")
    request = fight.join_request
    if request is None or number not in request.waiting:
        raise RuleViolation("no_answer_due", "No 実は参加していたチェック waits for your answer.")
    answered = Draft(JoinAnswered(seat=number, consents=command.consents))
    if not command.consents or len(request.waiting) > 1:
        return [answered]
    # everyone consented: the onlooker rolls (the last consent's faces, if physical dice)
    rolled = t.dice.roll("2D6", command.faces)
    total, row = _read(_chart(state, JOINED_CHART), rolled)
    checked = JoinChecked(
        check="joined",
        person=request.person,
        roll=rolled.record,
        total=total,
        result=row.result,
        joins=row.joins,
        delay=row.delay,
        firepower=row.firepower,
    )
    drafts = [answered, Draft(checked)]
    if row.joins:
        onlooker = JoinedCombat(
            id=next_npc_id(fight),
            name=request.person,
            kind="obstacle",
            joined_round=fight.round + row.delay,
            firepower=row.firepower,
            members=(max(row.endurance, 1),),
        )
        drafts.append(Draft(onlooker))
    return drafts
