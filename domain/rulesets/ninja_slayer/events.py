"""Characters' events, each with its fold. Unrevealed numbers travel in `secret` (sealed to the
GM, and the seat of a private PC).

Every roll's detail (pool, difficulty, faces) is in `detail` when the table may see it and in
`secret` when it would give away an NPC's stats; the outcome is public either way. Folds never
refuse: the deciders already checked.
"""

from __future__ import annotations

from collections import Counter

from domain.model.events import Event
from domain.model.lifecycle_events import Revealed
from domain.model.logline import Names, actor_name
from domain.model.messages import N_, Message

from .changes import character, fresh, now, with_characters
from .details import CheckDetail
from .health import apply
from .rules import NINJA_SLAYER
from .sheet import Kind, Sheet
from .state import Character, CheckMemo, NinjaState, Status
from .stats import FLOORED
from .words import (
    CURRENT,
    KINDS,
    becomes,
    detail_words,
    in_parentheses,
    joined,
    outcome_words,
    said,
    sheet_words,
)

CHECK_MEMORY = 64  # ニンジャ第六感 rerolls a recent check; older ones are forgotten


@NINJA_SLAYER.event
class CharacterAdded(Event):
    id: str
    name: str
    owner: str
    kind: Kind
    sheet: Sheet | None = None  # PCs: public to the table
    secret: Sheet | None = None  # NPCs (and private PCs): the GM's (and the seat's) until revealed


@NINJA_SLAYER.folds(CharacterAdded)
def _added(state: NinjaState, event: CharacterAdded, seq: int) -> NinjaState:
    sheet = event.sheet or event.secret
    if sheet is None:  # only a fold without the GM's secrets gets here; nothing to track
        return state
    added = Character(
        id=event.id,
        name=event.name,
        owner=event.owner,
        kind=event.kind,
        added_seq=seq,
        revealed=event.sheet is not None,
        sheet=sheet,
        now=fresh(sheet),
    )
    return with_characters(state, added)


@NINJA_SLAYER.says_named(CharacterAdded)
def _character_added_line(e: CharacterAdded, names: Names) -> Message:
    owner = in_parentheses(actor_name(e.owner, names)) if e.owner.startswith("seat:") else ""
    return Message(
        N_("{kind} {name}{owner} が登場{sheet}"),
        {
            "kind": KINDS[e.kind],
            "name": names.people.get(e.id) or e.name,  # its number, if it shares its name
            "owner": owner,
            "sheet": sheet_words(e.sheet or e.secret),
        },
    )


@NINJA_SLAYER.names
def _names(state: NinjaState, audience: str) -> dict[str, str]:
    """Every character by its name, for every audience: a character's name is in the public
    part of the event that adds it (an NPC's sheet is sealed, its name is not; a private PC's
    likewise), so no line tells a reader a name it had not read already. A character added
    under a name another one already has (a mob of クローンヤクザ) is told apart by its number
    among them, the first keeping the bare name: クローンヤクザ, クローンヤクザ(2),
    クローンヤクザ(3). What a line calls a character never changes as the game goes on
    (ruling NS-054)."""
    told: Counter[str] = Counter()
    names = {}
    for found in sorted(state.characters.values(), key=lambda c: c.added_seq):
        told[found.name] += 1
        count = told[found.name]
        names[found.id] = found.name if count == 1 else f"{found.name}({count})"
    return names


@NINJA_SLAYER.folds(Revealed)
def _revealed(state: NinjaState, event: Revealed, seq: int) -> NinjaState:
    for found in state.characters.values():
        if found.added_seq == event.of_seq:
            return with_characters(state, found.model_copy(update={"revealed": True}))
    return state


@NINJA_SLAYER.event
class CharacterAdjusted(Event):
    """The GM applies what a table or ruling decided (サツバツ table, items, stat damage)."""

    character: str
    changes: dict[str, int] = {}
    status: Status | None = None
    reason: str


@NINJA_SLAYER.folds(CharacterAdjusted)
def _adjusted(state: NinjaState, event: CharacterAdjusted, seq: int) -> NinjaState:
    found = state.characters[event.character]
    values = {}
    for key, delta in event.changes.items():
        value = getattr(found.now, key) + delta
        values[key] = max(1, value) if key in FLOORED else value
    found = apply(found, found.now.model_copy(update=values))
    if event.status is not None:
        found = found.model_copy(update={"status": event.status})
    state = with_characters(state, found)
    gained = event.changes.get("dkk", 0)
    if state.combat is not None and gained > 0:  # 「1ターン中に合計3以上の【DKK】が発生した」
        current = state.combat
        update = {"dkk_this_turn": current.dkk_this_turn + gained}
        state = state.model_copy(update={"combat": current.model_copy(update=update)})
    return state


@NINJA_SLAYER.says_named(CharacterAdjusted)
def _character_adjusted_line(e: CharacterAdjusted, names: Names) -> Message:
    changes: list[object] = [
        Message(N_("{value}{delta}"), {"value": CURRENT[k], "delta": f"{v:+d}"})
        for k, v in e.changes.items()
    ]
    if e.status:
        changes.append(becomes(e.status))
    return Message(
        N_("GM: {character} {changes} ({reason})"),
        # the reason as the GM wrote it (a table's row, a ruling)
        {"character": names.of(e.character), "changes": joined(changes), "reason": e.reason},
    )


@NINJA_SLAYER.event
class CheckRolled(Event):
    character: str
    purpose: str
    stat: str | None
    success: bool
    successes: int
    reroll_of: int | None = None
    pattern: str | None = None  # a 【】 face pattern asked for (L12), and whether the faces met it
    pattern_met: bool | None = None
    detail: CheckDetail | None = None
    secret: CheckDetail | None = None


@NINJA_SLAYER.folds(CheckRolled)
def _checked(state: NinjaState, event: CheckRolled, seq: int) -> NinjaState:
    detail = event.detail or event.secret
    if detail is None:
        return state
    if event.reroll_of is None:
        state = now(state, event.character, reaction=-detail.pool.reaction)
    memo = CheckMemo(
        character=event.character, purpose=event.purpose, stat=event.stat, detail=detail
    )
    kept = dict(list(state.checks.items())[-(CHECK_MEMORY - 1) :])
    return state.model_copy(update={"checks": {**kept, seq: memo}})


@NINJA_SLAYER.says_named(CheckRolled)
def _check_rolled_line(e: CheckRolled, names: Names) -> Message:
    pattern: object = ""
    if e.pattern:
        asked = {"pattern": e.pattern.strip("【】")}
        met = Message(N_(" 【{pattern}】あり"), asked)
        pattern = met if e.pattern_met else Message(N_(" 【{pattern}】なし"), asked)
    checked = {
        "character": names.of(e.character),
        "again": (Message(N_(" (#{seq}の振り直し)"), {"seq": e.reroll_of}) if e.reroll_of else ""),
        "outcome": outcome_words(e.success, e.successes),
        "pattern": pattern,
        "detail": detail_words(e.detail or e.secret),
    }
    if not e.stat:
        return Message(N_("{character} 判定{again}: {outcome}{pattern}{detail}"), checked)
    return Message(
        N_("{character} 【{stat}】判定{again}: {outcome}{pattern}{detail}"),
        {**checked, "stat": said(e.stat)},
    )


@NINJA_SLAYER.event
class AdrenalineBoost(Event):
    character: str


@NINJA_SLAYER.folds(AdrenalineBoost)
def _boosted(state: NinjaState, event: AdrenalineBoost, seq: int) -> NinjaState:
    state = now(state, event.character, seishin=-1)
    return character(state, event.character, adrenaline_used=True)


@NINJA_SLAYER.says_named(AdrenalineBoost)
def _adrenaline_boost_line(e: AdrenalineBoost, names: Names) -> Message:
    return Message(
        N_("{character} アドレナリン・ブースト (精神力-1)"), {"character": names.of(e.character)}
    )


@NINJA_SLAYER.event
class SixthSense(Event):
    character: str
    of_seq: int


@NINJA_SLAYER.folds(SixthSense)
def _sixth_sense(state: NinjaState, event: SixthSense, seq: int) -> NinjaState:
    return character(state, event.character, sixth_sense_used=True)


@NINJA_SLAYER.says_named(SixthSense)
def _sixth_sense_line(e: SixthSense, names: Names) -> Message:
    return Message(
        N_("{character} ニンジャ第六感: #{seq}を振り直す"),
        {"character": names.of(e.character), "seq": e.of_seq},
    )


@NINJA_SLAYER.event
class ScenarioEnded(Event):
    """The 本編 ends: 即応ダイス, 緊急回避ダイス, stat damage and ニンジャ第六感 are restored,
    ●部位損傷's ×s erased (the parts stay), and the 評価 begins."""


@NINJA_SLAYER.folds(ScenarioEnded)
def _scenario_ended(state: NinjaState, event: ScenarioEnded, seq: int) -> NinjaState:
    """即応/緊急回避ダイス and stat damage reset; 体力, 精神力 and DKK carry on. L171
    「シナリオ終了時にこれらの×数は全て消すが、『●部位損傷』自体は治療を行うまで残ってしまう」."""
    changed = []
    for found in state.characters.values():
        current = fresh(found.sheet).model_copy(
            update={
                "tairyoku": found.now.tairyoku,
                "seishin": found.now.seishin,
                "dkk": found.now.dkk,
            }
        )
        injuries = dict.fromkeys(found.injuries, 1)
        update = {"now": current, "sixth_sense_used": False, "injuries": injuries}
        changed.append(found.model_copy(update=update))
    return with_characters(state, *changed).model_copy(
        update={"checks": {}, "pc_ties": (), "stage": "評価"}
    )


@NINJA_SLAYER.says(ScenarioEnded)
def _scenario_ended_line(e: ScenarioEnded) -> Message:
    return Message(
        N_(
            "シナリオ本編の終了 → 評価: 即応ダイス・緊急回避ダイス・能力値ダメージ・"
            "ニンジャ第六感が戻り、●部位損傷の×数は消える"
        )
    )
