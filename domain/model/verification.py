"""Verify a game from its envelopes alone: the hash chain always; after the end, the seed,
every commitment and every fair draw. Works on raw JSON so archives verify the same way.

The report's texts a person reads (a problem, what was checked, the note) are catalog messages:
each field holds the source text, and the model keeps the `Message` beside it, so the API, the
pages and the `kiroku` command read the report in their reader's language (`Worded.read`); the
machine fields (`ok`, `kind`, `seq`, counts) never change with the language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal, Self, cast

from pydantic import BaseModel, PrivateAttr, computed_field

from domain import dice
from domain.model.canonical import sha256_hex
from domain.model.draws import find_draws, find_objects, recompute
from domain.model.envelope import chain_hash, commitment, genesis_hash
from domain.model.messages import N_, Message, Term, read
from domain.rulesets import dice_words

# A stored event that could not even be read: (seq, why).
Unreadable = tuple[int, str]


class Worded(BaseModel):
    """A model whose texts a person reads are catalog messages: a text field holds the
    message's source text (English), `_said` the `Message` itself (a summary's, a tuple).
    `_said` is never changed in place: a copy gets a dict of its own."""

    _said: dict[str, Message | tuple[Message, ...]] = PrivateAttr(default_factory=dict)

    def worded(self, **said: Message | tuple[Message, ...] | None) -> Self:
        """A copy with these texts: each field the message's source text, the message kept."""
        copy = self.model_copy(update=_texts(said))
        copy._said = _merged(self._said, said)
        return copy

    def said(self, name: str) -> Message | tuple[Message, ...] | None:
        return self._said.get(name)

    def read(self, gettext: Callable[[str], str]) -> Self:
        """The same report with its texts in a language (`gettext`: its catalog's lookup)."""
        values = dict(self.__dict__)
        for name, value in values.items():
            if isinstance(value, Worded):
                values[name] = value.read(gettext)
            elif isinstance(value, list) and value and isinstance(value[0], Worded):
                values[name] = [v.read(gettext) if isinstance(v, Worded) else v for v in value]
        for name, message in self._said.items():
            values[name] = (
                [read(m.key, m.params, gettext) for m in message]
                if isinstance(message, tuple)
                else read(message.key, message.params, gettext)
            )
        # built without validating again (the fields are this model's, texts now read)
        copy = cast(Self, self.model_construct(_fields_set=self.model_fields_set, **values))
        copy._said = self._said  # shared: never changed in place
        return copy


def _texts(said: dict[str, Message | tuple[Message, ...] | None]) -> dict[str, Any]:
    """Each field's source text (None where no message is given)."""
    return {
        name: None
        if message is None
        else [str(m) for m in message]
        if isinstance(message, tuple)
        else str(message)
        for name, message in said.items()
    }


def _merged(
    before: dict[str, Message | tuple[Message, ...]],
    said: dict[str, Message | tuple[Message, ...] | None],
) -> dict[str, Message | tuple[Message, ...]]:
    kept = {name: message for name, message in before.items() if name not in said}
    return {**kept, **{name: m for name, m in said.items() if m is not None}}


class ChainStatus(Worded):
    ok: bool
    events: int
    head: str | None = None
    first_bad_seq: int | None = None
    problem: str | None = None


class Check(Worded):
    """One thing checked after the end: the seed, a commitment, a draw or a roll."""

    seq: int
    kind: Literal["seed", "commitment", "draw", "roll", "draw_numbers", "bcdice"]
    ok: bool
    what: str
    problem: str | None = None


class SecretsStatus(Worded):
    seed_matches: bool | None = None
    checks: list[Check] = []

    def count(self, kind: str) -> int:
        return sum(1 for c in self.checks if c.kind == kind)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def findings(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def checked_draws(self) -> int:
        return self.count("draw")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def checked_commitments(self) -> int:
        return self.count("commitment")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def checked_rolls(self) -> int:
        return self.count("roll")

    def add(self, seq: int, kind: str, what: Message | str, problem: Message | None = None) -> bool:
        """One check: `what` is a message (a roll's own text, as recorded, is kept as is)."""
        check = Check(
            seq=seq,
            kind=kind,  # type: ignore[arg-type]
            ok=problem is None,
            what=str(what),
            problem=None if problem is None else str(problem),
        )
        said: dict[str, Message | tuple[Message, ...]] = {}
        if isinstance(what, Message):
            said["what"] = what
        if problem is not None:
            said["problem"] = problem
        check._said = said
        self.checks.append(check)
        return problem is None


class WitnessCheck(Worded):
    """Is a head someone saw (event `seq` with hash `hash`) still in the chain? The chain alone
    cannot show that events were deleted from its end; a head noted earlier can."""

    seq: int
    hash: str
    ok: bool
    problem: str | None = None


class VerificationReport(Worded):
    game_id: str
    ok: bool
    ended: bool
    chain: ChainStatus
    secrets: SecretsStatus | None = None  # only once the game has ended and the seed is out
    witness: WitnessCheck | None = None  # only when a head to check was given
    note: str


def check_witness(
    envelopes: Sequence[dict[str, Any] | Unreadable], chain: ChainStatus, seq: int, digest: str
) -> WitnessCheck:
    short = digest[:12]
    problem: Message | None
    if chain.first_bad_seq is not None and chain.first_bad_seq <= seq:
        problem = Message(
            N_("the chain is broken at event {broken}, before event {seq}"),
            {"broken": chain.first_bad_seq, "seq": seq},
        )
    elif seq > len(envelopes):
        problem = Message(
            N_(
                "the log now ends at event {last}: event {seq} (hash {short}…), which was seen "
                "in it, has been removed from its end"
            ),
            {"last": len(envelopes), "seq": seq, "short": short},
        )
    else:
        stored = envelopes[seq - 1]
        found = stored.get("hash") if isinstance(stored, dict) else None
        problem = (
            None
            if found == digest
            else Message(
                N_(
                    "event {seq} now has hash {found}…, not the {short}… seen: the log was "
                    "rewritten at or before event {seq}"
                ),
                {"seq": seq, "found": str(found)[:12], "short": short},
            )
        )
    checked = WitnessCheck(seq=seq, hash=digest, ok=problem is None)
    return checked.worded(problem=problem)


def verify_chain(game_id: str, envelopes: Iterable[dict[str, Any] | Unreadable]) -> ChainStatus:
    prev = genesis_hash(game_id)
    count = 0
    for expected_seq, item in enumerate(envelopes, 1):
        if isinstance(item, tuple):
            unreadable = Message(N_("stored event cannot be read: {why}"), {"why": Term(item[1])})
            return _broken(count, item[0], unreadable)
        problem = _link_problem(game_id, expected_seq, prev, item)
        if problem:
            return _broken(count, expected_seq, problem)
        prev = item["hash"]
        count += 1
    return ChainStatus(ok=True, events=count, head=prev if count else None)


def _link_problem(game_id: str, seq: int, prev: str, envelope: dict[str, Any]) -> Message | None:
    if envelope.get("seq") != seq:
        found = repr(envelope.get("seq"))
        return Message(N_("expected seq {seq}, found {found}"), {"seq": seq, "found": found})
    if envelope.get("game_id") != game_id:
        return Message(N_("event belongs to another game"))
    if envelope.get("prev_hash") != prev:
        return Message(N_("prev_hash does not match the previous event's hash"))
    unhashed = {k: v for k, v in envelope.items() if k != "hash"}
    try:
        recomputed = chain_hash(prev, unhashed)
    except Exception as error:  # malformed content cannot be canonicalised
        return Message(N_("envelope cannot be canonicalised: {error}"), {"error": str(error)})
    if recomputed != envelope.get("hash"):
        return Message(N_("hash does not match the envelope's content"))
    return None


def _broken(count: int, seq: int, problem: Message) -> ChainStatus:
    return ChainStatus(ok=False, events=count, first_bad_seq=seq).worded(problem=problem)


def verify_secrets(game_id: str, envelopes: list[dict[str, Any]]) -> SecretsStatus:
    """After the end: seed against its hash, commitments against reveals, draws against the seed."""
    status = SecretsStatus()
    reveals = {e["public"]["of_seq"]: e["public"] for e in envelopes if e.get("type") == "Revealed"}
    created = envelopes[0]["public"] if envelopes else {}
    seed = reveals.get(1, {}).get("body", {}).get("server_seed")
    if not isinstance(seed, str):
        never = Message(N_("the server seed was never revealed"))
        status.add(1, "seed", Message(N_("server seed")), never)
        return status
    status.seed_matches = _seed_hash(seed) == created.get("server_seed_hash")
    status.add(
        1,
        "seed",
        Message(N_("server seed against server_seed_hash")),
        None if status.seed_matches else Message(N_("the revealed seed does not match its hash")),
    )

    words = dice_words()
    draw_numbers: list[tuple[int, int]] = []
    client_seeds: dict[int, str] = {}  # seat → its client seed, as seats joined
    for envelope in envelopes:
        seq = envelope["seq"]
        if envelope.get("type") == "SeatJoined" and envelope["public"].get("client_seed"):
            client_seeds[envelope["public"]["seat"]] = envelope["public"]["client_seed"]
        seeds_now = [client_seeds[seat] for seat in sorted(client_seeds)]
        # A reveal repeats a body that is checked at the event it reveals.
        parts = [] if envelope.get("type") == "Revealed" else [envelope["public"]]
        sealed = envelope.get("sealed")
        if sealed is not None:
            body = _revealed_body(status, seq, sealed, reveals.get(seq))
            if body is None:
                continue
            parts.append(body)
        for part in parts:
            for draw in sorted(find_draws(part), key=lambda d: str(d["roll"])):
                draw_numbers.append((draw["roll"], seq))
                status.add(
                    seq,
                    "draw",
                    Message(N_("draw {number}"), {"number": draw["roll"]}),
                    _draw_problem(seed, game_id, draw, seeds_now),
                )
            for roll in find_objects(part, "expression", "result"):
                what = str(roll["result"].get("explanation") or roll["expression"])
                status.add(seq, "roll", what, _roll_problem(roll, words))

    # In log order, draw numbers must run 1, 2, 3, … : a skipped number is a hidden re-roll.
    expected = 0
    for expected, (number, seq) in enumerate(draw_numbers, 1):
        if number != expected:
            problem = Message(
                N_("draw numbers skip, repeat or go back (expected {expected}, found {found})"),
                {"expected": expected, "found": number},
            )
            status.add(seq, "draw_numbers", Message(N_("draw numbers run 1..N")), problem)
            break
    else:
        last = envelopes[-1]["seq"] if envelopes else 0
        runs = Message(N_("draw numbers run 1..{count}"), {"count": expected})
        status.add(last, "draw_numbers", runs)
    return status


def _seed_hash(seed: str) -> str | None:
    try:
        return sha256_hex(bytes.fromhex(seed))
    except ValueError:
        return None


def _draw_problem(
    seed: str, game_id: str, draw: dict[str, Any], seeds: list[str]
) -> Message | None:
    if list(draw.get("seeds", [])) != seeds:
        # The seeds mixed in are fixed by who had joined: the server cannot pick among them.
        return Message(N_("draw used other client seeds than the seats had given"))
    if not recompute(seed, game_id, draw):
        return Message(N_("draw does not follow from the seed"))
    return None


def _revealed_body(
    status: SecretsStatus, seq: int, sealed: dict[str, Any], reveal: dict[str, Any] | None
) -> dict[str, Any] | None:
    what = Message(N_("sealed secret"))
    if reveal is None:
        status.add(seq, "commitment", what, Message(N_("sealed secret never revealed")))
        return None
    matches = commitment(reveal["salt"], reveal["body"]) == sealed["commitment"]
    problem = None if matches else Message(N_("reveal does not match commitment"))
    return reveal["body"] if status.add(seq, "commitment", what, problem) else None


def _roll_problem(roll: dict[str, Any], words: tuple[dice.DiceWords, ...]) -> Message | None:
    """Does a recorded roll's result follow from its faces, and its faces from its draw?

    A typed roll is read with every ruleset's dice `words`: a ruleset's own rolls only ever
    use its words, and before BCDice answered chat every game's chat read them all."""
    if "system" in roll:
        return _bcdice_roll_problem(roll)
    try:
        faces = roll["result"]["faces"]
        replayed = dice.parse(roll["expression"], words).replay(faces)
        again = replayed.result.model_dump(mode="json")
        asked = [[r.count, r.sides] for r in replayed.requests]
    except Exception as error:
        return Message(N_("roll cannot be re-evaluated: {error}"), {"error": str(error)})
    if again != roll["result"]:
        return Message(N_("roll result does not follow from its faces"))
    draw = roll.get("draw")
    if draw is not None and list(draw.get("faces", [])) != list(faces):
        return Message(_FACES_DIFFER)
    if draw is not None and [list(pair) for pair in draw.get("dice", [])] != asked:
        # The dice drawn are fixed by the expression and, for rerolls, by the faces before.
        return Message(N_("roll drew other dice than its expression asks for"))
    return None


_FACES_DIFFER = N_("roll faces differ from the drawn faces")


def _bcdice_roll_problem(roll: dict[str, Any]) -> Message | None:
    """A roll BCDice answered: its faces are the drawn faces, one a randomizer call (that the
    result follows from them is the audit's re-evaluation with BCDice: `recheck_bcdice`)."""
    try:
        faces = [int(f) for f in roll["result"]["faces"]]
        draw = roll.get("draw")
        if draw is None:
            return None if roll.get("manual") else Message(N_("a server roll without its draw"))
        drawn = [int(f) for f in draw.get("faces", [])]
        calls = sum(int(count) for count, _sides in draw.get("dice", []))
    except (KeyError, TypeError, ValueError) as error:
        return Message(N_("roll cannot be read: {error}"), {"error": str(error)})
    if drawn != faces:
        return Message(_FACES_DIFFER)
    if calls != len(faces):
        return Message(N_("roll drew another number of dice than it shows"))
    return None


class NotReevaluated(Exception):
    """Raised by a `Reevaluate` that cannot run the roll's BCDice version here: its argument
    is that version."""


# (system, BCDice version, command, faces) → (BCDice's result as recorded, the sides of each
# randomizer call), or None when BCDice does not know the command.
Reevaluate = Callable[[str, str, str, list[int]], tuple[dict[str, Any], list[int]] | None]


def bcdice_rolls(envelopes: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every roll BCDice answered, open or revealed, with its seq, in log order."""
    reveals = {e["public"]["of_seq"]: e["public"] for e in envelopes if e.get("type") == "Revealed"}
    for envelope in envelopes:
        if envelope.get("type") == "Revealed":
            continue
        parts = [envelope.get("public", {})]
        reveal = reveals.get(envelope["seq"])
        if envelope.get("sealed") is not None and reveal is not None:
            parts.append(reveal.get("body", {}))
        for part in parts:
            for roll in find_objects(part, "expression", "result", "system"):
                yield envelope["seq"], roll


def recheck_bcdice(
    report: VerificationReport, envelopes: list[dict[str, Any]], evaluate: Reevaluate
) -> VerificationReport:
    """The report, with every BCDice roll evaluated again by BCDice (the version it was rolled
    with) on its recorded faces: the result must be the recorded one, and the dice drawn the
    ones BCDice asks for. A roll whose version cannot run here is named, not failed."""
    if report.secrets is None:
        return report
    secrets = report.secrets.model_copy(deep=True)
    skipped: set[str] = set()
    for seq, roll in bcdice_rolls(envelopes):
        system, version = str(roll.get("system")), str(roll.get("bcdice"))
        what = f"BCDice {version} {system}: {roll.get('expression')}"  # as recorded: no words
        try:
            again = evaluate(
                system, version, str(roll["expression"]), list(roll["result"]["faces"])
            )
        except NotReevaluated as why:
            skipped.add(str(why))
            continue
        except Exception as error:
            cannot = Message(
                N_("BCDice cannot evaluate the roll again: {error}"), {"error": str(error)}
            )
            secrets.add(seq, "bcdice", what, cannot)
            continue
        secrets.add(seq, "bcdice", what, _reevaluated_problem(roll, again))
    findings = secrets.findings
    ok = report.chain.ok and not findings
    note = (
        Message(
            N_(
                "Chain of {events} events, {draws} draws and {secrets} secrets verify; "
                "{rechecked} BCDice rolls evaluated again agree."
            ),
            {
                "events": report.chain.events,
                "draws": secrets.count("draw"),
                "secrets": secrets.count("commitment"),
                "rechecked": secrets.count("bcdice"),
            },
        )
        if ok
        else _found(findings)
    )
    if skipped:
        note = Message(
            N_("{note} Not evaluated again (faces checked only): BCDice {versions}."),
            {"note": note, "versions": ", ".join(sorted(skipped))},
        )
    return report.model_copy(update={"secrets": secrets, "ok": ok}).worded(note=note)


def _found(findings: list[Check]) -> Message:
    """The note of a report with findings: how many, and the first."""
    first = findings[0]
    problem = first.said("problem")
    return Message(
        N_("{count} problem(s) found; first at event {seq}: {problem}."),
        {"count": len(findings), "seq": first.seq, "problem": problem or first.problem},
    )


def _reevaluated_problem(
    roll: dict[str, Any], again: tuple[dict[str, Any], list[int]] | None
) -> Message | None:
    if again is None:
        return Message(N_("BCDice does not know this command"))
    result, sides = again
    if result != roll["result"]:
        return Message(
            N_("BCDice gives another result for these faces: {result}"),
            {"result": str(result.get("explanation"))},
        )
    draw = roll.get("draw")
    if draw is not None:
        asked = [s for count, s in draw.get("dice", []) for _ in range(int(count))]
        if asked != sides:
            return Message(N_("the roll drew other dice than BCDice asks for"))
    return None


def verify(
    game_id: str,
    envelopes: Sequence[dict[str, Any] | Unreadable],
    witness: tuple[int, str] | None = None,
) -> VerificationReport:
    """The chain (and after the end, the secrets); with `witness` (seq, hash), also whether that
    head is still in the chain."""
    report = _verify(game_id, envelopes)
    if witness is None:
        return report
    checked = check_witness(envelopes, report.chain, *witness)
    before = report.said("note")
    if checked.ok:
        note = Message(
            N_("{note} Event {seq} with hash {short}… is in it."),
            {"note": before, "seq": checked.seq, "short": checked.hash[:12]},
        )
        return report.model_copy(update={"witness": checked}).worded(note=note)
    note = Message(
        N_("The head you saw is not in the log: {problem}. {note}"),
        {"problem": checked.said("problem"), "note": before},
    )
    return report.model_copy(update={"witness": checked, "ok": False}).worded(note=note)


def _verify(game_id: str, envelopes: Sequence[dict[str, Any] | Unreadable]) -> VerificationReport:
    chain = verify_chain(game_id, envelopes)
    readable = [e for e in envelopes if isinstance(e, dict)]
    ended = any(e.get("type") == "GameEnded" for e in readable)
    if not chain.ok:
        broken = Message(
            N_("The record is broken at event {seq}: {problem}."),
            {"seq": chain.first_bad_seq, "problem": chain.said("problem")},
        )
        report = VerificationReport(game_id=game_id, ok=False, ended=ended, chain=chain, note="")
        return report.worded(note=broken)
    if not ended:
        waiting = Message(
            N_(
                "Chain of {events} events verifies. Rolls and secrets verify once the game "
                "ends and the dice seed is revealed."
            ),
            {"events": chain.events},
        )
        report = VerificationReport(game_id=game_id, ok=True, ended=False, chain=chain, note="")
        return report.worded(note=waiting)
    secrets = verify_secrets(game_id, readable)
    findings = secrets.findings
    ok = not findings
    note = (
        Message(
            N_("Chain of {events} events, {draws} draws and {secrets} secrets verify."),
            {
                "events": chain.events,
                "draws": secrets.count("draw"),
                "secrets": secrets.count("commitment"),
            },
        )
        if ok
        else _found(findings)
    )
    report = VerificationReport(
        game_id=game_id, ok=ok, ended=True, chain=chain, secrets=secrets, note=""
    )
    return report.worded(note=note)
