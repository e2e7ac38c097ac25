"""A turned planet or base card (the board's terrain) is said by its name, the rulebook's word
(情報入手, 白紙, 待ち伏せ, 重要拠点…), never by the catalog's kind id (`info`, `blank`…): in
every line of the 超人ロック sample game, for every audience."""

from __future__ import annotations

import re

from tests.rulesets.mech_d20.test_names_in_lines import history_of, lines_read
from tests.samples import SAMPLES

KIND_IDS = re.compile(r"(?<![A-Za-z_])(?:info|blank|effect|ambush|key)(?![A-Za-z_])")


def test_no_line_says_a_cards_kind_id() -> None:
    read = lines_read(history_of(SAMPLES / "chojin-locke-6p.jsonl"))
    turned = [text for text in (t for _s, t in read["public"]) if "をめくる: " in text]
    assert turned, "the sample turns no card"
    assert any("をめくる: 情報入手" in text for text in turned), turned
    found = sorted(
        {
            f"{audience} #{seq}: {text}"
            for audience, lines in read.items()
            for seq, text in lines
            if KIND_IDS.search(text)
        }
    )
    assert found == [], "\n".join(found[:40])
