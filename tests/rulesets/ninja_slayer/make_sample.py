"""Write samples/ninja-slayer-combat.jsonl: the scripted combat, ended and exported.

Run: .venv/bin/python -m tests.rulesets.ninja_slayer.make_sample
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.samples import SAMPLES, write_sample
from tests.table import Table

from .script import Script

SAMPLE = SAMPLES / "ninja-slayer-combat.jsonl"


def play(client: TestClient) -> Table:
    table = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        title="ニンジャスレイヤー: ブラックマンバ戦",
        options={"dice_policy": "both"},
    )
    Script(table).run()
    table.do("gm", {"type": "end", "summary": "ブラックマンバ 爆発四散"})
    return table


def main() -> None:
    write_sample(SAMPLE, play)


if __name__ == "__main__":
    main()
