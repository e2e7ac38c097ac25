"""What each audience may see: a seat its own secrets and everything public; the GM all that is
sealed to anyone; the public only what lies open on the table. Face-down planet cards are
sealed to nobody, so no view holds them."""

from __future__ import annotations

from typing import Any

from domain.audience import GM, seat_number
from domain.game import GameState
from domain.rulesets.chojin_locke.results import results
from domain.rulesets.chojin_locke.state import ChojinState, Player
from domain.rulesets.chojin_locke.stats import current

_STATS = ("esp_level", "esp_power", "endurance", "willpower")


def _public(state: ChojinState, player: Player, ended: bool) -> dict[str, Any]:
    shown = player.sheet_open or ended
    data: dict[str, Any] = {
        "seat": player.seat,
        "silhouette": player.revealed_silhouette,
        "side": player.side,
        "condition": player.condition,
        "position": player.position.model_dump() if player.position else None,
        "cell": player.cell.model_dump() if player.cell else None,
        "outside": player.outside,
        "intrusion_failures": player.intrusion_failures,
        "information": player.info,
        "sheet_open": player.sheet_open,
        "chosen": player.silhouette is not None,
        "ability_cards": len(player.abilities),  # how many, as a hand on the table shows
    }
    if shown and player.sheet is not None:
        data["sheet"] = player.sheet.model_dump(mode="json")
        data["faction"] = player.faction
    return data


def _secret(state: ChojinState, player: Player) -> dict[str, Any]:
    data: dict[str, Any] = {
        "sheet": player.sheet.model_dump(mode="json") if player.sheet else None,
        "playing_card": player.card.model_dump() if player.card else None,
        "silhouette_choice": player.silhouette,
        "refused": player.refused,
        "conversion_flags": list(player.flags),
        "damage": {"endurance": player.endurance_damage, "willpower": player.willpower_damage},
        "ability_cards": list(player.abilities),
        "inspections_left": player.inspections,
        "inspected": {
            str(s): sheet.model_dump(mode="json") for s, sheet in player.inspected.items()
        },
    }
    if player.sheet is not None:
        data["faction"] = player.faction
        data["stats"] = {stat: current(player, stat) for stat in _STATS}
    return data


def view(game: GameState, audience: str) -> dict[str, Any]:
    state: ChojinState = game.rules
    ended = game.status == "ended"
    seat = seat_number(audience)
    me = state.players.get(seat) if seat is not None else None
    base_side = audience == GM or ended or (me is not None and me.side == "base")
    data: dict[str, Any] = {
        "stage": state.stage,
        "deals": state.deals,
        "players": [_public(state, p, ended) for _, p in sorted(state.players.items())],
        "turn": state.turn.model_dump() if state.turn else None,
        "victory": state.victory.model_dump() if state.victory else None,
        "proposal": state.proposal.model_dump() if state.proposal else None,
        "parties": {str(leader): partners for leader, partners in state.parties.items()},
        "board": {
            "face_down": len(state.board.cards),
            "turned": dict(state.board.turned),
            "ambushes": list(state.board.ambushes) if base_side else None,
            "base_face_down": len(state.board.base),
            "base_turned": dict(state.board.base_turned),
            "keys": list(state.board.keys) if base_side else None,
            "keys_destroyed": list(state.board.destroyed),
        },
        # public: Evil victory declarers (their sheets are open) and their unmoved turns
        "vigil": {
            "turns": state.vigil_turns,
            "declarers": {str(s): n for s, n in sorted(state.vigils.items())},
        },
        "ending": state.ending.model_dump() if state.ending else None,
        "results": {str(s): r for s, r in results(state).items()} if ended else None,
    }
    if me is not None:
        data["me"] = _secret(state, me)
    if audience == GM:
        data["secrets"] = {str(s): _secret(state, p) for s, p in sorted(state.players.items())}
    return data
