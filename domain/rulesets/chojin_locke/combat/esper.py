"""6.2 エスパーの性質: an esper NPC (ランダム戦闘チャート's) in a combat — a character of the NPCs
with a hand, which the host brings in and plays, and the server decides as the seed says.

6.1 l.1169–1170: 「キャラクターとは手札を持つ戦闘参加者のことです。具体的には…エスパー、代理の
ことです。」 6.2 l.1320–1332: 「・エスパーはESP能力レベルとESPパワーを持っています。エスパーの
ESP能力レベルはランダム戦闘チャートによって決定されますが、ESPパワーは全てのエスパーが一律で
無限大です。エスパーに精神力は存在しません。・攻撃を行う場合、自分が使用できる最大LVかつ最大火力の
攻撃Cカードを優先して使用します。・防御Cカードを使用できる場合、必ず自分が使用できる最大LVの防御
Cカードを使用します。・防御Cカードによる防御を維持できる場合、必ず維持します。ただし、手札に攻撃
Cカードが無い場合は防御の維持は行いません。・逃避Cカードは使用しません。…」 l.1282–1288: its
target at random (惑星編: anyone; 秘密基地編: an explorer's character); 「NPCが何らかの要因で元々
規定されている攻撃を行えない場合、そのNPCは武器で攻撃する代わりに格闘攻撃を行います。」

`add_esper` (host) brings one in with the chart's ESP能力レベル and endurance; it draws a hand
like any character, sealed to nobody. In its combat turn the host walks its phases
(`combat_next`) and `esper_act` takes its main action: the server picks the card by 6.2 and the
target (named, or at random on the verifiable dice). Its answers to attacks are the server's too
(combat/npc.py). Rulings CL-085–CL-086.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat
from domain.rulesets.chojin_locke.combat import jammer, square_npc
from domain.rulesets.chojin_locke.combat.action_events import (
    CardActivated,
    DefenceDropped,
    MeleeDeclared,
)
from domain.rulesets.chojin_locke.combat.activation import at_response, in_combat
from domain.rulesets.chojin_locke.combat.flow import main_phase_turn
from domain.rulesets.chojin_locke.combat.flow_events import CombatPassed
from domain.rulesets.chojin_locke.combat.joining import combat_step, next_npc_id
from domain.rulesets.chojin_locke.combat.npc import best_attack, holds_attack, pick_target, struck
from domain.rulesets.chojin_locke.combat.state import Attack, Fighter
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, fighters_words, roll_words


@CHOJIN_LOCKE.event
class EsperJoined(Event):
    """An エスパー NPC joins the combat (6.2 l.1322–1324): its ESP能力レベル and endurance from
    ランダム戦闘チャート, its [格闘:X] (`shift`) if its text gives one; infinite ESP power, no
    精神力. It takes a hand in (4) like any character."""

    fighter: int
    name: str
    esp_level: int
    endurance: int
    shift: int = 0
    square: str | None = None  # brought by this square's effect (combat/square_npc.py)


@CHOJIN_LOCKE.folds(EsperJoined)
def _joined(state: ChojinState, event: EsperJoined, seq: int) -> ChojinState:
    assert state.combat is not None
    joined = Fighter(
        id=event.fighter,
        name=event.name,
        kind="esper",
        joined_round=state.combat.round,
        members=[event.endurance],
        esp_level=event.esp_level,
        shift=event.shift,
        from_square=event.square is not None,
    )
    joined_state = combat(state, fighters={**state.combat.fighters, event.fighter: joined})
    return square_npc.brought(joined_state, event.square)


@CHOJIN_LOCKE.says_named(EsperJoined)
def _esper_joined_line(e: EsperJoined, names: Names) -> Message:
    return Message(
        N_(
            "エスパー「{name}」が戦闘に参加 ({fighter}: ESP能力レベル{esp_level}、耐久力{endurance}"
            "{shift}{square}、ESPパワー無限大)"
        ),
        {
            "name": e.name,  # as the host typed it
            "fighter": fighter_words(e.fighter, names),
            "esp_level": e.esp_level,
            "endurance": e.endurance,
            "shift": Message(N_("、[格闘:{shift}]"), {"shift": e.shift}) if e.shift else "",
            "square": Message(N_("、マスの効果による")) if e.square is not None else "",
        },
    )


@CHOJIN_LOCKE.command("add_esper")
class AddEsper(Command):
    """Host: an エスパー NPC joins the combat before its hands are dealt (steps 戦闘参加,
    コマ移動, 戦闘前), as a square's or ランダム戦闘チャート's text says."""

    name: str = Field(min_length=1, max_length=100)
    esp_level: int = Field(ge=1, le=12)
    endurance: int = Field(ge=1, le=99)
    shift: int = Field(default=0, ge=0, le=12)
    square: bool = False  # the combat's square's effect brings it (6.2 l.1341–1344)


@CHOJIN_LOCKE.decides(AddEsper)
def add_esper(t: ChojinTable, command: AddEsper, actor: str) -> list[Draft]:
    t.referee_only(actor, "bring an エスパー into a combat")
    state = playing(t)
    # (4): 「新しく戦闘に参加したキャラクターはコンバットカードを手札上限枚数まで受け取ります。」
    fight = combat_step(state, "joining", "moving", "before")
    square = square_npc.check(state, fight) if command.square else None
    event = EsperJoined(
        fighter=next_npc_id(fight),
        name=command.name,
        esp_level=command.esp_level,
        endurance=command.endurance,
        shift=command.shift,
        square=square,
    )
    return [Draft(event)]


@CHOJIN_LOCKE.event
class NpcTargetChosen(Event):
    """An NPC's target for its main action (6.2 l.1282–1284): named by the host, or rolled
    (`roll`, 1D(len(`candidates`))) among the legal ones."""

    fighter: int
    target: int
    roll: RollRecord | None = None
    candidates: tuple[int, ...] = ()


@CHOJIN_LOCKE.folds(NpcTargetChosen)
def _chosen(state: ChojinState, event: NpcTargetChosen, seq: int) -> ChojinState:
    return state  # the record of the choice; the attack that follows changes the combat


@CHOJIN_LOCKE.says_named(NpcTargetChosen)
def _npc_target_chosen_line(e: NpcTargetChosen, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names), "target": fighter_words(e.target, names)}
    if e.roll is None:
        return Message(N_("{fighter}の攻撃対象 → {target}"), said)
    return Message(
        N_("{fighter}の攻撃対象 → {target} (ランダム: {candidates}から [{roll}])"),
        {**said, "candidates": fighters_words(e.candidates, names), "roll": roll_words(e.roll)},
    )


@CHOJIN_LOCKE.command("esper_act")
class EsperAct(Command):
    """Host: the エスパー NPC whose combat turn it is takes its main action as 6.2 says — the
    attack C-card of the highest LV (then firepower) it can use, or 格闘 with all its endurance
    when it has none — at `target` (a fighter's id), or "random" (rolled among those 6.2
    allows). Which card is the server's choice from its sealed hand."""

    target: int | Literal["random"] = "random"


@CHOJIN_LOCKE.decides(EsperAct)
def esper_act(t: ChojinTable, command: EsperAct, actor: str) -> list[Draft]:
    t.referee_only(actor, "play an エスパー NPC")
    state, fight = in_combat(t)
    me = fight.fighters.get(fight.current) if fight.current is not None else None
    if me is None or me.kind != "esper":
        raise RuleViolation("not_an_esper_turn", "It is not an エスパー NPC's combat turn.")
    main_phase_turn(state, actor, t.referee_actor)
    card = best_attack(state, me)
    if card is None and me.defence is not None and holds_attack(state, me):
        # l.1327–1328: it keeps its defence up (it holds attack cards, none it can use), and
        # l.1099 「防御を維持しているキャラクターは格闘を行えません」: its main action is パス
        return [Draft(CombatPassed(fighter=me.id))]
    target, roll, candidates = pick_target(t, state, me, command.target)
    drafts = [
        Draft(NpcTargetChosen(fighter=me.id, target=target, roll=roll, candidates=candidates))
    ]
    if card is not None:
        used = CardActivated(
            fighter=me.id,
            card=card.name,
            kind="攻撃",
            use="main",
            lv=card.lv,
            firepower=card.firepower,
            target=target,
            success=True,  # no card above its level, so no 精神力チェック (l.1324–1325)
        )
        drafts.append(Draft(used))
        jammed = jammer.on_use(t, state, used)  # it may act again after (l.1257–1258)
        if jammed:
            return drafts + jammed
        attack = Attack(
            attacker=me.id, target=target, card=card.name, lv=card.lv, firepower=card.firepower
        )
    else:
        # l.1287–1288: no attack it can make with a card → 格闘, all its endurance (l.1337)
        if me.defence is not None:  # l.1328: no attack card in hand, no defence kept up
            drafts.append(Draft(DefenceDropped(fighter=me.id)))
        left = me.members[0]
        drafts.append(
            Draft(MeleeDeclared(attacker=me.id, target=target, endurance=left, shift=me.shift))
        )
        attack = Attack(attacker=me.id, target=target, lv=1, firepower=left)
    drafts += at_response(state, attack)
    return drafts + struck(t, state, drafts)
