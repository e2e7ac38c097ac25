"""The card texts a person reads are in the rulebook's Japanese (issue 33, item 1: one
language): no English sentence in any line of the 超人ロック sample game, for any audience, and
none in the shipped catalog's texts; a page in English reads each shipped text through the
English catalog (api/pages/i18n/en.po), as the pane's t() does."""

from __future__ import annotations

import re

from api.pages import i18n
from domain.rulesets.chojin_locke.catalog import sample
from tests.rulesets.mech_d20.test_names_in_lines import history_of, lines_read
from tests.samples import SAMPLES

# Two Latin words of two letters or more in a row («Take it», «Nothing happens»), or one
# ending a sentence («Vanish.»); the rulebook's own Latin (ESP, LV1, rank and alignment letters
# «A G», 2D6) is neither.
ENGLISH = re.compile(
    r"(?<![A-Za-z])[A-Za-z]{2,}(?:[ ,;:'’-]+[A-Za-z]{2,})+|(?<![A-Za-z])[A-Za-z]{2,}[.!?](?!\w)"
)
SAMPLE = SAMPLES / "chojin-locke-6p.jsonl"


def english_sentences(text: str, typed: tuple[str, ...] = ()) -> list[str]:
    """The English in `text` once the words the players typed (names, the title) are left out."""
    for words in typed:
        text = text.replace(words, " ")
    return ENGLISH.findall(text)


def test_the_check_catches_an_english_card_text() -> None:
    assert english_sentences("席4が惑星1のマス1をめくる: 情報入手 Take it.") == ["Take it"]
    assert english_sentences("能力カード「煙幕」を使う: Vanish.") == ["Vanish."]
    assert english_sentences("ロック (L) [A G] ESP能力レベル6 LV1 2D6 (sample)") == []
    assert english_sentences("「Test table」を作成した", ("Test table",)) == []


def test_no_line_of_the_sample_game_holds_an_english_sentence() -> None:
    history = history_of(SAMPLE)
    game = history.final.game
    typed = (game.title, *(seat.name for seat in game.seats))
    read = lines_read(history)
    turned = [text for _seq, text in read["public"] if "をめくる: 情報入手" in text]
    assert turned, "the sample turns no 情報入手"
    found = sorted(
        {
            f"{audience} #{seq}: {text}"
            for audience, lines in read.items()
            for seq, text in lines
            if english_sentences(text, typed)
        }
    )
    assert found == [], "\n".join(found[:40])


def shipped_texts() -> list[str]:
    catalog = sample()
    squares = [*catalog.planet_cards, catalog.ambush, *catalog.base_cards]
    texts = [
        *(card.text for card in squares),
        *(card.text for card in catalog.ability_cards),
        *(card.text for card in catalog.combat_cards),
    ]
    return sorted({text for text in texts if text})


def test_the_shipped_card_texts_are_japanese_and_read_in_english_on_an_english_page() -> None:
    texts = shipped_texts()
    assert len(texts) >= 15, texts
    assert [text for text in texts if english_sentences(text)] == []
    for text in texts:
        assert i18n.gettext(text, "ja") == text
        english = i18n.CATALOGS["en"].get(text)
        assert english and english != text and english_sentences(english), (text, english)
