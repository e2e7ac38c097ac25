"""6.1 気絶状態 (fainting): a character that faints does nothing until its rounds are over.

l.1264–1270: 「気絶状態とは戦闘中に気絶している状態を表す用語です。気絶状態のキャラクターはあらゆる
行動・チェックを行うことができません。自分の戦闘手番の行動はもちろん、相手の行動に対する[対抗(X)]も
行うことができません。気絶状態は指定されたラウンド数が経過するまで持続します。“2ラウンドの間気絶状態に
なる”という効果の場合、次のラウンドのラウンド終了時まで気絶状態が継続します。気絶状態であっても手札の
枚数が手札上限枚数より少ない場合、手札の補充は行われます。」 3.1 l.317: a [常動] ability
「たとえ気絶状態であったとしても失われず、効果が維持されます。」

What makes a character faint is a card's or chart's text (not in the seeds): the host applies it
(`faint`). Its effects are run where the fighter would act (ruling CL-084): its combat turns are
skipped (combat/conditions.py), an attack on it is hit at once (combat/activation.at_response),
it is asked for no 同調, makes no 反撃 and no (stat) check, is not asked at the round end and
still draws to its limit; it wakes at the end of its last round (`FaintEnded`).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import fighter
from domain.rulesets.chojin_locke.combat.death import look_ahead
from domain.rulesets.chojin_locke.combat.flow import next_turn
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnEnded
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.round_end import running
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words


@CHOJIN_LOCKE.event
class Fainted(Event):
    """`fighter` falls into 気絶状態 for `rounds` rounds: through the end of round `until`
    (l.1268–1269). A defence it kept up falls (ruling CL-084); `reason`: the effect, as the host
    gives it."""

    fighter: int
    rounds: int
    until: int
    reason: str = ""


@CHOJIN_LOCKE.folds(Fainted)
def _fainted(state: ChojinState, event: Fainted, seq: int) -> ChojinState:
    if state.combat is None or event.fighter not in state.combat.fighters:
        return state
    return fighter(state, event.fighter, fainted_until=event.until, defence=None)


@CHOJIN_LOCKE.says_named(Fainted)
def _fainted_line(e: Fainted, names: Names) -> Message:
    said = {
        "fighter": fighter_words(e.fighter, names),
        "rounds": e.rounds,
        "until": e.until,
        "reason": e.reason,  # as the host typed it
    }
    if e.reason:
        return Message(
            N_("{fighter}が気絶状態 ({rounds}ラウンド、{until}ラウンド目終了まで): {reason}"), said
        )
    return Message(N_("{fighter}が気絶状態 ({rounds}ラウンド、{until}ラウンド目終了まで)"), said)


@CHOJIN_LOCKE.command("faint")
class Faint(Command):
    """Host: a character (a player's, or an エスパー NPC) in the combat falls into 気絶状態 for
    `rounds` rounds, this one included, as a card's or chart's text says."""

    fighter: int = Field(ge=1)
    rounds: int = Field(ge=1, le=99)
    reason: str = Field(default="", max_length=200)


@CHOJIN_LOCKE.decides(Faint)
def faint(t: ChojinTable, command: Faint, actor: str) -> list[Draft]:
    t.referee_only(actor, "make a fighter faint")
    state = playing(t)
    fight = running(state)
    someone = fight.fighters.get(command.fighter)
    if someone is None or someone.id not in {f.id for f in in_play(state)}:
        ids = ", ".join(str(f.id) for f in in_play(state))
        raise RuleViolation(
            "not_fighting", "Name a fighter in this combat ({ids}).", params={"ids": ids}
        )
    if someone.kind not in ("character", "esper"):
        # l.1265–1266: 「気絶状態のキャラクター」 — obstacles and 残留思念 are no characters (6.1)
        raise RuleViolation("not_a_character", "Only a character falls into 気絶状態 (6.1).")
    if fight.attack is not None:
        raise RuleViolation(
            "attack_pending", "The attack under way is resolved first; then the effect applies."
        )
    until = max(fight.round + command.rounds - 1, someone.fainted_until)
    event = Fainted(fighter=someone.id, rounds=command.rounds, until=until, reason=command.reason)
    drafts = [Draft(event)]
    if fight.step == "turns" and fight.current == someone.id:
        # l.1267: 「自分の戦闘手番の行動はもちろん」 — its combat turn ends here
        ended = [Draft(CombatTurnEnded(fighter=someone.id))]
        after = look_ahead(t, state, [*drafts, *ended])
        drafts += ended + next_turn(t, after, after=someone.id)
    return drafts
