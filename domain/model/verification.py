"""Verify a game from its envelopes alone: the hash chain always; after the end, the seed,
every commitment and every fair draw. Works on raw JSON so archives verify the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal

from pydantic import BaseModel, computed_field

from domain import dice
from domain.model.canonical import sha256_hex
from domain.model.draws import find_draws, find_objects, recompute
from domain.model.envelope import chain_hash, commitment, genesis_hash
from domain.rulesets import dice_words

# A stored event that could not even be read: (seq, why).
Unreadable = tuple[int, str]


class ChainStatus(BaseModel):
    ok: bool
    events: int
    head: str | None = None
    first_bad_seq: int | None = None
    problem: str | None = None


class Check(BaseModel):
    """One thing checked after the end: the seed, a commitment, a draw or a roll."""

    seq: int
    kind: Literal["seed", "commitment", "draw", "roll", "draw_numbers", "bcdice"]
    ok: bool
    what: str
    problem: str | None = None


class SecretsStatus(BaseModel):
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

    def add(self, seq: int, kind: str, what: str, problem: str | None = None) -> bool:
        self.checks.append(
            Check(seq=seq, kind=kind, ok=problem is None, what=what, problem=problem)  # type: ignore[arg-type]
        )
        return problem is None


class WitnessCheck(BaseModel):
    """Is a head someone saw (event `seq` with hash `hash`) still in the chain? The chain alone
    cannot show that events were deleted from its end; a head noted earlier can."""

    seq: int
    hash: str
    ok: bool
    problem: str | None = None


class VerificationReport(BaseModel):
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
    problem: str | None
    if chain.first_bad_seq is not None and chain.first_bad_seq <= seq:
        problem = f"the chain is broken at event {chain.first_bad_seq}, before event {seq}"
    elif seq > len(envelopes):
        problem = (
            f"the log now ends at event {len(envelopes)}: event {seq} (hash {short}…), which "
            "was seen in it, has been removed from its end"
        )
    else:
        stored = envelopes[seq - 1]
        found = stored.get("hash") if isinstance(stored, dict) else None
        problem = (
            None
            if found == digest
            else f"event {seq} now has hash {str(found)[:12]}…, not the {short}… seen: the "
            f"log was rewritten at or before event {seq}"
        )
    return WitnessCheck(seq=seq, hash=digest, ok=problem is None, problem=problem)


def verify_chain(game_id: str, envelopes: Iterable[dict[str, Any] | Unreadable]) -> ChainStatus:
    prev = genesis_hash(game_id)
    count = 0
    for expected_seq, item in enumerate(envelopes, 1):
        if isinstance(item, tuple):
            return _broken(count, item[0], f"stored event cannot be read: {item[1]}")
        problem = _link_problem(game_id, expected_seq, prev, item)
        if problem:
            return _broken(count, expected_seq, problem)
        prev = item["hash"]
        count += 1
    return ChainStatus(ok=True, events=count, head=prev if count else None)


def _link_problem(game_id: str, seq: int, prev: str, envelope: dict[str, Any]) -> str | None:
    if envelope.get("seq") != seq:
        return f"expected seq {seq}, found {envelope.get('seq')!r}"
    if envelope.get("game_id") != game_id:
        return "event belongs to another game"
    if envelope.get("prev_hash") != prev:
        return "prev_hash does not match the previous event's hash"
    unhashed = {k: v for k, v in envelope.items() if k != "hash"}
    try:
        recomputed = chain_hash(prev, unhashed)
    except Exception as error:  # malformed content cannot be canonicalised
        return f"envelope cannot be canonicalised: {error}"
    if recomputed != envelope.get("hash"):
        return "hash does not match the envelope's content"
    return None


def _broken(count: int, seq: int, problem: str) -> ChainStatus:
    return ChainStatus(ok=False, events=count, first_bad_seq=seq, problem=problem)


def verify_secrets(game_id: str, envelopes: list[dict[str, Any]]) -> SecretsStatus:
    """After the end: seed against its hash, commitments against reveals, draws against the seed."""
    status = SecretsStatus()
    reveals = {e["public"]["of_seq"]: e["public"] for e in envelopes if e.get("type") == "Revealed"}
    created = envelopes[0]["public"] if envelopes else {}
    seed = reveals.get(1, {}).get("body", {}).get("server_seed")
    if not isinstance(seed, str):
        status.add(1, "seed", "server seed", "the server seed was never revealed")
        return status
    status.seed_matches = _seed_hash(seed) == created.get("server_seed_hash")
    status.add(
        1,
        "seed",
        "server seed against server_seed_hash",
        None if status.seed_matches else "the revealed seed does not match its hash",
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
                    f"draw {draw['roll']}",
                    _draw_problem(seed, game_id, draw, seeds_now),
                )
            for roll in find_objects(part, "expression", "result"):
                what = str(roll["result"].get("explanation") or roll["expression"])
                status.add(seq, "roll", what, _roll_problem(roll, words))

    # In log order, draw numbers must run 1, 2, 3, … : a skipped number is a hidden re-roll.
    expected = 0
    for expected, (number, seq) in enumerate(draw_numbers, 1):
        if number != expected:
            problem = f"draw numbers skip, repeat or go back (expected {expected}, found {number})"
            status.add(seq, "draw_numbers", "draw numbers run 1..N", problem)
            break
    else:
        last = envelopes[-1]["seq"] if envelopes else 0
        status.add(last, "draw_numbers", f"draw numbers run 1..{expected}")
    return status


def _seed_hash(seed: str) -> str | None:
    try:
        return sha256_hex(bytes.fromhex(seed))
    except ValueError:
        return None


def _draw_problem(seed: str, game_id: str, draw: dict[str, Any], seeds: list[str]) -> str | None:
    if list(draw.get("seeds", [])) != seeds:
        # The seeds mixed in are fixed by who had joined: the server cannot pick among them.
        return "draw used other client seeds than the seats had given"
    if not recompute(seed, game_id, draw):
        return "draw does not follow from the seed"
    return None


def _revealed_body(
    status: SecretsStatus, seq: int, sealed: dict[str, Any], reveal: dict[str, Any] | None
) -> dict[str, Any] | None:
    if reveal is None:
        status.add(seq, "commitment", "sealed secret", "sealed secret never revealed")
        return None
    matches = commitment(reveal["salt"], reveal["body"]) == sealed["commitment"]
    problem = None if matches else "reveal does not match commitment"
    return reveal["body"] if status.add(seq, "commitment", "sealed secret", problem) else None


def _roll_problem(roll: dict[str, Any], words: tuple[dice.DiceWords, ...]) -> str | None:
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
        return f"roll cannot be re-evaluated: {error}"
    if again != roll["result"]:
        return "roll result does not follow from its faces"
    draw = roll.get("draw")
    if draw is not None and list(draw.get("faces", [])) != list(faces):
        return "roll faces differ from the drawn faces"
    if draw is not None and [list(pair) for pair in draw.get("dice", [])] != asked:
        # The dice drawn are fixed by the expression and, for rerolls, by the faces before.
        return "roll drew other dice than its expression asks for"
    return None


def _bcdice_roll_problem(roll: dict[str, Any]) -> str | None:
    """A roll BCDice answered: its faces are the drawn faces, one a randomizer call (that the
    result follows from them is the audit's re-evaluation with BCDice: `recheck_bcdice`)."""
    try:
        faces = [int(f) for f in roll["result"]["faces"]]
        draw = roll.get("draw")
        if draw is None:
            return None if roll.get("manual") else "a server roll without its draw"
        drawn = [int(f) for f in draw.get("faces", [])]
        calls = sum(int(count) for count, _sides in draw.get("dice", []))
    except (KeyError, TypeError, ValueError) as error:
        return f"roll cannot be read: {error}"
    if drawn != faces:
        return "roll faces differ from the drawn faces"
    if calls != len(faces):
        return "roll drew another number of dice than it shows"
    return None


class NotReevaluated(Exception):
    """Raised by a `Reevaluate` that cannot run the roll's BCDice version here."""


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
        what = f"BCDice {version} {system}: {roll.get('expression')}"
        try:
            again = evaluate(
                system, version, str(roll["expression"]), list(roll["result"]["faces"])
            )
        except NotReevaluated as why:
            skipped.add(f"BCDice {why}")
            continue
        except Exception as error:
            secrets.add(seq, "bcdice", what, f"BCDice cannot evaluate the roll again: {error}")
            continue
        secrets.add(seq, "bcdice", what, _reevaluated_problem(roll, again))
    findings = secrets.findings
    ok = report.chain.ok and not findings
    rechecked = secrets.count("bcdice")
    note = (
        report.note.rstrip(".") + f"; {rechecked} BCDice rolls evaluated again agree."
        if ok
        else f"{len(findings)} problem(s) found; first at event {findings[0].seq}: "
        f"{findings[0].problem}."
    )
    if skipped:
        note += " Not evaluated again (faces checked only): " + "; ".join(sorted(skipped)) + "."
    return report.model_copy(update={"secrets": secrets, "ok": ok, "note": note})


def _reevaluated_problem(
    roll: dict[str, Any], again: tuple[dict[str, Any], list[int]] | None
) -> str | None:
    if again is None:
        return "BCDice does not know this command"
    result, sides = again
    if result != roll["result"]:
        return f"BCDice gives another result for these faces: {result.get('explanation')}"
    draw = roll.get("draw")
    if draw is not None:
        asked = [s for count, s in draw.get("dice", []) for _ in range(int(count))]
        if asked != sides:
            return "the roll drew other dice than BCDice asks for"
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
    if checked.ok:
        note = f"{report.note} Event {checked.seq} with hash {checked.hash[:12]}… is in it."
        return report.model_copy(update={"witness": checked, "note": note})
    note = f"The head you saw is not in the log: {checked.problem}. {report.note}"
    return report.model_copy(update={"witness": checked, "ok": False, "note": note})


def _verify(game_id: str, envelopes: Sequence[dict[str, Any] | Unreadable]) -> VerificationReport:
    chain = verify_chain(game_id, envelopes)
    readable = [e for e in envelopes if isinstance(e, dict)]
    ended = any(e.get("type") == "GameEnded" for e in readable)
    if not chain.ok:
        note = f"The record is broken at event {chain.first_bad_seq}: {chain.problem}."
        return VerificationReport(game_id=game_id, ok=False, ended=ended, chain=chain, note=note)
    if not ended:
        note = (
            f"Chain of {chain.events} events verifies. Rolls and secrets verify once the game "
            "ends and the dice seed is revealed."
        )
        return VerificationReport(game_id=game_id, ok=True, ended=False, chain=chain, note=note)
    secrets = verify_secrets(game_id, readable)
    findings = secrets.findings
    ok = not findings
    note = (
        f"Chain of {chain.events} events, {secrets.count('draw')} draws and "
        f"{secrets.count('commitment')} secrets verify."
        if ok
        else f"{len(findings)} problem(s) found; first at event {findings[0].seq}: "
        f"{findings[0].problem}."
    )
    return VerificationReport(
        game_id=game_id, ok=ok, ended=True, chain=chain, secrets=secrets, note=note
    )
