"""Hypothesis: random 戦闘参加 / 戦闘前 commands from random actors — naming their own [戦闘前]
abilities or another seat's — never show one seat's ability to another seat or the public,
and every refusal appends nothing. Each sheet's abilities are unique marker names (one with
[手下:2], one plain [戦闘前]), so a marker in any byte an audience receives was shown to it;
refusals' bodies count as received too."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rulesets.chojin_locke.combat_table import (
    combat_catalog,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import (
    cmd,
    me,
    seen,
)
from tests.table import Table

SEATS = tuple(f"seat:{n}" for n in range(1, 7))
VIEWERS = ("public", *SEATS)

actors = st.sampled_from([*SEATS, "gm"])
# (seat whose ability is named, which of its two): resolved when the step runs
named = st.tuples(st.integers(1, 6), st.integers(0, 1))
dice = st.lists(st.integers(1, 6), min_size=2, max_size=2)
step = st.one_of(
    st.just(("combat_next", None)),
    st.builds(lambda f: ("there", f), dice),
    st.builds(lambda f: ("alive", f), dice),
    st.builds(lambda yes: ("answer", yes), st.booleans()),
    st.just(("joined", None)),
    st.one_of(st.none(), named).map(lambda n: ("mystery", n)),
    st.tuples(st.integers(1, 3), st.one_of(st.none(), named)).map(lambda c: ("minions", c)),
    named.map(lambda n: ("before", n)),
)


def _game(client: TestClient) -> tuple[Table, list[int]]:
    data: dict[str, Any] = combat_catalog()
    for character in data["characters"]:
        character["abilities"] = [
            {"name": f"MINION-{uuid.uuid4().hex}", "tags": ["戦闘前", "手下:2"]},
            {"name": f"BEFORE-{uuid.uuid4().hex}", "tags": ["戦闘前"]},
        ]
    return three_on_a_square(client, catalog=data, options={"dice_policy": "both"})


def _body(markers: dict[int, list[str]], raw: tuple[str, Any], n: int) -> dict[str, Any]:
    name, arg = raw

    def ability(pick: tuple[int, int] | None) -> str | None:
        return None if pick is None else markers[pick[0]][pick[1]]

    if name == "combat_next":
        return cmd("combat_next")
    if name in ("there", "alive"):
        return cmd("join_check", check=name, faces=arg, remnant_faces=[3, 4])
    if name == "answer":
        return cmd("answer_join", consents=arg, faces=[5, 5])
    if name == "joined":
        return cmd("join_check", check="joined", person=f"見物人{n}")
    if name == "mystery":
        chosen = ability(arg)
        return cmd("mystery_ability", faces=[4], **({"ability": chosen} if chosen else {}))
    if name == "minions":
        count, pick = arg
        chosen = ability(pick)
        return cmd("declare_minions", count=count, **({"ability": chosen} if chosen else {}))
    return cmd("before_ability", ability=ability(arg), effect="")


def _last_seq(table: Table) -> int:
    response = table.client.get(f"/games/{table.game_id}/events", headers=table.auth("gm"))
    last: int = response.json()["last_seq"]
    return last


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    advance=st.sampled_from([0, 1, 2, 2]),
    steps=st.lists(st.tuples(actors, step), min_size=8, max_size=25),
)
def test_random_joining_and_before_commands_never_leak_an_ability(
    client: TestClient, advance: int, steps: list[tuple[str, tuple[str, Any]]]
) -> None:
    table, fighters = _game(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    for _ in range(advance):  # start in 戦闘参加, コマ移動 or 戦闘前
        table.do(starter, cmd("combat_next"))
    markers = {
        n: [a["name"] for a in me(table, f"seat:{n}")["sheet"]["abilities"]] for n in range(1, 7)
    }
    received: dict[str, bytes] = {v: b"" for v in VIEWERS}
    for index, (actor, raw) in enumerate(steps):
        before = _last_seq(table)
        response = table.send(actor, _body(markers, raw, index))
        if actor in received:
            received[actor] += response.content
        if response.status_code != 201:
            assert _last_seq(table) == before, response.text
    for viewer in VIEWERS:
        data = received[viewer] + seen(table, viewer)
        for owner, names in markers.items():
            for name in names:
                assert (name.encode() in data) == (viewer == f"seat:{owner}"), (viewer, owner)
