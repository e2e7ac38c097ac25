"""The session log: one self-contained HTML file people read, share and verify.

Each event becomes the line the table reads (`domain.logline.describe`, from the event as
the reader may see it) in ココフォリア's export shape —
`<p style="color:…"><span> [tab]</span> <span>name</span> : <span>text</span></p>` —
so the tools that tidy ココフォリア logs into a リプレイ still read it.

The file also carries the game's archive (its envelopes: the chain, never a secret that is
still sealed) and a verifier script (docs/verification.md in JavaScript, with Web Crypto)
that checks the chain, the reveals and, after the end, every draw, in the reader's browser
with no network.

The page needs no server and no script to be read: tabs are checkboxes styled by CSS alone;
the scripts only verify. Its inline style and script are allowed by their hashes in a
Content-Security-Policy (a `<meta>` in the file, and the header when served), nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from domain.audience import GM, SYSTEM, seat_number
from domain.envelope import commitment
from domain.game import DEFAULT_TABS
from domain.logline import SECRET_DICE, SECRET_NOTE, WHISPER, LogLine, describe
from domain.records import Recorded
from domain.redaction import Disclosure, redact
from domain.rulesets import ruleset_for
from replay.archive import export_lines

from . import HERE, STATIC_DIR

# ココフォリア's own tab ids for the three tabs every table has (its export writes `[main]`).
COCOFOLIA_TABS = dict(zip(DEFAULT_TABS, ("main", "info", "other"), strict=True))
HIDDEN_TABS = frozenset({DEFAULT_TABS[2]})  # 雑談: hidden until the reader ticks it
SEAT_COLOURS = (
    "#e91e63",
    "#2196f3",
    "#4caf50",
    "#ff9800",
    "#9c27b0",
    "#009688",
    "#795548",
    "#3f51b5",
)
DEFAULT_COLOURS = {GM: "#222222", SYSTEM: "#888888"}
PLACEHOLDERS = {"roll": SECRET_DICE, "note": SECRET_NOTE, "chat": WHISPER}
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")

_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)


@dataclass(frozen=True)
class Line:
    """One message of the session log, ready for the `log_line` macro."""

    line: LogLine
    hash: str
    color: str
    tab_id: str  # the name in the `[tab]` span: ココフォリア's id for its own tabs
    tab_index: int
    folded: str | None = (
        None  # after the end: the spoiler's summary (「シークレットダイス → 公開 ✓」)
    )
    answered_by: tuple[tuple[str, int], ...] = ()  # rulings/amendments about this line

    @classmethod
    def of(
        cls,
        line: LogLine,
        hash: str,
        actor: str,
        colours: dict[str, str],
        *,
        tab_index: int = 0,
        folded: str | None = None,
        answered_by: tuple[tuple[str, int], ...] = (),
    ) -> Line:
        """A described event ready for `log_line` (templates/logline.html), the macro any page
        can show a line with. `colours` remembers each speaker's last colour across lines."""
        return cls(
            line=line,
            hash=hash,
            color=_colour(line, actor, colours),
            tab_id=COCOFOLIA_TABS.get(line.tab, line.tab),
            tab_index=tab_index,
            folded=folded,
            answered_by=answered_by,
        )

    @property
    def classes(self) -> str:
        kind = self.line.kind
        names = ["line", f"kind-{kind}"]
        names += [kind] if kind in ("roll", "ruling", "amendment") else []
        if self.line.sealed_to is not None and kind not in ("system",):
            names.append("secret")
        if self.line.hidden:
            names.append("sealed")
        if self.line.outcome:
            names.append(self.line.outcome)
        if self.line.quiet:
            names.append("quiet")
        return " ".join(names)

    @property
    def style(self) -> str:
        return f"color:{self.color};"

    @property
    def text_lines(self) -> list[str]:
        return self.line.text.split("\n")


@dataclass
class SessionLog:
    """What the template needs; `render` makes the file."""

    game_id: str
    title: str
    ruleset: str
    audience: str
    ended: bool
    head: tuple[int, str]
    lines: list[Line]
    tabs: list[tuple[int, str, bool]]  # index, name, shown by default
    legend: list[tuple[str, str]]  # speaker, colour
    archive: str  # the archive's JSON Lines (replay.archive): a header, {"envelope": …} per event
    style_hashes: set[str] = field(default_factory=set)


def session_log(records: Sequence[Recorded], audience: str, disclosure: Disclosure) -> SessionLog:
    """The log of a game as `audience` may read it at `disclosure` (every secret, after the
    end). `records` are the game's events in order, from the first."""
    created = records[0].envelope
    seat_names = _seat_names(records)
    describer = ruleset_for(created.public["ruleset"]).describe
    ended = any(r.envelope.type == "GameEnded" for r in records)
    tabs: dict[str, int] = {name: index for index, name in enumerate(DEFAULT_TABS)}
    colours: dict[str, str] = {}
    described: list[tuple[Recorded, LogLine]] = []
    answers: dict[int, list[tuple[str, int]]] = {}
    for recorded in records:
        line = describe(redact(recorded, audience, disclosure), audience, seat_names, describer)
        described.append((recorded, line))
        tabs.setdefault(line.tab, len(tabs))
        if line.kind in ("ruling", "amendment") and line.concerns is not None:
            label = "裁定" if line.kind == "ruling" else "訂正"
            answers.setdefault(line.concerns, []).append((label, line.seq))
    reveals = {
        r.envelope.public.get("of_seq"): r.envelope.public
        for r in records
        if r.envelope.type == "Revealed"
    }
    lines = []
    legend: dict[tuple[str, str], None] = {}
    for recorded, line in described:
        shown = Line.of(
            line,
            recorded.envelope.hash,
            recorded.envelope.actor,
            colours,
            tab_index=tabs[line.tab],
            folded=_folded(recorded, line, reveals) if ended else None,
            answered_by=tuple(answers.get(line.seq, ())),
        )
        if line.kind not in ("system", "phase"):
            legend.setdefault((line.speaker, shown.color), None)
        lines.append(shown)
    last = records[-1].envelope
    return SessionLog(
        game_id=created.game_id,
        title=str(created.public.get("title", "")),
        ruleset=str(created.public["ruleset"]),
        audience=audience,
        ended=ended,
        head=(last.seq, last.hash),
        lines=lines,
        tabs=[(index, name, name not in HIDDEN_TABS) for name, index in tabs.items()],
        legend=list(legend),
        archive="\n".join(export_lines(records, ended=False)),
        style_hashes={_csp_hash(line.style) for line in lines},
    )


def render(log: SessionLog) -> tuple[str, str]:
    """The HTML file and the Content-Security-Policy it needs (also written into it)."""
    css = _css(log)
    script = inline_script("jcs.js", "logverify.js")
    style_hashes = sorted({_csp_hash(css), *log.style_hashes})
    csp = (
        "default-src 'none'; "
        f"style-src 'unsafe-hashes' {' '.join(style_hashes)}; "
        f"script-src {_csp_hash(script)}; "
        "img-src data:; base-uri 'none'; form-action 'none'; object-src 'none'"
    )
    html = _env.get_template("session_log.html").render(
        log=log,
        css=Markup(css),
        script=Markup(script),
        archive=Markup(script_safe(log.archive)),
        csp=csp,
    )
    return html, csp


def script_safe(text: str) -> str:
    """JSON text that cannot end the `<script>` element holding it: every `<` (only ever inside
    a JSON string) becomes `\\u003c`, which JSON.parse reads back as `<`."""
    return text.replace("<", "\\u003c")


def inline_script(*names: str) -> str:
    """ES modules under static/ as one inline module: their `import` lines dropped (the files
    they name are inlined before them) and `export` taken off, so the same files also load
    one by one from the server."""
    parts = []
    for name in names:
        source = (STATIC_DIR / name).read_text(encoding="utf-8")
        kept = [
            line.removeprefix("export ")
            for line in source.splitlines()
            if not line.startswith("import ")
        ]
        parts.append("\n".join(kept))
    return "\n".join(parts)


def _css(log: SessionLog) -> str:
    """The stylesheet, with rules per tab: a line of an unticked tab is not shown, and the
    tab's label shows its box ticked or not (CSS only, so it works with scripts off; sibling
    selectors rather than `:has()`, which is slow over a hundred thousand lines)."""
    base = (STATIC_DIR / "sessionlog.css").read_text(encoding="utf-8")
    rules = []
    for index, _name, _shown in log.tabs:
        tab, label = f"#tab-{index}", f'header label[for="tab-{index}"]'
        rules += [
            f'{tab}:not(:checked) ~ main [data-tab-index="{index}"] {{ display: none; }}',
            f'{tab}:checked ~ {label}::before {{ content: "☑ "; }}',
            f"{tab}:focus-visible ~ {label} {{ outline: 2px solid #1a73e8; }}",
        ]
    return base + "\n" + "\n".join(rules) + "\n"


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def _seat_names(records: Sequence[Recorded]) -> dict[int, str]:
    names: dict[int, str] = {}
    for seat in records[0].envelope.public.get("seats", []):
        names[int(seat["seat"])] = str(seat["name"])
    for recorded in records:
        if recorded.envelope.type == "SeatJoined":
            public = recorded.envelope.public
            names[int(public["seat"])] = str(public.get("name") or names.get(public["seat"], ""))
    return names


def _colour(line: LogLine, actor: str, colours: dict[str, str]) -> str:
    """The speaker's colour: the one the line was said in, else the one it was last said in,
    else the actor's own."""
    if line.color and COLOUR.fullmatch(line.color):
        colours[line.speaker] = line.color.lower()
        return line.color.lower()
    if line.speaker in colours:
        return colours[line.speaker]
    number = seat_number(actor)
    if number is not None:
        return SEAT_COLOURS[(number - 1) % len(SEAT_COLOURS)]
    return DEFAULT_COLOURS.get(actor, DEFAULT_COLOURS[SYSTEM])


def _folded(recorded: Recorded, line: LogLine, reveals: dict[Any, dict[str, Any]]) -> str | None:
    """After the end, a line that tells a secret is folded (readers choose when to see
    spoilers): its summary says what it was and whether the reveal matches its commitment."""
    envelope = recorded.envelope
    if line.kind == "reveal":
        of_seq = envelope.public.get("of_seq")
        if of_seq == 1 or not isinstance(of_seq, int):
            return None
        return f"#{of_seq} の公開"
    if envelope.sealed is None or line.kind in ("system",) or line.hidden:
        return None
    label = PLACEHOLDERS.get(line.kind, "秘匿")
    if line.kind == "roll" and envelope.actor == GM and envelope.sealed.audience == (GM,):
        label = SECRET_DICE
    verdict = _reveal_matches(reveals.get(envelope.seq), envelope.sealed.commitment)
    mark = {True: "公開 ✓", False: "公開 ✗ (does not match its commitment)", None: "公開"}[verdict]
    return f"{label} → {mark}"


def _reveal_matches(reveal: dict[str, Any] | None, committed: str) -> bool | None:
    if reveal is None:
        return None
    body, salt = reveal.get("body"), reveal.get("salt")
    if not isinstance(body, dict) or not isinstance(salt, str):
        return False
    return commitment(salt, body) == committed


def disclosure_after(records: Sequence[Recorded]) -> Disclosure:
    """What is revealed after the last of `records` (an archive's game, no state at hand)."""
    revealed = {r.envelope.public.get("of_seq") for r in records if r.envelope.type == "Revealed"}
    unrevealed = {
        r.envelope.seq
        for r in records
        if r.envelope.sealed is not None and r.envelope.seq not in revealed
    }
    return Disclosure(upto=len(records), unrevealed=unrevealed)
