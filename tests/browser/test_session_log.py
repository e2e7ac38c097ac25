"""The session log opened from a file in real Chromium: the verifier inside it says ✓ for the
shipped sample games, and ✗ naming the right seq for copies a forger changed.

Each copy is changed the way someone editing the file would: a die face, an event's text,
the text a line shows, the last event cut off (the file then agrees with itself, and only a
head noted during play shows the cut). Where a sample has a server draw, the forger also
recomputes the whole chain, so only the dice seed can tell.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from api.pages.sessionlog import (
    disclosure_after,
    embedded_archive,
    render,
    session_log,
    with_archive,
)
from domain.model.draws import find_draws, find_objects
from domain.model.envelope import chain_hash
from replay.archive import read_archive, records_from_envelopes
from tests.bench.replay import generate
from tests.browser.conftest import screenshot_path
from tests.samples import SAMPLES
from tests.table import Table

SAMPLE_FILES = sorted(SAMPLES.glob("*.jsonl"))
LINE = re.compile(r'<p style="color:#[0-9a-f]{6};">.*?</p>\n', re.S)
TIMEOUT = 20_000
Envelopes = list[dict[str, Any]]


def log_of(sample: Path, language: str = "ja") -> str:
    with sample.open(encoding="utf-8") as lines:
        _header, envelopes = read_archive(lines)
    records = records_from_envelopes([e for e in envelopes if isinstance(e, dict)])
    log = session_log(records, "public", disclosure_after(records), language=language)
    html, _csp = render(log)
    return html


def embedded(html: str) -> tuple[dict[str, Any], Envelopes]:
    lines = [json.loads(line) for line in embedded_archive(html).split("\n")]
    return lines[0], [line["envelope"] for line in lines[1:]]


def with_embedded(html: str, header: dict[str, Any], envelopes: Envelopes) -> str:
    text = "\n".join(
        json.dumps(item, ensure_ascii=False, separators=(",", ":"))
        for item in [header, *({"envelope": e} for e in envelopes)]
    )
    return with_archive(html, text)


def rehash(header: dict[str, Any], envelopes: Envelopes, html: str) -> str:
    """What a careful forger does after an edit: recompute every hash from the first event on,
    so the chain holds again, and make the file's header and lines agree."""
    prev = envelopes[0]["prev_hash"]
    for envelope in envelopes:
        envelope["prev_hash"] = prev
        unhashed = {k: v for k, v in envelope.items() if k != "hash"}
        envelope["hash"] = prev = chain_hash(prev, unhashed)
    header["events"], header["head"] = len(envelopes), prev
    return with_embedded(html, header, envelopes)


def first_draw(envelopes: Envelopes) -> tuple[int, dict[str, Any]] | None:
    for envelope in envelopes:
        if envelope["type"] != "Revealed":
            for draw in find_draws(envelope["public"]):
                if "faces" in draw:
                    return envelope["seq"], draw
    return None


def first_faces(envelopes: Envelopes) -> tuple[int, dict[str, Any]]:
    """A recorded roll's faces (the draw's, where the server drew them)."""
    found = first_draw(envelopes)
    if found is not None:
        return found
    for envelope in envelopes:
        for result in find_objects(envelope["public"], "faces", "explanation"):
            if result["faces"]:
                return envelope["seq"], result
    raise AssertionError("the sample has no roll")


def change_face(draw: dict[str, Any]) -> None:
    draw["faces"][0] = draw["faces"][0] % 6 + 1


def a_text(envelopes: Envelopes) -> tuple[int, dict[str, Any], str]:
    """A text in the middle of the game: a ruling's, else the first string of an event."""
    for envelope in envelopes:
        if envelope["type"] == "RulingMade":
            return envelope["seq"], envelope["public"], "text"
    for envelope in envelopes[len(envelopes) // 2 :]:
        for key, value in envelope["public"].items():
            if isinstance(value, str) and value:
                return envelope["seq"], envelope["public"], key
    raise AssertionError("no text")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The samples' files in English: the verifier's words these tests read are its English
    ones (the Japanese file's are read by the table games' tests and the language test)."""
    return {sample.stem: log_of(sample, "en") for sample in SAMPLE_FILES}


@pytest.fixture
def open_file(browser: Any, tmp_path: Path) -> Iterator[Callable[..., tuple[str, str, str]]]:
    """Write an HTML file and open it from file://; (state, seq, verdict text) once checked."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def opened(html: str, name: str, fragment: str = "") -> tuple[str, str, str]:
        path = tmp_path / name
        path.write_text(html, encoding="utf-8")
        page.goto("about:blank")  # a fresh document each time, even for the same file
        errors.clear()
        page.goto(path.as_uri() + fragment)
        verdict = page.locator("#verdict")
        expect(verdict).to_have_attribute("data-state", re.compile("ok|bad"), timeout=TIMEOUT)
        assert not errors, errors  # no CSP refusal, no script error
        state = verdict.get_attribute("data-state") or ""
        return state, verdict.get_attribute("data-seq") or "", verdict.inner_text()

    yield opened
    page.close()


@pytest.mark.parametrize("sample", [s.stem for s in SAMPLE_FILES])
def test_a_sample_log_verifies_and_every_forgery_is_named(
    sample: str, logs: dict[str, str], open_file: Callable[..., tuple[str, str, str]]
) -> None:
    html = logs[sample]
    header, envelopes = embedded(html)
    head = f"#head={len(envelopes)}:{envelopes[-1]['hash']}"

    state, _seq, text = open_file(html, "log.html", head)
    assert state == "ok", text
    assert text.startswith("✓") and f"holds the noted head #{len(envelopes)}" in text

    # One die face changed.
    changed = json.loads(json.dumps(envelopes))
    seq, roll = first_faces(changed)
    change_face(roll)
    assert open_file(with_embedded(html, header, changed), "face.html")[:2] == ("bad", str(seq))

    # ... and the chain recomputed around it: only the seed can tell, and does.
    if first_draw(envelopes) is not None:
        forged = json.loads(json.dumps(envelopes))
        seq, draw = first_draw(forged) or (0, {})
        change_face(draw)
        state, bad, text = open_file(rehash(dict(header), forged, html), "forged.html")
        assert (state, bad) == ("bad", str(seq)), text
        assert "does not follow from the dice seed" in text

    # One event's text changed.
    changed = json.loads(json.dumps(envelopes))
    seq, public, key = a_text(changed)
    public[key] += "（改）"
    assert open_file(with_embedded(html, header, changed), "text.html")[:2] == ("bad", str(seq))

    # The last event removed, the file made to agree with itself: the chain holds (the file
    # alone may still see a secret left unrevealed); with the head noted during play it says ✗
    # naming the missing event.
    cut = envelopes[:-1]
    last = list(LINE.finditer(html))[-1]
    short = html[: last.start()] + html[last.end() :]
    short = rehash(dict(header), json.loads(json.dumps(cut)), short)
    state, bad, text = open_file(short, "cut.html")
    assert state == "ok" or envelopes[-1]["type"] == "Revealed", text
    assert bad != str(len(envelopes))
    state, bad, text = open_file(short, "cut.html", head)
    assert (state, bad) == ("bad", str(len(envelopes))), text
    assert f"this log ends at #{len(envelopes) - 1}" in text


def test_a_line_that_says_other_than_its_event_is_named(
    logs: dict[str, str], open_file: Callable[..., tuple[str, str, str]]
) -> None:
    html = logs["ninja-slayer-combat"]
    _header, envelopes = embedded(html)
    ruling = next(e for e in envelopes if e["type"] == "RulingMade")
    said = ruling["public"]["text"]
    forged = html.replace(f"{said}</span>", "GMは常に正しい</span>", 1)
    assert forged != html
    state, bad, text = open_file(forged, "line.html")
    assert (state, bad) == ("bad", str(ruling["seq"])), text
    assert "does not say what the record says" in text

    # A line put in someone else's mouth (the n-th line is the event of seq n).
    seq, said = next(
        (n, line) for n, line in enumerate(LINE.finditer(html), 1) if "<span>Aki</span>" in line[0]
    )
    start = said.start() + said[0].index("<span>Aki</span>") + len("<span>")
    forged = html[:start] + "Ben" + html[start + len("Aki") :]
    state, bad, text = open_file(forged, "speaker.html")
    assert (state, bad) == ("bad", str(seq)), text
    assert "does not name who the record says" in text


def test_the_log_reads_without_scripts(browser: Any, logs: dict[str, str], tmp_path: Path) -> None:
    """Every line is there with JavaScript off (ココフォリア's bare lines: tabs, folds and links
    are the script's, laid on them once loaded)."""
    path = tmp_path / "log.html"
    html = log_of(SAMPLES / "ninja-slayer-combat.jsonl")  # in Japanese, the default
    path.write_text(html, encoding="utf-8")
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        lines = page.locator("body > p")
        expect(lines).to_have_count(len(LINE.findall(html)))
        expect(lines.first).to_be_visible()
        expect(lines.first).to_contain_text("を作成した")
        expect(page.locator("#verdict")).to_have_attribute("data-state", "pending")
        # A sealed line reads as it did at the table; its reveal (the sheet, as a sheet) is
        # the next line, with no script to fold it.
        texts = lines.all_inner_texts()
        sealed = next(n for n, text in enumerate(texts) if text.endswith("ブラックマンバ が登場"))
        assert "ブラックマンバ が登場 【カラテ7" in texts[sealed + 1], texts[sealed : sealed + 2]
    finally:
        context.close()


def test_the_page_lays_its_data_on_the_lines(
    browser: Any, logs: dict[str, str], tmp_path: Path
) -> None:
    """With scripts: each line has its seq, a ruling links to its line and back, a tab
    unticked hides its lines."""
    path = tmp_path / "log.html"
    path.write_text(log_of(SAMPLES / "ninja-slayer-combat.jsonl"), encoding="utf-8")
    page = browser.new_page()
    try:
        page.goto(path.as_uri())
        expect(page.locator("#verdict")).to_have_attribute("data-state", "ok", timeout=TIMEOUT)
        ruling = page.locator(".line.ruling")
        expect(ruling).to_have_count(1)
        concerned = ruling.locator("a.concerns").get_attribute("href") or ""
        expect(page.locator(f"{concerned} a.answered")).to_have_count(1)
        expect(page.locator("#seq-1")).to_be_visible()
        page.locator("#tab-0").uncheck()  # メイン off: its lines go
        expect(page.locator("#seq-1")).to_be_hidden()
        page.locator("#tab-0").check()
        expect(page.locator("#seq-1")).to_be_visible()
    finally:
        page.close()


def test_a_host_run_game_verifies(
    client: TestClient, open_file: Callable[..., tuple[str, str, str]]
) -> None:
    """A game without a referee (超人ロック's default): the host's lines name the host, and the
    log verifies ✓ before and after the end."""
    table = Table.create(client, seats=["Aki", "Ben"], referee="host")
    table.join_all()
    table.do("host", {"type": "say", "text": "始めましょう"})
    table.do("host", {"type": "start"})
    table.do("seat:1", {"type": "roll", "expression": "2D6 先制"})
    in_play = client.get(f"/games/{table.game_id}/log.html", headers=table.auth("seat:1")).text
    assert "<span>ホスト</span> : <span>始めましょう</span>" in in_play  # in Japanese, the default
    state, _seq, text = open_file(in_play, "host.html")
    assert state == "ok", text
    table.do("host", {"type": "end"})
    state, _seq, text = open_file(client.get(f"/games/{table.game_id}/log.html").text, "end.html")
    assert state == "ok" and "公開されたシードからの抽選" in text, text


def test_a_table_game_before_and_after_its_end(
    client: TestClient, open_file: Callable[..., tuple[str, str, str]], browser: Any, tmp_path: Path
) -> None:
    """A game played over HTTP: a seat's log in play verifies its chain; after the end every
    draw verifies, secrets are folded, and 雑談 is hidden until ticked."""
    table = Table.create(
        client, seats=["Aki", "Ben"], title="古い屋敷 第1話", options={"dice_policy": "both"}
    )
    table.join(1, client_seed="aki-seed")
    table.join(2)
    table.do("gm", {"type": "start"})
    table.do(
        "gm", {"type": "say", "text": "古い屋敷の前に着いた。", "speaker": "KP", "color": "#555555"}
    )
    table.do(
        "seat:1",
        {"type": "say", "text": "門を調べます", "speaker": "探索者アキ", "color": "#e91e63"},
    )
    roll = table.do(
        "seat:1", {"type": "roll", "expression": "2D6>=7 目星", "speaker": "探索者アキ"}
    )
    table.do("seat:2", {"type": "say", "text": "おやつ取ってくる", "tab": "雑談"})
    table.do("gm", {"type": "roll", "expression": "S1D100<=40 聞き耳 (KP)"})
    table.do("seat:2", {"type": "note", "text": "実は鍵を持っている", "to": ["gm"]})
    table.do("gm", {"type": "ruling", "concerning_seq": roll["last_seq"], "text": "夜なので-1"})
    table.do("seat:2", {"type": "roll", "expression": "1D6", "faces": [4]})

    in_play = client.get(f"/games/{table.game_id}/log.html", headers=table.auth("seat:1")).text
    state, _seq, text = open_file(in_play, "in-play.html")
    assert state == "ok" and "（ダイスは終了後に検証できる）" in text, text

    table.do("gm", {"type": "end", "summary": "一日目終了"})
    after = client.get(f"/games/{table.game_id}/log.html").text
    state, _seq, text = open_file(after, "after.html")
    assert state == "ok" and "公開されたシードからの抽選" in text, text

    path = tmp_path / "after.html"
    page = browser.new_page(viewport={"width": 900, "height": 900})
    try:
        page.goto(path.as_uri())
        expect(page.locator("#verdict")).to_have_attribute("data-state", "ok", timeout=TIMEOUT)
        expect(page.locator(".line", has_text="おやつ取ってくる")).to_be_hidden()  # 雑談
        page.click('label:text-is("雑談")')
        expect(page.locator(".line", has_text="おやつ取ってくる")).to_be_visible()
        fold = page.locator(".line.fold", has_text="シークレットダイス → 公開 ✓")
        expect(fold).to_have_count(1)
        revealed = page.locator(".line.fold + .line.revealing", has_text="聞き耳 (KP)")
        expect(revealed).to_be_hidden()  # a spoiler under its line, until opened
        fold.locator("button.summary").click()
        expect(revealed).to_be_visible()
        expect(revealed.locator("span").last).to_contain_text("S1D100<=40 聞き耳 (KP)")
        page.screenshot(path=screenshot_path("session-log.png"), full_page=True)
    finally:
        page.close()


def test_a_seat_without_a_name_verifies_in_either_language(
    client: TestClient, open_file: Callable[..., tuple[str, str, str]]
) -> None:
    """The API refuses a blank seat name, but `kiroku import` takes a record as it was written
    (an older Kiroku's, another tool's): a seat with no name is 「席N」 in its lines (logline's
    `seat_name`), "seat N" in an English file, and the verifier names it the same way."""
    table = Table.create(client, seats=["Aki", "Ben"])
    table.join_all()
    table.do("gm", {"type": "start"})
    table.do("seat:2", {"type": "say", "text": "名前を書き忘れた"})
    table.do("seat:2", {"type": "roll", "expression": "2D6>=7", "secret": True})
    table.do("gm", {"type": "end"})
    archive = client.get(f"/games/{table.game_id}/archive", headers=table.auth("gm")).text
    _header, read = read_archive(archive.splitlines())
    envelopes = [envelope for envelope in read if isinstance(envelope, dict)]
    for envelope in envelopes:
        public = envelope["public"]
        for seat in public.get("seats", []):
            if seat["seat"] == 2:
                seat["name"] = ""
        if envelope["type"] == "SeatJoined" and public["seat"] == 2:
            public["name"] = ""
    prev = envelopes[0]["prev_hash"]
    for envelope in envelopes:  # the chain as the record's writer computed it
        envelope["prev_hash"] = prev
        envelope["hash"] = prev = chain_hash(
            prev, {k: v for k, v in envelope.items() if k != "hash"}
        )
    records = records_from_envelopes(envelopes)
    for language, name in (("ja", "席2"), ("en", "seat 2")):
        log = session_log(records, "public", disclosure_after(records), language=language)
        html, _csp = render(log)
        assert f"<span>{name}</span> : <span>名前を書き忘れた</span>" in html
        assert "seat:2" not in re.sub(r"<script.*?</script>", "", html, flags=re.S)
        state, _seq, text = open_file(html, f"unnamed-{language}.html")
        assert state == "ok", text


def test_a_long_log_verifies_in_a_worker(browser: Any, tmp_path: Path) -> None:
    """A log longer than the page verifies on its own thread (2,000 lines) is verified in a Web
    Worker, its progress shown: ✓, and ✗ naming the event for a die face changed in the archive
    and for a line changed in the page (the worker checks the lines the page read)."""
    records = generate(2_100)
    html, _csp = render(session_log(records, "public", disclosure_after(records)))
    header, envelopes = embedded(html)
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def opened(text: str, name: str) -> tuple[str, str, str, dict[str, Any]]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        page.goto("about:blank")
        page.goto(path.as_uri())
        verdict = page.locator("#verdict")
        expect(verdict).to_have_attribute("data-state", re.compile("ok|bad"), timeout=TIMEOUT)
        assert not errors, errors
        shown = page.evaluate(
            "({ ...globalThis.kirokuVerification,"
            " progress: document.getElementById('verify-progress')?.value ?? 0 })"
        )
        state, seq = verdict.get_attribute("data-state") or "", verdict.get_attribute("data-seq")
        return state, seq or "", verdict.inner_text(), shown

    try:
        state, _seq, text, shown = opened(html, "long.html")
        assert state == "ok" and "公開されたシードからの抽選" in text, text
        assert shown["inWorker"] and shown["events"] == len(records), shown
        assert shown["progress"] > 0, shown  # the worker reported its progress

        changed = json.loads(json.dumps(envelopes))
        seq, roll = first_faces(changed)
        change_face(roll)
        state, bad, text, shown = opened(with_embedded(html, header, changed), "face.html")
        assert (state, bad, shown["inWorker"]) == ("bad", str(seq), True), text

        said = [m for m in LINE.finditer(html) if "<span>I act</span>" in m[0]][-1]
        forged = html[: said.start()] + said[0].replace("I act", "I acted") + html[said.end() :]
        state, bad, text, shown = opened(forged, "line.html")
        place = [m.start() for m in LINE.finditer(html)].index(said.start())
        line_seq = page.locator("body > p").nth(place).get_attribute("data-seq")
        assert (state, bad, shown["inWorker"]) == ("bad", line_seq, True), text
        assert "の内容が記録と違う" in text  # the worker says it in the file's language
    finally:
        page.close()


# Every visible text node of the file once verified, but the lines' own three spans (the game's
# words: names, what was said, the rulesets' descriptions, BCDice's results) and the
# title, trimmed.
CHROME_TEXTS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const parent = node.parentElement;
    const skipped = "script, style, [hidden], body > p > span, .log-head h1";
    if (!text || !parent || parent.closest(skipped)) continue;
    if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    texts.push(text);
  }
  return texts;
}"""
# What either file may hold in the other's script: the game's ids and hashes, the system's name
# and the brand, the verifier's marks.
IDS = re.compile(r"\b[0-9a-f]{64}\b|\b[0-9a-f]{8}-[0-9a-f-]{27}\b|\b[0-9a-f]{32}\b")
KEPT_LATIN = re.compile(r"(?<![A-Za-z])(?:GM|TRPG|d20|Mech|Kiroku)(?![A-Za-z])")
HIRAGANA = re.compile(r"[\u3040-\u309f]")
SAMPLE_NAMES = ("ニンジャスレイヤー", "ブラックマンバ", "フジキド", "ヤモト")


def chrome_of(page: Any, html: str, path: Path, fragment: str = "") -> list[str]:
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri() + fragment)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-state", re.compile("ok|bad"), timeout=TIMEOUT)
    page.locator(".line.fold button.summary").first.click()  # a fold opened: its words too
    texts: list[str] = page.evaluate(CHROME_TEXTS)
    return [text for text in texts if not text.startswith("■ ")]  # the legend: names


@pytest.mark.parametrize("sample", ["ninja-slayer-combat", "chojin-locke-6p"])
def test_the_file_reads_in_one_language(browser: Any, sample: str, tmp_path: Path) -> None:
    """The Japanese file (the default) has no English sentence beside the lines but names,
    ids and hashes, once verified (the verdict, the head, the folds, the links, the legend);
    the English file no Japanese sentence but the names, the tabs' and the game's own. Both
    verify ✓, and ✗ names a forged line in their own words."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        japanese = log_of(SAMPLES / f"{sample}.jsonl", "ja")
        assert '<html lang="ja">' in japanese
        _header, envelopes = embedded(japanese)
        noted = f"#head={len(envelopes)}:{envelopes[-1]['hash']}"
        texts = chrome_of(page, japanese, tmp_path / "ja.html", noted)
        verdict = page.locator("#verdict").inner_text()
        assert verdict.startswith("✓ 検証済み") and "控えたヘッド" in verdict, verdict
        english = [
            t for t in texts if re.search(r"[A-Za-z]{2,}", KEPT_LATIN.sub(" ", IDS.sub(" ", t)))
        ]
        assert english == [], english

        in_english = log_of(SAMPLES / f"{sample}.jsonl", "en")
        assert '<html lang="en">' in in_english
        texts = chrome_of(page, in_english, tmp_path / "en.html", noted)
        verdict = page.locator("#verdict").inner_text()
        assert verdict.startswith("✓ Verified") and "holds the noted head" in verdict, verdict
        names = "|".join(SAMPLE_NAMES)
        japanese_left = [t for t in texts if HIRAGANA.search(re.sub(names, " ", t))]
        assert japanese_left == [], japanese_left
        assert not errors, errors

        # A line changed: the verifier names it in the file's language.
        for html, said in ((japanese, "の発言者が記録と違う"), (in_english, "does not name who")):
            line = LINE.findall(html)[2]
            forged = line.replace("<span>", "<span>X", 2).replace("<span>X", "<span>", 1)
            path = tmp_path / "forged.html"
            path.write_text(html.replace(line, forged, 1), encoding="utf-8")
            page.goto("about:blank")
            page.goto(path.as_uri())
            verdict_box = page.locator("#verdict")
            expect(verdict_box).to_have_attribute("data-state", "bad", timeout=TIMEOUT)
            assert said in verdict_box.inner_text(), verdict_box.inner_text()
    finally:
        page.close()
