"""The dispute report's part (after the end, every secret revealed): each public hit or miss
against the defence the target's sheet held when it was sealed, each public 半壊/out flag
against the hp that follows from that sheet and the public damage. A GM `adjust` of a sealed
number mid-fight therefore shows: as a note where it changed nothing, as a disagreement
(`overstated`) where it changed an outcome or a flag.

A declaration is said as the lines say it (units by name, the rulebook's words: 命中ロール,
対AC, ヒット/ミス, 半壊/脱落), never by a unit id or a value of the data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from domain.model.lifecycle_events import GameCreated
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Recorded
from domain.model.ruleset import DeclarationCheck

from . import health
from .attack_roll import NATURAL_CRIT
from .attacks import AttackRolled
from .changes import BLOODIED, OUT, HpChanged, cause_words
from .rules import MECH_D20
from .sheet import Sheet
from .state import MechState, Status, Unit
from .terms import term
from .turns import DeathSaveRolled
from .units import UnitAdded, UnitAdjusted

Verdict = Literal["legal", "understated", "overstated", "unknown"]
OUTCOMES = {"hit": N_("ヒット"), "miss": N_("ミス")}  # as the attack's line says it (attacks.py)
NONE = N_("—")


class _Books:
    """The truth as the sealed sheets and the public amounts make it."""

    def __init__(self) -> None:
        self.sheets: dict[str, Sheet] = {}
        self.units: dict[str, Unit] = {}
        self.sealed: set[str] = set()
        self.adjusted: dict[str, list[int]] = {}
        self.names: dict[str, str] = {}

    def name(self, unit: str) -> str:
        """What the lines call the unit: its name (units.py `_names`)."""
        return self.names.get(unit, unit)

    def added(self, event: UnitAdded, seq: int) -> None:
        self.names[event.id] = event.name
        sheet = event.sheet or event.secret
        if sheet is None:
            return
        self.sheets[event.id] = sheet
        if event.secret is not None:
            self.sealed.add(event.id)
        self.units[event.id] = Unit(
            id=event.id,
            name=event.name,
            owner=event.owner,
            kind=event.kind,
            added_seq=seq,
            revealed=True,
            sheet=sheet,
            hp=sheet.max_hp,
            surges=sheet.surges,
        )

    def status(self, unit: str, status: Status | None) -> None:
        """Statuses are public: the truth follows them (only sealed numbers are in dispute)."""
        found = self.units.get(unit)
        if found is not None and status is not None:
            self.units[unit] = found.model_copy(update={"status": status})

    def adjustments(self, unit: str, before: int) -> list[int]:
        return [seq for seq in self.adjusted.get(unit, []) if seq < before]

    def adjusted_at(self, unit: str, before: int) -> object:
        """「(#12・#15で調整)」: the GM adjustments of the unit before `before`, if any."""
        seqs = self.adjustments(unit, before)
        if not seqs:
            return ""
        return Message(N_("({seqs}で調整)"), {"seqs": _dotted([f"#{seq}" for seq in seqs])})


def _verdict(declared: object, truth: object) -> Verdict:
    return "legal" if declared == truth else "overstated"


def _outcomes(books: _Books, recorded: Recorded, event: AttackRolled) -> list[DeclarationCheck]:
    checks: list[DeclarationCheck] = []
    if event.secret is None:
        return checks
    shown = {r.target: r for r in event.rolls}
    for roll in event.secret.rolls:
        sheet = books.sheets.get(roll.target)
        public = shown.get(roll.target)
        if public is None:
            continue
        defence = roll.defence.name
        what = Message(
            N_("{unit}の{power} 命中ロール → {target} (対{defence})"),
            {
                "unit": books.name(event.unit),
                "power": term(event.power),
                "target": books.name(roll.target),
                "defence": term(defence),
            },
        )
        declared = OUTCOMES.get(public.outcome, public.outcome)
        if sheet is None or defence not in sheet.defences:
            checks.append(_check(recorded, what, declared, None, "unknown", None))
            continue
        base = sheet.defences[defence]
        value = base + sum(m.value for m in roll.defence.modifiers)
        truth = "hit" if roll.natural == NATURAL_CRIT or roll.total >= value else "miss"
        notes: list[Message] = [
            Message(
                N_("達成値{total} 対{defence}{value}"),
                {"total": roll.total, "defence": term(defence), "value": value},
            )
        ]
        if roll.defence.base != base:
            notes.append(
                Message(
                    N_("サーバーは封印された{defence}{base}ではなく{used}を使った{adjusted}"),
                    {
                        "defence": term(defence),
                        "base": base,
                        "used": roll.defence.base,
                        "adjusted": books.adjusted_at(roll.target, recorded.seq),
                    },
                )
            )
        checks.append(
            _check(
                recorded,
                what,
                declared,
                OUTCOMES[truth],
                _verdict(public.outcome, truth),
                _notes(notes),
            )
        )
    return checks


def _flags(books: _Books, recorded: Recorded, event: HpChanged) -> list[DeclarationCheck]:
    unit = books.units.get(event.unit)
    if unit is None:
        return []
    if event.change < 0:
        change = health.damaged(unit, -event.change)
    else:
        change = health.healed(unit, event.change)
    truth_unit = unit.model_copy(update={"hp": change.hp, "status": change.status})
    books.units[event.unit] = truth_unit
    if event.unit not in books.sealed:
        return []
    declared = _flag_text(event.bloodied, event.out)
    truth = _flag_text(change.bloodied, health.out(truth_unit))
    used = event.hp if event.hp is not None else event.secret.hp if event.secret else None
    notes: list[Message] = [Message(N_("封印されたシートではhp{hp}"), {"hp": change.hp})]
    if used is not None and used != change.hp:
        notes.append(
            Message(
                N_("サーバーはhp{hp}としていた{adjusted}"),
                {"hp": used, "adjusted": books.adjusted_at(event.unit, recorded.seq)},
            )
        )
    what = Message(
        N_("{unit}の半壊/脱落 ({cause}の後)"),
        {"unit": books.name(event.unit), "cause": cause_words(event.cause, Names({}, books.names))},
    )
    verdict = _verdict(declared, truth)
    return [_check(recorded, what, declared, truth, verdict, _notes(notes))]


def _adjusted_flags(
    books: _Books, recorded: Recorded, event: UnitAdjusted
) -> list[DeclarationCheck]:
    """An adjustment publishes 半壊/out too: beside the hp the sealed sheet and the public
    damage give (an adjustment of sealed hp is not part of that truth)."""
    unit = books.units.get(event.unit)
    numbers = event.numbers or event.secret
    if unit is None or event.unit not in books.sealed or numbers is None:
        return []
    if not (numbers.hp or numbers.max_hp):
        return []
    declared = _flag_text(event.bloodied, event.out)
    truth = _flag_text(health.bloodied(unit.hp, unit.sheet.max_hp), health.out(unit))
    said = {"hp": unit.hp, "change": f"{numbers.hp:+d}", "most": numbers.max_hp}
    note = Message(N_("封印されたシートではhp{hp}、GMの調整はhp{change}"), said)
    if numbers.max_hp:
        note = Message(N_("封印されたシートではhp{hp}、GMの調整はhp{change}・最大hp{most}"), said)
    what = Message(
        N_("{unit}の半壊/脱落 (GMの調整: {reason})"),
        {"unit": books.name(event.unit), "reason": event.reason},
    )
    return [_check(recorded, what, declared, truth, _verdict(declared, truth), note)]


def _flag_text(bloodied: bool, out: bool) -> Message:
    """「半壊・脱落」, 「半壊」 … or 「—」 for neither."""
    flags: list[object] = [*([BLOODIED] if bloodied else []), *([OUT] if out else [])]
    return _dotted(flags) if flags else Message(NONE)


def _dotted(parts: list[object]) -> Message:
    """Parts with 「・」 between them (「半壊・脱落」, 「#12・#15」), in the reader's language
    too."""
    joined = parts[-1]
    for earlier in reversed(parts[:-1]):
        joined = Message(N_("{first}・{rest}"), {"first": earlier, "rest": joined})
    return joined if isinstance(joined, Message) else Message(N_("{part}"), {"part": joined})


def _notes(notes: list[Message]) -> Message:
    """The notes one after another, 「、」 between them (in the reader's language too)."""
    note = notes[-1]
    for earlier in reversed(notes[:-1]):
        note = Message(N_("{first}、{rest}"), {"first": earlier, "rest": note})
    return note


def _check(
    recorded: Recorded,
    what: Message,
    declared: object,
    truth: object,
    verdict: Verdict,
    note: Message | None,
) -> DeclarationCheck:
    return DeclarationCheck.of(
        recorded.seq, recorded.envelope.actor, what, declared, truth, verdict, note
    )


@MECH_D20.audits
def audit(
    history: Sequence[Recorded],
    start: Callable[[GameCreated], MechState],
    fold: Callable[[MechState, Recorded], MechState],
) -> list[DeclarationCheck]:
    books = _Books()
    checks: list[DeclarationCheck] = []
    for recorded in history:
        event = recorded.event
        if isinstance(event, UnitAdded):
            books.added(event, recorded.seq)
        elif isinstance(event, UnitAdjusted):
            books.adjusted.setdefault(event.unit, []).append(recorded.seq)
            books.status(event.unit, event.status)
            checks += _adjusted_flags(books, recorded, event)
        elif isinstance(event, DeathSaveRolled):
            books.status(event.unit, event.status)
        elif isinstance(event, AttackRolled):
            checks += _outcomes(books, recorded, event)
        elif isinstance(event, HpChanged):
            checks += _flags(books, recorded, event)
    return checks
