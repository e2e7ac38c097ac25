"""What the table's pane draws from the view: the squares holding a face-down card — public, as
on the table, never what lies there (ruling CL-036)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    finish_turn,
    new_game,
    setup_to_ambush,
    turn_actor,
    view,
)

VIEWERS = ("public", "gm", *(f"seat:{n}" for n in range(1, 7)))


def test_face_down_squares_as_the_table_sees_them(client: TestClient) -> None:
    """24 cards on 36 squares with six players (L1349): every audience sees the same squares
    with a card; a 待ち伏せ exchanged for one of them changes nothing anyone sees (L740); a
    card turned face up leaves the list and shows by name."""
    table = new_game(client)
    setup_to_ambush(table)
    laid = view(table, "public")["board"]["face_down_squares"]
    assert len(laid) == 24 == view(table, "public")["board"]["face_down"]
    assert len(set(laid)) == 24 and all(p in "012345" and s in "012345" for p, _, s in laid)
    for viewer in VIEWERS:
        assert view(table, viewer)["board"]["face_down_squares"] == laid

    gm = view(table, "gm")
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    for index, square in enumerate(laid[-3:]):  # exchanged for a card already there
        planet, number = (int(n) for n in square.split(":"))
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=number))
    for viewer in VIEWERS:
        board = view(table, viewer)["board"]
        assert board["face_down_squares"] == laid, viewer
        assert (board["ambushes"] is not None) == (viewer == "gm" or viewer[5:] in map(str, bases))

    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]
    planet = next(int(s[0]) for s in laid if s.endswith(":1") and s not in laid[-3:])
    for seat in explorers:
        table.do(f"seat:{seat}", cmd("enter", planet=planet))
    table.do("gm", cmd("begin_planets"))
    finish_turn(table, turn_actor(table), cmd("move", direction="right"))
    board = view(table, "public")["board"]
    turned = f"{planet}:1"
    assert turned not in board["face_down_squares"]
    assert board["face_down_squares"] == [s for s in laid if s != turned]
    assert board["face_down"] == 23
    # 情報入手 is taken by the explorer; any other card lies face up by name
    players = view(table, "public")["players"]
    assert turned in board["turned"] or sum(p["information"] for p in players) == 1
