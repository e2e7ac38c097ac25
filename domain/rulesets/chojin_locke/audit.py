"""The replay audit: every declaration beside the truth the server held when it was made."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.model.lifecycle_events import Amended, GameCreated
from domain.model.messages import N_, Message
from domain.model.records import Recorded
from domain.model.ruleset import DeclarationCheck
from domain.rulesets.chojin_locke.combat.action_events import (
    CardActivated,
    DamageRolled,
    MeleeAnswered,
    MeleeDeclared,
    proxy_left,
    suit_left,
)
from domain.rulesets.chojin_locke.combat.melee import melee_shift
from domain.rulesets.chojin_locke.party_events import PartyTeleportDeclared
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.stats import current
from domain.rulesets.chojin_locke.turn_events import Checked
from domain.rulesets.chojin_locke.words import PURPOSES, STATS, named

Fold = Callable[[ChojinState, Recorded], ChojinState]
Start = Callable[[GameCreated], ChojinState]
MANUAL = Message(N_("手動ダイス"))


def _used(use: str, card: str, stat: str) -> Message:
    """A C-card's activation as the check names it: 「<card>使用: <stat>」 … (5.4)."""
    said = {"card": named(card), "stat": STATS[stat]}
    if use == "response":
        return Message(N_("{card}で対抗: {stat}"), said)
    if use == "sync":
        return Message(N_("{card}で同調: {stat}"), said)
    if use == "minion_sync":
        return Message(N_("{card}で手下が同調: {stat}"), said)
    return Message(N_("{card}使用: {stat}"), said)


@CHOJIN_LOCKE.audits
def audit(history: Sequence[Recorded], start: Start, fold: Fold) -> list[DeclarationCheck]:
    if not history or not isinstance(history[0].event, GameCreated):
        return []
    amended = {r.event.concerning_seq: r.seq for r in history if isinstance(r.event, Amended)}
    state = start(history[0].event)
    checks: list[DeclarationCheck] = []
    for recorded in history:
        event = recorded.event
        notes: list[Message] = (
            [Message(N_("#{seq}で訂正"), {"seq": amended[recorded.seq]})]
            if recorded.seq in amended
            else []
        )
        if isinstance(event, PartyTeleportDeclared):
            what = Message(N_("パーティでテレポート: {stat}"), {"stat": STATS["esp_level"]})
            truth = _truth(state, event.seat, "esp_level")
            checks.append(_check(recorded, what, event.declared, truth, notes))
        elif isinstance(event, Checked):
            if event.roll is not None and event.roll.manual:
                notes.append(MANUAL)
            what = Message(
                N_("{purpose}: {stat}"),
                {"purpose": PURPOSES.get(event.purpose, event.purpose), "stat": STATS[event.stat]},
            )
            truth = _truth(state, event.seat, event.stat)
            checks.append(_check(recorded, what, event.declared, truth, notes))
        else:
            checks += _combat_checks(state, recorded, notes)
        state = fold(state, recorded)
    return checks


def _combat_checks(
    state: ChojinState, recorded: Recorded, notes: list[Message]
) -> list[DeclarationCheck]:
    """Chapter 5's declarations: each activation's ESP level and willpower, each endurance
    declared for damage or 格闘 (the suit's or 手下-raised limit when used), each [格闘:X]."""
    event = recorded.event
    out: list[DeclarationCheck] = []
    if isinstance(event, CardActivated) and event.esp_level is not None:
        what = _used(event.use, event.card, "esp_level")
        truth = _truth(state, event.fighter, "esp_level")
        out.append(_check(recorded, what, event.esp_level, truth, notes))
        if event.willpower is not None:
            what = _used(event.use, event.card, "willpower")
            truth = _truth(state, event.fighter, "willpower")
            out.append(_check(recorded, what, event.willpower, truth, notes))
    elif isinstance(event, DamageRolled) and not event.melee and event.member is None:
        # (an obstacle's member declares nothing: all it has, ruling CL-074)
        suit = event.secret is not None and event.secret.suit
        what = Message(N_("ダメージ: 耐久力"))
        if suit:
            what = Message(N_("ダメージ: 耐久力（[スーツ:X]）"))
        if event.proxy:
            someone = state.players.get(event.target)
            truth = proxy_left(someone) if someone is not None else None
            proxy = Message(N_("{what} (代理)"), {"what": what})
            out.append(_check(recorded, proxy, event.endurance, truth, notes))
            return out
        out.append(
            _check(recorded, what, event.endurance, _endurance(state, event.target, suit), notes)
        )
    elif isinstance(event, MeleeDeclared | MeleeAnswered):
        who = event.attacker if isinstance(event, MeleeDeclared) else event.target
        if who not in state.players:
            return out  # an エスパー NPC declares all it has (6.2 l.1337): nothing to audit
        suit = event.secret is not None and event.secret.suit
        running = state.combat
        minions = running.fighters[who].minions if running and who in running.fighters else 0
        what = Message(N_("格闘: 耐久力"))
        if suit:
            what = Message(N_("格闘: 耐久力（[スーツ:X]込み）"))
        truth = _endurance(state, who, suit, melee=True, minions=minions)
        out.append(_check(recorded, what, event.endurance, truth, notes))
        someone = state.players.get(who)
        shift = melee_shift(someone) if someone is not None and someone.sheet else None
        out.append(_check(recorded, Message(N_("格闘: [格闘:X]")), event.shift, shift, notes))
    return out


def _endurance(
    state: ChojinState, seat: int, suit: bool, *, melee: bool = False, minions: int = 0
) -> int | None:
    """The most the endurance could be declared as: the character's, or its suit's instead
    (damage), or with 手下 and the suit added (格闘)."""
    someone = state.players.get(seat)
    if someone is None or someone.sheet is None:
        return None
    if suit and not melee:
        return suit_left(someone)
    return current(someone, "endurance") + minions + (suit_left(someone) if suit else 0)


def _truth(state: ChojinState, seat: int, stat: str) -> int | None:
    player = state.players.get(seat)
    if player is None or player.sheet is None:
        return None
    return current(player, stat)


def _notes(notes: list[Message]) -> Message | None:
    """The notes one after another, 「; 」 between them (in the reader's language too)."""
    if not notes:
        return None
    note = notes[-1]
    for earlier in reversed(notes[:-1]):
        note = Message(N_("{first}; {rest}"), {"first": earlier, "rest": note})
    return note


def _check(
    recorded: Recorded, what: Message, declared: int, truth: int | None, notes: list[Message]
) -> DeclarationCheck:
    if truth is None:
        verdict = "unknown"
    elif declared == truth:
        verdict = "legal"
    else:
        verdict = "understated" if declared < truth else "overstated"
    return DeclarationCheck.of(
        recorded.seq,
        recorded.envelope.actor,
        what,
        declared,
        truth,
        verdict,  # type: ignore[arg-type]
        _notes(notes),
    )
