"""Archives and the dispute report: an honest game passes; forgeries are named."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model.commands import End, MakeRuling, Note, Roll, Start
from domain.model.lifecycle_events import GameOptions
from replay.archive import export_lines, read_archive
from replay.audit import audit
from tests.domain.test_verification import rechain
from tests.replay.sheet_ruleset import Claim, Deal
from tests.table import Table


def finished_game(service: GameService) -> str:
    game = service.create_game(NewGame("sheet_test", "Audit me", ["Aki", "Ben"], GameOptions(), {}))
    gid = game.game_id
    service.join(gid, game.seats[0].invite, "aki-seed")
    service.join(gid, game.seats[1].invite, None)
    service.execute(gid, "gm", Start())
    service.execute(gid, "gm", Deal(seat=1, esp=4))  # seq 5
    service.execute(gid, "gm", Deal(seat=2, esp=2))  # seq 6
    service.execute(gid, "seat:1", Claim(esp=3))  # seq 7: understated, legal
    service.execute(gid, "seat:2", Claim(esp=2))  # seq 8
    service.execute(gid, "seat:1", Roll(expression="2D6>=7"))  # seq 9
    service.execute(gid, "seat:2", Note(text="Aki is lying"))  # seq 10
    service.execute(gid, "gm", End())
    return gid


def write_archive(
    service: GameService,
    gid: str,
    path: Path,
    forge: Callable[[list[dict[str, Any]]], None] | None = None,
    rehash: bool = True,
) -> Path:
    lines = list(export_lines(list(service.records(gid))))
    envelopes = [json.loads(line)["envelope"] for line in lines[1:]]
    if forge is not None:
        forge(envelopes)
        if rehash:
            rechain(gid, envelopes)
    path.write_text("\n".join([lines[0], *(json.dumps({"envelope": e}) for e in envelopes)]))
    return path


def test_an_honest_game_is_clean_offline(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = finished_game(service)
    archive = write_archive(service, gid, tmp_path / "game.jsonl")
    assert main(["audit", str(archive)]) == 0
    out = capsys.readouterr().out
    assert "CLEAN" in out and "event 7 Aki ESP: 3 / 4 understated" in out

    with archive.open() as lines:
        header, envelopes = read_archive(lines)
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean"
    assert [(d.seq, d.verdict) for d in report.declarations] == [(7, "understated"), (8, "legal")]


def test_a_ruling_reads_as_what_it_changed(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = service.create_game(NewGame("sheet_test", "Ruled", ["Aki"], GameOptions(), {}))
    gid = game.game_id
    service.join(gid, game.seats[0].invite, None)
    service.execute(gid, "gm", Start())
    service.execute(gid, "seat:1", Roll(expression="2D6"))  # seq 4
    effect = {"ESP": 3, "理由": "地形", "undo": None}
    service.execute(gid, "gm", MakeRuling(concerning_seq=4, text="振り直し", effect=effect))
    service.execute(gid, "gm", End())
    archive = write_archive(service, gid, tmp_path / "ruled.jsonl")
    main(["audit", str(archive)])
    out = capsys.readouterr().out
    assert "event 5: ruling on event 4: 振り直し (ESP: 3; 理由: 地形)" in out


def forge_declaration(envelopes: list[dict[str, Any]]) -> None:
    envelopes[6]["public"]["esp"] = 5  # seat:1 "declared" 5 with a true ESP of 4


def forge_roll(envelopes: list[dict[str, Any]]) -> None:
    roll = envelopes[8]["public"]["roll"]
    faces = [face % 6 + 1 for face in roll["draw"]["faces"]]
    roll["draw"]["faces"] = roll["result"]["faces"] = faces


def forge_reveal(envelopes: list[dict[str, Any]]) -> None:
    reveal = next(e for e in envelopes if e["type"] == "Revealed" and e["public"]["of_seq"] == 10)
    reveal["public"]["body"]["text"] = "Ben is lying"


@pytest.mark.parametrize(
    ("forge", "rehash", "expected"),
    [
        (forge_declaration, True, "event 7 Aki ESP: 5 / 4 overstated"),
        (forge_roll, True, "event 9: draw: draw does not follow from the seed"),
        (forge_reveal, True, "event 10: commitment: reveal does not match commitment"),
        (forge_declaration, False, "Chain broken at event 7"),
    ],
)
def test_crafted_archives_are_flagged(
    service: GameService,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    forge: Callable[[list[dict[str, Any]]], None],
    rehash: bool,
    expected: str,
) -> None:
    gid = finished_game(service)
    archive = write_archive(service, gid, tmp_path / "forged.jsonl", forge, rehash)
    assert main(["audit", str(archive)]) == 3
    out = capsys.readouterr().out
    assert "PROBLEMS" in out
    assert expected in out


def test_audit_as_json(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = write_archive(service, finished_game(service), tmp_path / "g.jsonl", forge_roll)
    main(["audit", str(archive), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "problems"
    assert report["verification"]["secrets"]["findings"][0]["seq"] == 9


def test_export_and_import_round_trip(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = finished_game(service)
    db = tmp_path / "source.db"
    service_db = service.env["SQLITE_DBNAME"]
    archive = tmp_path / "game.jsonl"
    assert main(["export", gid, "-o", str(archive), "--db", service_db]) == 0
    assert main(["import", str(archive), "--db", str(db)]) == 0
    assert main(["import", str(archive), "--db", str(db)]) == 1  # already there
    assert "already here" in capsys.readouterr().err

    copy_service = bootstrap(env=store_env(sqlite_path=str(db)))
    # What signs people in (token hashes, invites, the GM's recovery code) stays on the server
    # it was issued by: an archive is for reading and auditing, never for taking a seat.
    server_only = {"credentials", "invites", "commands", "recovery"}
    assert copy_service.state(gid).model_dump(exclude=server_only) == service.state(gid).model_dump(
        exclude=server_only
    )
    assert copy_service.state(gid).recovery is None
    assert copy_service.verify(gid).ok
    assert copy_service.state(gid).credentials == {}  # nobody can act on an imported game
    copy_service.close()

    assert main(["replay", gid, "--db", str(db), "--as", "seat:2", "--at", "7", "--print"]) == 0
    printed = capsys.readouterr().out
    assert "▶ #7 [Main] Aki: Claimed: " in printed and "by Aki at " in printed
    assert "as Ben" in printed and "seat:" not in printed  # people by their names


def test_a_forged_archive_is_not_imported(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = finished_game(service)
    archive = write_archive(service, gid, tmp_path / "f.jsonl", forge_roll)
    assert main(["import", str(archive), "--db", str(tmp_path / "x.db")]) == 1
    assert "does not verify" in capsys.readouterr().err


def test_no_export_before_the_end(client: TestClient, tmp_path: Path) -> None:
    table = Table.create(client)
    table.do("gm", {"type": "start"})
    for path in ("archive", "audit"):
        response = client.get(f"/games/{table.game_id}/{path}")
        assert response.status_code == 409 and response.json()["code"] == "game_not_ended"
    table.do("gm", {"type": "end"})
    archive = client.get(f"/games/{table.game_id}/archive")
    assert archive.headers["content-type"].startswith("application/jsonl")
    header, envelopes = read_archive(archive.text.splitlines())
    assert header.events == len(envelopes) == 4  # created, started, ended, seed revealed
    assert client.get(f"/games/{table.game_id}/audit").json()["verdict"] == "clean"


def test_tampering_with_an_archive_copy_does_not_change_the_store(
    service: GameService, tmp_path: Path
) -> None:
    gid = finished_game(service)
    before = copy.deepcopy(service.envelopes(gid))
    write_archive(service, gid, tmp_path / "f.jsonl", forge_reveal)
    assert service.envelopes(gid) == before
