"""`kiroku replay --print` reads every sample as people read it: in English, no Japanese but
the names the players typed (and BCDice's own text); in Japanese, no internal id; the
ruleset's state as its pane shows it (`Ruleset.glances`), never a dump of fields."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from api.pages.i18n import Reader
from replay.archive import read_archive, records_from_envelopes
from replay.cursor import ReplayCursor
from replay.history import History
from replay.text import render_at
from tests.browser.test_sample_games_no_ids import INTERNAL
from tests.domain.test_lines_in_english import JAPANESE, plain_texts
from tests.samples import SAMPLES

# BCDice's own result text (「成功数2 ＞ サツバツ!!」) inside a roll's brackets, and the roll line
DICE = re.compile(
    r"\[\((?:[^\[\]]|\[[^\[\]]*\])*＞(?:[^\[\]]|\[[^\[\]]*\])*\]|^  (?:roll|ダイス): .*$", re.M
)
NAME_KEYS = frozenset({"name", "label", "silhouette", "weapon", "title"})


def history_of(sample: Path) -> History:
    with sample.open(encoding="utf-8") as archive:
        _, envelopes = read_archive(archive)
    return History(records_from_envelopes([e for e in envelopes if isinstance(e, dict)]))


def typed_names(value: Any) -> set[str]:
    """Every name in a view (a seat's, a unit's or character's, a sheet's, a silhouette's)."""
    if isinstance(value, dict):
        return {
            text
            for key, item in value.items()
            for text in ({item} if key in NAME_KEYS and isinstance(item, str) else set())
            | typed_names(item)
        }
    if isinstance(value, list):
        return {text for item in value for text in typed_names(item)}
    return set()


def frames(sample: Path) -> list[tuple[str, ReplayCursor]]:
    history = history_of(sample)
    return [(audience, ReplayCursor(history, audience)) for audience in ("gm", "seat:1", "public")]


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_the_english_replay_has_no_japanese_but_names(sample: Path) -> None:
    for audience, cursor in frames(sample):
        last = cursor.history.last_seq
        for seq in sorted({last // 3, 2 * last // 3, last}):
            cursor.seek(seq)
            text = render_at(cursor, say=Reader("en"))
            frame = cursor.current()
            names = typed_names(frame.view.model_dump(mode="json"))
            for _, line in cursor.log(seq):
                names |= set(plain_texts(line.args))
            bare = DICE.sub(" ", text)
            for name in sorted(filter(None, names), key=len, reverse=True):
                # a title is quoted 「so」 in English too (en.po's 「{title}」 created)
                bare = bare.replace(f"「{name}」", " ")
                if JAPANESE.search(name):
                    bare = bare.replace(name, " ")
            japanese = [row for row in bare.splitlines() if JAPANESE.search(row)]
            assert not japanese, f"{sample.stem} #{seq} as {audience}:\n" + "\n".join(japanese)
            assert "[Main]" in text and "[メイン]" not in text


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_the_japanese_replay_has_no_ids_and_shows_the_pane(sample: Path) -> None:
    for audience, cursor in frames(sample):
        last = cursor.history.last_seq
        for seq in sorted({last // 3, 2 * last // 3, last}):
            cursor.seek(seq)
            text = render_at(cursor, say=Reader("ja"))
            found = INTERNAL.findall(text)
            assert not found, f"{sample.stem} #{seq} as {audience}: {found}\n{text}"
            assert "非公開の記録" not in text  # every secret listed is told by its line
        frame = cursor.current()
        seats = [s.name for s in frame.view.seats]
        glance = text.split("\n席: ", 1)[1]
        # the pane's rows: each seat's character (超人ロック) or its unit/character by name
        assert any(name in glance for name in seats) or "（PC）" in glance, glance


def audit_of(sample: Path) -> tuple[str, Any, dict[int, str]]:
    from replay.audit import audit, seat_names

    with sample.open(encoding="utf-8") as archive:
        _, envelopes = read_archive(archive)
    game = next(e for e in envelopes if isinstance(e, dict))["game_id"]
    return game, audit(game, envelopes), seat_names(envelopes)


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_the_audit_reads_in_the_readers_language(sample: Path) -> None:
    """`kiroku audit`'s declarations say what was declared in words, in either language: in
    English no Japanese but names (a unit's, a card's, a GM's reason or ruling as typed), in
    Japanese no id; its JSON keeps its fields."""
    from replay.audit import render_text

    _, report, seats = audit_of(sample)
    history = history_of(sample)
    cursor = ReplayCursor(history, "gm")
    names = typed_names(cursor.current().view.model_dump(mode="json")) | set(seats.values())
    for _, line in cursor.log(history.last_seq, history.last_seq):
        names |= set(plain_texts(line.args))
    names |= {r.text for r in report.rulings}
    english = render_text(report, Reader("en"), seats)
    bare = english
    for name in sorted(filter(JAPANESE.search, names), key=len, reverse=True):
        bare = bare.replace(name, " ")
    japanese = [row for row in bare.splitlines() if JAPANESE.search(row)]
    assert not japanese, f"{sample.stem}:\n" + "\n".join(japanese)
    found = INTERNAL.findall(render_text(report, Reader("ja"), seats))
    assert not found, f"{sample.stem}: {found}"
    for check in report.declarations:  # the JSON: the same fields, texts not reprs
        assert set(check.model_dump()) == {
            "seq",
            "actor",
            "what",
            "declared",
            "truth",
            "verdict",
            "note",
        }
        assert "(" not in str(check.declared) or "'" not in str(check.declared), check


def test_a_freeform_frame_shows_the_phase_the_gm_named(service: Any) -> None:
    from domain.application.service import NewGame
    from domain.model.commands import Start
    from domain.model.lifecycle_events import GameOptions
    from domain.rulesets.freeform import AdvancePhase

    game = service.create_game(NewGame("freeform", "港", ["Aki"], GameOptions(), {}))
    service.execute(game.game_id, "gm", Start())
    service.execute(game.game_id, "gm", AdvancePhase(phase="夜の港"))
    cursor = ReplayCursor(History(service.records(game.game_id)), "seat:1")
    assert "\n  Phase: 夜の港" in render_at(cursor, say=Reader("en"))
    assert "\n  フェイズ: 夜の港" in render_at(cursor, say=Reader("ja"))
    assert "phase number" not in render_at(cursor, say=Reader("en"))  # no field of the state


def test_a_seat_reads_its_own_character_at_a_glance_and_no_one_elses() -> None:
    """超人ロック mid-game: the sheet is the seat's secret until the end (its own in `me`)."""
    history = history_of(SAMPLES / "chojin-locke-6p.jsonl")
    own = render_at(ReplayCursor(history, "seat:1", 120), say=Reader("ja"))
    other = render_at(ReplayCursor(history, "seat:2", 120), say=Reader("ja"))
    assert "\n  Aki（戦士クーガー）: シルエット ストロハイム、基地側" in own
    assert "\n  Aki（キャラクター非公開）: シルエット ストロハイム" in other
    assert "戦士クーガー" not in other.split("\n席: ", 1)[1].split("が読める秘密", 1)[0]
