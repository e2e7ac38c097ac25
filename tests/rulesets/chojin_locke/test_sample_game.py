"""A scripted 6-player game through the HTTP API: setup, 惑星編 (with a combat: an attack, its
answer and the damage roll) until 情報入手 ends it, 秘密基地編
with a victory declaration that meets an objection, and the end by destroying every 重要拠点.
Every seat's view is checked at several points; then the results, the audit and /verify."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.catalog import sample
from tests.rulesets.chojin_locke.table import (
    ambush_squares,
    cmd,
    finish_turn,
    info_catalog,
    me,
    new_game,
    seats,
    setup_to_ambush,
    turn_actor,
    view,
)
from tests.table import Table

KEYS = [(0, 0), (0, 1), (0, 2), (0, 3)]


def sheets_seen(table: Table) -> dict[str, set[str]]:
    """Which characters' sheets each audience's view holds."""
    names = {a: me(table, a)["sheet"]["name"] for a in seats(table)}
    seen: dict[str, set[str]] = {}
    for viewer in ("public", "gm", *seats(table)):
        rules = view(table, viewer)
        text = str({k: v for k, v in rules.items()})
        seen[viewer] = {owner for owner, name in names.items() if f"'name': '{name}'" in text}
    return seen


def assert_only_own_sheets(table: Table) -> None:
    opened = {f"seat:{p['seat']}" for p in view(table, "public")["players"] if p["sheet_open"]}
    seen = sheets_seen(table)
    assert seen["public"] == opened
    assert seen["gm"] == set(seats(table))
    for actor in seats(table):
        assert seen[actor] == opened | {actor}, actor


def declare_check(table: Table, actor: str, declarations: list[tuple[str, int, int]]) -> None:
    """A willpower check declared one below the truth where the truth allows (1 at least)."""
    truth = me(table, actor)["stats"]["willpower"]
    declared = max(truth - 1, 1)
    table.do(actor, cmd("check", stat="willpower", declared=declared, reason="sample"))
    declarations.append((actor, declared, truth))


def _beside(table: Table, actor: str) -> bool:
    """Another living character on the turn player's square."""
    players = view(table, "gm")["players"]
    mine = next(p for p in players if f"seat:{p['seat']}" == actor)
    return any(
        p["seat"] != mine["seat"]
        and p["condition"] not in ("dead", "black_hole")
        and p["position"] is not None
        and p["position"] == mine["position"]
        for p in players
    )


def _weakest_attack(table: Table, actor: str) -> tuple[str, int, int | None] | None:
    """An attack card in `actor`'s hand: the lowest firepower its true ESP level activates
    outright, else the lowest LV with willpower checks at the true willpower; with the ESP
    level (and willpower) to declare."""
    stats = me(table, actor)["stats"]
    level = stats["esp_level"]
    catalog = sample()
    cards = [
        card
        for name in me(table, actor)["combat_hand"]
        if (card := catalog.combat_card(name)) is not None and "攻撃" in card.kinds
    ]
    outright = sorted((c.firepower, c.name) for c in cards if c.lv <= level)
    if outright:
        return outright[0][1], level, None
    checked = sorted((c.lv, c.firepower, c.name) for c in cards)
    return (checked[0][2], level, stats["willpower"]) if checked else None


def sample_combat(table: Table, starter: str, declarations: list[tuple[str, int, int]]) -> None:
    """5.1–5.4: a combat on the turn player's square: one attack, answered without a card, the
    target declaring its full endurance for the damage roll; the others pass; nobody goes on."""
    table.do(starter, cmd("start_combat"))
    while view(table, "gm")["combat"]["step"] in ("joining", "moving", "before"):
        table.do(starter, cmd("combat_next"))
    for seat in (f["id"] for f in view(table, "gm")["combat"]["fighters"]):
        assert len(me(table, f"seat:{seat}")["combat_hand"]) == 7
    attacked = False
    while (fight := view(table, "gm")["combat"]) is not None and fight["step"] == "turns":
        actor = f"seat:{fight['current']}"
        if fight["phase"] != "main" or fight["main_done"]:
            table.do(actor, cmd("combat_next"))
            continue
        chosen = None if attacked else _weakest_attack(table, actor)
        if chosen is None:
            table.do(actor, cmd("combat_pass"))
            continue
        card, level, willpower = chosen
        target = next(f["id"] for f in fight["fighters"] if f"seat:{f['id']}" != actor)
        body = cmd("play_card", card=card, kind="攻撃", target=target, esp_level=level)
        table.do(actor, body if willpower is None else {**body, "willpower": willpower})
        declarations.append((actor, level, level))
        if willpower is not None:
            declarations.append((actor, willpower, willpower))
        attacked = True
        attack = view(table, "gm")["combat"]["attack"]
        if attack is not None and attack["awaiting"] == "sync":
            for seat in attack["sync_waiting"]:  # 5.5: nobody joins
                table.do(f"seat:{seat}", cmd("no_sync"))
            attack = view(table, "gm")["combat"]["attack"]
        if attack is not None and attack["awaiting"] == "response":
            table.do(f"seat:{target}", cmd("respond"))
            endurance = me(table, f"seat:{target}")["stats"]["endurance"]
            table.do(f"seat:{target}", cmd("declare_endurance", endurance=endurance))
            declarations.append((f"seat:{target}", endurance, endurance))
            for dead in view(table, "gm")["combat"]["dying"]:  # ruling CL-090: none is used
                table.do(f"seat:{dead}", cmd("death_ability"))
    assert attacked
    while (fight := view(table, "gm")["combat"]) is not None:
        asked = [f for f in fight["fighters"] if str(f["id"]) not in fight["continuing"]]
        table.do(f"seat:{asked[0]['id']}", cmd("continue_combat", go_on=False))
    ended = [e for e in table.events("public") if e["type"] == "chojin_locke.CombatEnded"]
    assert ended[-1]["public"]["reason"] in ("nobody_continues", "one_left")


def planet_stage(table: Table, declarations: list[tuple[str, int, int]]) -> None:
    fought = False
    for _ in range(60):
        if view(table, "gm")["stage"] != "planet":
            assert fought
            return
        actor = turn_actor(table)
        if len(declarations) < 6:
            declare_check(table, actor, declarations)
        if not fought and _beside(table, actor):
            # 4.3 戦闘発生: a パス, then a combat with whoever shares the square
            turn = view(table, "gm")["turn"]
            while turn["phase"] != "combat":
                if turn["phase"] == "main" and turn["main"] is None:
                    table.do(actor, cmd("pass"))
                table.do(actor, cmd("next_phase"))
                turn = view(table, "gm")["turn"]
            sample_combat(table, actor, declarations)
            fought = True
            continue
        finish_turn(table, actor, cmd("move", direction="right"))
    raise AssertionError("惑星編 did not end")


def base_turn(table: Table, declarations: list[tuple[str, int, int]]) -> None:
    actor = turn_actor(table)
    player = next(p for p in view(table, "gm")["players"] if f"seat:{p['seat']}" == actor)
    main: dict[str, Any] | None = None
    if player["outside"]:
        level = me(table, actor)["stats"]["esp_level"]
        main = cmd("intrude", declared=level, row=5, col=5)
        declarations.append((actor, level, level))
    elif player["side"] == "explorer" and player["cell"] and player["cell"]["row"] == 0:
        main = cmd("move", direction="right") if player["cell"]["col"] < 3 else None
    finish_turn(table, actor, main)


def test_sample_game(client: TestClient, service: GameService) -> None:
    play_sample_game(client, service)


def play_sample_game(client: TestClient, service: GameService) -> Table:
    """The scripted game, asserting as it goes; also what samples/chojin-locke-6p.jsonl is."""
    table = new_game(client, ruleset_options={"catalog": info_catalog()})
    declarations: list[tuple[str, int, int]] = []

    # ---- setup: a deal, one 拒否 and its redeal, the playing cards, silhouettes
    table.do("gm", cmd("deal"))
    assert_only_own_sheets(table)
    table.do("seat:3", cmd("refuse"))
    assert view(table, "public")["deals"] == 2
    assert_only_own_sheets(table)
    setup_to_ambush(table, dealt=True)
    assert_only_own_sheets(table)
    gm = view(table, "gm")
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]

    # ---- 惑星編: base players hide 待ち伏せ; explorers start on different planets
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=square))
    for actor in seats(table):
        ambushes = view(table, actor)["board"]["ambushes"]
        assert (ambushes is not None) == (int(actor[5:]) in bases), actor
    assert view(table, "public")["board"]["ambushes"] is None
    for index, seat in enumerate(explorers):  # the first two share planet 0's spaceport
        table.do(f"seat:{seat}", cmd("enter", planet=max(index - 1, 0)))
    table.do("gm", cmd("begin_planets"))
    planet_stage(table, declarations)
    assert view(table, "gm")["stage"] == "keys"
    assert max(p["information"] for p in view(table, "public")["players"]) >= 3
    assert_only_own_sheets(table)

    # ---- 秘密基地編: 重要拠点 placed in secret, the best-informed explorers enter
    for index, (row, col) in enumerate(KEYS):
        table.do(f"seat:{bases[index % len(bases)]}", cmd("place_key", row=row, col=col))
    for actor in seats(table):
        keys = view(table, actor)["board"]["keys"]
        assert (keys is not None) == (int(actor[5:]) in bases), actor
    # the combat may have killed someone: the living explorers go on
    living = [p for p in view(table, "gm")["players"] if p["condition"] != "dead"]
    most = max(p["information"] for p in living if p["side"] == "explorer")
    entrants = [p["seat"] for p in living if p["side"] == "explorer" and p["information"] == most]
    order = view(table, "public")["entry_order"]  # 4.6 l.793
    assert sorted(order) == entrants
    for seat in order:
        table.do(f"seat:{seat}", cmd("enter_base", row=0, col=0))
    table.do("gm", cmd("begin_base"))
    assert view(table, "gm")["stage"] == "base"
    outside = {p["seat"] for p in view(table, "public")["players"] if p["outside"]}
    assert outside == {p["seat"] for p in living if p["side"] == "explorer"} - set(entrants)

    # a victory declaration in 秘密基地編 meets an objection and the game goes on
    declared_victory = False
    for _ in range(200):
        gm = view(table, "gm")
        if gm["stage"] == "over":
            break
        actor = turn_actor(table)
        if not declared_victory and me(table, actor)["faction"] in ("G", "E"):
            player = next(p for p in gm["players"] if f"seat:{p['seat']}" == actor)
            if gm["turn"]["phase"] == "check" and not player["outside"]:
                table.do(actor, cmd("next_phase"))
                if view(table, "gm")["turn"]["phase"] == "support1":
                    table.do(actor, cmd("declare_victory"))
                    waiting = view(table, "public")["victory"]["waiting"]
                    table.do(f"seat:{waiting[0]}", cmd("answer_victory", objects=True))
                    assert view(table, "public")["victory"] is None
                    declared_victory = True
        base_turn(table, declarations)
    assert declared_victory

    # ---- the end: every 重要拠点 destroyed; sheets revealed; results; audit; verification
    public = view(table, "public")
    assert public["ending"]["reason"] == "keys_destroyed"
    assert sorted(public["board"]["keys_destroyed"]) == sorted(f"{r}:{c}" for r, c in KEYS)
    results = public["results"]
    for player in public["players"]:
        result = results[str(player["seat"])]
        if player["faction"] == "E":
            assert (
                not result["won"] and "基地カード「重要拠点」が全て破壊された" in result["reasons"]
            )
        assert result["class"] in ("A", "B", "C", "D")
    assert all(p["sheet"] for p in public["players"])

    history = list(service.records(table.game_id))
    checks = CHOJIN_LOCKE.audit_declarations(history)
    assert [(c.actor, c.declared, c.truth) for c in checks] == declarations
    for check, (_actor, declared, truth) in zip(checks, declarations, strict=True):
        assert check.verdict == ("legal" if declared == truth else "understated")
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True
    report = table.client.get(f"/games/{table.game_id}/audit").json()
    assert report["verdict"] == "clean", report["summary"]
    assert [(d["actor"], d["declared"], d["truth"]) for d in report["declarations"]] == (
        declarations
    )
    return table
