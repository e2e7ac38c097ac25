"""The rulebook's own words that events and sheets carry as text, which a log line reads as
terms (in the reader's language, api/pages/i18n/en.po), apart from names someone typed."""

from __future__ import annotations

from domain.model.messages import N_

# The rulebook's words an event or a sheet carries as text (a condition, a status, an action,
# a move, a frequency, the game's default defences and abilities, the standard actions, the
# basic attacks): a line reads each as a term. Anything else is a name someone typed.
RULEBOOK_WORDS: dict[str, str] = {
    word: word
    for word in (
        # conditions (L356–397) and statuses (L430–464)
        N_("伏せ"),
        N_("減速"),
        N_("動けない"),
        N_("盲目"),
        N_("幻惑"),
        N_("朦朧"),
        N_("支配"),
        N_("無防備"),
        N_("不可視"),
        N_("戦闘不能"),
        N_("修理不能"),
        N_("爆散"),
        # actions (L112–208)
        N_("標準"),
        N_("移動"),
        N_("マイナー"),
        N_("フリー"),
        N_("機会"),
        N_("即応・割込"),
        N_("即応・対応"),
        N_("アクション不要"),
        # moves (L99–111, L361–375) and forced moves (L402–410)
        N_("通常移動"),
        N_("シフト"),
        N_("這い進み"),
        N_("瞬間移動"),
        N_("飛行移動"),
        N_("立ち上がる"),
        N_("伏せる"),
        N_("押しやる"),
        N_("引き寄せる"),
        N_("横滑り"),
        # frequencies
        N_("無限回"),
        N_("遭遇毎"),
        N_("1日毎"),
        # the game's default defences and the abilities every sheet has
        N_("AC"),
        N_("頑健"),
        N_("反応"),
        N_("意志"),
        N_("出力"),
        N_("敏捷力"),
        # the standard actions (L60–90, L395–397)
        N_("近接基礎攻撃"),
        N_("遠隔基礎攻撃"),
        N_("突撃"),
        N_("防御専念"),
        N_("とどめの一撃"),
    )
}


def term(text: str) -> str:
    """`text` as a line's argument: the rulebook's own word a term (read in the reader's
    language), a name someone typed as it is."""
    return RULEBOOK_WORDS.get(text, text)
