"""One way to describe an event for people: the chat line a table reads.

`describe` turns an event *as an audience may see it* (the output of `redaction.redact`) into a
`LogLine`. It reads nothing else, so a line can never say more than the redacted event it comes
from: a sealed body the audience may not read becomes a placeholder (「シークレットダイス」,
「秘密のメモ」). The table page, the session log, the replay and the terminal viewer all show
these lines. Rulesets describe their own events through `Ruleset.describe`; an event nobody
describes still reads as words, never as JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from domain.model.audience import GM, HOST, SYSTEM, seat_number
from domain.model.game import DEFAULT_TABS
from domain.model.messages import N_, Message, Term, encode, read, source

MAIN_TAB = str(DEFAULT_TABS[0])  # a plain str: a model field's default the OpenAPI document writes
SECRET_DICE = "シークレットダイス"
BLIND_DICE = "ブラインドダイス"
SECRET_NOTE = "秘密のメモ"
WHISPER = "秘話"
MAX_TEXT = 600
# The end summaries rulesets give (`Table.end`) that are catalog keys: a GameEnded line reads
# one in the reader's language; any other summary (the GM's own words) reads as typed.
ENDING_SUMMARIES: set[str] = set()


def ending_summary(summary: Term) -> Term:
    """Declare `summary` (an `N_` key) one a ruleset ends its games with: read as a term."""
    ENDING_SUMMARIES.add(summary)
    return summary


Kind = Literal[
    "chat",
    "roll",
    "declaration",
    "note",
    "ruling",
    "amendment",
    "reveal",
    "phase",
    "system",
    "rules",
]
Outcome = Literal["success", "failure", "critical", "fumble"] | None


class LogLine(BaseModel):
    """One line of the log as one audience reads it."""

    model_config = ConfigDict(frozen=True)

    seq: int
    kind: Kind
    tab: str = MAIN_TAB
    speaker: str
    color: str | None = None
    text: str
    outcome: Outcome = None
    concerns: int | None = None  # the seq a ruling, amendment or reveal is about
    sealed_to: tuple[str, ...] | None = None  # who may read the sealed part
    hidden: bool = False  # the sealed part is not readable by this audience: a placeholder
    revealed: bool | None = None  # for sealed events: has the body been published since?
    quiet: bool = False  # bookkeeping (a browser signing in): shown small, or not at all
    audience_text: str | None = None  # who may read the sealed part, in words: 「GMとベンだけ」
    # the same people by name, for a page in another language to say it in its own words
    audience_names: tuple[str, ...] | None = None
    # The line's catalog key (its Japanese, api/pages/i18n/) and its arguments (`encode`d: a
    # text as it is, a term or a message to read too): a page in another language shows
    # `t(msg, args)` instead of `text`. None for words the same in every language (a chat).
    msg: str | None = None
    args: dict[str, Any] | None = None


# A ruleset's describer: (type, public, secret-or-None, seat number → name) → (kind, words),
# or None for the fallback; the words a `Message` (its keys Japanese) or a text.
Describer = Callable[
    [str, dict[str, Any], dict[str, Any] | None, Mapping[int, str]],
    tuple[str, str | Message] | None,
]


class Names(dict[int, str]):
    """What a line may call people by: seat number → the seat's name (the mapping itself), and
    `people`, the ruleset's units or characters by id → name as the line's reader knows them
    (`Ruleset.people`; empty where the caller has no state: `of` then says the id)."""

    def __init__(
        self, seats: Mapping[int, str] | None = None, people: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(seats or {})
        self.people: dict[str, str] = dict(people or {})

    def of(self, id: str) -> str:
        """A unit's or character's name by its id (the id where the reader knows no name)."""
        return self.people.get(id) or id


def actor_name(actor: str, seat_names: Mapping[int, str]) -> str:
    """A seat's name (or 「席N」 before it has one), GM, Host: never `seat:N`."""
    number = seat_number(actor)
    if number is not None:
        return seat_name(number, seat_names)
    # "Host" and "System" as the session log's verifier (static/logverify.js) re-derives them:
    # both change together once that file is free to edit.
    return {GM: "GM", HOST: "Host", SYSTEM: "System"}.get(actor, actor)


def seat_name(number: int, seat_names: Mapping[int, str]) -> str:
    """A seat's name by its number (「席N」 before it has one)."""
    return seat_names.get(number) or f"席{number}"


def audience_text(audience: tuple[str, ...], seat_names: Mapping[int, str]) -> str:
    """Who may read a sealed body, in words: 「GMとベンだけ」; the dice seed's empty audience
    is 「終了まで誰も読めない」."""
    if not audience:
        return "終了まで誰も読めない"
    names = [actor_name(a, seat_names) for a in sorted(audience, key=_chair_first)]
    return "と".join(names) + "だけ"


def audience_names(audience: tuple[str, ...], seat_names: Mapping[int, str]) -> tuple[str, ...]:
    """Who may read a sealed body, by name, the chair first (empty: nobody until the end)."""
    return tuple(actor_name(a, seat_names) for a in sorted(audience, key=_chair_first))


def _chair_first(actor: str) -> tuple[int, int]:
    number = seat_number(actor)
    return (1, number) if number is not None else (0, 0)


def _said(msg: str, kind: str = "system", **args: Any) -> dict[str, Any]:
    """A lifecycle line from its catalog key (Japanese source text) and arguments."""
    texts = {name: "" if value is None else str(value) for name, value in args.items()}
    encoded = {
        name: {"term": str(value)} if isinstance(value, Term) else texts[name]
        for name, value in args.items()
    }
    return {"kind": kind, "text": msg.format(**texts), "msg": msg, "args": encoded or None}


def describe(
    event: dict[str, Any],
    viewer: str,
    seat_names: Mapping[int, str],
    ruleset_describe: Describer | None = None,
    revealing: dict[str, Any] | None = None,
    people: Mapping[str, str] | None = None,
) -> LogLine:
    """The line `viewer` reads for an event redacted for it (`redact`'s output: envelope,
    `secret`, `revealed`).

    A reveal reads as the line it reveals: with `revealing` (the event it reveals, redacted
    for `viewer` as it is now), that event's own line, described by its own describer (the
    roll with its result; the sheet as its ruleset writes a sheet); without it, the body's
    roll or text where it is one, else only which event it reveals. Never the body's fields.
    `people`: the ruleset's units or characters by name as `viewer` knows them
    (`Ruleset.people`), for its describers (`Names.of`)."""
    kind_of, public, secret = event["type"], event.get("public") or {}, event.get("secret")
    sealed = event.get("sealed")
    hidden = sealed is not None and secret is None
    author = actor_name(event["actor"], seat_names)
    line: dict[str, Any] = {
        "seq": event["seq"],
        "speaker": public.get("speaker") or author,
        "color": public.get("color"),
        "tab": public.get("tab") or MAIN_TAB,
        "sealed_to": tuple(sealed["audience"]) if sealed is not None else None,
        "audience_text": audience_text(tuple(sealed["audience"]), seat_names)
        if sealed is not None
        else None,
        "audience_names": audience_names(tuple(sealed["audience"]), seat_names)
        if sealed is not None
        else None,
        "hidden": hidden,
        "revealed": event.get("revealed"),
    }
    if kind_of == "Revealed" and _reads_as(revealing, public):
        assert revealing is not None
        shown = describe(revealing, viewer, seat_names, ruleset_describe, people=people)
        return reveal_line(event["seq"], shown)
    described = _lifecycle(kind_of, public, secret, event, viewer, seat_names, hidden)
    if described is None and ruleset_describe is not None:
        ruled = ruleset_describe(kind_of, public, secret, Names(seat_names, people))
        if ruled is not None:
            described = {"kind": ruled[0], **_worded(ruled[1])}
    if described is None:
        described = _fallback(kind_of, public, secret, hidden)
    line.update(described)
    line["text"] = _clip(line["text"])
    return LogLine(**line)


def _lifecycle(
    kind: str,
    public: dict[str, Any],
    secret: dict[str, Any] | None,
    event: dict[str, Any],
    viewer: str,
    seat_names: Mapping[int, str],
    hidden: bool,
) -> dict[str, Any] | None:
    match kind:
        case "DiceRolled":
            record = public.get("roll") or secret
            if record is None:  # the roller of a blind roll is told that it rolled blind
                blind = viewer == event["actor"]
                return {"kind": "roll", "text": BLIND_DICE if blind else SECRET_DICE}
            return {"kind": "roll", **roll_text(record)}
        case "Said":
            text = public.get("text") if public.get("text") is not None else secret
            if isinstance(text, dict):
                text = text.get("text", "")
            return {"kind": "chat", "text": WHISPER if hidden else str(text or "")}
        case "Declared":
            return {"kind": "declaration", "text": str(public.get("text", ""))}
        case "NoteWritten":
            body = (secret or {}).get("text")
            return {"kind": "note", "text": SECRET_NOTE if hidden else str(body)}
        case "RulingMade":
            said = _said(
                N_("裁定 (#{seq}): {text}"),
                "ruling",
                seq=public.get("concerning_seq"),
                text=public.get("text", ""),
            )
            return {**said, "concerns": public.get("concerning_seq"), "tab": MAIN_TAB}
        case "Amended":
            said = _said(
                N_("訂正 (#{seq}): {text}"),
                "amendment",
                seq=public.get("concerning_seq"),
                text=public.get("reason", ""),
            )
            return {**said, "concerns": public.get("concerning_seq")}
        case "Revealed":
            return {**_revealed(public), "kind": "reveal", "concerns": public.get("of_seq")}
        case "GameCreated":
            return _said(N_("「{title}」を作成した"), title=public.get("title", ""))
        case "SeatJoined":
            if not public.get("name"):  # only an imported record holds a seat without a name
                return _said(N_("席{seat}に誰かが着いた"), seat=public.get("seat"))
            return _said(
                N_("{name}が席{seat}に着いた"), name=public.get("name"), seat=public.get("seat")
            )
        case "GameStarted":
            return _said(N_("ゲーム開始"), "phase")
        case "GameEnded":
            summary = public.get("summary") or ""
            if summary:
                ending = Term(summary) if summary in ENDING_SUMMARIES else summary
                return _said(N_("ゲーム終了: {summary}"), "phase", summary=ending)
            return _said(N_("ゲーム終了"), "phase")
        case "TabAdded":
            return _said(N_("タブ「{name}」を開いた"), name=public.get("name", ""))
        case "SessionOpened":
            return {**_said(N_("ブラウザからサインインした")), "quiet": True}
        case "SessionsRevoked":
            who = actor_name(str(public.get("audience", "")), seat_names)
            return _said(N_("{name}のブラウザをすべてサインアウトした"), name=who)
        case "CredentialsRotated":
            number = public.get("seat")
            name = seat_names.get(number) if isinstance(number, int) else None
            return _said(
                N_("{name}の席のリンクとサインインを取り替えた"), name=name or f"席{number}"
            )
        case "RecoveryCodeUsed":
            return _said(N_("復旧コードで席を取り戻した（ほかのブラウザはサインアウト）"))
        case "InviteIssued":
            number = public.get("seat")
            name = seat_names.get(number) if isinstance(number, int) else None
            return _said(N_("{name}の席に新しい招待リンク"), name=name or f"席{number}")
        case "PhaseAdvanced":
            return _said(N_("フェイズ: {phase}"), "phase", phase=public.get("phase", ""))
    return None


def _worded(words: str | Message) -> dict[str, Any]:
    """A ruleset's words as a line's text (Japanese) and, for a message, its key and arguments."""
    if isinstance(words, str):
        return {"text": words}
    args = encode(words.params)
    return {"text": read(words.key, words.params, source), "msg": words.key, "args": args or None}


def roll_text(record: dict[str, Any]) -> dict[str, Any]:
    """A roll record's BCDice result line, its comment, and whether it succeeded."""
    result = record.get("result") or {}
    outcome = {"outcome": _outcome(result)}
    text = str(result.get("explanation") or record.get("expression", ""))
    if record.get("comment"):
        text = f"{text} {record['comment']}"
    if record.get("manual"):  # faces typed in from physical dice: read in the page's language
        said = _said(N_("{roll} (手動ダイス)"), "roll", roll=text)
        return {"text": said["text"], "msg": said["msg"], "args": said["args"], **outcome}
    return {"text": text, **outcome}


def _outcome(result: dict[str, Any]) -> Outcome:
    """BCDice's own verdict where it gave one (critical and fumble first, as it reports them;
    a roll without a target is neither success nor failure); a typed result's success else."""
    if "critical" in result:  # BCDice's result (domain/dice/bcdice.py)
        for flag in ("critical", "fumble", "success", "failure"):
            if result.get(flag):
                return flag
        return None
    success = result.get("success")
    return None if success is None else ("success" if success else "failure")


def roll_line(record: BaseModel | None) -> str:
    """A typed roll record's (`RollRecord`) BCDice result line; "" for no roll."""
    return "" if record is None else str(roll_text(record.model_dump(mode="json"))["text"])


def reveal_line(seq: int, shown: LogLine) -> LogLine:
    """The line of the reveal `seq`: the line it reveals (`shown`, read with its body), said by
    who said that one (static/logverify.js names them so), about it."""
    return LogLine(
        seq=seq,
        kind="reveal",
        tab=shown.tab,
        speaker=shown.speaker,
        color=shown.color,
        text=shown.text,
        outcome=shown.outcome,
        concerns=shown.seq,
        msg=shown.msg,
        args=shown.args,
    )


def _reads_as(revealing: dict[str, Any] | None, public: dict[str, Any]) -> bool:
    """Does a reveal read as the line of `revealing` (the sealed event it publishes, now
    readable)? Not the dice seed's: that one is named."""
    return (
        revealing is not None
        and revealing.get("secret") is not None
        and revealing.get("seq") == public.get("of_seq") != 1
    )


def _revealed(public: dict[str, Any]) -> dict[str, Any]:
    """A reveal read without the event it reveals: a roll as its line, a text as itself, the
    dice seed by name, anything else (a sheet, a ruleset's body) as which event it reveals."""
    body, of_seq = public.get("body"), public.get("of_seq")
    if isinstance(body, dict):
        if isinstance(body.get("result"), dict):
            return roll_text(body)
        if set(body) == {"text"}:
            return {"text": str(body["text"])}
        if "server_seed" in body:
            return _said(N_("ダイスのシードを公開"))
    return _said(N_("#{seq}の秘匿を公開"), seq=of_seq)


def _fallback(
    kind: str, public: dict[str, Any], secret: dict[str, Any] | None, hidden: bool
) -> dict[str, Any]:
    title = humanize(kind)
    parts = [words(public)] if public else []
    if hidden:
        parts.append("(秘匿)")
    elif secret:
        parts.append(words(secret))
    text = f"{title}: {'; '.join(p for p in parts if p)}" if parts else title
    return {"kind": "rules", "text": text}


def humanize(type_name: str) -> str:
    """`ninja_slayer.EvasionDeclared` → `Evasion declared`."""
    name = type_name.rsplit(".", 1)[-1]
    spaced = "".join(f" {c.lower()}" if c.isupper() and i else c for i, c in enumerate(name))
    return spaced.strip().capitalize()


def words(value: Any) -> str:
    """Any JSON value as plain words: `key value, key value`, lists joined, no braces."""
    if isinstance(value, dict):
        items = [
            f"{key.replace('_', ' ')} {words(item)}"
            for key, item in value.items()
            if item not in (None, "", [], {})
        ]
        return ", ".join(items)
    if isinstance(value, list | tuple):
        return " / ".join(words(item) for item in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
