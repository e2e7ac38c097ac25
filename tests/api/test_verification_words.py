"""The audit's findings in the reader's language (issue 33 item 3): /verify, /audit and `kiroku
audit` read the verification's notes, problems and checks from the catalogs, in Japanese by
default and in English when asked; the machine fields (`ok`, `kind`, `seq`, counts) are the same
in both."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli import main
from api.pages.i18n import Reader
from domain.application.service import GameService
from domain.model.verification import verify
from tests.replay.test_archive_audit import finished_game, forge_roll, write_archive
from tests.table import Table

JA = {"Accept-Language": "ja"}
EN = {"Accept-Language": "en"}
ENGLISH = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")  # English prose: two words in a row


def machine(value: Any) -> Any:
    """The report without the texts a person reads."""
    if isinstance(value, dict):
        texts = {"note", "problem", "what", "summary"}
        return {k: machine(v) for k, v in value.items() if k not in texts}
    if isinstance(value, list):
        return [machine(v) for v in value]
    return value


def test_verify_reads_in_the_browser_s_language(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki"])
    table.join_all()
    url = f"/games/{table.game_id}/verify"
    ja, en = client.get(url, headers=JA).json(), client.get(url, headers=EN).json()
    assert client.get(url).json() == ja  # Japanese by default
    assert ja["note"] == (
        "2件のイベントの鎖を検証しました。ロールと秘密は、ゲームが終わりダイスのシードが"
        "公開されてから検証できます。"
    )
    assert en["note"] == (
        "Chain of 2 events verifies. Rolls and secrets verify once the game ends and the dice "
        "seed is revealed."
    )
    assert machine(ja) == machine(en)

    params = {"seq": 2, "hash": "0" * 64}  # a head this log never had
    ja, en = (client.get(url, params=params, headers=h).json() for h in (JA, EN))
    assert ja["witness"]["problem"].startswith("イベント2のハッシュは今 ")
    assert ja["note"].startswith("見た先頭がログにありません: イベント2のハッシュは今 ")
    assert en["witness"]["problem"].startswith("event 2 now has hash ")
    assert not ENGLISH.search(ja["note"]) and machine(ja) == machine(en)


def test_the_audit_of_an_ended_game_reads_in_both_languages(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki"], system="Cthulhu7th")
    table.join_all()
    table.do("gm", {"type": "start"})
    table.do("seat:1", {"type": "say", "text": "CC<=54"})
    table.do("gm", {"type": "end"})
    url = f"/games/{table.game_id}/audit"
    ja = client.get(url, headers={**table.auth("gm"), **JA}).json()
    en = client.get(url, headers={**table.auth("gm"), **EN}).json()
    assert ja["verdict"] == en["verdict"] == "clean", en
    assert ja["summary"][0] == (
        "6件のイベントの鎖、1回の抽選、1件の秘密を検証しました。"
        "BCDice で再評価した1件のロールも一致します。"
    )
    assert en["summary"][0] == (
        "The chain verifies: events 6, draws 1, secrets 1; "
        "BCDice rolls evaluated again, all agreeing: 1."
    )
    for line in ja["summary"]:
        assert not ENGLISH.search(line), line
    whats = {c["kind"]: c["what"] for c in ja["verification"]["secrets"]["checks"]}
    assert whats["seed"] == "サーバーシードと server_seed_hash の照合"
    assert whats["draw"] == "抽選1" and whats["draw_numbers"] == "抽選番号が 1 から 1 まで続く"
    assert machine(ja) == machine(en)


def test_a_finding_reads_in_the_reader_s_language(service: GameService, tmp_path: Path) -> None:
    archive = write_archive(service, finished_game(service), tmp_path / "g.jsonl", forge_roll)
    envelopes = [json.loads(line)["envelope"] for line in archive.read_text().splitlines()[1:]]
    report = verify(envelopes[0]["game_id"], envelopes)
    ja, en = report.read(Reader("ja")), report.read(Reader("en"))
    finding = {"ja": ja.secrets.findings[0], "en": en.secrets.findings[0]}  # type: ignore[union-attr]
    assert finding["ja"].problem == "抽選結果がシードから導かれません"
    assert finding["en"].problem == "draw does not follow from the seed"
    assert ja.note == "問題が1件見つかりました。最初はイベント9: 抽選結果がシードから導かれません。"
    assert en.note == "1 problem(s) found; first at event 9: draw does not follow from the seed."
    assert report.note == en.note  # the source text, for logs and tests


def test_kiroku_audit_speaks_the_terminal_s_language(
    service: GameService,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    archive = write_archive(service, finished_game(service), tmp_path / "g.jsonl", forge_roll)
    monkeypatch.setenv("KIROKU_LANG", "ja")
    assert main(["audit", str(archive)]) == 3
    out = capsys.readouterr().out
    assert "イベント9: 抽選: 抽選結果がシードから導かれません" in out
    assert "draw does not follow" not in out
    assert main(["audit", str(archive), "--json"]) == 3  # the same in every language
    report = json.loads(capsys.readouterr().out)
    finding = report["verification"]["secrets"]["findings"][0]
    assert finding["kind"] == "draw" and finding["problem"] == "draw does not follow from the seed"
    monkeypatch.setenv("KIROKU_LANG", "en")
    assert main(["audit", str(archive)]) == 3
    assert "event 9: draw: draw does not follow from the seed" in capsys.readouterr().out
