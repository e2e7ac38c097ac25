"""An independent verifier, written from docs/reference/verification.md with the standard
library only.

Nothing from domain/ is used to verify: the chain, the seed, the commitments and every draw are
recomputed here from the exported JSON, as a player with their own tool would. domain.model.fairness
is imported only for the statistical checks of the RNG itself at the bottom, and rfc8785 only
to confirm that the canonical JSON below is RFC 8785 for the values Kiroku emits.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import rfc8785

from domain.model.fairness import Draw, DrawTag

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "verification.md"

# ----------------------------------------------------------------------------- the verifier

ENVELOPE_FIELDS = ("game_id", "seq", "type", "actor", "at", "public", "sealed", "prev_hash")
GENESIS_PREFIX = "kiroku/genesis/v1:"
SPACE = 2**32
SAFE_INTEGER = 2**53 - 1


def plain_json(value: Any) -> bool:
    """Only objects with string keys, strings, safe integers, booleans, null and lists?"""
    if value is None or isinstance(value, bool | str):
        return True
    if isinstance(value, int):
        return -SAFE_INTEGER <= value <= SAFE_INTEGER
    if isinstance(value, list):
        return all(plain_json(item) for item in value)
    if isinstance(value, dict):
        return all(
            isinstance(key, str)
            and all(ord(ch) <= 0xFFFF for ch in key)  # code point order = UTF-16 order
            and plain_json(item)
            for key, item in value.items()
        )
    return False  # floats and anything else need a full RFC 8785 implementation


def canonical(value: Any) -> bytes:
    """RFC 8785 for plain JSON: sorted keys, no whitespace, UTF-8, minimal escapes."""
    if not plain_json(value):
        raise ValueError("not plain JSON: use a full RFC 8785 implementation")
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def uniform_source(seed: bytes, game_id: str, draw: dict[str, Any]) -> Callable[[int], int]:
    """uniform(n) over the draw's HMAC-SHA256 word stream, with rejection sampling."""

    def words() -> Iterator[int]:
        block = 0
        while True:
            message = canonical(
                {
                    "block": block,
                    "entropy": draw["entropy"],
                    "game": game_id,
                    "roll": draw["roll"],
                    "seeds": draw["seeds"],
                }
            )
            digest = hmac.new(seed, message, hashlib.sha256).digest()
            for offset in range(0, 32, 4):
                yield int.from_bytes(digest[offset : offset + 4], "big")
            block += 1

    stream = words()

    def uniform(n: int) -> int:
        limit = SPACE - SPACE % n
        for word in stream:
            if word < limit:
                return word % n
        raise AssertionError("unreachable")

    return uniform


def derive_faces(seed: bytes, game_id: str, draw: dict[str, Any]) -> list[int]:
    uniform = uniform_source(seed, game_id, draw)
    return [uniform(sides) + 1 for count, sides in draw["dice"] for _ in range(count)]


def derive_order(seed: bytes, game_id: str, draw: dict[str, Any]) -> list[int]:
    uniform = uniform_source(seed, game_id, draw)
    order = list(range(draw["shuffle"]))
    for i in range(len(order) - 1, 0, -1):
        j = uniform(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def draw_objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if {"roll", "seeds", "entropy"} <= value.keys():
            yield value
        for item in value.values():
            yield from draw_objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from draw_objects(item)


@dataclass
class Report:
    problems: list[tuple[int, str]] = field(default_factory=list)
    events: int = 0
    commitments: int = 0
    draws: int = 0
    seed_ok: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def first(self) -> tuple[int, str]:
        return self.problems[0]


def verify_export(events: list[dict[str, Any]]) -> Report:
    """Verify the body of GET /games/{id}/events (its `events`) of an ended game."""
    report = Report()
    game_id = events[0].get("game_id")
    if not isinstance(game_id, str):
        report.problems.append((1, "no game_id"))
        return report

    # 1. The chain.
    prev = sha256_hex((GENESIS_PREFIX + game_id).encode("utf-8"))
    for expected_seq, event in enumerate(events, 1):
        if not all(key in event for key in (*ENVELOPE_FIELDS, "hash")):
            report.problems.append((expected_seq, "envelope field missing"))
            return report
        unhashed = {key: event[key] for key in ENVELOPE_FIELDS}
        if (event["seq"], event["game_id"], event["prev_hash"]) != (expected_seq, game_id, prev):
            report.problems.append((expected_seq, "chain link broken"))
            return report
        if sha256_hex(prev.encode("ascii") + canonical(unhashed)) != event["hash"]:
            report.problems.append((expected_seq, "hash does not match the envelope"))
            return report
        prev = event["hash"]
        report.events += 1

    # 2. The server seed.
    reveals = {e["public"]["of_seq"]: e["public"] for e in events if e["type"] == "Revealed"}
    seed_hex = reveals.get(1, {}).get("body", {}).get("server_seed")
    if not isinstance(seed_hex, str):
        report.problems.append((1, "server seed not revealed"))
        return report
    seed = bytes.fromhex(seed_hex)
    report.seed_ok = sha256_hex(seed) == events[0]["public"]["server_seed_hash"]
    if not report.seed_ok:
        report.problems.append((1, "seed does not match server_seed_hash"))

    # 3. Commitments, and where the draws are (with the client seeds in force at each event).
    client_seeds: dict[int, str] = {}
    found: list[tuple[int, dict[str, Any], list[str]]] = []
    for event in events:
        seq = event["seq"]
        if event["type"] == "SeatJoined" and event["public"].get("client_seed"):
            client_seeds[event["public"]["seat"]] = event["public"]["client_seed"]
        seeds_now = [client_seeds[seat] for seat in sorted(client_seeds)]
        parts = [] if event["type"] == "Revealed" else [event["public"]]
        if event["sealed"] is not None:
            reveal = reveals.get(seq)
            if reveal is None:
                report.problems.append((seq, "sealed secret never revealed"))
                continue
            report.commitments += 1
            if (
                sha256_hex(reveal["salt"].encode("ascii") + canonical(reveal["body"]))
                != event["sealed"]["commitment"]
            ):
                report.problems.append((seq, "reveal does not match commitment"))
                continue
            parts.append(reveal["body"])
        for part in parts:
            found.extend((seq, draw, seeds_now) for draw in draw_objects(part))

    # 4. Every draw: numbering, client seeds, outcome.
    numbered = True
    for expected, (seq, draw, seeds_now) in enumerate(sorted(found, key=lambda f: f[1]["roll"]), 1):
        report.draws += 1
        if numbered and draw["roll"] != expected:
            report.problems.append((seq, f"draw numbers skip or repeat at {expected}"))
            numbered = False  # one report is enough: every later number is off too
        if draw["seeds"] != seeds_now:
            report.problems.append((seq, "draw does not use the joined seats' client seeds"))
        if "faces" in draw:
            recomputed, recorded = derive_faces(seed, game_id, draw), draw["faces"]
        else:
            recomputed, recorded = derive_order(seed, game_id, draw), draw.get("order")
        if recomputed != recorded:
            report.problems.append((seq, "draw does not follow from the seed"))
    return report


def rechain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute every hash, as a forger rewriting the whole record would."""
    prev = sha256_hex((GENESIS_PREFIX + events[0]["game_id"]).encode("utf-8"))
    for event in events:
        event["prev_hash"] = prev
        unhashed = {key: event[key] for key in ENVELOPE_FIELDS}
        event["hash"] = prev = sha256_hex(prev.encode("ascii") + canonical(unhashed))
    return events


# ----------------------------------------------------------------------------- a real game


@dataclass
class Played:
    game_id: str
    events: list[dict[str, Any]]
    server_report: dict[str, Any]
    rolls: int
    sealed: int


def play(client: Any) -> Played:
    """A real game through the HTTP API, exported as a spectator after the end."""
    created = client.post(
        "/games", json={"title": "Verifier run", "seats": ["Alice", "Bob", "Carol", "Dave"]}
    )
    assert created.status_code == 201, created.text
    game = created.json()
    game_id, invites = game["game_id"], [s["invite"] for s in game["seats"]]
    gm = {"Authorization": f"Bearer {game['gm_token']}"}

    def join(seat: int, client_seed: str | None) -> dict[str, str]:
        body = {"invite": invites[seat - 1], "client_seed": client_seed}
        response = client.post(f"/games/{game_id}/join", json=body)
        assert response.status_code == 200, response.text
        return {"Authorization": f"Bearer {response.json()['token']}"}

    def command(who: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        response = client.post(f"/games/{game_id}/commands", json=body, headers=who)
        assert response.status_code == 201, response.text
        return response.json()

    alice = join(1, "alice-🎲-種")  # non-ASCII: hashed as UTF-8
    bob = join(2, "bob-seed")
    carol = join(3, None)  # no client seed
    command(gm, {"type": "start"})
    command(alice, {"type": "roll", "expression": "2D6>=7"})
    command(bob, {"type": "roll", "expression": "1D20+5", "entropy": "bob's own entropy"})
    command(gm, {"type": "roll", "expression": "1D100", "secret": True})
    secret = command(alice, {"type": "roll", "expression": "S3D6", "entropy": "e"})
    command(bob, {"type": "note", "text": "Meet me at the docks", "to": ["seat:1"]})
    command(alice, {"type": "declare", "text": "I draw my sword."})
    command(gm, {"type": "advance_phase", "phase": "Round 2"})
    command(alice, {"type": "reveal", "seq": secret["last_seq"]})  # revealed mid-game
    dave = join(4, "dave-joins-late")  # the seeds change for every later draw
    command(carol, {"type": "roll", "expression": "10D10"})
    command(dave, {"type": "roll", "expression": "4D6", "entropy": "x" * 64})
    # Rerolls: each further request is decided by the faces before it, in the same stream.
    command(carol, {"type": "roll", "expression": "6R6[2]>=4"})
    command(dave, {"type": "roll", "expression": "x2 3U6[2]+1"})
    command(gm, {"type": "ruling", "concerning_seq": 6, "text": "The roll stands."})
    command(gm, {"type": "amend", "concerning_seq": 10, "reason": "typo", "correction": {}})
    command(gm, {"type": "end", "summary": "The docks burned."})

    exported = client.get(f"/games/{game_id}/events")
    assert exported.status_code == 200, exported.text
    assert exported.json()["audience"] == "public"
    server_report = client.get(f"/games/{game_id}/verify").json()
    return Played(game_id, exported.json()["events"], server_report, rolls=8, sealed=4)


@pytest.fixture
def played(client: Any) -> Played:
    return play(client)


def first_event(
    events: list[dict[str, Any]], predicate: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    return next(e for e in events if predicate(e))


def open_roll(event: dict[str, Any]) -> bool:
    return event["type"] == "DiceRolled" and event["public"]["roll"] is not None


# ----------------------------------------------------------------------------- it verifies


def test_a_real_game_verifies_independently(played: Played) -> None:
    report = verify_export(played.events)
    assert report.ok, report.problems
    assert report.events == len(played.events) == played.server_report["chain"]["events"]
    assert report.seed_ok
    assert report.draws == played.rolls
    # the seed, two secret rolls, one note; one roll was revealed before the end
    assert report.commitments == played.sealed
    assert played.server_report["ok"] is True
    assert played.server_report["secrets"]["checked_draws"] == report.draws
    assert played.server_report["secrets"]["checked_commitments"] == report.commitments
    assert played.server_report["chain"]["head"] == played.events[-1]["hash"]


def test_the_draws_are_where_the_document_says(played: Played) -> None:
    events = played.events
    assert Counter(e["type"] for e in events)["Revealed"] == played.sealed
    seed_reveal = first_event(
        events, lambda e: e["type"] == "Revealed" and e["public"]["of_seq"] == 1
    )
    assert set(seed_reveal["public"]["body"]) == {"server_seed"}
    assert events[0]["sealed"]["audience"] == []
    # A secret roll's public part carries no draw; its reveal does.
    secret_rolls = [e for e in events if e["type"] == "DiceRolled" and e["sealed"] is not None]
    assert len(secret_rolls) == 2
    assert all(list(draw_objects(e["public"])) == [] for e in secret_rolls)
    # Seeds: in seat order, seats without a client seed left out, late joiners from then on.
    draws = sorted((d for e in events for d in draw_objects(e["public"])), key=lambda d: d["roll"])
    assert [d["roll"] for d in draws] == list(range(1, played.rolls + 1))
    assert draws[0]["seeds"] == ["alice-🎲-種", "bob-seed"]
    assert draws[-1]["seeds"] == ["alice-🎲-種", "bob-seed", "dave-joins-late"]


def test_reroll_draws_list_every_request_in_order(played: Played) -> None:
    rolls = [e["public"]["roll"] for e in played.events if open_roll(e)]
    rerolled = {r["expression"]: r["draw"] for r in rolls if "[2]" in r["expression"]}
    assert set(rerolled) == {"6R6[2]>=4", "x2 3U6[2]+1"}
    # BCDice's randomizer calls, as (count, sides) runs: 6R6[2] rerolls on 2 or more, so
    # (almost surely) more than its first 6 d6; every U die is a d6.
    assert rerolled["6R6[2]>=4"]["dice"][0][1] == 6 and len(rerolled["6R6[2]>=4"]["faces"]) > 6
    assert all(sides == 6 for _, sides in rerolled["x2 3U6[2]+1"]["dice"])
    for draw in rerolled.values():
        assert sum(count for count, _ in draw["dice"]) == len(draw["faces"])


def test_canonical_json_matches_rfc8785_on_the_real_events(played: Played) -> None:
    checked = 0
    for event in played.events:
        unhashed = {key: event[key] for key in ENVELOPE_FIELDS}
        assert canonical(unhashed) == rfc8785.dumps(unhashed)
        checked += 1
        if event["type"] == "Revealed":
            body = event["public"]["body"]
            assert canonical(body) == rfc8785.dumps(body)
        for draw in draw_objects(event["public"]):
            message = {
                "block": 3,
                "entropy": draw["entropy"],
                "game": played.game_id,
                "roll": draw["roll"],
                "seeds": draw["seeds"],
            }
            assert canonical(message) == rfc8785.dumps(message)
    assert checked == len(played.events)


def test_canonical_json_refuses_what_it_cannot_encode() -> None:
    # Where json.dumps and RFC 8785 differ, the shortcut must refuse rather than differ.
    def shortcut(value: Any) -> bytes:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8")

    for value in ({"x": 1.0}, {"x": 1e-7}, {"\U0001f600": 1, "\uffff": 2}):
        assert shortcut(value) != rfc8785.dumps(value)
        with pytest.raises(ValueError):
            canonical(value)
    with pytest.raises(rfc8785.IntegerDomainError):
        rfc8785.dumps({"x": 2**53})  # Kiroku cannot store such a number at all
    with pytest.raises(ValueError):
        canonical({"x": 2**53})
    tricky = {"é": '\u0000\u001f"\\\n\t\u2028\u007f🎲', "a": [True, False, None, -0, 2**53 - 1]}
    assert canonical(tricky) == rfc8785.dumps(tricky)


# ----------------------------------------------------------------------------- it detects


def test_a_modified_face_is_detected(played: Played) -> None:
    events = copy.deepcopy(played.events)
    target = first_event(events, open_roll)
    draw = target["public"]["roll"]["draw"]
    draw["faces"][0] = draw["faces"][0] % draw["dice"][0][1] + 1  # another valid face
    report = verify_export(events)
    assert report.first() == (target["seq"], "hash does not match the envelope")

    # A forger who also rewrites every later hash is caught by the seed.
    report = verify_export(rechain(events))
    assert report.problems == [(target["seq"], "draw does not follow from the seed")]


def test_a_modified_secret_face_is_detected(played: Played) -> None:
    events = copy.deepcopy(played.events)
    reveal = first_event(
        events, lambda e: e["type"] == "Revealed" and "draw" in e["public"]["body"]
    )
    faces = reveal["public"]["body"]["draw"]["faces"]
    faces[0] = faces[0] % 6 + 1
    assert verify_export(events).first() == (reveal["seq"], "hash does not match the envelope")
    # Rewritten chain: the reveal no longer matches the commitment made when it was rolled.
    problems = verify_export(rechain(events)).problems
    assert problems[0] == (reveal["public"]["of_seq"], "reveal does not match commitment")
    # ... and its draw, no longer trusted, leaves a hole in the numbering.
    assert [p for _, p in problems[1:]] == ["draw numbers skip or repeat at 4"]


def test_a_modified_commitment_is_detected(played: Played) -> None:
    events = copy.deepcopy(played.events)
    note = first_event(events, lambda e: e["type"] == "NoteWritten")
    note["sealed"]["commitment"] = sha256_hex(b"something else")
    assert verify_export(events).first() == (note["seq"], "hash does not match the envelope")
    assert verify_export(rechain(events)).problems == [
        (note["seq"], "reveal does not match commitment")
    ]


def test_a_swapped_seed_is_detected(played: Played) -> None:
    events = copy.deepcopy(played.events)
    reveal = first_event(events, lambda e: e["type"] == "Revealed" and e["public"]["of_seq"] == 1)
    reveal["public"]["body"]["server_seed"] = "00" * 32
    problems = verify_export(rechain(events)).problems
    assert (1, "seed does not match server_seed_hash") in problems
    assert (1, "reveal does not match commitment") in problems


def test_a_dropped_client_seed_is_detected(played: Played) -> None:
    """A server that leaves a player's seed out (to choose among outcomes) is caught."""
    events = copy.deepcopy(played.events)
    seed = bytes.fromhex(
        first_event(events, lambda e: e["type"] == "Revealed" and e["public"]["of_seq"] == 1)[
            "public"
        ]["body"]["server_seed"]
    )
    target = first_event(events, open_roll)
    draw = target["public"]["roll"]["draw"]
    draw["seeds"] = draw["seeds"][:1]
    draw["faces"] = derive_faces(seed, played.game_id, draw)  # consistent with the seed
    assert verify_export(rechain(events)).problems == [
        (target["seq"], "draw does not use the joined seats' client seeds")
    ]


def envelope_only(event: dict[str, Any]) -> dict[str, Any]:
    return {key: event[key] for key in (*ENVELOPE_FIELDS, "hash")}


def test_every_modified_byte_of_an_envelope_is_detected(played: Played) -> None:
    """Change each byte of several stored envelopes in turn: the verifier names that seq."""
    events = [envelope_only(e) for e in played.events]
    chosen = {1, first_event(events, open_roll)["seq"], len(events)}
    chosen.add(first_event(events, lambda e: e["sealed"] is not None and e["seq"] > 1)["seq"])
    chosen.add(first_event(events, lambda e: e["type"] == "Revealed")["seq"])
    tried = 0
    for seq in sorted(chosen):
        raw = json.dumps(events[seq - 1], ensure_ascii=False).encode("utf-8")
        for position, byte in enumerate(raw):
            replacement = ord("0") + (byte - ord("0") + 1) % 10 if 48 <= byte <= 57 else byte ^ 1
            try:
                changed = json.loads(raw[:position] + bytes([replacement]) + raw[position + 1 :])
            except ValueError:
                continue  # not JSON any more: no verifier would even read it
            if changed == events[seq - 1]:
                continue  # e.g. a space between tokens: the same envelope
            tried += 1
            report = verify_export([*events[: seq - 1], changed, *events[seq:]])
            assert not report.ok and report.first()[0] == seq, (seq, position, report.problems)
    assert tried > 1000


def test_a_skipped_draw_number_is_detected(played: Played) -> None:
    events = copy.deepcopy(played.events)
    reveal = first_event(events, lambda e: e["type"] == "Revealed" and e["public"]["of_seq"] == 1)
    seed = bytes.fromhex(reveal["public"]["body"]["server_seed"])
    last = [e for e in events if open_roll(e)][-1]
    draw = last["public"]["roll"]["draw"]
    draw["roll"] += 1
    draw["faces"] = derive_faces(seed, played.game_id, draw)  # still follows from the seed
    assert verify_export(rechain(events)).problems == [
        (last["seq"], f"draw numbers skip or repeat at {played.rolls}")
    ]


# ----------------------------------------------------------------------------- the JS appendix


def appendix_javascript() -> str:
    text = DOC.read_text(encoding="utf-8")
    appendix = text[text.index("## Appendix") :]
    match = re.search(r"```js\n(.*?)```", appendix, re.S)
    assert match, "docs/reference/verification.md has no ```js block in its appendix"
    return match.group(1)


def with_shuffle(played: Played) -> list[dict[str, Any]]:
    """The game plus one (forged, re-chained) event holding a shuffle draw, the next number."""
    events = copy.deepcopy(played.events)
    reveal = first_event(events, lambda e: e["type"] == "Revealed" and e["public"]["of_seq"] == 1)
    seed = bytes.fromhex(reveal["public"]["body"]["server_seed"])
    last = events[-1]
    draw = {
        "roll": played.rolls + 1,
        "seeds": ["alice-🎲-種", "bob-seed", "dave-joins-late"],
        "entropy": "",
        "shuffle": 52,
    }
    draw["order"] = derive_order(seed, played.game_id, draw)
    events.append(
        {
            **last,
            "seq": last["seq"] + 1,
            "type": "DeckShuffled",
            "public": {"deck": draw},
            "sealed": None,
        }
    )
    return rechain(events)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_verifier_in_the_appendix_agrees(played: Played, tmp_path: Path) -> None:
    script = tmp_path / "verify.js"
    script.write_text(appendix_javascript(), encoding="utf-8")

    def node(events: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
        game = tmp_path / "game.json"
        game.write_text(json.dumps({"events": events}, ensure_ascii=False), encoding="utf-8")
        return subprocess.run(
            ["node", str(script), str(game)], capture_output=True, text=True, timeout=60
        )

    result = node(played.events)
    assert result.returncode == 0, result.stderr
    assert f"{len(played.events)} events" in result.stdout
    assert f"{played.rolls} draws" in result.stdout
    assert played.events[-1]["hash"] in result.stdout

    shuffled = with_shuffle(played)
    assert verify_export(shuffled).ok
    assert node(shuffled).returncode == 0

    shuffled[-1]["public"]["deck"]["order"][:2] = shuffled[-1]["public"]["deck"]["order"][1::-1]
    rechain(shuffled)
    assert verify_export(shuffled).problems == [
        (shuffled[-1]["seq"], "draw does not follow from the seed")
    ]
    result = node(shuffled)
    assert result.returncode == 1 and "does not follow from the seed" in result.stderr

    tampered = copy.deepcopy(played.events)
    first_event(tampered, open_roll)["public"]["roll"]["draw"]["faces"][0] += 1
    result = node(tampered)
    assert result.returncode == 1 and "FAIL" in result.stderr


# ----------------------------------------------------------------------------- the RNG itself

FIXED_SEED = "5eed" * 16
FIXED_GAME = "00000000-0000-4000-8000-000000000000"


def test_the_independent_derivation_matches_domain_fairness() -> None:
    seed = bytes.fromhex(FIXED_SEED)
    for roll in range(1, 60):
        seeds = [f"s{i}" for i in range(roll % 4)]
        draw = {
            "roll": roll,
            "seeds": seeds,
            "entropy": "é" * (roll % 3),
            "dice": [[3, 6], [2, roll + 1]],
        }
        tag = DrawTag(roll=roll, seeds=tuple(seeds), entropy=str(draw["entropy"]))
        expected = Draw(FIXED_SEED, FIXED_GAME, tag).faces([(3, 6), (2, roll + 1)])
        assert derive_faces(seed, FIXED_GAME, draw) == list(expected)
        shuffle = {**draw, "shuffle": roll}
        expected = Draw(FIXED_SEED, FIXED_GAME, tag).permutation(roll)
        assert derive_order(seed, FIXED_GAME, shuffle) == list(expected)


def chi_square(counts: Counter[int], categories: range) -> float:
    total = sum(counts.values())
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def test_d6_faces_are_uniform_for_a_fixed_seed() -> None:
    # 60,000 faces in one stream, and 10,000 six-die draws of consecutive roll numbers.
    # The seed is fixed, so these statistics are fixed numbers: never flaky. The bound is the
    # chi-square(5) value with p = 1e-6 (about 35.9); a fair d6 scores ~5 on average.
    one_stream = Draw(FIXED_SEED, FIXED_GAME, DrawTag(roll=1, seeds=())).faces([(60_000, 6)])
    assert chi_square(Counter(one_stream), range(1, 7)) < 35.9
    many: Counter[int] = Counter()
    for roll in range(1, 10_001):
        many.update(Draw(FIXED_SEED, FIXED_GAME, DrawTag(roll=roll, seeds=("a",))).faces([(6, 6)]))
    assert sum(many.values()) == 60_000
    assert chi_square(many, range(1, 7)) < 35.9


@pytest.mark.parametrize("n", [1, 2, 3, 7, 100, 2**31 + 1, 2**32 - 1])
def test_rejection_sampling_stays_in_range_and_rejects(n: int) -> None:
    seed = bytes.fromhex(FIXED_SEED)
    limit = SPACE - SPACE % n
    values, rejected = [], 0
    for roll in range(1, 401):
        tag = DrawTag(roll=roll, seeds=("x",), entropy=str(n))
        stream = Draw(FIXED_SEED, FIXED_GAME, tag)
        drawn = [stream.uniform(n) for _ in range(10)]
        assert all(0 <= v < n for v in drawn)
        # The same values, by hand: the first words below the limit, modulo n.
        words = uniform_words(seed, tag)
        expected: list[int] = []
        while len(expected) < 10:
            word = next(words)
            if word < limit:
                expected.append(word % n)
            else:
                rejected += 1
        assert drawn == expected
        values.extend(drawn)
    if n == 2**31 + 1:
        # limit = 2**31 + 1: nearly half of all words are rejected, none may leak through.
        assert 3500 < rejected < 4500
        assert abs(sum(values) / len(values) / n - 0.5) < 0.05
    if n in (3, 7, 100):
        assert set(values) == set(range(n)) if n < 100 else len(set(values)) > 90


def uniform_words(seed: bytes, tag: DrawTag) -> Iterator[int]:
    block = 0
    while True:
        message = canonical(
            {
                "block": block,
                "entropy": tag.entropy,
                "game": FIXED_GAME,
                "roll": tag.roll,
                "seeds": list(tag.seeds),
            }
        )
        digest = hmac.new(seed, message, hashlib.sha256).digest()
        yield from (int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4))
        block += 1


def test_uniform_refuses_impossible_ranges() -> None:
    stream = Draw(FIXED_SEED, FIXED_GAME, DrawTag(roll=1, seeds=()))
    for n in (0, -1, 2**32):
        with pytest.raises(ValueError):
            stream.uniform(n)
