"""6.1 / 6.2 ESPジャマー: an obstacle's jammer voids the C-cards the seed names, sending them back
to their hands until the round ends.

6.1 l.1252–1259: 「ESPジャマーLV:X[戦闘][対抗(Cカード使用)][EM] Cカードが使用された時(同調の処理を
行った後)、使用されたCカードの最終的なLVが1~Xの場合のみ使用できる。使用されたCカードの使用を無効に
し、手札に戻させる。ただし、[攻撃]や[逃避]の行動は行われたものとして扱われる。ESPジャマーの効果を
受けたキャラクターはタイミングが合致していれば別の行動を行うことができる。ただし、手札に戻された
Cカードはラウンド終了時まで使用できない。」 l.1261–1262: 「警官隊や警戒装置が所持している
ESPジャマーは破壊される条件が決まっていますが、特筆されていない限り、ESPジャマーは破壊されません。」
6.2 l.1307–1310: 「障害がESPジャマーを所持している場合、以下の行動に対しESPジャマーを必ず使用し
ます。・ESPジャマーを所持している障害を攻撃対象とする攻撃Cカードの使用 ・ESPジャマーを所持して
いる障害が行った攻撃に対するCカードの使用 ・戦闘から離脱する効果を持つ逃避Cカードの使用」

`add_obstacle {jammer_lv}` gives an obstacle its ESPジャマーLV:X; while it is in the combat it
jams every use the seed names whose final LV is 1–X (rulings CL-082–CL-083). A character's own
ESPジャマー ability is its holder's choice (combat/own_jammer.py, ruling CL-106). `destroy_jammer`
(host) ends one as its square's or chart's text says.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat, fighter, player
from domain.rulesets.chojin_locke.combat.action_events import CardActivated
from domain.rulesets.chojin_locke.combat.death import look_ahead
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.round_end import running
from domain.rulesets.chojin_locke.combat.state import Attack, Combat, Fighter
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, named


class Returned(BaseModel):
    """A voided C-card back in the hand it came from; `power`: the ESP power given back."""

    model_config = ConfigDict(frozen=True)

    holder: int
    card: str
    power: int = 0


@CHOJIN_LOCKE.event
class JammerUsed(Event):
    """`jammer`'s ESPジャマー (an obstacle's, or a character's own ability) voids `fighter`'s
    C-card use (`use`: its main action, or its answer to an attack) of final LV `lv`
    (l.1253–1255): every card of it goes back to its hand (`returned`), not usable before the
    round ends, no ESP power spent. The [攻撃] or [逃避] counts as done (l.1256); the fighter
    may act again at the same timing (l.1257–1258, ruling CL-082)."""

    jammer: int
    fighter: int
    use: Literal["main", "response"]
    kind: str
    lv: int
    returned: tuple[Returned, ...]
    # a character's own ESPジャマーLV:X, named aloud (combat/own_jammer.py); None: an obstacle's
    ability: str | None = None


def _back_in_hand(state: ChojinState, back: Returned) -> ChojinState:
    """The card leaves the discard pile (its last face-up copy) for its holder's hand, locked."""
    assert state.combat is not None
    fight = state.combat
    discard = list(fight.discard)
    hidden = set(fight.face_down)
    spots = [i for i, card in enumerate(discard) if card == back.card and i not in hidden]
    face_down = list(fight.face_down)
    if spots:
        gone = spots[-1]
        del discard[gone]
        face_down = [i - 1 if i > gone else i for i in face_down]
    hands = {**fight.hands, back.holder: [*fight.hands.get(back.holder, ()), back.card]}
    locked = {**fight.locked, back.holder: [*fight.locked.get(back.holder, ()), back.card]}
    state = combat(state, discard=discard, face_down=face_down, hands=hands, locked=locked)
    someone = state.players.get(back.holder)
    if back.power and someone is not None:
        state = player(state, back.holder, power_spent=max(someone.power_spent - back.power, 0))
    return state


@CHOJIN_LOCKE.folds(JammerUsed)
def _jammed(state: ChojinState, event: JammerUsed, seq: int) -> ChojinState:
    if state.combat is None:
        return state
    for back in event.returned:
        state = _back_in_hand(state, back)
    fight = state.combat
    assert fight is not None
    attack = fight.attack
    if event.use == "main":
        # its [攻撃]/[逃避] stays in the turn's actions (l.1256, combat/exclusive.py)
        voided = attack is not None and attack.attacker == event.fighter
        state = combat(state, main_done=False, attack=None if voided else attack)
        return fighter(state, event.fighter, left=False)  # a voided escape leaves nothing
    if attack is not None:
        again = attack.model_copy(update={"awaiting": "response", "defended_by": None})
        state = combat(state, attack=again)
    kept = fight.fighters[event.fighter].defence
    if kept is not None and event.returned and kept.card == event.returned[0].card:
        state = fighter(state, event.fighter, defence=None)  # a voided defence is not kept up
    return state


@CHOJIN_LOCKE.says_named(JammerUsed)
def _jammer_used_line(e: JammerUsed, names: Names) -> Message:
    cards = Items(
        Message(
            N_("「{card}」→{holder}"),
            {"card": named(r.card), "holder": fighter_words(r.holder, names)},
        )
        for r in e.returned
    )
    said = {
        "jammer": fighter_words(e.jammer, names),
        "ability": e.ability or N_("ESPジャマー"),
        "fighter": fighter_words(e.fighter, names),
        "kind": named(e.kind),
        "lv": e.lv,
        "cards": cards,
    }
    if e.use == "response":
        return Message(
            N_(
                "{jammer}の{ability}: {fighter}の{kind}での対抗 (LV{lv})を無効化 — 手札に戻る、"
                "ラウンド終了時まで使用不可: {cards}"
            ),
            said,
        )
    return Message(
        N_(
            "{jammer}の{ability}: {fighter}の{kind}使用 (LV{lv})を無効化 — 手札に戻る、ラウ"
            "ンド終了時まで使用不可: {cards}"
        ),
        said,
    )


def _holding(state: ChojinState, number: int | None) -> Fighter | None:
    """The fighter `number` if it is an obstacle in play holding a working ESPジャマー."""
    if number is None:
        return None
    for f in in_play(state):
        if f.id == number and f.kind == "obstacle" and f.jammer:
            return f
    return None


def _any_jammer(state: ChojinState, lv: int) -> Fighter | None:
    """The first obstacle in play (by id) whose ESPジャマー reaches `lv`."""
    for f in in_play(state):
        if f.kind == "obstacle" and f.jammer and 1 <= lv <= f.jammer_lv:
            return f
    return None


def _power(state: ChojinState, holder: int, card: str) -> int:
    """The power a use cost its holder (5.3: the card's printed LV, ruling CL-051); 0 for an NPC."""
    known = state.catalog.combat_card(card)
    return known.lv if known is not None and holder in state.players else 0


def on_use(t: ChojinTable, state: ChojinState, used: CardActivated) -> list[Draft]:
    """`used` was just activated (a main action or an answer to an attack; success or not, as
    the seed's 「Cカードが使用された時」): the JammerUsed an obstacle must make on it, or none. An
    attack that asks for 同調 is jammed once the 同調 is over (`on_attack`)."""
    if used.use not in ("main", "response") or used.sync_waiting:
        return []
    assert state.combat is not None
    by: Fighter | None = None
    if used.use == "main" and used.kind == "攻撃":
        by = _holding(state, used.target)  # l.1308
    elif used.use == "response" and state.combat.attack is not None:
        by = _holding(state, state.combat.attack.attacker)  # l.1309
    if by is not None and not 1 <= used.lv <= by.jammer_lv:
        by = None
    if by is None and used.kind == "逃避":
        by = _any_jammer(state, used.lv)  # l.1310
    if by is None:
        return []
    back = Returned(
        holder=used.fighter, card=used.card, power=_power(state, used.fighter, used.card)
    )
    jammed = JammerUsed(
        jammer=by.id,
        fighter=used.fighter,
        use="main" if used.use == "main" else "response",
        kind=used.kind,
        lv=used.lv,
        returned=(back,),
    )
    return [Draft(jammed)]


def on_attack(t: ChojinTable, state: ChojinState, drafts: list[Draft]) -> list[Draft]:
    """After `drafts` the last 同調 answer is in and the attack goes on (5.5): its final LV is
    what the target's ESPジャマー reads (l.1253 「同調の処理を行った後」); jammed, the asking card
    and every card that joined it go back (ruling CL-082)."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    attack = after.combat.attack
    if attack is None or attack.card is None or attack.awaiting != "response":
        return []
    by = _holding(after, attack.target)
    if by is None or not 1 <= attack.lv <= by.jammer_lv:
        return []
    return [Draft(attack_jammed(after, attack, by.id))]


def attack_jammed(
    state: ChojinState, attack: Attack, by: int, ability: str | None = None
) -> JammerUsed:
    """`by`'s ESPジャマー voids the attack card waiting for its answer: the asking card and every
    card joined to it by 同調 go back to their hands (ruling CL-082)."""
    assert attack.card is not None
    cards = [(attack.attacker, attack.card), *zip(attack.joiners, attack.joined_cards, strict=True)]
    returned = tuple(
        Returned(
            holder=holder,
            card=card,
            # a 手下's card (its holder is the attacker, after the first) costs nothing
            power=_power(state, holder, card) if index == 0 or holder != attack.attacker else 0,
        )
        for index, (holder, card) in enumerate(cards)
    )
    return JammerUsed(
        jammer=by,
        fighter=attack.attacker,
        use="main",
        kind="攻撃",
        lv=attack.lv,
        returned=returned,
        ability=ability,
    )


def usable(fight: Combat, holder: int, name: str) -> bool:
    """l.1259 「手札に戻されたCカードはラウンド終了時まで使用できない。」: a copy of `name` in the
    hand that no ESPジャマー sent back this round."""
    held = list(fight.hands.get(holder, ())).count(name)
    return held > list(fight.locked.get(holder, ())).count(name)


@CHOJIN_LOCKE.event
class JammerDestroyed(Event):
    """An obstacle's ESPジャマー is destroyed as its square's or chart's text says
    (l.1261–1262); `reason` as the host gives it."""

    fighter: int
    reason: str = ""


@CHOJIN_LOCKE.folds(JammerDestroyed)
def _destroyed(state: ChojinState, event: JammerDestroyed, seq: int) -> ChojinState:
    if state.combat is None or event.fighter not in state.combat.fighters:
        return state
    return fighter(state, event.fighter, jammer=False)


@CHOJIN_LOCKE.says_named(JammerDestroyed)
def _jammer_destroyed_line(e: JammerDestroyed, names: Names) -> Message:
    said = {"fighter": fighter_words(e.fighter, names), "reason": e.reason}  # as the host typed it
    if e.reason:
        return Message(N_("{fighter}のESPジャマーが破壊された: {reason}"), said)
    return Message(N_("{fighter}のESPジャマーが破壊された"), said)


@CHOJIN_LOCKE.command("destroy_jammer")
class DestroyJammer(Command):
    """Host: an obstacle's ESPジャマー is destroyed, as its square's or chart's text says (a
    police squad's or an alarm's)."""

    fighter: int = Field(ge=1)
    reason: str = Field(default="", max_length=200)


@CHOJIN_LOCKE.decides(DestroyJammer)
def destroy_jammer(t: ChojinTable, command: DestroyJammer, actor: str) -> list[Draft]:
    t.referee_only(actor, "destroy an ESPジャマー")
    state = playing(t)
    fight = running(state)
    someone = fight.fighters.get(command.fighter)
    if someone is None or someone.kind != "obstacle" or not someone.jammer:
        raise RuleViolation("no_jammer", "That fighter holds no working ESPジャマー.")
    return [Draft(JammerDestroyed(fighter=someone.id, reason=command.reason))]
