"""No seat (nor a spectator) ever receives an NPC's defence or hp before its reveal.

The scripted encounter is played twice, with NPC sheets that differ only in sealed numbers
(every defence, max hp and attack bonus; sheets.py). Every byte the seats and the public
receive — command responses, refusals (error bodies), views and events after each step — must
be the same in both games once ids, hashes and timestamps are set aside: whatever reached them
did not depend on those numbers. A marker on the boss's sealed sheet (a power it never uses)
never shows either, until the GM reveals the sheet.
"""

from __future__ import annotations

import difflib
import re

from fastapi.testclient import TestClient

from .script import AUDIENCES, Script
from .sheets import SECRET_POWER, boss
from .test_scripted_encounter import new_script

_HASH = re.compile(rb"[0-9a-f]{64}")
_UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(rb"\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d)")


def normalised(body: bytes) -> bytes:
    """A response with what differs between any two games (ids, hashes, times) blanked."""
    return _TIME.sub(b"T", _UUID.sub(b"G", _HASH.sub(b"H", body)))


def played(client: TestClient, variant: int) -> Script:
    script = new_script(client, variant=variant, watch=True)
    script.run()
    return script


def test_seats_receive_nothing_that_depends_on_an_npcs_sealed_numbers(client: TestClient) -> None:
    first, second = played(client, 0), played(client, 1)
    assert [(a, w) for a, w, _ in first.seen] == [(a, w) for a, w, _ in second.seen]
    assert {a for a, _, _ in first.seen} == set(AUDIENCES)
    for (audience, what, one), (_, _, other) in zip(first.seen, second.seen, strict=True):
        if normalised(one) != normalised(other):
            diff = difflib.unified_diff(
                normalised(one).decode().split(","), normalised(other).decode().split(","), n=2
            )
            raise AssertionError(f"{audience} after {what}:\n" + "\n".join(diff))
    # The two games do differ, for the GM: the test compares what could have leaked.
    gm_views = [first.rules("gm")["units"]["boss"], second.rules("gm")["units"]["boss"]]
    assert gm_views[0]["hp"] != gm_views[1]["hp"]
    assert gm_views[0]["sheet"]["defences"] != gm_views[1]["sheet"]["defences"]
    sealed_sheet_stays_sealed_until_revealed(first)


def sealed_sheet_stays_sealed_until_revealed(script: Script) -> None:
    """The boss's sealed JSON (its defences by name, max hp, an unused power) is in no seat's
    bytes, and is in the GM's; after the GM's reveal, everyone reads it."""
    sealed = boss(0)
    fragments = [SECRET_POWER.encode()] + [
        f'"{name}":{value}'.encode() for name, value in sealed["defences"].items()
    ]
    fragments.append(f'"max_hp":{sealed["max_hp"]}'.encode())
    for audience, what, body in script.seen:
        for fragment in fragments:
            assert fragment not in body, (audience, what, fragment)
    gm = script.t.client.get(f"/games/{script.t.game_id}/view", headers=script.t.auth("gm"))
    assert SECRET_POWER.encode() in gm.content
    assert all(fragment in gm.content for fragment in fragments)

    script.t.do("gm", {"type": "reveal", "seq": script.boss_seq})
    for audience in AUDIENCES:
        view = script.rules(audience)["units"]["boss"]
        assert view["sheet"]["defences"] == sealed["defences"]
        assert view["hp"] == 60
