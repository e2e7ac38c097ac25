"""Where 回復 cannot be declared. The 2002 rulebook names the cards:
「喫茶店「ダリア」、サイン会場…の上では回復を宣言できない」,
「ブラックホールについては、ホワイトホールが無ければ回復可能」.
A catalog marks them with `no_recovery` or `recovery_blocked_by`. Only face-up cards count:
a refusal must never tell anyone what a face-down card is."""

from __future__ import annotations

from domain.rulesets.chojin_locke.board import key
from domain.rulesets.chojin_locke.cards import SquareCard
from domain.rulesets.chojin_locke.grid import cell_key
from domain.rulesets.chojin_locke.state import ChojinState, Player


def _face_up_under(state: ChojinState, player: Player) -> SquareCard | None:
    if state.stage == "base" and player.cell is not None:
        name = state.board.base_turned.get(cell_key(player.cell))
        return state.catalog.base_card(name) if name is not None else None
    if state.stage == "planet" and player.position is not None:
        name = state.board.turned.get(key(player.position.planet, player.position.square))
        return state.catalog.planet_card(name) if name is not None else None
    return None


def blocked_by(state: ChojinState, player: Player) -> str | None:
    """The face-up card under `player` that forbids 回復 now, if any."""
    card = _face_up_under(state, player)
    if card is None:
        return None
    if card.no_recovery:
        return card.name
    board = state.board
    face_up = set(board.base_turned.values() if state.stage == "base" else board.turned.values())
    if card.recovery_blocked_by is not None and card.recovery_blocked_by in face_up:
        return card.name
    return None
