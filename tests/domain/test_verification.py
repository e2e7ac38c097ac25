"""The verifier flags forged draws, rolls, reveals and seeds even when the chain is re-hashed."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from domain import dice
from domain.application.service import GameService, NewGame
from domain.model.commands import End, Note, Roll, Start
from domain.model.envelope import chain_hash, genesis_hash
from domain.model.lifecycle_events import GameOptions
from domain.model.verification import verify
from domain.rulesets.ninja_slayer import dice as ninja_dice

Envelopes = list[dict[str, Any]]


@pytest.fixture
def finished(service: GameService) -> tuple[str, Envelopes]:
    game = service.create_game(NewGame("freeform", "T", ["Aki"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())
    service.execute(gid, "gm", Roll(expression="2D6+1>=8"))  # seq 3, draw 1
    service.execute(gid, "gm", Roll(expression="S1D20"))  # seq 4, draw 2 (sealed)
    service.execute(gid, "gm", Note(text="the key"))  # seq 5
    service.execute(gid, "gm", End())
    envelopes = [r.envelope.model_dump(mode="json") for r in service.records(gid)]
    return gid, envelopes


def rechain(game_id: str, envelopes: Envelopes) -> Envelopes:
    """What a forger with write access would do: recompute every hash after the change."""
    prev = genesis_hash(game_id)
    for envelope in envelopes:
        envelope["prev_hash"] = prev
        envelope["hash"] = chain_hash(prev, {k: v for k, v in envelope.items() if k != "hash"})
        prev = envelope["hash"]
    return envelopes


def reveal_of(envelopes: Envelopes, seq: int) -> dict[str, Any]:
    return next(
        e["public"] for e in envelopes if e["type"] == "Revealed" and e["public"]["of_seq"] == seq
    )


def test_an_honest_game_verifies(finished: tuple[str, Envelopes]) -> None:
    game_id, envelopes = finished
    report = verify(game_id, envelopes)
    assert report.ok, report.secrets
    assert report.secrets is not None
    assert report.secrets.checked_draws == 2 and report.secrets.checked_rolls == 2
    assert report.secrets.checked_commitments == 3


def forge_open_faces(envelopes: Envelopes) -> None:
    roll = envelopes[2]["public"]["roll"]
    faces = [face % 6 + 1 for face in roll["draw"]["faces"]]  # always different faces
    roll["draw"]["faces"] = faces
    roll["result"]["faces"] = faces


def forge_open_total(envelopes: Envelopes) -> None:
    faces = envelopes[2]["public"]["roll"]["result"]["faces"]
    faces[0] = faces[0] % 6 + 1  # the result's faces, not the drawn ones


def forge_reveal_body(envelopes: Envelopes) -> None:
    reveal_of(envelopes, 5)["body"]["text"] = "the sword"


def forge_seed(envelopes: Envelopes) -> None:
    reveal_of(envelopes, 1)["body"]["server_seed"] = "00" * 32


def forge_skipped_draw(envelopes: Envelopes) -> None:
    envelopes[2]["public"]["roll"]["draw"]["roll"] = 3


@pytest.mark.parametrize(
    ("forge", "seq", "kind"),
    [
        (forge_open_faces, 3, "draw"),
        (forge_open_total, 3, "roll"),
        (forge_reveal_body, 5, "commitment"),
        (forge_seed, 1, "seed"),
        (forge_skipped_draw, 3, "draw_numbers"),
    ],
)
def test_forgeries_are_found(
    finished: tuple[str, Envelopes], forge: Callable[[Envelopes], None], seq: int, kind: str
) -> None:
    game_id, honest = finished
    envelopes = copy.deepcopy(honest)
    forge(envelopes)
    report = verify(game_id, rechain(game_id, envelopes))
    assert report.chain.ok, "the forger re-hashed the chain, so only the secrets check can tell"
    assert not report.ok
    assert report.secrets is not None
    assert (seq, kind) in {(f.seq, f.kind) for f in report.secrets.findings}


def test_without_rehashing_the_chain_itself_breaks(finished: tuple[str, Envelopes]) -> None:
    game_id, honest = finished
    envelopes = copy.deepcopy(honest)
    forge_open_total(envelopes)
    report = verify(game_id, envelopes)
    assert not report.chain.ok and report.chain.first_bad_seq == 3


def test_before_the_end_only_the_chain_is_checked(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "T", ["Aki"], GameOptions(), {}))
    service.execute(game.game_id, "gm", Start())
    report = service.verify(game.game_id)
    assert report.ok and not report.ended and report.secrets is None
    assert "once the game ends" in report.note


def forge_dropped_client_seed(envelopes: Envelopes) -> None:
    """Recompute a draw without the seat's client seed: faces follow, seeds do not."""
    from domain.model.fairness import Draw, DrawTag

    game_id = envelopes[0]["game_id"]
    seed = reveal_of(envelopes, 1)["body"]["server_seed"]
    roll = envelopes[3]["public"]["roll"]
    faces = Draw(seed, game_id, DrawTag(roll=1, seeds=(), entropy="")).faces([(2, 6)])
    roll["draw"]["seeds"] = []
    roll["draw"]["faces"] = list(faces)
    roll["result"] = dice.parse(roll["expression"]).evaluate(faces).model_dump(mode="json")


def test_a_draw_must_mix_in_every_client_seed(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "T", ["Aki"], GameOptions(), {}))
    gid = game.game_id
    service.join(gid, game.seats[0].invite, "aki-seed")
    service.execute(gid, "gm", Start())
    service.execute(gid, "gm", Roll(expression="2D6+1>=8"))  # seq 4
    service.execute(gid, "gm", End())
    envelopes = [r.envelope.model_dump(mode="json") for r in service.records(gid)]
    assert verify(gid, envelopes).ok
    forge_dropped_client_seed(envelopes)
    report = verify(gid, rechain(gid, envelopes))
    assert report.chain.ok and not report.ok
    assert report.secrets is not None
    assert report.secrets.findings[0].seq == 4
    assert "client seeds" in str(report.secrets.findings[0].problem)


def test_a_malformed_seed_is_a_finding_not_a_crash(finished: tuple[str, Envelopes]) -> None:
    game_id, honest = finished
    envelopes = copy.deepcopy(honest)
    reveal_of(envelopes, 1)["body"]["server_seed"] = "not hex"
    report = verify(game_id, rechain(game_id, envelopes))
    assert not report.ok and report.secrets is not None
    assert report.secrets.findings[0].kind == "seed"


@pytest.fixture
def rerolled(service: GameService) -> tuple[str, Envelopes]:
    game = service.create_game(NewGame("freeform", "T", ["Aki"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())
    service.execute(gid, "gm", Roll(expression="20R6[2]>=4"))  # seq 3: rerolls on 2 or more
    service.execute(gid, "gm", End())
    envelopes = [r.envelope.model_dump(mode="json") for r in service.records(gid)]
    return gid, envelopes


def test_a_reroll_draw_verifies_and_its_requests_are_checked(
    rerolled: tuple[str, Envelopes],
) -> None:
    game_id, honest = rerolled
    assert verify(game_id, honest).ok
    draw = honest[2]["public"]["roll"]["draw"]
    # 20 dice rerolling on 2+: more than 20 randomizer calls (1 in 6**20 not)
    assert sum(count for count, _sides in draw["dice"]) > 20
    # One die fewer drawn than the roll shows: the stream gives the same first faces, so only
    # the count of BCDice's calls can tell (which sides it asks for: the audit's re-evaluation).
    envelopes = copy.deepcopy(honest)
    forged = envelopes[2]["public"]["roll"]["draw"]
    forged["dice"] = [[len(forged["faces"]) - 1, 6]]
    forged["faces"] = forged["faces"][:-1]
    report = verify(game_id, rechain(game_id, envelopes))
    assert not report.ok and report.secrets is not None
    findings = {(f.seq, f.kind, f.problem) for f in report.secrets.findings}
    assert (3, "roll", "roll faces differ from the drawn faces") in findings


def test_a_reroll_roll_cut_short_is_found(rerolled: tuple[str, Envelopes]) -> None:
    game_id, honest = rerolled
    envelopes = copy.deepcopy(honest)
    roll = envelopes[2]["public"]["roll"]
    for faces in (roll["draw"]["faces"], roll["result"]["faces"]):
        faces.pop()  # the last reroll's face dropped: the roll no longer adds up
    report = verify(game_id, rechain(game_id, envelopes))
    assert not report.ok and report.secrets is not None
    assert 3 in {f.seq for f in report.secrets.findings}


def test_a_ninja_slayer_roll_recorded_before_bcdice_verifies_in_any_game(
    finished: tuple[str, Envelopes],
) -> None:
    """Before BCDice answered chat, every game's chat read Ninja Slayer's words: such a roll
    in a freeform game is read again with every ruleset's dice words, and still checked."""
    game_id, honest = finished
    envelopes = copy.deepcopy(honest)
    roll = envelopes[2]["public"]["roll"]
    del roll["system"], roll["bcdice"]
    roll["expression"] = "NJ2[N]"  # the same draw of 2d6, read as a Ninja Slayer check
    result = ninja_dice.parse("NJ2[N]").evaluate(roll["draw"]["faces"])
    roll["result"] = result.model_dump(mode="json")
    report = verify(game_id, rechain(game_id, envelopes))
    assert report.ok, report.secrets
    assert report.secrets is not None and report.secrets.checked_rolls == 2
    roll["result"]["successes"] = (result.successes or 0) + 1
    forged = verify(game_id, rechain(game_id, envelopes))
    assert not forged.ok and forged.secrets is not None
    findings = {(f.seq, f.problem) for f in forged.secrets.findings}
    assert (3, "roll result does not follow from its faces") in findings
