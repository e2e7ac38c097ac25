"""Plain-text rendering of a replay frame, for `kiroku replay --print` and the terminal viewer."""

from __future__ import annotations

import json

from replay.cursor import Frame


def render_frame(frame: Frame) -> str:
    event = frame.event
    view = frame.view
    lines = [
        f"{view.title} ({view.ruleset}) — event {frame.seq} of {frame.last_seq}, "
        f"as {frame.audience}",
        "",
        f"#{event['seq']} {event['type']} by {event['actor']} at {event['at']}",
    ]
    if event.get("public"):
        lines.append("  public: " + _compact(event["public"]))
    if event.get("sealed"):
        audience = ", ".join(event["sealed"]["audience"]) or "nobody (server)"
        if event.get("secret") is not None:
            lines.append(f"  sealed to {audience}: " + _compact(event["secret"]))
        else:
            lines.append(f"  sealed to {audience}: (not visible to {frame.audience})")
    if frame.explanation:
        lines.append(f"  roll: {frame.explanation}")
    lines += ["", f"status {view.status}; rules: {_compact(view.rules)}"]
    seats = ", ".join(f"{s.seat}:{s.name}{'' if s.joined else ' (empty)'}" for s in view.seats)
    lines.append(f"seats: {seats}")
    if view.secrets:
        lines.append(f"secrets {frame.audience} can read:")
        for item in view.secrets:
            state = "revealed" if item.revealed else "sealed"
            lines.append(f"  #{item.seq} {item.type} ({state}): {_compact(item.body)}")
    changes = [c for c in frame.changes if c.path not in ("seq", "head")]
    if frame.seq > 1 and changes:
        lines.append("changed:")
        for change in changes:
            lines.append(f"  {change.path}: {_compact(change.before)} → {_compact(change.after)}")
    return "\n".join(lines)


def _compact(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 160 else text[:157] + "..."
