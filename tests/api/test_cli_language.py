"""The `kiroku` command speaks the terminal's language: Japanese by default and for a Japanese
locale, English when the locale (or KIROKU_LANG) says en; its `--json` output is the same in both.
Each command runs as a user runs it: a process of its own, with only the locale set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.pages.i18n import from_environment
from tests.samples import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = SAMPLES / "mech-d20-map.jsonl"
JA = {"LANG": "ja_JP.UTF-8"}
EN = {"LANG": "en_US.UTF-8"}


def kiroku(locale: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **locale}  # no KIROKU_LANG
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "ja"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "ja"),
        ({"LANG": "fr_FR.UTF-8"}, "ja"),
        ({"LANG": "ja_JP.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),  # LC_ALL wins over LANG
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ja_JP.UTF-8", "KIROKU_LANG": "en"}, "en"),  # Kiroku's own wins over all
        ({"LC_ALL": "en_US.UTF-8", "KIROKU_LANG": "ja"}, "ja"),
    ],
)
def test_the_language_follows_the_environment(environ: dict[str, str], language: str) -> None:
    assert from_environment(environ) == language


def test_new_speaks_japanese_then_english_and_json_is_the_same(tmp_path: Path) -> None:
    argv = ("new", "ネオサイタマの夜", "--seat", "フジキド", "--seat", "ヤモト")
    ja = kiroku(JA, *argv, "--db", str(tmp_path / "ja.db"))
    assert ja.returncode == 0, ja.stderr
    assert "ゲーム: " in ja.stdout and "GMのトークン: " in ja.stdout
    assert "席1 フジキド: 招待 " in ja.stdout and "invite" not in ja.stdout
    en = kiroku(EN, *argv, "--db", str(tmp_path / "en.db"))
    assert en.returncode == 0, en.stderr
    assert "game: " in en.stdout and "GM token: " in en.stdout
    assert "seat 1 フジキド: invite " in en.stdout and "招待" not in en.stdout

    shapes = []
    for locale, db in ((JA, "ja-json.db"), (EN, "en-json.db")):
        out = kiroku(locale, *argv, "--json", "--db", str(tmp_path / db))
        created = json.loads(out.stdout)
        shapes.append((sorted(created), [s["name"] for s in created["seats"]]))
    assert shapes[0] == shapes[1]  # --json: the same keys and values whatever the language


def test_refusals_and_help_in_the_readers_language(tmp_path: Path) -> None:
    ja = kiroku(JA, "new", "卓", "--seat", "A", "--option", "x", "--db", str(tmp_path / "a.db"))
    assert ja.returncode == 1
    assert ja.stderr.strip() == "エラー: オプションは KEY=VALUE の形です（x ではありません）。"
    en = kiroku(EN, "new", "卓", "--seat", "A", "--option", "x", "--db", str(tmp_path / "a.db"))
    assert en.stderr.strip() == "error: An option is KEY=VALUE, not x."

    faces = kiroku(JA, "roll", "--faces", "a,b", "--", "2D6")
    assert faces.stderr.strip() == "エラー: --faces にはカンマ区切りの整数を指定してください"
    as_json = kiroku(JA, "roll", "--json", "--faces", "a,b", "--", "2D6")
    assert json.loads(as_json.stdout)["error"] == {
        "code": "bad_faces",
        "message": "--faces takes whole numbers separated by commas",
    }  # --json unchanged

    assert "終わったゲームをJSON Linesのアーカイブに書き出す" in kiroku(JA, "--help").stdout
    assert "write a finished game to a JSON Lines archive" in kiroku(EN, "--help").stdout
    assert "表示するイベント番号（既定: 最後）" in kiroku(JA, "replay", "--help").stdout


def test_import_audit_and_replay_read_in_both_languages(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    game = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])["game_id"]
    imported = kiroku(JA, "import", str(SAMPLE), "--db", db)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(f"ゲーム {game} を取り込みました（")

    ja = kiroku(JA, "audit", game, "--db", db)
    assert ja.returncode == 0, ja.stderr
    assert f"ゲーム {game} の監査: 問題なし" in ja.stdout
    assert "件のイベントの鎖" in ja.stdout and "Chain of" not in ja.stdout
    en = kiroku(EN, "audit", game, "--db", db)
    assert f"Audit of game {game}: CLEAN" in en.stdout
    # each declaration in words, units by name, in the reader's language
    assert "グレイブ(アキ)の近接基礎攻撃 命中ロール → ガルムス (対AC): ヒット / ヒット" in ja.stdout
    assert "グレイブ(アキ)'s melee basic attack: attack roll → ガルムス (vs AC): hit / hit" in (
        en.stdout
    )
    assert "ガルムス bloodied/out (after グレイブ(アキ)'s シールドバッシュ): bloodied" in en.stdout
    assert "半壊" not in en.stdout and "ヒット" not in en.stdout and "封印" not in en.stdout
    assert (
        kiroku(EN, "audit", game, "--json", "--db", db).stdout
        == kiroku(JA, "audit", game, "--json", "--db", db).stdout
    )

    ja_frame = kiroku(JA, "replay", game, "--as", "seat:1", "--print", "--db", db)
    assert ja_frame.returncode == 0, ja_frame.stderr
    assert "Akiの視点" in ja_frame.stdout and "状態: 終了" in ja_frame.stdout
    en_frame = kiroku(EN, "replay", game, "--as", "seat:1", "--print", "--db", db)
    assert "as Aki" in en_frame.stdout and "status: ended" in en_frame.stdout
    for frame in (ja_frame.stdout, en_frame.stdout):
        assert "seat:" not in frame  # people by name
    # the units as the pane shows them, the default tab by its name, in the reader's language
    assert "グレイブ(アキ)（PC）: 健在、hp " in ja_frame.stdout and "[メイン]" in ja_frame.stdout
    assert "グレイブ(アキ) (PC): standing, hp " in en_frame.stdout and "[Main]" in en_frame.stdout
    assert "owner" not in en_frame.stdout and "[メイン]" not in en_frame.stdout


def test_argparse_s_own_words_follow_the_language() -> None:
    """argparse's headings, `-h`'s help and its error lines come from the catalogs too."""
    ja = kiroku(JA, "--help")
    assert ja.returncode == 0, ja.stderr
    assert ja.stdout.startswith("使い方: kiroku") and "オプション:" in ja.stdout
    assert "このヘルプを表示して終了する" in ja.stdout
    for english in ("usage:", "options:", "show this help message and exit", "version number"):
        assert english not in ja.stdout, english
    wrong = kiroku(JA, "roll", "--faces")
    assert wrong.returncode == 2
    assert "kiroku roll: エラー: 引数 --faces: 値を1つ指定してください" in wrong.stderr
    assert "usage:" not in wrong.stderr and "error:" not in wrong.stderr
    en = kiroku(EN, "--help")
    assert en.stdout.startswith("usage: kiroku") and "\noptions:\n" in en.stdout
    assert "-h, --help            show this help message and exit" in en.stdout
    wrong = kiroku(EN, "roll", "--faces")
    assert "kiroku roll: error: argument --faces: expected one argument" in wrong.stderr


def test_argparse_s_words_are_put_back_after_the_command() -> None:
    import argparse

    from api.pages.i18n import argparse_words

    with argparse_words("ja"):
        inside = argparse.ArgumentParser(prog="p").format_help()
    outside = argparse.ArgumentParser(prog="p").format_help()
    assert inside.startswith("使い方: p") and outside.startswith("usage: p")
