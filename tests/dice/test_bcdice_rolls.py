"""Chat rolls answered by BCDice through the real HTTP API: faces from the committed stream,
recorded with the system and version, sealed when secret, verified and audited after the end."""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.adapters.bcdice_engine import BCDiceEngine, shared_engine
from domain.application.service import GameService
from domain.model.envelope import chain_hash, genesis_hash
from domain.model.fairness import Draw, DrawTag
from domain.model.verification import NotReevaluated, Unreadable
from replay.audit import audit
from tests.table import Table


def _cthulhu(client: TestClient, **options: Any) -> Table:
    table = Table.create(client, seats=["Aki", "Ben"], system="Cthulhu7th", **options)
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


def _rolled(table: Table, actor: str, text: str) -> dict[str, Any]:
    events = table.do(actor, {"type": "say", "text": text})["events"]
    assert len(events) == 1
    return events[0]


def test_a_chat_roll_is_bcdice_s_answer_with_faces_from_the_stream(client: TestClient) -> None:
    table = _cthulhu(client)
    event = _rolled(table, "seat:1", "CC<=54 目星")
    assert event["type"] == "DiceRolled"
    roll = event["public"]["roll"]
    assert roll["system"] == "Cthulhu7th" and roll["bcdice"] == shared_engine().version()
    assert roll["expression"] == "CC<=54" and roll["comment"] == "目星"
    result = roll["result"]
    assert result["explanation"].startswith("(1D100<=54) ボーナス・ペナルティダイス[0] ＞ ")
    assert result["faces"] == roll["draw"]["faces"] and roll["draw"]["dice"] == [[2, 10]]
    # the faces are the first draw of the committed stream, re-derived here from the seed
    state = client.app.state.service.state(table.game_id)  # type: ignore[attr-defined]
    tag = DrawTag(roll=1, seeds=(), entropy="")
    assert list(Draw(state.server_seed, table.game_id, tag).faces([(2, 10)])) == result["faces"]
    # BCDice's own answer for those faces
    again = shared_engine().evaluate("Cthulhu7th", "CC<=54", faces=result["faces"]).result
    assert again is not None and again.text == result["explanation"]
    assert result["success"] == again.success and result["critical"] == again.critical


def test_another_seed_gives_other_faces(client: TestClient) -> None:
    faces = set()
    for _ in range(4):
        table = _cthulhu(client)
        faces.add(tuple(_rolled(table, "seat:1", "1D100")["public"]["roll"]["result"]["faces"]))
    assert len(faces) > 1


def test_each_roll_takes_the_next_draw(client: TestClient) -> None:
    table = _cthulhu(client)
    numbers = [
        _rolled(table, "seat:1", text)["public"]["roll"]["draw"]["roll"]
        for text in ("CC<=54", "1D100", "CBR(70,30)")
    ]
    assert numbers == [1, 2, 3]


def test_a_command_bcdice_does_not_know_stays_a_chat_line(client: TestClient) -> None:
    table = _cthulhu(client)
    for text in ("こんにちは", "hello CC<=54", "XYZ<=5", "目星 CC<=54"):
        event = _rolled(table, "seat:1", text)
        assert event["type"] == "Said" and event["public"]["text"] == text


def test_the_system_s_commands_roll_in_the_system(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki"], system="SwordWorld2.5")
    table.join_all()
    table.do("gm", {"type": "start"})
    roll = _rolled(table, "seat:1", "K20+5@10")["public"]["roll"]
    assert roll["result"]["explanation"].startswith("KeyNo.20c[10]+5 ＞ 2D:[")
    plain = Table.create(client, seats=["Aki"])  # DiceBot: not a SwordWorld command
    plain.join_all()
    plain.do("gm", {"type": "start"})
    assert _rolled(plain, "seat:1", "K20+5@10")["type"] == "Said"


def test_a_physical_d10_s_0_is_entered_as_0_and_recorded_as_bcdice_s_10(
    client: TestClient,
) -> None:
    table = _cthulhu(client, options={"dice_policy": "both"})
    command = {"type": "roll", "expression": "CC<=53", "faces": [0, 0]}
    roll = table.do("seat:1", command)["events"][0]["public"]["roll"]
    assert roll["manual"] is True and roll["result"]["faces"] == [10, 10]
    assert roll["result"]["explanation"].endswith("＞ 100 ＞ 100 ＞ ファンブル")
    assert roll["result"]["fumble"] is True
    for faces in ([0, 11], [3]):  # a d10 shows 0..9 (0 is 10); two dice are asked for
        command = {"type": "roll", "expression": "CC<=53", "faces": faces}
        refused = table.send("seat:1", command)
        assert refused.status_code == 422 and refused.json()["code"] == "bad_faces"
    table.do("gm", {"type": "end"})  # the audit evaluates the recorded [10, 10] again: the same
    audited = client.get(f"/games/{table.game_id}/audit", headers=table.auth("gm")).json()
    assert audited["verdict"] == "clean", audited
    checks = [c for c in audited["verification"]["secrets"]["checks"] if c["kind"] == "bcdice"]
    assert len(checks) == 1 and checks[0]["ok"]


def test_a_secret_roll_is_sealed_to_its_roller(client: TestClient) -> None:
    table = _cthulhu(client)
    event = _rolled(table, "seat:1", "SCC<=54")
    assert event["type"] == "DiceRolled" and event["public"]["roll"] is None
    assert event["sealed"]["audience"] == ["seat:1"]
    seen = {e["seq"]: e for e in table.events("seat:2")}[event["seq"]]
    assert "ボーナス" not in str(seen) and "CC<=54" not in str(seen)
    for actor in ("gm", "seat:1"):
        shown = {e["seq"]: e for e in table.events(actor)}[event["seq"]]
        assert shown["secret"]["result"]["secret"] is True, shown
        assert "ボーナス・ペナルティダイス" in shown["secret"]["result"]["explanation"]


def test_an_unknown_system_is_refused_at_creation(client: TestClient) -> None:
    response = client.post("/games", json={"title": "t", "seats": ["A"], "system": "Nope"})
    assert response.status_code == 422 and response.json()["code"] == "unknown_system"


def test_ninja_slayer_rolls_in_ninjaslayer2(client: TestClient) -> None:
    response = client.post("/games", json={"title": "t", "seats": ["A"], "ruleset": "ninja_slayer"})
    assert response.status_code == 201, response.text
    created = client.get(f"/games/{response.json()['game_id']}/events").json()["events"][0]
    assert created["public"]["system"] == "NinjaSlayer2"


def test_systems_lists_bcdice_s_systems_with_their_help(client: TestClient) -> None:
    listed = client.get("/systems").json()
    ids = {s["id"]: s for s in listed["systems"]}
    assert listed["default"] == "DiceBot" and len(ids) > 250
    assert ids["Cthulhu7th"]["name"] == "新クトゥルフ神話TRPG"
    assert ids["Cthulhu7th"]["sort_key"] == "しんくとうるふしんわTRPG"
    one = client.get("/systems/Cthulhu7th").json()
    assert "CC(x)<=" in one["help"]
    missing = client.get("/systems/Nope")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_system"


def _ended(client: TestClient) -> tuple[Table, list[dict[str, Any]]]:
    table = _cthulhu(client)
    _rolled(table, "seat:1", "CC<=54")
    _rolled(table, "seat:2", "SCC<=54")
    _rolled(table, "gm", "CBR(70,30)")
    table.do("gm", {"type": "end"})
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    envelopes = [e for e in service.envelopes(table.game_id) if isinstance(e, dict)]
    return table, envelopes


def test_after_the_end_verify_and_audit_re_derive_and_re_evaluate(client: TestClient) -> None:
    table, _envelopes = _ended(client)
    report = client.get(f"/games/{table.game_id}/verify").json()
    assert report["ok"] is True and report["secrets"]["checked_draws"] == 3
    audited = client.get(f"/games/{table.game_id}/audit", headers=table.auth("gm")).json()
    assert audited["verdict"] == "clean", audited
    checks = [c for c in audited["verification"]["secrets"]["checks"] if c["kind"] == "bcdice"]
    assert len(checks) == 3 and all(c["ok"] for c in checks)


def _rehashed(game_id: str, envelopes: list[dict[str, Any]]) -> list[dict[str, Any] | Unreadable]:
    """The envelopes with every hash recomputed: a forger's rewrite the chain cannot show."""
    prev = genesis_hash(game_id)
    out: list[dict[str, Any] | Unreadable] = []
    for envelope in envelopes:
        envelope = {**envelope, "prev_hash": prev}
        envelope["hash"] = chain_hash(prev, {k: v for k, v in envelope.items() if k != "hash"})
        prev = envelope["hash"]
        out.append(envelope)
    return out


def test_a_tampered_result_or_face_is_caught_by_the_audit(client: TestClient) -> None:
    table, envelopes = _ended(client)
    engine = shared_engine()
    clean = audit(table.game_id, [*envelopes], engine.reevaluate)
    assert clean.verdict == "clean"

    rolled = next(i for i, e in enumerate(envelopes) if e["type"] == "DiceRolled")
    text = copy.deepcopy(envelopes)
    result = text[rolled]["public"]["roll"]["result"]
    result["explanation"] = result["explanation"].rsplit("＞", 1)[0] + "＞ 決定的成功"
    report = audit(table.game_id, _rehashed(table.game_id, text), engine.reevaluate)
    assert report.verdict == "problems"
    assert "BCDice gives another result" in report.verification.note

    face = copy.deepcopy(envelopes)
    roll = face[rolled]["public"]["roll"]
    swapped = [1 if f != 1 else 2 for f in roll["result"]["faces"]]
    roll["result"]["faces"] = roll["draw"]["faces"] = swapped
    report = audit(table.game_id, _rehashed(table.game_id, face), engine.reevaluate)
    assert report.verdict == "problems"
    assert "does not follow from the seed" in report.verification.note


def test_a_version_not_installed_is_named_by_the_audit_not_failed(client: TestClient) -> None:
    table, envelopes = _ended(client)
    engine = shared_engine()
    with pytest.raises(NotReevaluated, match=r"0\.0\.1"):
        engine.reevaluate("DiceBot", "0.0.1", "1D6", [3])
    old = copy.deepcopy(envelopes)
    for envelope in old:
        roll = (envelope.get("public") or {}).get("roll")
        if envelope["type"] == "DiceRolled" and roll:
            roll["bcdice"] = "0.0.1"  # as if rolled with a version this server no longer has
    report = audit(table.game_id, _rehashed(table.game_id, old), engine.reevaluate)
    assert report.verdict == "clean"
    assert "Not evaluated again (faces checked only): BCDice 0.0.1" in report.verification.note


def test_while_bcdice_is_down_a_roll_is_refused_503_and_nothing_appended(
    client: TestClient, tmp_path: Any
) -> None:
    table = _cthulhu(client)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    before = table.log_bytes()
    down = BCDiceEngine(folder=str(tmp_path))  # no BCDice installed there
    service.bcdice = down
    response = table.send("seat:1", {"type": "say", "text": "CC<=54"})
    assert response.status_code == 503 and response.json()["code"] == "dice_engine_unavailable"
    assert table.log_bytes() == before
    assert _rolled(table, "seat:1", "こんにちは")["type"] == "Said"  # plain chat still works


def test_a_killed_process_is_started_again() -> None:
    engine = BCDiceEngine()
    try:
        assert engine.evaluate("DiceBot", "2D6", faces=[1, 2]).result is not None
        pid = engine.pid
        assert pid is not None
        os.kill(pid, 9)
        answer = engine.evaluate("DiceBot", "2D6", faces=[3, 4]).result
        assert answer is not None and answer.text == "(2D6) ＞ 7[3,4] ＞ 7"
        assert engine.starts == 2
    finally:
        engine.close()


def test_the_log_colours_bcdice_s_own_verdict() -> None:
    from domain.model.logline import roll_text

    def outcome(**flags: bool) -> str | None:
        result = {"explanation": "…", "faces": [1], "secret": False}
        result |= {f: flags.get(f, False) for f in ("success", "failure", "critical", "fumble")}
        line = roll_text({"expression": "CC<=54", "system": "Cthulhu7th", "result": result})
        return line["outcome"]

    assert outcome(critical=True, success=True) == "critical"
    assert outcome(fumble=True, failure=True) == "fumble"
    assert outcome(success=True) == "success" and outcome(failure=True) == "failure"
    assert outcome() is None  # no target: neither


def test_full_width_input_is_read_as_chat_tools_feed_bcdice(client: TestClient) -> None:
    table = _cthulhu(client)
    roll = _rolled(table, "seat:1", "ＣＣ＜＝５４　目星")["public"]["roll"]
    assert roll["expression"] == "CC<=54" and roll["comment"] == "目星"
    assert roll["result"]["explanation"].startswith("(1D100<=54)")
