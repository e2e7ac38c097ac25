"""The dispute report: everything a table can check about a game, from its envelopes alone.

Chain integrity, the seed, every draw and roll, every commitment against its reveal
(domain.model.verification); every rule-checked declaration beside the revealed truth (the
ruleset's `audit_declarations`); every GM ruling and amendment with what it concerned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from domain.model.errors import KirokuError
from domain.model.logline import words
from domain.model.messages import N_, Message
from domain.model.ruleset import DeclarationCheck
from domain.model.verification import (
    Reevaluate,
    Unreadable,
    VerificationReport,
    Worded,
    recheck_bcdice,
    verify,
)
from domain.rulesets import ruleset_for
from replay.archive import records_from_envelopes
from replay.text import KINDS, Say, Source, person


class RulingEntry(BaseModel):
    seq: int
    kind: Literal["ruling", "amendment"]
    concerning_seq: int
    concerning_type: str | None
    text: str
    change: dict[str, Any]


class AuditReport(Worded):
    """The report; its `summary` and the verification's texts are catalog messages, read in a
    language with `read(gettext)` (the API, the page and `kiroku audit` do)."""

    game_id: str
    ruleset: str | None
    verdict: Literal["clean", "problems", "unfinished"]
    summary: list[str]
    verification: VerificationReport
    declarations: list[DeclarationCheck]
    rulings: list[RulingEntry]


def audit(
    game_id: str,
    envelopes: list[dict[str, Any] | Unreadable],
    reevaluate: Reevaluate | None = None,
) -> AuditReport:
    """The dispute report; with `reevaluate` (BCDice: `BCDiceEngine.reevaluate`), every roll
    BCDice answered is also evaluated again on its faces with the version it was rolled with."""
    report = verify(game_id, envelopes)
    readable = [e for e in envelopes if isinstance(e, dict)]
    if reevaluate is not None and report.ended:
        report = recheck_bcdice(report, readable, reevaluate)
    ruleset = readable[0]["public"].get("ruleset") if readable else None
    declarations = _declarations(ruleset, readable) if report.ended else []
    rulings = _rulings(readable)
    flagged = [d for d in declarations if d.verdict == "overstated"]

    note = report.said("note")
    summary = [note if isinstance(note, Message) else Message(report.note)]
    if report.ended:
        legal = sum(1 for d in declarations if d.verdict in ("legal", "understated"))
        summary.append(
            Message(
                N_("{count} declarations checked: {legal} legal, {flagged} above the truth."),
                {"count": len(declarations), "legal": legal, "flagged": len(flagged)},
            )
        )
    else:
        summary.append(
            Message(N_("The game has not ended: secrets and declarations are checked after it."))
        )
    summary.append(Message(N_("{count} GM rulings and amendments."), {"count": len(rulings)}))

    if not report.ok or flagged:
        verdict: Literal["clean", "problems", "unfinished"] = "problems"
    elif not report.ended:
        verdict = "unfinished"
    else:
        verdict = "clean"
    return AuditReport(
        game_id=game_id,
        ruleset=ruleset,
        verdict=verdict,
        summary=[],
        verification=report,
        declarations=declarations,
        rulings=rulings,
    ).worded(summary=tuple(summary))


def _declarations(ruleset: str | None, envelopes: list[dict[str, Any]]) -> list[DeclarationCheck]:
    if ruleset is None:
        return []
    try:
        rules = ruleset_for(ruleset)
    except KirokuError:
        return []
    return rules.audit_declarations(records_from_envelopes(envelopes, strict=False))


def _rulings(envelopes: list[dict[str, Any]]) -> list[RulingEntry]:
    types = {e.get("seq"): e.get("type") for e in envelopes}
    entries = []
    for envelope in envelopes:
        public = envelope.get("public", {})
        kind: Literal["ruling", "amendment"]
        if envelope.get("type") == "RulingMade":
            kind, text, change = "ruling", public.get("text", ""), public.get("effect", {})
        elif envelope.get("type") == "Amended":
            kind, text, change = "amendment", public.get("reason", ""), public.get("correction", {})
        else:
            continue
        concerning = public.get("concerning_seq", 0)
        entries.append(
            RulingEntry(
                seq=envelope["seq"],
                kind=kind,
                concerning_seq=concerning,
                concerning_type=types.get(concerning),
                text=text,
                change=change,
            )
        )
    return entries


def render_text(
    report: AuditReport, say: Say | None = None, seats: Mapping[int, str] | None = None
) -> str:
    """The report for a terminal, its texts read through `say` (the reader's language), people
    by their names (`seats`: seat number → name)."""
    say = say or Source()
    report = report.read(say)  # the verification's findings and notes in the reader's words
    names = seats or {}
    verdict = say(VERDICTS.get(report.verdict, report.verdict))
    lines = [say("Audit of game {game}: {verdict}", game=report.game_id, verdict=verdict), ""]
    lines += [f"  {line}" for line in _summary(report, say)]
    findings = report.verification.secrets.findings if report.verification.secrets else []
    chain = report.verification.chain
    if not chain.ok:
        broken = say(
            "Chain broken at event {seq}: {problem}",
            seq=chain.first_bad_seq,
            problem=chain.problem,
        )
        lines += ["", broken]
    if findings:
        lines += ["", say("Findings:")]
        lines += [
            "  "
            + say(
                "event {seq}: {problem}",
                seq=f.seq,
                problem=f"{say(CHECK_KINDS.get(f.kind, f.kind))}: {f.problem}",
            )
            for f in findings
        ]
    if report.declarations:
        lines += ["", say("Declarations (declared / true):")]
        for d in report.declarations:
            note = f" — {d.note}" if d.note else ""
            who = person(d.actor, names, say)
            lines.append(
                "  "
                + say("event {seq}", seq=d.seq)
                + f" {who} {d.what}: {d.declared} / {d.truth} "
                + say(VERDICTS.get(d.verdict, d.verdict))
                + note
            )
    if report.rulings:
        lines += ["", say("Rulings and amendments:")]
        for r in report.rulings:
            kind = say(KINDS[r.kind])
            lines.append(
                "  "
                + say(
                    "event {seq}: {kind} on event {concerning}: {text}",
                    seq=r.seq,
                    kind=kind,
                    concerning=r.concerning_seq,
                    text=r.text,
                )
                + _change_text(r.change)
            )
    return "\n".join(lines)


# What each kind of check after the end checks (verification.Check.kind), in words.
CHECK_KINDS = {
    "seed": N_("seed"),
    "commitment": N_("commitment"),
    "draw": N_("draw"),
    "roll": N_("roll"),
    "draw_numbers": N_("draw numbers"),
    "bcdice": N_("BCDice"),
}

VERDICTS = {
    "clean": N_("CLEAN"),
    "problems": N_("PROBLEMS"),
    "unfinished": N_("UNFINISHED"),
    "legal": N_("legal"),
    "understated": N_("understated"),
    "overstated": N_("overstated"),
    "unknown": N_("unknown"),
}


def seat_names(envelopes: list[dict[str, Any] | Unreadable]) -> dict[int, str]:
    """Seat number → name, as the game's creation and the joins recorded them."""
    names: dict[int, str] = {}
    for envelope in envelopes:
        if not isinstance(envelope, dict):
            continue
        public = envelope.get("public") or {}
        if envelope.get("type") == "GameCreated":
            names |= {int(s["seat"]): str(s["name"]) for s in public.get("seats", [])}
        elif envelope.get("type") == "SeatJoined" and public.get("name"):
            names[int(public["seat"])] = str(public["name"])
    return names


def _summary(report: AuditReport, say: Say) -> list[str]:
    """The summary in the reader's words: the counts again, the verification's note (already
    read in the reader's language) where it reports a problem."""
    verification = report.verification
    if not verification.ok or not verification.chain.ok:
        lines = [verification.note]
    elif not verification.ended:
        lines = [say("Chain of {count} events verifies.", count=verification.chain.events)]
    else:
        secrets = verification.secrets
        lines = [
            say(
                "Chain of {count} events, {draws} draws and {secrets} secrets verify.",
                count=verification.chain.events,
                draws=secrets.count("draw") if secrets else 0,
                secrets=secrets.count("commitment") if secrets else 0,
            )
        ]
    if verification.ended:
        legal = sum(1 for d in report.declarations if d.verdict in ("legal", "understated"))
        flagged = sum(1 for d in report.declarations if d.verdict == "overstated")
        lines.append(
            say(
                "{count} declarations checked: {legal} legal, {flagged} above the truth.",
                count=len(report.declarations),
                legal=legal,
                flagged=flagged,
            )
        )
    else:
        lines.append(say("The game has not ended: secrets and declarations are checked after it."))
    lines.append(say("{count} GM rulings and amendments.", count=len(report.rulings)))
    return lines


def _change_text(change: dict[str, Any]) -> str:
    """A ruling's effect or an amendment's correction as `(field: value; …)`, values in words
    (`logline.words`: text as written, lists joined, no JSON), an empty value left out."""
    parts = [
        f"{key.replace('_', ' ')}: {words(value)}"
        for key, value in change.items()
        if value not in (None, "", [], {})
    ]
    return " (" + "; ".join(parts) + ")" if parts else ""
