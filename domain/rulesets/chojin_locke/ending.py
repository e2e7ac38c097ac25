"""4.2: how the game ends — the ruleset's GameOver, then the lifecycle's end with every secret
revealed (as the lifecycle's own `end` does)."""

from __future__ import annotations

from domain.model.logline import ending_summary
from domain.model.messages import N_
from domain.model.records import Draft
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.turn_events import GameOver

# The lifecycle's end summary for each way the game ends (words.ENDINGS), as recorded: each a
# catalog key, so the 「ゲーム終了: …」 line reads in the reader's language.
SUMMARIES = {
    "victory": ending_summary(N_("超人ロック: 勝利")),
    "sole_victory": ending_summary(N_("超人ロック: 単独勝利")),
    "keys_destroyed": ending_summary(N_("超人ロック: キーがすべて破壊された")),
    "all_dead": ending_summary(N_("超人ロック: 全員死亡")),
    "all_out": ending_summary(N_("超人ロック: 全員脱落")),
    "vigil": ending_summary(N_("超人ロック: 待機の終わり")),
    "host": ending_summary(N_("超人ロック: ホストが終了")),
}


def end_game(t: ChojinTable, over: GameOver) -> list[Draft]:
    return [Draft(over), *t.end(SUMMARIES[over.reason])]
