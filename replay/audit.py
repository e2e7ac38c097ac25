"""The dispute report: everything a table can check about a game, from its envelopes alone.

Chain integrity, the seed, every draw and roll, every commitment against its reveal
(domain.model.verification); every rule-checked declaration beside the revealed truth (the
ruleset's `audit_declarations`); every GM ruling and amendment with what it concerned.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel

from domain.model.errors import KirokuError
from domain.model.ruleset import DeclarationCheck
from domain.model.verification import (
    Reevaluate,
    Unreadable,
    VerificationReport,
    recheck_bcdice,
    verify,
)
from domain.rulesets import ruleset_for
from replay.archive import records_from_envelopes


class RulingEntry(BaseModel):
    seq: int
    kind: Literal["ruling", "amendment"]
    concerning_seq: int
    concerning_type: str | None
    text: str
    change: dict[str, Any]


class AuditReport(BaseModel):
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

    summary = [report.note]
    if report.ended:
        legal = sum(1 for d in declarations if d.verdict in ("legal", "understated"))
        summary.append(
            f"{len(declarations)} declarations checked: {legal} legal, "
            f"{len(flagged)} above the truth."
        )
    else:
        summary.append("The game has not ended: secrets and declarations are checked after it.")
    summary.append(f"{len(rulings)} GM rulings and amendments.")

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
        summary=summary,
        verification=report,
        declarations=declarations,
        rulings=rulings,
    )


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


def render_text(report: AuditReport) -> str:
    lines = [f"Audit of game {report.game_id} ({report.ruleset}): {report.verdict.upper()}", ""]
    lines += [f"  {line}" for line in report.summary]
    findings = report.verification.secrets.findings if report.verification.secrets else []
    chain = report.verification.chain
    if not chain.ok:
        lines += ["", f"Chain broken at event {chain.first_bad_seq}: {chain.problem}"]
    if findings:
        lines += ["", "Findings:"]
        lines += [f"  event {f.seq}: {f.kind}: {f.problem}" for f in findings]
    if report.declarations:
        lines += ["", "Declarations (declared / true):"]
        for d in report.declarations:
            note = f" — {d.note}" if d.note else ""
            lines.append(
                f"  event {d.seq} {d.actor} {d.what}: {d.declared} / {d.truth} {d.verdict}{note}"
            )
    if report.rulings:
        lines += ["", "Rulings and amendments:"]
        for r in report.rulings:
            lines.append(
                f"  event {r.seq} {r.kind} on event {r.concerning_seq} "
                f"({r.concerning_type}): {r.text}" + _change_text(r.change)
            )
    return "\n".join(lines)


def _change_text(change: dict[str, Any]) -> str:
    """A ruling's effect or an amendment's correction as `(field: value; …)`, values in JSON
    (strings quoted, Japanese as written) so a reader sees exactly what the record holds."""
    if not change:
        return ""
    parts = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in change.items()]
    return " (" + "; ".join(parts) + ")"
