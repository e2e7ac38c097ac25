"""The pages in Japanese (the default) and in English, in real Chromium, one context a person.

The Japanese home and join pages' visible text is extracted and every piece checked against the
Japanese catalog (api/pages/i18n/ja.po): a piece is a catalog entry (its placeholders filled by
anything), a name the players typed, or the language switch's own names. "My tables" lists the
game in the creator's browser; the GM who lost the browser gets the GM seat back with the
recovery code shown once at creation.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from api.pages import i18n
from tests.browser.audience import Audience
from tests.browser.conftest import screenshot_path
from tests.browser.test_table import TIMEOUT, line, open_home, say
from tests.domain.test_lines_in_english import NOT_YET
from tests.rulesets.mech_d20.test_names_in_lines import history_of
from tests.samples import SAMPLES, import_sample
from tests.serverproc import KirokuServer

TITLE = "ネオサイタマの夜"
CHOJIN_SAMPLE = SAMPLES / "chojin-locke-6p.jsonl"
NAMES = ("フジキド", "ヤモト")
LANGUAGE_NAMES = ("日本語", "English", "·", "Kiroku", "記録")
INTERNAL = re.compile(r"seat:\d|\bNone\b|\bnull\b|\(\d+,\)|\b[a-z]+_[a-z_]+\b")

# Every visible text node of the page, trimmed (not the values of inputs: those hold links).
VISIBLE_TEXTS = """(root) => {
  const texts = [];
  const within = root ? document.querySelector(root) : document.body;
  const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const parent = node.parentElement;
    // BCDice's system names are the systems' own (data, like the players' names)
    if (!text || !parent || parent.closest("script, style, [hidden], #system")) continue;
    if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    texts.push(text);
  }
  return texts;
}"""


def catalog_patterns(language: str) -> list[re.Pattern[str]]:
    patterns = []
    for text in i18n.CATALOGS[language].values():
        if not re.search(r"\w", re.sub(r"\{\w+\}", "", text)):
            continue  # only placeholders and punctuation ("{where}：{problem}"): explains nothing
        parts = re.split(r"\{\w+\}", text)
        patterns.append(re.compile("^" + ".+".join(re.escape(part) for part in parts) + "$"))
    return patterns


def unexplained(page: Any, language: str, allowed: tuple[str, ...]) -> list[str]:
    """The visible texts that are neither a catalog entry nor an allowed name."""
    patterns = catalog_patterns(language)
    return [
        text
        for text in page.evaluate(VISIBLE_TEXTS)
        if text not in allowed and not any(p.match(text) for p in patterns)
    ]


def create_game(page: Any, base_url: str) -> dict[str, str]:
    open_home(page, base_url)
    page.fill("input[name=title]", TITLE)
    page.select_option("select[name=ruleset]", "ninja_slayer")
    seats = page.locator("input[name=seat]")
    for index, name in enumerate(NAMES):
        seats.nth(index).fill(name)
    page.click("#create-game button[type=submit]")
    expect(page.locator("#created")).to_be_visible(timeout=TIMEOUT)
    links = page.locator("#links input.link")
    return {
        "seat1": links.nth(0).input_value(),
        "gm": links.nth(len(NAMES)).input_value(),
        "code": page.locator("#recovery-code").inner_text(),
        "table": page.locator("#open-table").get_attribute("href") or "",
    }


def test_the_pages_read_in_japanese_then_in_english(browser: Any, server: KirokuServer) -> None:
    gm = Audience.open(browser, "gm", locale="ja-JP")
    player = Audience.open(browser, "seat:1", locale="ja-JP")
    lost = Audience.open(browser, "gm, another browser", locale="ja-JP")
    try:
        page = gm.page
        page.goto(server.base_url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        expect(page.locator("h1")).to_have_text("卓を立てる")
        menu = page.locator("select[name=ruleset]").inner_text()
        assert "ニンジャスレイヤーTRPG" in menu and "ninja_slayer" not in menu
        assert unexplained(page, "ja", LANGUAGE_NAMES) == []

        created = create_game(page, server.base_url)
        expect(page.locator("#open-table")).to_have_text("GMとして卓を開く")
        expect(page.locator("#spectator-link")).to_have_value(server.base_url + created["table"])
        assert len(created["code"]) > 20  # the GM's token, shown once as a code
        allowed = (*LANGUAGE_NAMES, *NAMES, created["code"])
        texts = unexplained(page, "ja", allowed)
        assert all(any(name in t for name in NAMES) for t in texts), texts
        assert not INTERNAL.search(page.inner_text("body"))

        # My tables: the game this browser holds a session for
        page.goto(server.base_url + "/")
        row = page.locator("#my-tables-body tr")
        expect(row).to_have_count(1, timeout=TIMEOUT)
        expect(row).to_contain_text(TITLE)
        expect(row).to_contain_text("ニンジャスレイヤーTRPG")
        expect(row).to_contain_text("開始待ち")
        page.screenshot(path=str(screenshot_path("home-ja.png")), full_page=True)
        assert unexplained(page, "ja", (*LANGUAGE_NAMES, TITLE, "GM")) == [
            t for t in page.evaluate(VISIBLE_TEXTS) if re.search(r"\d{4}", t)
        ]  # the last activity's date, in the reader's locale

        # the player joins in Japanese; its first line says who sat where, by name
        player.page.goto(created["seat1"])
        expect(player.page.locator("#join-form button")).to_have_text("席に着く")
        assert unexplained(player.page, "ja", LANGUAGE_NAMES) == []
        player.page.click("#join-form button")
        expect(line(player, "フジキドが席1に着いた")).to_have_count(1, timeout=TIMEOUT)

        # the GM on a browser without the link: the recovery code gets the GM seat back
        lost.page.goto(f"{server.base_url}/g{created['table'].removeprefix('/g')}/join")
        expect(lost.page.locator("#recover-form")).to_be_visible(timeout=TIMEOUT)
        assert unexplained(lost.page, "ja", LANGUAGE_NAMES) == []
        lost.page.fill("#recover-form input[name=code]", created["code"])
        lost.page.click("#recover-form button")
        # the next code, shown once, before the table (the used one is spent)
        expect(lost.page.locator("#next-recovery-code")).not_to_be_empty(timeout=TIMEOUT)
        assert lost.page.locator("#next-recovery-code").inner_text() != created["code"]
        lost.page.click("#to-table")
        expect(lost.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        me = lost.page.evaluate(
            "async (id) => (await fetch(`/games/${id}/session`)).json()",
            created["table"].removeprefix("/g/"),
        )
        assert me["actor"] == "gm"

        # the recovery signed every other GM browser out: the first one's "My tables" is empty
        page.goto(server.base_url + "/")
        expect(page.locator("#my-tables-body tr")).to_have_count(0, timeout=TIMEOUT)

        # English, by the switch (on the GM's browser now): a cookie for it, every page after
        lost.page.goto(server.base_url + "/")
        lost.page.click("nav.language a[hreflang=en]")
        expect(lost.page.locator("html")).to_have_attribute("lang", "en")
        expect(lost.page.locator("h1")).to_have_text("Start a table")
        expect(lost.page.locator("#my-tables-title")).to_have_text("My tables", timeout=TIMEOUT)
        expect(lost.page.locator("#my-tables-body tr")).to_contain_text("waiting to start")
        dice_bot = lost.page.locator("#system option[value=DiceBot]")
        expect(dice_bot).to_have_text("DiceBot (generic dice bot)")  # BCDice's, in words
        lost.page.goto(server.base_url + created["table"] + "/replay")
        expect(lost.page.locator("#log-export")).to_have_text("Log export")
        lost.page.click("nav.language a[hreflang=ja]")
        expect(lost.page.locator("#log-export")).to_have_text("ログ出力")
        for audience in (gm, player, lost):
            assert not audience.errors, audience.errors
    finally:
        for audience in (gm, player, lost):
            audience.close()


def test_a_player_reads_system_lines_in_english(browser: Any, server: KirokuServer) -> None:
    """Accept-Language alone chooses English: the lifecycle's lines follow (their catalog key
    rides with the line), the refusal too; the code stays."""
    gm = Audience.open(browser, "gm", locale="en-GB")
    try:
        page = gm.page
        created = create_game(page, server.base_url)
        expect(page.locator("#open-table")).to_have_text("Open the table as GM")
        page.click("#open-table")
        expect(page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        expect(line(gm, "「ネオサイタマの夜」 created")).to_have_count(1, timeout=TIMEOUT)
        # the tabs every game opens with read in the page's language, on the bar, in the
        # composer's choice and on each line (were メイン, 情報, 雑談 on the English page)
        expect(page.locator("#tabs .tab")).to_have_text(["All", "Main", "Info", "Chat"])
        expect(page.locator("#tab-select option")).to_have_text(["Main", "Info", "Chat"])
        expect(page.locator("#seq-1 .tab-name")).to_have_text("Main")
        refused = page.evaluate(
            """async (id) => (await fetch(`/games/${id}/commands`, {method: "POST",
                 headers: {"X-Kiroku": "1", "Content-Type": "application/json"},
                 body: JSON.stringify({type: "reveal", seq: 1})})).json()""",
            created["table"].removeprefix("/g/"),
        )
        assert refused["code"] == "server_secret"  # seq 1 seals the dice seed
        assert refused["detail"] == "The dice seed is revealed when the game ends."
        assert not gm.errors, gm.errors
    finally:
        gm.close()


# Latin words the Japanese table may show: the rulebooks' and the table's own (GM, BCDice, dice
# notation, d20 terms, 超人ロック's LV and ESP, ニンジャスレイヤー's DKK and EV and its system's
# palette (WS8, SB: NinjaSlayer2's commands) and name, 「ニンジャスレイヤーTRPG 2版」), the brand.
KEPT_WORDS = re.compile(
    r"(?<![A-Za-z0-9])(?:GM|NPC|PC|BCDice|DiceBot|Kiroku|Blind|S|d20|AC\d*|HP|hp\d*|LL|ESP|LV\d*|EV\d*|DKK\d*|"
    r"English|JSON|choice\[[^\]]*\]|\d*[dD]\d+\S*|WS\d+|SB|[A-Z])(?![A-Za-z0-9])"
    r"|(?<=ニンジャスレイヤー)TRPG"
)


def english_words(page: Any, root: str | None = None) -> list[str]:
    """The visible texts of the page (or of its part `root`) that still hold a Latin word not
    kept as is."""
    return [
        text
        for text in page.evaluate(VISIBLE_TEXTS, root)
        if re.search(r"[A-Za-z]{2,}", KEPT_WORDS.sub(" ", text))
    ]


# 超人ロック is played by five to eleven
TABLE_NAMES = {"chojin_locke": ("フジキド", "ヤモト", "ニア", "ロック", "ライガー")}
RULESETS = ["freeform", "chojin_locke", "ninja_slayer", "mech_d20"]


def check_the_table(
    browser: Any, server: KirokuServer, ruleset: str, locale: str, stray: Any
) -> None:
    """The ruleset's table, as the GM and as a seat, before and after the start: `stray(page)`
    lists the visible texts in the other language, and must find none."""
    gm = Audience.open(browser, "gm", locale=locale)
    player = Audience.open(browser, "seat:1", locale=locale)
    started = "ゲーム開始" if locale.startswith("ja") else "The game starts"
    try:
        page = gm.page
        open_home(page, server.base_url)
        page.fill("input[name=title]", TITLE)
        page.select_option("select[name=ruleset]", ruleset)
        if page.locator("input[name=referee][value=gm]").is_visible():
            page.check("input[name=referee][value=gm]")
        names = TABLE_NAMES.get(ruleset, NAMES)
        seats = page.locator("input[name=seat]")
        while seats.count() < len(names):
            page.click("#add-seat")
        for index, name in enumerate(names):
            seats.nth(index).fill(name)
        page.click("#create-game button[type=submit]")
        expect(page.locator("#created")).to_be_visible(timeout=TIMEOUT)
        seat_link = page.locator("#links input.link").nth(0).input_value()
        page.click("#open-table")
        expect(page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#rules-forms > h3")).to_have_count(1, timeout=TIMEOUT)
        player.page.goto(seat_link)
        player.page.click("#join-form button")
        expect(player.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        expect(player.page.locator("#rules-forms > h3")).to_have_count(1, timeout=TIMEOUT)
        assert stray(page) == [], (ruleset, stray(page))
        assert stray(player.page) == [], (ruleset, stray(player.page))
        page.click("#gm-pane-body button.primary")  # ゲームを開始
        expect(line(gm, started)).to_have_count(1, timeout=TIMEOUT)
        expect(line(player, started)).to_have_count(1, timeout=TIMEOUT)
        page.wait_for_timeout(500)  # the panes redraw from the fresh view
        if ruleset == "chojin_locke":  # the referee's own actions, headed in the page's words
            host = "ホスト" if locale.startswith("ja") else "Host"
            expect(page.locator(".locke-host h4")).to_have_text(host, timeout=TIMEOUT)
        assert stray(page) == [], (ruleset, stray(page))
        assert stray(player.page) == [], (ruleset, stray(player.page))
        # the pane with a boss and mobs (one of them down) in its tracker, mid-combat
        game = page.url.split("/g/")[1].split("/")[0].split("?")[0]
        for bodies, rows in POPULATE.get(ruleset, []):
            for body in bodies:
                command(page, game, body)
            for audience in (gm, player):
                expect(audience.page.locator(SHOWN[ruleset])).to_have_count(rows, timeout=TIMEOUT)
            page.wait_for_timeout(500)
            # the English page reads a ruleset's own lines in the rulebook's Japanese until they
            # are messages (NOT_YET): only its pane is checked then once characters are in
            lines_in_japanese = ruleset in NOT_YET and not locale.startswith("ja")
            where = "#ruleset-pane" if lines_in_japanese else None
            assert stray(page, where) == [], (ruleset, stray(page, where))
            assert stray(player.page, where) == [], (ruleset, stray(player.page, where))
        if locale.startswith("ja") and ruleset == "ninja_slayer":
            # the ruleset's dice system, even when the form was sent before BCDice's list came
            expect(page.locator("#game-system")).to_contain_text("ニンジャスレイヤーTRPG")
            # the README's Japanese table: a combat set up, the boss and the mobs in the pane,
            # seen from the top (the waiting cue scrolled the GM's control into view)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshot_path("table-ja.png")))
        for audience in (gm, player):
            assert not audience.errors, audience.errors
    finally:
        for audience in (gm, player):
            audience.close()


def command(page: Any, game: str, body: dict[str, Any]) -> None:
    """A command as the page's own session (the GM's cookie), as the pane would send it."""
    status = page.evaluate(
        """async ([id, body]) => (await fetch(`/games/${id}/commands`, {method: "POST",
             headers: {"X-Kiroku": "1", "Content-Type": "application/json"},
             body: JSON.stringify(body)})).status""",
        [game, body],
    )
    assert status == 201, body


NS_PC = {"karate": 5, "neuron": 4, "wazamae": 3, "tairyoku": 6, "seishin": 3, "dkk": 2}
NS_BOSS = {"karate": 7, "neuron": 6, "wazamae": 5, "tairyoku": 9, "seishin": 4, "evasion": True}
NS_MOB = {"karate": 3, "neuron": 2, "wazamae": 3, "tairyoku": 1, "ninja": False}
MECH_BOSS = {
    "level": 6,
    "abilities": {"出力": 6, "敏捷力": 3},
    "proficiency": 3,
    "defences": {"AC": 23, "頑健": 21, "反応": 27, "意志": 18},
    "max_hp": 40,
}
MECH_MOB = {**MECH_BOSS, "level": 1, "max_hp": 10}
# What each ruleset's pane shows once a PC, a boss and two mobs are in (one mob down): the
# tracker's kinds and statuses in the rulebook's words (ボス, モブ, 健在, 戦闘不能; 脱落).
# Each stage: its commands, then how many rows the pane shows.
POPULATE: dict[str, list[tuple[list[dict[str, Any]], int]]] = {
    "ninja_slayer": [
        (
            [
                {
                    "type": "ninja_slayer.add_character",
                    "id": "fujikido",
                    "name": "フジキド",
                    "owner": "seat:1",
                    "sheet": NS_PC,
                },
                {
                    "type": "ninja_slayer.add_character",
                    "id": "boss",
                    "name": "ラオモト",
                    "kind": "boss",
                    "sheet": NS_BOSS,
                },
                {
                    "type": "ninja_slayer.add_character",
                    "id": "m1",
                    "name": "クローンヤクザ",
                    "kind": "mob",
                    "sheet": NS_MOB,
                },
                {
                    "type": "ninja_slayer.add_character",
                    "id": "m2",
                    "name": "クローンヤクザ",
                    "kind": "mob",
                    "sheet": NS_MOB,
                },
                {
                    "type": "ninja_slayer.adjust",
                    "character": "m2",
                    "status": "removed",
                    "reason": "落石",
                },
            ],
            4,
        ),
        (
            [
                {
                    "type": "ninja_slayer.begin_combat",
                    "participants": ["boss", "m1", "fujikido"],
                    "enemy_tie_order": ["boss", "m1"],
                }
            ],
            3,
        ),
    ],
    "mech_d20": [
        (
            [
                {
                    "type": "mech_d20.add_unit",
                    "id": "boss",
                    "name": "ガルムス",
                    "kind": "npc",
                    "sheet": MECH_BOSS,
                },
                {
                    "type": "mech_d20.add_unit",
                    "id": "m1",
                    "name": "ザコメカ1",
                    "kind": "npc",
                    "sheet": MECH_MOB,
                },
                {
                    "type": "mech_d20.add_unit",
                    "id": "m2",
                    "name": "ザコメカ2",
                    "kind": "npc",
                    "sheet": MECH_MOB,
                },
                {"type": "mech_d20.adjust", "unit": "m2", "hp": -20, "reason": "落石"},
            ],
            3,
        ),
    ],
}
SHOWN = {"ninja_slayer": "#ns-tracker tr[data-character]", "mech_d20": "li.mech-unit"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_japanese_table_has_no_english(
    browser: Any, server: KirokuServer, ruleset: str
) -> None:
    """Each ruleset's table, as the GM and as a seat, before and after the start: every visible
    text is Japanese but the names, the dice and the rulebooks' own Latin terms."""
    check_the_table(browser, server, ruleset, "ja-JP", english_words)


def test_the_japanese_table_of_a_played_chojin_locke_game_has_no_english(
    browser: Any, tmp_path: Any
) -> None:
    """Past the start, where the cards are turned: the shipped 超人ロック sample game (imported,
    as a user would), its table read in Japanese by a spectator at the end, when every line is
    public, scrolled up from the latest line to the first (the log holds a window of lines) —
    the turned cards' lines with their texts (「情報入手 …」) and the pane included. Only what
    the players typed is theirs: their names, the game's title, what a check was for."""
    header = json.loads(CHOJIN_SAMPLE.read_text(encoding="utf-8").splitlines()[0])
    played = history_of(CHOJIN_SAMPLE)
    turned = [
        r.seq
        for r in played.records()
        if r.envelope.type == "chojin_locke.SquareTurned"
        and r.envelope_dump()["public"]["card"] == "情報入手"
    ]
    assert turned, "the sample turns no 情報入手"
    game = played.final.game
    reasons = {
        str(r.envelope_dump()["public"]["reason"])
        for r in played.records()
        if r.envelope.type == "chojin_locke.Checked"
    }  # what a check was for, as its player typed it
    words = (game.title, *(s.name for s in game.seats), *sorted(reasons - {""}))
    typed = re.compile("|".join(re.escape(w) for w in words))
    db = tmp_path / "kiroku.db"
    import_sample(CHOJIN_SAMPLE, db)
    with KirokuServer(db=db) as server:
        reader = Audience.open(browser, "public", locale="ja-JP")
        try:
            page = reader.page
            page.goto(f"{server.base_url}/g/{header['game_id']}")
            expect(page.locator("#log li").first).to_be_attached(timeout=TIMEOUT)
            page.wait_for_timeout(500)  # the pane draws from the view
            found: set[str] = set()
            for _ in range(60):
                found.update(
                    text
                    for text in english_words(page)
                    if re.search(r"[A-Za-z]{2,}", KEPT_WORDS.sub(" ", typed.sub(" ", text)))
                )
                if page.locator("#log li[data-seq='1']").count():
                    break
                page.locator("#log").evaluate("box => { box.scrollTop = 0; }")
                page.wait_for_timeout(200)
            read = page.locator(f"#log li[data-seq='{turned[0]}']")
            expect(read).to_contain_text("をめくる: 情報入手")
            expect(page.locator("#log li[data-seq='1']")).to_be_attached()
            assert sorted(found) == [], sorted(found)
            assert not reader.errors, reader.errors
        finally:
            reader.close()


# A sentence in Japanese has kana between its words; the rulebooks' terms the English page keeps
# as written (「伏せ」, 【万札】…) are words, and the names are the players'.
KANA_SENTENCE = re.compile(r"[\u3040-\u309f]")
KEPT_TERMS = re.compile(r"伏せ|回避する|実は生きていた|ワザマエ|カラテ|ニンジャ|ネオサイタマの夜")


def japanese_sentences(page: Any, root: str | None = None) -> list[str]:
    """The visible texts of the page (or of its part `root`) that still hold Japanese beyond
    names and game terms."""
    names = "|".join(re.escape(n) for n in (*NAMES, *TABLE_NAMES["chojin_locke"], TITLE))
    return [
        text
        for text in page.evaluate(VISIBLE_TEXTS, root)
        if KANA_SENTENCE.search(KEPT_TERMS.sub(" ", re.sub(names, " ", text)))
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_english_table_has_no_japanese_chrome(
    browser: Any, server: KirokuServer, ruleset: str
) -> None:
    """The English counterpart: no Japanese sentence on the English table, only the game's
    terms (as the rulebooks write them) and the names the players typed."""
    check_the_table(browser, server, ruleset, "en-US", japanese_sentences)


BOXES = "(elements) => elements.map((e) => e.getBoundingClientRect().toJSON())"


def test_a_freeform_game_reads_in_japanese_at_every_seat(
    browser: Any, server: KirokuServer
) -> None:
    """A freeform game played in Japanese (the docs' table pictures): chat on two tabs, an open
    roll, a secret and a blind roll, a whisper and a ruling; the GM's desktop and a seat's phone
    show no English but the names, the dice and the table's own Latin terms."""
    gm = Audience.open(browser, "gm", locale="ja-JP")
    aki = Audience.open(browser, "seat:1", locale="ja-JP")
    ben = Audience.open(browser, "seat:2", locale="ja-JP", viewport={"width": 375, "height": 812})
    try:
        page = gm.page
        page.goto(server.base_url + "/")
        page.fill("input[name=title]", "古い屋敷 第1話")
        seats = page.locator("input[name=seat]")
        for index, name in enumerate(("アキ", "ベン")):
            seats.nth(index).fill(name)
        page.click("#create-game button[type=submit]")
        expect(page.locator("#created")).to_be_visible(timeout=TIMEOUT)
        links = page.locator("#links input.link")
        aki_link, ben_link = links.nth(0).input_value(), links.nth(1).input_value()
        page.click("#open-table")
        expect(page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        for seat, link in ((aki, aki_link), (ben, ben_link)):
            seat.page.goto(link)
            seat.page.click("#join-form button")
            expect(seat.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        page.click("#gm-pane-body button.primary")  # ゲームを開始
        expect(line(ben, "ゲーム開始")).to_have_count(1, timeout=TIMEOUT)

        say(aki, "こんばんは、よろしくお願いします")
        say(ben, "おやつ取ってくる", tab="雑談")
        say(aki, "2D6>=7 忍び足")
        say(aki, "2D6 隠し扉を探す", secret=True)
        say(ben, "1D100<=50 聞き耳", blind=True)
        say(aki, "実は鍵を持っている", to="gm")
        expect(line(gm, "実は鍵を持っている")).to_have_count(1, timeout=TIMEOUT)
        roll = line(gm, "忍び足")
        roll.locator(".line-action").click()
        page.fill("#line-form textarea[name=text]", "見張りは眠っていた: 次の判定に+1")
        page.click("#line-form button[value=ok]")
        for reader in (gm, aki, ben):
            expect(line(reader, "見張りは眠っていた")).to_have_count(1, timeout=TIMEOUT)
        expect(line(ben, "シークレットダイス")).to_have_count(1)
        expect(line(ben, "秘話")).to_have_count(1)
        page.wait_for_timeout(300)  # the last line's stream settles
        for reader in (gm, aki, ben):
            assert english_words(reader.page) == [], (reader.name, english_words(reader.page))
            assert not INTERNAL.search(reader.page.inner_text("body")), reader.name
            assert not reader.errors, reader.errors
        # on the phone each tab keeps its word on one line, as on the desktop
        heights = {
            reader.name: [box["height"] for box in reader.page.locator(".tab").evaluate_all(BOXES)]
            for reader in (gm, ben)
        }
        assert heights["seat:2"] == heights["gm"], heights
        page.screenshot(path=str(screenshot_path("table-desktop.png")))
        ben.page.screenshot(path=str(screenshot_path("table-phone.png")), full_page=True)
    finally:
        for audience in (gm, aki, ben):
            audience.close()
