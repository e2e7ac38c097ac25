"""4.2: each player's result class (A/B win, C/D loss) with the reasons, from the revealed truth."""

from __future__ import annotations

from typing_extensions import TypedDict

from domain.rulesets.chojin_locke.state import ChojinState, Ending, Player

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
    },
)


def _losses(state: ChojinState, ending: Ending, player: Player) -> list[str]:
    assert player.sheet is not None
    faction = player.faction
    reasons: list[str] = []
    if ending.reason == "all_dead":
        return ["every character died"]
    if ending.reason == "victory" and ending.faction != faction and faction in ("G", "E"):
        reasons.append(f"the {ending.faction} victory declaration stood unopposed")
    if ending.reason == "keys_destroyed" and faction == "E":
        reasons.append("every 重要拠点 was destroyed")
    if ending.reason == "vigil" and faction == "G":
        reasons.append(
            f"an Evil victory declarer survived {state.vigil_turns} turns without moving"
        )
    if faction == "S" and not player.alive:
        reasons.append("a Special character that is dead loses")
    in_game = {p.sheet.name: p for p in state.players.values() if p.sheet is not None}
    for condition in player.sheet.defeat:
        other = in_game.get(condition.character)
        if other is None or other.seat == player.seat:
            continue  # 3.1: conditions on characters not in the game, or on yourself, are ignored
        if (condition.when == "alive") == other.alive:
            reasons.append(f"own condition: {condition.character} is {condition.when}")
    if player.sheet.leader:
        leaders = [p for p in in_game.values() if p.sheet and p.sheet.leader and p is not player]
        if any(p.alive for p in leaders):
            reasons.append("another (L) character is alive")
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
            reasons = ["sole victory"] if won else ["another player's sole victory"]
        else:
            reasons = _losses(state, ending, player)
            won = not reasons
        grade = ("A" if player.alive else "B") if won else ("C" if player.alive else "D")
        table[seat] = {
            "character": player.sheet.name,
            "faction": player.faction,
            "alive": player.alive,
            "won": won,
            "class": grade,
            "reasons": reasons or ["no defeat condition met"],
        }
    return table
