"""Driving a 超人ロック game over HTTP with legal moves read from each seat's own view."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from domain.rulesets.chojin_locke.board import PLANETS, SQUARES
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.counts import ambush_count
from tests.table import Table

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi", "Fuyu", "Gen", "Hana", "Ito", "Jun", "Kei", "Rin"]
SILHOUETTES = {s.name: s for s in sample().silhouettes}
# Every driving loop below gives up after this many steps: a game that stops advancing must
# fail the test, not hang the suite.
LOOP_BOUND = 300


def marked_catalog() -> tuple[dict[str, Any], dict[str, str]]:
    """The sample catalog with each character renamed to a unique marker."""
    data = sample().model_dump(mode="json")
    renames = {c["name"]: f"SHEET-{uuid.uuid4().hex}" for c in data["characters"]}
    for character in data["characters"]:
        character["name"] = renames[character["name"]]
        character["defeat"] = []
        character["abilities"] = []
    return data, renames


def new_game(client: TestClient, players: int = 6, **body: Any) -> Table:
    """A started game. The rules' tests read the omniscient view, so it has a GM unless
    `referee` says otherwise (a 超人ロック game created without one has a host)."""
    body.setdefault("referee", "gm")
    table = Table.create(client, seats=NAMES[:players], ruleset="chojin_locke", **body)
    table.join_all()
    table.do(table.creator, {"type": "start"})
    return table


def cmd(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": f"chojin_locke.{name}", **fields}


def view(table: Table, actor: str) -> dict[str, Any]:
    response = table.client.get(f"/games/{table.game_id}", headers=table.auth(actor))
    assert response.status_code == 200, response.text
    rules: dict[str, Any] = response.json()["rules"]
    return rules


def seen(table: Table, viewer: str) -> bytes:
    """Every read an audience can make, after GameCreated (whose public catalog names all)."""
    headers = table.auth(viewer)
    url = f"/games/{table.game_id}"
    out = table.client.get(f"{url}/events", params={"after": 1}, headers=headers).content
    for path in ("", "/view"):
        out += table.client.get(f"{url}{path}", headers=headers).content
    return out


def me(table: Table, actor: str) -> dict[str, Any]:
    mine: dict[str, Any] = view(table, actor)["me"]
    return mine


def seats(table: Table) -> list[str]:
    return [f"seat:{n}" for n in sorted(table.invites)]


def _used(gm: dict[str, Any], skip: int | None = None) -> dict[str, int]:
    used: dict[str, int] = {}
    for player in gm["players"]:
        name = player["silhouette"]
        if name and player["seat"] != skip:
            used[name] = used.get(name, 0) + 1
    return used


def pick(mine: dict[str, Any], used: dict[str, int], base: bool) -> str:
    """A silhouette the playing card allows, still available, on the wanted side if free."""
    sheet, card = mine["sheet"], mine["playing_card"]
    if card["rank"] == 1:
        return str(sheet["silhouette"])
    # the least used first, so that players differ in silhouette and may form parties
    for name, silhouette in sorted(SILHOUETTES.items(), key=lambda item: used.get(item[0], 0)):
        if used.get(name, 0) >= silhouette.count:
            continue
        if card["rank"] == 10:
            if silhouette.alignment == mine["faction"]:
                return name
        elif (silhouette.alignment == "E") == base:
            return name
    raise AssertionError("no silhouette available")


def choose_all(table: Table) -> None:
    """Every seat still choosing picks; Evil sheets lean to the base side. Ace holders pick
    first (their silhouette is forced), so that no two pieces share a silhouette card (3.2)."""
    aces = [s for s in seats(table) if (me(table, s)["playing_card"] or {}).get("rank") == 1]
    for actor in [*aces, *(s for s in seats(table) if s not in aces)]:
        gm = view(table, table.creator)
        if gm["stage"] != "silhouettes":
            return
        number = int(actor.split(":")[1])
        if next(p for p in gm["players"] if p["seat"] == number)["chosen"]:
            continue
        mine = me(table, actor)
        used = _used(gm, skip=number)
        for p in gm["players"]:  # secret choices already made count as taken
            if p["seat"] != number and p["chosen"]:
                choice = me(table, f"seat:{p['seat']}")["silhouette_choice"]
                if choice != p["silhouette"]:
                    used[choice] = used.get(choice, 0) + 1
        name = pick(mine, used, mine["faction"] == "E")
        table.do(actor, cmd("choose_silhouette", silhouette=name))


def rebalance(table: Table) -> None:
    gm = view(table, table.creator)
    explorers = [p for p in gm["players"] if p["side"] == "explorer"]
    bases = [p for p in gm["players"] if p["side"] == "base"]
    larger, to_base = (explorers, True) if len(explorers) > len(bases) else (bases, False)
    evil = sum(1 for s in seats(table) if me(table, s)["sheet"]["alignment"].startswith("E"))
    need = evil - min(len(explorers), len(bases))
    for player in larger:
        if need <= 0:
            break
        actor = f"seat:{player['seat']}"
        mine = me(table, actor)
        if mine["playing_card"]["rank"] in (1, 10):
            continue
        name = pick(mine, _used(view(table, table.creator), skip=player["seat"]), to_base)
        table.do(actor, cmd("change_silhouette", silhouette=name))
        need -= 1
    table.do(table.creator, cmd("close_rebalance"))


def setup_to_ambush(table: Table, *, dealt: bool = False) -> None:
    if not dealt:
        table.do(table.creator, cmd("deal"))
    table.do(table.creator, cmd("fix_characters"))
    for _ in range(10):
        choose_all(table)
        stage = view(table, table.creator)["stage"]
        if stage == "ambush":
            return
        if stage == "rebalance":
            rebalance(table)
    raise AssertionError("setup did not converge")


def ambush_squares(table: Table, count: int) -> list[tuple[int, int]]:
    """`count` squares holding a face-down planet card (4.5 l.740: a 待ち伏せ is exchanged for
    one), planet 5's first, then 4's, …: away from planet 0, where the explorers start."""
    laid = view(table, "public")["board"]["face_down_squares"]
    squares = sorted((tuple(int(n) for n in square.split(":")) for square in laid), reverse=True)
    assert len(squares) >= count, laid
    return [(planet, number) for planet, number in squares[:count]]


def to_planets(table: Table) -> None:
    setup_to_ambush(table)
    hide_and_enter(table)


def hide_and_enter(table: Table) -> None:
    """From the ambush stage: the base side hides its 待ち伏せ, every explorer enters at planet
    0's spaceport, and 惑星編 begins."""
    gm = view(table, table.creator)
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    for index, (planet, square) in enumerate(
        ambush_squares(table, ambush_count(len(gm["players"])))
    ):
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=square))
    for player in gm["players"]:
        if player["side"] == "explorer":
            table.do(f"seat:{player['seat']}", cmd("enter", planet=0))
    table.do(table.creator, cmd("begin_planets"))


def ambushed(table: Table) -> tuple[str, int]:
    """From the ambush stage: the last base player hides a 待ち伏せ on planet 0's first square
    (three more go where `ambush_squares` says), every explorer enters planet 0, and the first
    turn player free to move steps onto it: its square phase turns the 待ち伏せ, which starts a
    combat (4.5 l.744–745). Returns (that explorer, the 待ち伏せ's handler)."""
    players = view(table, table.creator)["players"]
    bases = [p["seat"] for p in players if p["side"] == "base"]
    assert "0:1" in view(table, "public")["board"]["face_down_squares"]
    handler = bases[-1]
    table.do(f"seat:{handler}", cmd("place_ambush", planet=0, square=1))
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        table.do(
            f"seat:{bases[index % len(bases)]}", cmd("place_ambush", planet=planet, square=square)
        )
    for p in players:
        if p["side"] == "explorer":
            table.do(f"seat:{p['seat']}", cmd("enter", planet=0))
    table.do(table.creator, cmd("begin_planets"))
    actor = free_turn(table)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("move", direction="right"))
    table.do(actor, cmd("next_phase"))  # the square phase: the 待ち伏せ is turned
    return actor, handler


def planet_stage_bound(explorers: int) -> int:
    """How many turns `play_planet_stage` may take, from 4.5's end of 惑星編 (lines 761–764: no
    face-down card left, or 3 情報入手 held): one explorer alone turns every card in 7 of its
    turns a planet (6 steps right round the torus back to the spaceport, one to the next
    planet's spaceport), the others' turns come between its own and only help, and it may lose
    as many turns again waiting behind a twin (`planet_stage_move`)."""
    return 2 * explorers * PLANETS * (SQUARES + 1)


def planet_stage_move(table: Table, actor: str) -> dict[str, Any]:
    """The turn player's 通常移動 in 惑星編 that always ends the stage: right round its planet
    while a face-down card lies on it, then from the spaceport to the next planet's spaceport
    that still has one (4.5 l.758: 「宇宙港の上にいるキャラクターは主要行動として他の宇宙港に
    移動することができます」). Moving right alone ends it only where the explorers' own planets
    hold 3 情報入手 for one of them: the cards on planets nobody starts on stay face down.
    Never onto a square where its twin stands (3.2 l.396–399: twins on one square must fight
    and then pass at the start of every turn, and this driver's combats are passes): it passes
    instead, and the twin moves on."""
    gm = view(table, table.creator)
    me = next(p for p in gm["players"] if f"seat:{p['seat']}" == actor)
    here = me["position"]
    twins = {
        (p["position"]["planet"], p["position"]["square"])
        for p in gm["players"]
        if p["seat"] != me["seat"] and p["position"] and p["silhouette"] == me["silhouette"]
    }
    face_down = {
        tuple(int(n) for n in square.split(":")) for square in gm["board"]["face_down_squares"]
    }
    planet, square = here["planet"], here["square"]
    if square == 0 and not any(p == planet for p, _s in face_down):
        ahead = [(planet + n) % PLANETS for n in range(1, PLANETS)]
        for other in ahead:
            if any(p == other for p, _s in face_down) and (other, 0) not in twins:
                return cmd("move", planet=other)
        return cmd("pass")
    if (planet, (square + 1) % SQUARES) in twins:
        return cmd("pass")
    return cmd("move", direction="right")


def play_planet_stage(table: Table) -> tuple[list[int], list[int]]:
    """Set up, hide three 待ち伏せ, put explorers on different planets, and move them
    (`planet_stage_move`) until 惑星編 ends; returns (base seats, explorer seats)."""
    setup_to_ambush(table)
    gm = view(table, table.creator)
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        table.do(
            f"seat:{bases[index % len(bases)]}", cmd("place_ambush", planet=planet, square=square)
        )
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=index))
    table.do(table.creator, cmd("begin_planets"))
    bound = planet_stage_bound(len(explorers))
    for _ in range(bound):
        if view(table, table.creator)["stage"] != "planet":
            return bases, explorers
        actor = turn_actor(table)
        finish_turn(table, actor, planet_stage_move(table, actor))
    raise AssertionError(f"惑星編 still running after {bound} turns")


def turn_actor(table: Table) -> str:
    turn = view(table, table.creator)["turn"]
    return f"seat:{turn['seat']}"


def fight_out(table: Table, starter: str, *, start: bool = True) -> None:
    """3.2 (l.396–397): a twin on the square forces a combat (`start`), as a turned 待ち伏せ
    starts one (4.5): pass every combat turn until it is over (a round without an attack ends
    it, 5.1 (7)②)."""
    if start:
        table.do(starter, cmd("start_combat"))
    starter = f"seat:{view(table, table.creator)['combat']['started_by']}"
    for _ in range(LOOP_BOUND):
        if (fight := view(table, table.creator)["combat"]) is None:
            return
        if fight["step"] in ("joining", "moving", "before"):
            table.do(starter, cmd("combat_next"))
            continue
        actor = f"seat:{fight['current']}"
        if fight["phase"] == "main" and not fight["main_done"]:
            table.do(actor, cmd("combat_pass"))
        else:
            table.do(actor, cmd("combat_next"))
    raise AssertionError(f"combat still running after {LOOP_BOUND} steps: {fight}")


def next_phase(table: Table, actor: str) -> None:
    """`next_phase`, fighting out the combat 3.2 forces where a twin shares the square."""
    response = table.send(actor, cmd("next_phase"))
    code = response.json().get("code") if response.status_code == 409 else None
    if code in ("must_start_combat", "combat_running"):
        fight_out(table, actor, start=code == "must_start_combat")
        if code == "combat_running":
            next_phase(table, actor)
        return
    assert response.status_code == 201, response.text


def to_phase(table: Table, phase: str) -> str:
    """Advance the current turn to `phase` (taking a pass if the main phase is crossed)."""
    actor = turn_actor(table)
    for _ in range(8):
        turn = view(table, table.creator)["turn"]
        if turn["phase"] == phase:
            return actor
        if turn["phase"] in ("main", "move") and turn["main"] is None:
            table.do(actor, cmd("pass"))
        next_phase(table, actor)
    raise AssertionError(f"never reached {phase}")


def free_turn(table: Table) -> str:
    """End turns until the turn player may take a main action other than パス, and return it:
    one that began its turn beside its silhouette's twin must pass (3.2 l.398–399). The test
    driver deals silhouettes apart where it can, but two aces (or 10s) can force twins."""
    for _ in range(LOOP_BOUND):
        if not view(table, table.creator)["turn"]["must_pass"]:
            return turn_actor(table)
        end_turn(table)
    raise AssertionError(f"every turn player had to pass for {LOOP_BOUND} turns")


def end_turn(table: Table) -> None:
    actor = turn_actor(table)
    number = view(table, table.creator)["turn"]["number"]
    for _ in range(LOOP_BOUND):
        turn = view(table, table.creator)["turn"]
        if turn["number"] != number:
            return
        if turn["phase"] in ("main", "move") and turn["main"] is None:
            table.do(actor, cmd("pass"))
        next_phase(table, actor)
    raise AssertionError(f"turn {number} still running after {LOOP_BOUND} phases")


def info_catalog() -> dict[str, Any]:
    """The sample catalog with only 情報入手 on the planets, so 惑星編 ends by information."""
    data = sample().model_dump(mode="json")
    data["planet_cards"] = [
        {"name": "情報入手", "kind": "info", "count": 36, "text": "このカードを得る。"}
    ]
    return data


def teleporters(catalog: dict[str, Any], level: int = 2) -> dict[str, Any]:
    """`catalog` with every character able to teleport `level` squares."""
    for character in catalog["characters"]:
        character["esp_level"] = max(character["esp_level"], level)
        character["esp_power"] = max(character["esp_power"], 10 * level)
    return catalog


def finish_turn(table: Table, actor: str, main: dict[str, Any] | None) -> None:
    """Run the rest of the turn: the given main action (or pass) in the main phase."""
    stage, start = view(table, table.creator)["stage"], view(table, table.creator)["turn"]["number"]
    for _ in range(LOOP_BOUND):
        gm = view(table, table.creator)
        if gm["stage"] != stage or gm["turn"]["number"] != start:
            return
        if gm["turn"]["phase"] in ("main", "move") and gm["turn"]["main"] is None:
            response = table.send(actor, main or cmd("pass"))
            if response.status_code == 409 and response.json()["code"] == "must_pass":
                table.do(actor, cmd("pass"))  # 3.2: it began beside its silhouette's twin
            else:
                assert response.status_code == 201, response.text
            main = None
            if view(table, table.creator)["stage"] != stage:
                return
        next_phase(table, actor)
    raise AssertionError(f"turn {start} still running after {LOOP_BOUND} phases")


KEYS = [(5, 0), (5, 1), (5, 2), (5, 3)]


def to_base(
    table: Table, entry: tuple[int, int] = (0, 0)
) -> tuple[list[int], list[int], list[int]]:
    """Play 惑星編 until 情報入手 ends it, place the keys (KEYS), enter at `entry`; (bases,
    entrants, outside)."""
    bases, explorers = play_planet_stage(table)
    before = table.log_bytes()
    refused = table.send(f"seat:{explorers[0]}", cmd("place_key", row=0, col=0))
    assert refused.json()["code"] == "base_players_only" and table.log_bytes() == before
    for index, (row, col) in enumerate(KEYS):
        table.do(f"seat:{bases[index % len(bases)]}", cmd("place_key", row=row, col=col))
    entrants = enter_in_order(table, entry)
    return bases, entrants, [s for s in explorers if s not in entrants]


def enter_in_order(table: Table, entry: tuple[int, int] = (0, 0)) -> list[int]:
    """The best-informed explorers enter at `entry` in the order 4.6 l.793 gives (the view's
    `entry_order`), after an inner square is refused, and 秘密基地編 begins; the entrants in
    that order."""
    entrants: list[int] = list(view(table, table.creator)["entry_order"])
    inner = table.send(f"seat:{entrants[0]}", cmd("enter_base", row=2, col=2))
    assert inner.json()["code"] == "not_outer_square"
    for seat in entrants:
        table.do(f"seat:{seat}", cmd("enter_base", row=entry[0], col=entry[1]))
    table.do(table.creator, cmd("begin_base"))
    return entrants


def twinned_explorers(table: Table) -> bool:
    """Two explorers share a silhouette card: the deal forced it (two aces, or 10s, whose
    sheets name one silhouette), and on one square the two must fight and pass (3.2)."""
    players = view(table, table.creator)["players"]
    names = [p["silhouette"] for p in players if p["side"] == "explorer"]
    return len(set(names)) != len(names)


def base_game(
    client: TestClient, entry: tuple[int, int] = (0, 0), **body: Any
) -> tuple[Table, tuple[list[int], list[int], list[int]]]:
    """A new game (`body` as `new_game`'s) played to 秘密基地編 (`to_base`) with no twinned
    explorers — a deal that forces twins is dealt again — for tests that move entrants who
    enter the base together."""
    for _ in range(20):
        table = new_game(client, **body)
        seats = to_base(table, entry)
        if not twinned_explorers(table):
            return table, seats
    raise AssertionError("every deal twinned two explorers")


def quiet_turn(table: Table) -> None:
    """Finish the current turn without moving: パス, or 回復 for an explorer around the base."""
    actor = turn_actor(table)
    player = next(p for p in view(table, table.creator)["players"] if f"seat:{p['seat']}" == actor)
    finish_turn(table, actor, cmd("recover", stat="endurance") if player["outside"] else None)


def until_turn_of(table: Table, *wanted: int) -> str:
    for _ in range(20):
        actor = turn_actor(table)
        if int(actor[5:]) in wanted:
            return actor
        quiet_turn(table)
    raise AssertionError("never their turn")
