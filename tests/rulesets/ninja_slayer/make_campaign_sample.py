"""Write samples/ninja-slayer-campaign.jsonl: two scenarios of a campaign in one game.

Run: .venv/bin/python -m tests.rulesets.ninja_slayer.make_campaign_sample
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.samples import SAMPLES, write_sample
from tests.table import Table

from .campaign_script import SATSUBATSU, Campaign

SAMPLE = SAMPLES / "ninja-slayer-campaign.jsonl"


def play(client: TestClient) -> Table:
    table = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        title="ニンジャスレイヤー: キャンペーン (シナリオ1–2)",
        options={"dice_policy": "both"},
        ruleset_options={"tables": {"satsubatsu": SATSUBATSU}},
    )
    Campaign(table).run()
    table.do("gm", {"type": "end", "summary": "シナリオ2 余暇: Akiの頭部は治療済み"})
    return table


def main() -> None:
    write_sample(SAMPLE, play)


if __name__ == "__main__":
    main()
