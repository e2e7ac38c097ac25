"""The session log: one self-contained HTML file people read, share and verify.

Each event becomes the line the table reads (`domain.model.logline.describe`, from the event as
the reader may see it) in ココフォリア's exact export shape: the `<body>` holds the lines as
`<p style="color:#rrggbb;"><span> [tab]</span> <span>name</span> : <span>text</span></p>`, one
event a line, in order, and no other `<p>`; a roll reads as ココフォリア writes it, the command
first, then BCDice's result. So the tools that tidy ココフォリア logs into a リプレイ (a regex
anchored on that opening tag, `body > p`, every `<p>` with its three spans) read every line.

What Kiroku needs beside a line — its seq, its tab, its kind, whether it is a secret folded
after the end, the rulings about it — is kept where those tools do not look: the n-th line is
the event of seq n in the embedded archive, and a small JSON block after the lines
(`kiroku-lines`) holds the rest; the page's script applies it once loaded (ids, classes, tab
filters, folds, links).

The file carries the game's archive (its envelopes: the chain, never a secret that is still
sealed) gzip-compressed and base64-encoded (a 100,000-event game's envelopes are 48 MiB of
JSON, 9 MiB so), and a verifier (docs/reference/verification.md in JavaScript, with Web Crypto) that
runs
in a Web Worker with its progress shown: it checks the chain, the reveals and, after the end,
every draw, in the reader's browser with no network. Its inline style and scripts are allowed
by their hashes in a Content-Security-Policy (a `<meta>` in the file, and the header when
served), nothing else; a long log's worker is started from a `blob:` of the file's own
script, by a small script in the file's head (static/logstart.js), while the lines are read.

The file is written in one language, its exporter's (the log route: the page's language;
`kiroku log`: the terminal's, or `--lang`): its frame is a Jinja template read through the
catalogs (api/pages/i18n/), the lines' own words as the table reads them in that language, and
the scripts' texts through their `t()` (static/logverify.js), which reads the small catalog the
file embeds (`kiroku-i18n`: only the keys the scripts use, in that language).

The file is written in three passes over the records (`render_chunks`), so a long game is
streamed: the first reads what the head of the file needs (names, reveals, rulings, colours),
the second writes the lines, the third the archive. Memory stays a few bytes an event.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from babel.messages.extract import extract_javascript
from markupsafe import Markup, escape

from domain.model.audience import GM, HOST, PUBLIC, SYSTEM, may_see, seat_number
from domain.model.envelope import commitment
from domain.model.game import DEFAULT_TABS
from domain.model.lifecycle_events import GameCreated
from domain.model.logline import (
    BLIND_DICE,
    MAX_TEXT,
    SECRET_DICE,
    SECRET_NOTE,
    WHISPER,
    LogLine,
    describe,
    reveal_line,
    seat_name,
)
from domain.model.messages import N_
from domain.model.records import Recorded
from domain.model.redaction import Disclosure, redact
from domain.rulesets import ruleset_for
from replay.archive import archive_header, envelope_line

from . import RULESET_NAMES, STATIC_DIR, i18n, templates

# ココフォリア's own tab ids for the three tabs every table has (its export writes `[main]`).
COCOFOLIA_TABS: dict[str, str] = dict(zip(DEFAULT_TABS, ("main", "info", "other"), strict=True))
HIDDEN_TABS = frozenset({DEFAULT_TABS[2]})  # 雑談: hidden until the reader ticks it
# The `<title>` and file name ココフォリア's ログ出力 gives (for tools that check them).
COCOFOLIA_TITLE = "ccfolia - logs"
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
# A sealed body's placeholder (logline's) as a catalog key: the file says it in its language.
PLACEHOLDER_KEYS = {
    SECRET_DICE: N_("シークレットダイス"),
    BLIND_DICE: N_("ブラインドダイス"),
    SECRET_NOTE: N_("秘密のメモ"),
    WHISPER: N_("秘話"),
}
# Who says a line nobody typed a name for (logline's `actor_name`), in the file's language
# (static/logverify.js says the same through its `t()`).
SPEAKER_KEYS = {HOST: N_("Host"), SYSTEM: N_("System")}
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
ARCHIVE_BLOCK = re.compile(
    r'(<script type="application/gzip" id="kiroku-archive" data-encoding="base64">)'
    r"([A-Za-z0-9+/=\n]*)(</script>)"
)
TEMPLATE = "session_log.html"  # templates/: the file's frame, around its lines
LINES_MARK = "\x00kiroku-lines\x00"  # where the lines go in the rendered frame
# The scripts inlined in the file whose texts go through its embedded catalog (`t()`).
SCRIPTS = ("logverify.js", "sessionlog.js")
T_CALL = re.compile(r'(?<![\w.$])t\(\s*"((?:[^"\\\n]|\\.)*)"')  # `t("key"`, as written
B64_LINE = 76 * 3 // 4 * 1024  # bytes encoded at a time (a multiple of 3: no padding inside)

Records = Callable[[], Iterable[Recorded]]


@dataclass(frozen=True)
class Line:
    """One message of the session log: what its `<p>` shows and what the page's script adds."""

    line: LogLine
    color: str
    tab_id: str  # the name in the `[tab]` span: ココフォリア's id for its own tabs
    text: str  # ココフォリア's text: a roll's command first, then its result
    folded: str | None = None  # after the end, the spoiler's summary: 「…→ 公開 ✓」
    answered_by: tuple[tuple[str, int], ...] = ()  # rulings/amendments about this line

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

    def html(self) -> str:
        """The line exactly as ココフォリア writes one (its text's line breaks as `<br>`)."""
        text = "<br>".join(str(escape(part)) for part in self.text.split("\n"))
        return (
            f'<p style="color:{self.color};"><span> [{escape(self.tab_id)}]</span> '
            f"<span>{escape(self.line.speaker)}</span> : <span>{text}</span></p>\n"
        )


@dataclass
class SessionLog:
    """What the first pass learns of the game; `render_chunks` writes the file from it."""

    records: Records  # the game's events in order from the first, read once a pass
    audience: str
    disclosure: Disclosure
    game_id: str
    title: str
    ruleset: str
    ended: bool
    events: int
    head: tuple[int, str]
    seat_names: dict[int, str]
    reveals: dict[Any, dict[str, Any]]
    # a sealed event's seq → the seq of the reveal whose line follows its own (`_lines`)
    moved: dict[int, int]
    answers: dict[int, list[tuple[str, int]]]
    style_hashes: set[str] = field(default_factory=set)
    cocofolia_title: bool = False  # `<title>ccfolia - logs</title>`, as ココフォリア's file
    language: str = i18n.DEFAULT  # the exporter's: every word of the file reads in it

    @property
    def page_title(self) -> str:
        return COCOFOLIA_TITLE if self.cocofolia_title else f"{self.title} - logs"


def session_log(
    records: Sequence[Recorded] | Records,
    audience: str,
    disclosure: Disclosure,
    *,
    cocofolia_title: bool = False,
    language: str = i18n.DEFAULT,
) -> SessionLog:
    """The log of a game as `audience` may read it at `disclosure` (every secret, after the
    end). `records` are the game's events in order from the first: a list, or a function
    reading them afresh (from the store: the file is then written with bounded memory)."""
    source: Records = records if callable(records) else (lambda: records)
    first: Recorded | None = None
    last: Recorded | None = None
    count, ended = 0, False
    seat_names: dict[int, str] = {}
    reveals: dict[Any, dict[str, Any]] = {}
    sealed: set[int] = set()
    moved: dict[int, int] = {}
    answers: dict[int, list[tuple[str, int]]] = {}
    colours = {*DEFAULT_COLOURS.values()}
    for recorded in source():
        envelope = recorded.envelope
        if envelope.sealed is not None:
            sealed.add(envelope.seq)
        if first is None:
            first = recorded
            for seat in envelope.public.get("seats", []):
                seat_names[int(seat["seat"])] = str(seat["name"])
        last, count = recorded, count + 1
        public = envelope.public
        match envelope.type:
            case "SeatJoined":
                seat = int(public["seat"])
                seat_names[seat] = str(public.get("name") or seat_names.get(seat, ""))
            case "GameEnded":
                ended = True
            case "Revealed":
                reveals[public.get("of_seq")] = public
                of_seq = public.get("of_seq")
                if (
                    isinstance(of_seq, int)
                    and 1 < of_seq < envelope.seq
                    and of_seq in sealed
                    and of_seq not in moved
                ):
                    moved[of_seq] = envelope.seq
            case "RulingMade" | "Amended" if isinstance(public.get("concerning_seq"), int):
                label = N_("裁定") if envelope.type == "RulingMade" else N_("訂正")
                answers.setdefault(public["concerning_seq"], []).append((label, envelope.seq))
        colour = public.get("color")
        if isinstance(colour, str) and COLOUR.fullmatch(colour):
            colours.add(colour.lower())
        number = seat_number(envelope.actor)
        if number is not None:
            colours.add(SEAT_COLOURS[(number - 1) % len(SEAT_COLOURS)])
    if first is None or last is None:
        raise ValueError("a session log needs at least the game's first event")
    created = first.envelope
    return SessionLog(
        records=source,
        audience=audience,
        disclosure=disclosure,
        game_id=created.game_id,
        title=str(created.public.get("title", "")),
        ruleset=str(created.public["ruleset"]),
        ended=ended,
        events=count,
        head=(last.envelope.seq, last.envelope.hash),
        seat_names=seat_names,
        reveals=reveals,
        moved=moved,
        answers=answers,
        # Every colour a line may take (its own, a seat's, the defaults): the head of the file
        # is written before the lines.
        style_hashes={_csp_hash(f"color:{colour};") for colour in colours},
        cocofolia_title=cocofolia_title,
        language=language if language in i18n.LANGUAGES else i18n.DEFAULT,
    )


def render(log: SessionLog) -> tuple[str, str]:
    """The HTML file and the Content-Security-Policy it needs (also written into it)."""
    return "".join(render_chunks(log)), policy(log)


def policy(log: SessionLog) -> str:
    style_hashes = sorted({_csp_hash(_css()), *log.style_hashes})
    inline = (page_script, worker_script, starter_script)
    scripts = sorted({_csp_hash(script()) for script in inline})
    return (
        "default-src 'none'; "
        f"style-src 'unsafe-hashes' {' '.join(style_hashes)}; "
        f"script-src {' '.join(scripts)}; "
        "worker-src blob:; "
        "img-src data:; base-uri 'none'; form-action 'none'; object-src 'none'"
    )


def render_chunks(log: SessionLog) -> Iterator[str]:
    """The file, piece by piece: the head, the lines (one pass over the records), the lines'
    data for the page, the archive (another pass, compressed as it goes) and the scripts."""
    head, tail = _template(log)
    yield head
    data = _LineData(log.moved, log.language, log.seat_names)
    for line in _lines(log):
        data.add(line)
        yield line.html()
    yield '<footer class="verification" id="verification">\n'
    speakers = escape(i18n.gettext(N_("Speakers"), log.language))
    yield f'<ul class="legend" aria-label="{speakers}">'
    for speaker, colour in data.legend:
        yield f'<li style="color:{colour};">■ {escape(speaker)}</li>'
    yield "</ul>\n"
    yield tail
    yield '<script type="application/json" id="kiroku-i18n">'
    yield script_safe(script_catalog(log.language))
    yield "</script>\n"
    yield '<script type="application/json" id="kiroku-lines">'
    yield script_safe(data.json())
    yield "</script>\n"
    yield '<script type="application/gzip" id="kiroku-archive" data-encoding="base64">'
    yield from _archive_base64(log)
    yield "</script>\n"
    yield f'<script type="module">{page_script()}</script>\n</body>\n</html>\n'


def _about(log: SessionLog) -> str:
    """What the file is, in words: the system, its length, whose view, the game (its id: the
    archive's and the verifier's name for it)."""
    language = log.language
    if log.ended:
        when = i18n.gettext(
            N_("after the end: every secret revealed (folded: open one to read it)"), language
        )
    else:
        when = i18n.translate(
            N_("before the end, as {audience} may see it"),
            language,
            audience=_audience_name(log.audience, log.seat_names, language),
        )
    system = i18n.gettext(RULESET_NAMES.get(log.ruleset, log.ruleset), language)
    return i18n.translate(
        N_("{system} · {events} events · {when} · game {game}"),
        language,
        system=system,
        events=log.events,
        when=when,
        game=log.game_id,
    )


def _audience_name(audience: str, seat_names: dict[int, str], language: str) -> str:
    """Whose view the file is, by name: a seat's name, the GM, the host or the spectators."""
    number = seat_number(audience)
    if number is not None:
        return _seat_name(number, seat_names, language)
    words = {GM: "GM", HOST: N_("Host"), PUBLIC: N_("the spectators")}
    return i18n.gettext(words.get(audience, audience), language)


def _seat_name(number: int, seat_names: dict[int, str], language: str) -> str:
    """A seat's name (「席N」 before it has one, in the file's language)."""
    if seat_names.get(number):
        return seat_name(number, seat_names)
    return i18n.translate(N_("席{seat}"), language, seat=number)


def _template(log: SessionLog) -> tuple[str, str]:
    """The file's frame (templates/session_log.html) in the log's language: what comes before
    the lines and what comes after the legend."""
    text = templates.env.get_template(TEMPLATE).render(
        lang=log.language,
        csp=policy(log),
        title=log.page_title,
        css=Markup(_css()),
        worker=Markup(worker_script()),
        starter=Markup(starter_script()),
        events=log.events,
        heading=log.title,
        about=_about(log),
        lines=Markup(LINES_MARK),
        head_seq=log.head[0],
        head_hash=log.head[1],
    )
    head, tail = text.split(LINES_MARK + "\n", 1)
    return head, tail


@cache
def script_keys() -> tuple[str, ...]:
    """The catalog keys the file's scripts use (their `t("…")`), as the catalogs' test finds
    them: Babel's extractor, then each `t("…")` read as written (Babel's lexer loses a call
    inside a template literal's `${}` or after a regex literal); a comment's are not keys."""
    keys: dict[str, None] = {}
    for name in SCRIPTS:
        path = STATIC_DIR / name
        with path.open("rb") as source:
            for found in extract_javascript(source, {"t": None}, [], {}):
                key: object = found[2]
                if isinstance(key, str) and key:
                    keys.setdefault(key, None)
        text = path.read_text(encoding="utf-8")
        for match in T_CALL.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if not text[line_start:].lstrip().startswith("//"):
                keys.setdefault(json.loads(f'"{match.group(1)}"'), None)
    return tuple(keys)


def script_catalog(language: str) -> str:
    """The small catalog the file embeds for its scripts: their keys in `language`."""
    catalog = {key: i18n.gettext(key, language) for key in script_keys()}
    return json.dumps(catalog, ensure_ascii=False, separators=(",", ":"))


def _lines(log: SessionLog) -> Iterator[Line]:
    """The lines in the file's order: the events' in seq order, except that the first reveal
    of a sealed event (not the dice seed's) comes right after that event's line rather than
    at its own place — the secret under the line it was, as the reveal's line reads (the line
    it reveals). The event's own line reads as the reader read it before the reveal. Nothing
    but this order marks it (the page's script and the verifier derive it from the archive),
    so each `<p>` stays ココフォリア's. After the end the reveal is folded under its line."""
    rules = ruleset_for(log.ruleset)
    describer = rules.describe
    colours: dict[str, str] = {}
    moved_reveals = {reveal: of_seq for of_seq, reveal in log.moved.items()}
    state: Any = None  # the ruleset's state as of each event: its people's names
    for recorded in log.records():
        envelope = recorded.envelope
        if state is None and isinstance(recorded.event, GameCreated):
            state = rules.initial_for(recorded.event)
        if state is not None:
            state = rules.evolve(state, recorded)
        people = rules.people(state, log.audience)
        if envelope.seq in moved_reveals:
            continue  # written under the line it reveals
        redacted = redact(recorded, log.audience, log.disclosure)
        reveal = log.moved.get(envelope.seq)
        read = redacted
        if (
            reveal is not None
            and envelope.sealed is not None
            and not may_see(log.audience, envelope.sealed.audience, revealed=False)
        ):
            read = {**redacted, "secret": None}  # as it read until the reveal
        line = _worded(
            describe(read, log.audience, log.seat_names, describer, people=people),
            read,
            log,
        )
        yield Line(
            line=line,
            color=_colour(line, envelope.actor, colours),
            tab_id=COCOFOLIA_TABS.get(line.tab, line.tab),
            text=_cocofolia_text(read, line, log.language),
            folded=_folded(recorded, line, log) if log.ended else None,
            answered_by=tuple(log.answers.get(line.seq, ())),
        )
        if reveal is not None:
            shown = _worded(
                describe(redacted, log.audience, log.seat_names, describer, people=people),
                redacted,
                log,
            )
            said = reveal_line(reveal, shown)
            yield Line(
                line=said,
                color=_colour(said, envelope.actor, colours),
                tab_id=COCOFOLIA_TABS.get(said.tab, said.tab),
                text=_cocofolia_text(redacted, shown, log.language),
                answered_by=tuple(log.answers.get(reveal, ())),
            )


def _worded(line: LogLine, read: dict[str, Any], log: SessionLog) -> LogLine:
    """The line in the file's language, as the table reads it in that language: a lifecycle
    line's words from its catalog key (`msg`), a sealed body's placeholder, the host's and the
    system's names, a seat's that has none (「席N」). A name someone typed and the ruleset's own
    words stay as they are."""
    language = log.language
    changes: dict[str, Any] = {}
    if line.msg and language != i18n.DEFAULT:
        changes["text"] = _clip(i18n.read_line(line.msg, line.args, language))
    elif line.hidden and line.text in PLACEHOLDER_KEYS:
        changes["text"] = i18n.gettext(PLACEHOLDER_KEYS[line.text], language)
    actor = str(read.get("actor", ""))
    number = seat_number(actor)
    if (read.get("public") or {}).get("speaker"):
        pass  # the name the line was said under, as typed
    elif actor in SPEAKER_KEYS:
        changes["speaker"] = i18n.gettext(SPEAKER_KEYS[actor], language)
    elif number is not None and not log.seat_names.get(number):
        changes["speaker"] = _seat_name(number, log.seat_names, language)
    return line.model_copy(update=changes) if changes else line


def _clip(text: str) -> str:
    """As logline clips a line's text (static/logverify.js clips its expectation so)."""
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


class _LineData:
    """What the page's script adds to the lines, by order (the n-th `<p>` is seq n): each
    line's tab and classes (two small numbers a line), the folds, the links, the legend."""

    def __init__(
        self,
        moved: dict[int, int],
        language: str = i18n.DEFAULT,
        seat_names: dict[int, str] | None = None,
    ) -> None:
        self.language = language
        self.seat_names = seat_names or {}
        # [reveal, the seq it reveals]: the reveal's line is right after that one's
        self.moved = [[reveal, of_seq] for of_seq, reveal in sorted(moved.items())]
        self.tabs: dict[str, int] = {name: index for index, name in enumerate(DEFAULT_TABS)}
        self.classes: dict[str, int] = {}
        self.rows = array("H")
        self.folded: dict[int, str] = {}
        self.links: dict[int, list[Any]] = {}
        self.legend_seen: dict[tuple[str, str], None] = {}

    def add(self, shown: Line) -> None:
        line = shown.line
        tab = self.tabs.setdefault(line.tab, len(self.tabs))
        classes = self.classes.setdefault(shown.classes, len(self.classes))
        self.rows.extend((tab, classes))
        if shown.folded:
            self.folded[line.seq] = shown.folded
        links: list[Any] = [
            [i18n.gettext(label, self.language), seq] for label, seq in shown.answered_by
        ]
        if line.concerns is not None and line.kind in ("ruling", "amendment"):
            links.insert(0, ["↪", line.concerns])
        if line.hidden and line.sealed_to is not None:
            links.append(["→", self._who(line.sealed_to)])
        if links:
            self.links[line.seq] = links
        if line.kind not in ("system", "phase"):
            self.legend_seen.setdefault((line.speaker, shown.color), None)

    def _who(self, audience: tuple[str, ...]) -> str:
        """Who may read a sealed body, by name, in the file's language (never `seat:N`)."""
        if not audience:
            return i18n.gettext(N_("nobody can read it until the end"), self.language)
        chair_first = sorted(audience, key=lambda who: (seat_number(who) or 0, who))
        named = [_audience_name(who, self.seat_names, self.language) for who in chair_first]
        return i18n.translate(N_("only {names}"), self.language, names=", ".join(named))

    @property
    def legend(self) -> list[tuple[str, str]]:
        return list(self.legend_seen)

    def json(self) -> str:
        tabs = [[name, name not in HIDDEN_TABS] for name in self.tabs]
        return json.dumps(
            {
                "tabs": tabs,
                "classes": list(self.classes),
                "rows": self.rows.tolist(),
                "folded": self.folded,
                "links": self.links,
                "moved": self.moved,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )


def _archive_base64(log: SessionLog) -> Iterator[str]:
    """The game's archive (replay.archive's lines: a header, then each envelope), gzipped and
    base64-encoded as it is read (`embedded_archive` reads it back)."""
    created: Recorded | None = None
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: the gzip format
    pending = b""
    for recorded in log.records():
        if created is None:
            created = recorded
            header = archive_header(created.envelope, log.events, log.head[1])
            pending += compressor.compress(header.encode() + b"\n")
        else:
            pending += compressor.compress(b"\n")
        pending += compressor.compress(envelope_line(recorded).encode())
        if len(pending) >= B64_LINE:
            cut = len(pending) - len(pending) % 3
            yield base64.b64encode(pending[:cut]).decode("ascii") + "\n"
            pending = pending[cut:]
    pending += compressor.flush()
    yield base64.b64encode(pending).decode("ascii")


def embedded_archive(html: str) -> str:
    """The archive's text a session log file embeds."""
    match = ARCHIVE_BLOCK.search(html)
    if match is None:
        raise ValueError("this file embeds no archive")
    return zlib.decompress(base64.b64decode(match.group(2)), 31).decode("utf-8")


def with_archive(html: str, text: str) -> str:
    """The file with `text` embedded as its archive instead (tests forge copies so)."""
    data = base64.b64encode(zlib.compress(text.encode("utf-8"), 6, 31)).decode("ascii")
    return ARCHIVE_BLOCK.sub(lambda m: m.group(1) + data + m.group(3), html, count=1)


def script_safe(text: str) -> str:
    """JSON text that cannot end the `<script>` element holding it: every `<` (only ever inside
    a JSON string) becomes `\\u003c`, which JSON.parse reads back as `<`."""
    return text.replace("<", "\\u003c")


def inline_script(*names: str) -> str:
    """ES modules under static/ as one inline script: their `import` lines dropped (the files
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


def page_script() -> str:
    """The page's module: lays the lines' data on the lines, starts the verifier."""
    return inline_script("jcs.js", "logverify.js", "sessionlog.js")


def worker_script() -> str:
    """The verifier's worker (a classic script: started from a `blob:` of this text)."""
    return inline_script("jcs.js", "logverify.js") + "\nlistenAsWorker();\n"


def starter_script() -> str:
    """The file's first script, in its head: starts a long log's verifier worker while the
    browser reads the lines."""
    return inline_script("logstart.js")


def _css() -> str:
    return (STATIC_DIR / "sessionlog.css").read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def _cocofolia_text(redacted: dict[str, Any], line: LogLine, language: str = i18n.DEFAULT) -> str:
    """The text as ココフォリア writes it: a roll's command (and comment), then BCDice's result
    (also a reveal's, given the roll it reveals); every other line as described."""
    if redacted["type"] != "DiceRolled" or line.hidden:
        return line.text
    record = (redacted.get("public") or {}).get("roll") or redacted.get("secret")
    if not isinstance(record, dict) or not record.get("expression"):
        return line.text
    return cocofolia_roll_text(record, language)


def cocofolia_roll_text(record: dict[str, Any], language: str = i18n.DEFAULT) -> str:
    """`2D6>=7 目星 (2D6>=7) ＞ 9[4,5] ＞ 9 ＞ 成功`: the command as typed (its comment after
    it), then BCDice's result (logverify.js writes the same for its check)."""
    command = str(record.get("expression", ""))
    if record.get("comment"):
        command = f"{command} {record['comment']}"
    result = (record.get("result") or {}).get("explanation")
    text = f"{command} {result}" if result else command
    if record.get("manual"):
        text += " " + i18n.gettext(N_("(manual dice)"), language)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


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


def _folded(recorded: Recorded, line: LogLine, log: SessionLog) -> str | None:
    """After the end, the reveal under a sealed event's line is folded (readers choose when to
    see spoilers): the line's summary says what it was and whether the reveal matches its
    commitment; opened, it shows the reveal's line (static/sessionlog.js)."""
    envelope = recorded.envelope
    if envelope.sealed is None or envelope.seq not in log.moved or line.kind == "system":
        return None
    label = PLACEHOLDERS.get(line.kind, N_("秘匿"))
    if line.kind == "roll" and envelope.actor == GM and envelope.sealed.audience == (GM,):
        label = SECRET_DICE
    verdict = _reveal_matches(log.reveals.get(envelope.seq), envelope.sealed.commitment)
    marks = {True: N_("公開 ✓"), False: N_("公開 ✗ コミットメントと不一致"), None: N_("公開")}
    label = i18n.gettext(PLACEHOLDER_KEYS.get(label, label), log.language)
    return f"{label} → {i18n.gettext(marks[verdict], log.language)}"


def _reveal_matches(reveal: dict[str, Any] | None, committed: str) -> bool | None:
    if reveal is None:
        return None
    body, salt = reveal.get("body"), reveal.get("salt")
    if not isinstance(body, dict) or not isinstance(salt, str):
        return False
    return commitment(salt, body) == committed


def cocofolia_filename(title: str) -> str:
    """The file name ココフォリア's ログ出力 gives a room's log of every tab: `<room>[all].html`."""
    safe = re.sub(r'[\\/:*?"<>|\x00-\x1f]', "_", title).strip() or "log"
    return f"{safe}[all].html"


def disclosure_after(records: Sequence[Recorded]) -> Disclosure:
    """What is revealed after the last of `records` (an archive's game, no state at hand)."""
    revealed = {r.envelope.public.get("of_seq") for r in records if r.envelope.type == "Revealed"}
    unrevealed = {
        r.envelope.seq
        for r in records
        if r.envelope.sealed is not None and r.envelope.seq not in revealed
    }
    return Disclosure(upto=len(records), unrevealed=unrevealed)
