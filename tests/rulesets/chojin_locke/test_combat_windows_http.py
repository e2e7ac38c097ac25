"""Rulings CL-088–CL-092 over HTTP in real combats (start_combat, the flow's turns, the server's
dice):
a target's [対抗(攻撃)] abilities before its answer, a [死亡時] window holding the combat, and a
leaver that declared 手下, left with its hand over the next combat's limit, used a [支援]
ability after the combat and started one — discarding down at the round end it begins with.
Every refusal appends nothing; an ability never used, a card never played, reaches no other
seat. Outcomes do not depend on the dice: every C-card is LV 1 (attack, defence or escape),
every character has ESP 2+, and the damage table deals 9 whatever the column."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import (
    LOOP_BOUND,
    cmd,
    marked_catalog,
    seen,
    teleporters,
    view,
)
from tests.table import Table

VIEWERS = ("public", *(f"seat:{n}" for n in range(1, 7)))


def _catalog() -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    """Each character: a [対抗(攻撃)][防御] LV 1 wall, a [対抗(攻撃)] 気合, a [死亡時] 断末魔, a
    [戦闘][支援] 援護 and [手下:2] 近衛 — every name a unique marker (by sheet name)."""
    data, _ = marked_catalog()
    marks: dict[str, dict[str, str]] = {}
    for character in data["characters"]:
        mark = {
            key: f"{key}-{uuid.uuid4().hex[:12]}"
            for key in ("wall", "grit", "curse", "assist", "guard")
        }
        mark["wall"] += "LV:1"
        marks[character["name"]] = mark
        character["abilities"] = [
            {"name": mark["wall"], "tags": ["戦闘", "対抗(攻撃)", "防御"]},
            {"name": mark["grit"], "tags": ["戦闘", "対抗(攻撃)"]},
            {"name": mark["curse"], "tags": ["死亡時"]},
            {"name": mark["assist"], "tags": ["戦闘", "支援"]},
            {"name": mark["guard"], "tags": ["戦闘前", "手下:2"]},
        ]
    data["combat_cards"] = [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1,
            "kinds": ["攻撃", "防御", "逃避"],
            "firepower": 4,
            "sync": True,
        }
        for _ in range(60)
    ]
    data["damage_table"] = {
        "columns": ["1:2以下", "1:1", "2:1", "3:1", "4:1以上"],
        "rows": [{"total": n, "damage": [9] * 5} for n in range(2, 13)],
    }
    return teleporters(data, 2), marks


def _three(client: TestClient) -> tuple[Table, list[int], dict[int, dict[str, str]]]:
    catalog, marks = _catalog()
    table, fighters = three_on_a_square(client, catalog=catalog)
    mine = {}
    for seat in fighters:
        sheet = view(table, f"seat:{seat}")["me"]["sheet"]["name"]
        mine[seat] = marks[sheet]
    return table, fighters, mine


def _refused(table: Table, actor: str, body: dict[str, Any], code: str) -> dict[str, Any]:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code == 409 and response.json()["code"] == code, response.text
    assert table.log_bytes() == before
    answer: dict[str, Any] = response.json()
    return answer


def _not_seen(table: Table, secrets: set[str], owner: str) -> None:
    for viewer in VIEWERS:
        if viewer == owner:
            continue
        data = seen(table, viewer)
        for secret in secrets:
            assert secret.encode() not in data, (viewer, secret)


def _to_main(table: Table) -> str:
    actor = current_actor(table)
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    return actor


def test_counter_abilities_and_a_death_window_in_a_real_combat(client: TestClient) -> None:
    table, fighters, marks = _three(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    a = _to_main(table)
    b, c = (f"seat:{n}" for n in combat(table)["order"][1:])
    sa, sb, sc = (int(x[5:]) for x in (a, b, c))
    table.do(a, cmd("play_card", card=hand(table, sa)[0], kind="攻撃", target=sb, esp_level=1))
    # 同調 first: the attack has not reached its target yet
    assert combat(table)["attack"]["awaiting"] == "sync"
    _refused(table, b, cmd("counter_ability", ability=marks[sb]["grit"]), "no_attack_on_you")
    table.do(c, cmd("no_sync"))
    # only the target, and only with what its sheet holds (the refusal names its own, to it)
    _refused(table, c, cmd("counter_ability", ability=marks[sc]["grit"]), "no_attack_on_you")
    answer = _refused(table, b, cmd("counter_ability", ability="時間停止"), "no_such_ability")
    assert marks[sb]["grit"] in answer["detail"]
    _refused(table, b, cmd("counter_ability", ability=marks[sb]["curse"]), "wrong_timing")
    _refused(
        table,
        b,
        cmd("counter_ability", ability=marks[sb]["grit"], avoid="blocked"),
        "cannot_avoid",
    )
    _not_seen(table, set(marks[sb].values()), b)
    used = table.do(b, cmd("counter_ability", ability=marks[sb]["grit"], effect="火力-1"))
    (event,) = used["events"]
    assert event["type"] == "chojin_locke.CounterAbilityUsed"
    assert (event["public"]["ability"], event["public"]["effect"]) == (marks[sb]["grit"], "火力-1")
    assert combat(table, "public")["attack"]["counters"] == [marks[sb]["grit"]]
    # respond goes on as before: no card, a hit; the damage (9) kills at any declaration
    table.do(b, cmd("respond"))
    died = table.do(b, cmd("declare_endurance", endurance=1))["events"]
    assert [e["type"] for e in died][-2:] == [
        "chojin_locke.FighterDied",
        "chojin_locke.DeathWindowOpened",
    ]
    assert combat(table, "public")["dying"] == {str(sb): []}
    _refused(table, a, cmd("combat_next"), "death_pending")
    _refused(table, c, cmd("death_ability"), "no_death_window")
    words = table.do(b, cmd("death_ability", ability=marks[sb]["curse"], effect="席の皆に1"))
    assert words["events"][0]["public"]["ability"] == marks[sb]["curse"]
    _refused(table, b, cmd("death_ability", ability=marks[sb]["curse"]), "used_at_this_death")
    table.do(b, cmd("death_ability"))
    assert combat(table, "public")["dying"] == {}
    # the attacker's turn goes on; the next fighter's attack on it is blocked by its wall
    table.do(a, cmd("combat_next"))
    table.do(a, cmd("combat_next"))
    assert _to_main(table) == c
    table.do(c, cmd("play_card", card=hand(table, sc)[0], kind="攻撃", target=sa, esp_level=1))
    blocked = table.do(a, cmd("counter_ability", ability=marks[sa]["wall"], avoid="blocked"))
    landed = blocked["events"][-1]
    assert landed["type"] == "chojin_locke.AttackLanded"
    assert (landed["public"]["outcome"], landed["public"]["by"]) == ("blocked", marks[sa]["wall"])
    assert combat(table)["attack"] is None
    unused = {marks[sa]["grit"], marks[sa]["curse"], marks[sc]["wall"], marks[sc]["curse"]}
    for seat, secrets in ((a, unused & set(marks[sa].values())), (c, {marks[sc]["wall"]})):
        _not_seen(table, secrets, seat)
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True


def test_a_leaver_with_minions_discards_down_before_its_new_combat(client: TestClient) -> None:
    table, fighters, marks = _three(client)
    starter = to_combat_phase(table, fighters)
    leavers = [f"seat:{n}" for n in fighters if f"seat:{n}" != starter]
    table.do(starter, cmd("start_combat"))
    table.do(starter, cmd("combat_next"))  # → コマ移動
    table.do(starter, cmd("combat_next"))  # → 戦闘前
    for leaver in leavers:
        table.do(leaver, cmd("declare_minions", count=2))  # hand limit 9 in this combat
    table.do(starter, cmd("combat_next"))  # hands, initiative, the first turn
    for leaver in leavers:
        assert len(hand(table, int(leaver[5:]))) == 9
    for _ in range(3):
        actor = current_actor(table)
        table.do(actor, cmd("combat_next"))  # → 支援フェイズ1
        if actor == starter:  # ruling CL-093: a [支援] ability in its combat turn
            assist = marks[int(actor[5:])]["assist"]
            used = table.do(actor, cmd("use_ability", ability=assist))["events"][0]
            assert used["public"]["ability"] == assist
            _refused(table, actor, cmd("use_ability", ability=assist), "used_this_turn")
        table.do(actor, cmd("combat_next"))  # → 主要
        if actor in leavers:
            card = hand(table, int(actor[5:]))[0]
            table.do(actor, cmd("play_card", card=card, kind="逃避", esp_level=1))
            table.do(actor, cmd("escape_to", square=3))  # planet 0 (no 待ち伏せ there)
        else:
            table.do(actor, cmd("combat_pass"))
        table.do(actor, cmd("combat_next"))
        table.do(actor, cmd("combat_next"))
    assert view(table, "gm")["combat"] is None  # no attack: over
    queue = view(table, "public")["aftermath"]["queue"]
    assert sorted(queue) == sorted(int(x[5:]) for x in leavers)
    first = f"seat:{queue[0]}"
    kept = hand(table, queue[0])
    assert len(kept) == 8
    table.do(first, cmd("aftermath_next"))  # → 支援フェイズ
    assist = marks[queue[0]]["assist"]
    used = table.do(first, cmd("use_ability", ability=assist))["events"][0]
    assert used["type"] == "chojin_locke.AbilityUsed" and used["public"]["ability"] == assist
    _refused(table, first, cmd("use_ability", ability=assist), "used_this_turn")
    _refused(table, first, cmd("use_ability", ability=marks[queue[0]]["grit"]), "not_support")
    table.do(first, cmd("aftermath_next"))  # → 戦闘発生
    started = table.do(first, cmd("start_combat"))["events"]
    ending = started[-1]
    assert ending["type"] == "chojin_locke.CarriedRoundEnd"
    assert (ending["public"]["hand"], ending["public"]["waiting"]) == (8, True)
    fight = combat(table, "public")
    assert fight["step"] == "round_end" and fight["discarding"] == [queue[0]]
    _refused(table, first, cmd("discard_down", cards=[]), "wrong_count")
    _refused(table, first, cmd("combat_next"), "round_end_pending")
    thrown = kept[:2]
    table.do(first, cmd("discard_down", cards=thrown))
    fight = combat(table, "public")
    assert fight["step"] == "joining" and fight["discarding"] == []
    now = hand(table, queue[0])
    assert len(now) == 7 and set(kept[2:]) <= set(now)
    # which cards it kept and threw stays its own (the card it drew may have been the other
    # leaver's before that one was reset)
    _not_seen(table, set(kept), first)
    for _ in range(LOOP_BOUND):
        if view(table, "gm")["combat"]["step"] == "turns":
            break
        table.do(first, cmd("combat_next"))
    else:
        raise AssertionError("the new combat never reached its turns")
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True
