"""4.2: each player's result class (A/B win, C/D loss) with the reasons, from the revealed truth.

A reason is said in the rulebook's words (4.2, lines 491–516: 「反対の声が無かった」, 「重要拠点が
全て破壊された」, 「自分の固有の敗北条件を満たしている」…): `reasons` holds them in Japanese, and
`reason_keys` each one's catalog key and arguments (api/pages/i18n/), for a page in another
language to say it in its own words, as a lifecycle line's `msg` and `args` do."""

from __future__ import annotations

from typing_extensions import TypedDict

from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.state import ChojinState, Ending, Player


class ReasonKey(TypedDict):
    msg: str
    args: dict[str, str]


UNOPPOSED = N_("({faction})の勝利宣言に反対の声が無かった")
VIGIL = N_("(E)の勝利宣言を行ったキャラクターが{turns}ターン生存し、その間1度も移動しなかった")
OWN_ALIVE = N_("固有の敗北条件: {character}が生きている")
OWN_DEAD = N_("固有の敗北条件: {character}が死亡している")
SOLE = N_("単独勝利")
OTHERS_SOLE = N_("他のプレイヤーの単独勝利")


# one row of the results table; "class" is the rules' word (A/B win, C/D loss)
Result = TypedDict(
    "Result",
    {
        "character": str,
        "faction": str,
        "alive": bool,
        "won": bool,
        "class": str,
        "reasons": list[str],
        "reason_keys": list[ReasonKey],
    },
)


def _losses(state: ChojinState, ending: Ending, player: Player) -> list[Message]:
    assert player.sheet is not None
    faction = player.faction
    reasons: list[Message] = []
    if ending.reason == "all_dead":
        return [Message(N_("全てのキャラクターが死亡した"))]
    if ending.reason == "victory" and ending.faction != faction and faction in ("G", "E"):
        reasons.append(Message(UNOPPOSED, {"faction": ending.faction}))
    if ending.reason == "keys_destroyed" and faction == "E":
        reasons.append(Message(N_("基地カード「重要拠点」が全て破壊された")))
    if ending.reason == "vigil" and faction == "G":
        reasons.append(Message(VIGIL, {"turns": state.vigil_turns}))
    if faction == "S" and not player.alive:
        reasons.append(Message(N_("(S)キャラクターが死亡している")))
    in_game = {p.sheet.name: p for p in state.players.values() if p.sheet is not None}
    for condition in player.sheet.defeat:
        other = in_game.get(condition.character)
        if other is None or other.seat == player.seat:
            continue  # 3.1: conditions on characters not in the game, or on yourself, are ignored
        if (condition.when == "alive") == other.alive:
            named = {"character": condition.character}
            alive = condition.when == "alive"
            reasons.append(Message(OWN_ALIVE, named) if alive else Message(OWN_DEAD, named))
    if player.sheet.leader:
        leaders = [p for p in in_game.values() if p.sheet and p.sheet.leader and p is not player]
        if any(p.alive for p in leaders):
            reasons.append(Message(N_("自分以外の(L)キャラクターが生きている")))
    return reasons


def results(state: ChojinState) -> dict[int, Result]:
    ending = state.ending
    if ending is None:
        return {}
    table: dict[int, Result] = {}
    for seat, player in sorted(state.players.items()):
        if player.sheet is None:
            continue
        if ending.reason == "sole_victory":
            won = seat == ending.seat
            reasons = [Message(SOLE) if won else Message(OTHERS_SOLE)]
        else:
            reasons = _losses(state, ending, player)
            won = not reasons
        grade = ("A" if player.alive else "B") if won else ("C" if player.alive else "D")
        reasons = reasons or [Message(N_("敗北条件を満たしていない"))]
        table[seat] = {
            "character": player.sheet.name,
            "faction": player.faction,
            "alive": player.alive,
            "won": won,
            "class": grade,
            "reasons": [str(reason) for reason in reasons],
            "reason_keys": [
                {"msg": r.key, "args": {k: str(v) for k, v in r.params.items()}} for r in reasons
            ],
        }
    return table
