"""Rules an outside check found broken, each through HTTP with the seed line it rests on
(`shared/seeds/chojin-locke-basic-rules-2020.txt`, line numbers in the docstrings)."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.rulesets.chojin_locke.board import silhouette_identity, twin_beside
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.state import ChojinState
from tests.rulesets.chojin_locke.table import (
    KEYS,
    base_game,
    cmd,
    end_turn,
    fight_out,
    finish_turn,
    hide_and_enter,
    info_catalog,
    me,
    new_game,
    pick,
    seats,
    seen,
    setup_to_ambush,
    teleporters,
    to_base,
    to_phase,
    to_planets,
    turn_actor,
    until_turn_of,
    view,
)
from tests.table import Table


def refused(table: Table, actor: str, body: dict[str, Any], code: str) -> dict[str, Any]:
    """A refusal with `code` that appends nothing; its problem+json body."""
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code in (403, 404, 409, 422), response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code, problem
    assert table.log_bytes() == before
    return problem


def _phase(table: Table) -> str:
    return str(view(table, "gm")["turn"]["phase"])


def _base_turned(table: Table) -> list[dict[str, Any]]:
    return [
        e["public"] for e in table.events("public") if e["type"] == "chojin_locke.BaseCardTurned"
    ]


def test_moving_onto_a_face_down_base_card_keeps_the_turn(client: TestClient) -> None:
    """4.6, lines 816–818: 「探索プレイヤーの通常ターンのチェックフェイズ時、そのプレイヤーの
    キャラクターが裏向きの基地カードの上にいる場合、支援フェイズ1と主要フェイズがスキップされます。」
    and 4.3, lines 668–673: 「ターンプレイヤーが探索プレイヤーであり、
    その惑星カードまたは基地カードが裏向きの場合、そのカードが表向きになります。」
    Only the check phase skips; a card moved onto is turned in the square phase and the turn
    goes on (支援2, 戦闘発生)."""
    catalog = teleporters(info_catalog())
    table, (_bases, entrants, _outside) = base_game(
        client, options={"dice_policy": "both"}, ruleset_options={"catalog": catalog}
    )
    actor = until_turn_of(table, *entrants)  # on 0:0, face down at its check phase
    number = view(table, "gm")["turn"]["number"]
    table.do(actor, cmd("next_phase"))
    assert _phase(table) == "square"  # 支援1 and 主要 skipped, the card turned
    assert [(c["row"], c["col"]) for c in _base_turned(table)] == [(0, 0)]
    refused(table, actor, cmd("pass"), "wrong_phase")
    table.do(actor, cmd("next_phase"))
    assert _phase(table) == "support2"  # only 支援1 is skipped of the support phases
    finish_turn(table, actor, None)
    actor = until_turn_of(table, int(actor[5:]))
    table.do(actor, cmd("next_phase"))  # 0:0 is face up now: a whole turn
    assert _phase(table) == "support1"
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("move", direction="down"))  # onto 1:0, face down
    turn = view(table, "gm")["turn"]["number"]
    assert turn > number
    table.do(actor, cmd("next_phase"))
    assert view(table, "gm")["turn"]["number"] == turn  # the turn is not lost
    assert _phase(table) == "square"
    assert (1, 0) in [(c["row"], c["col"]) for c in _base_turned(table)]
    table.do(actor, cmd("next_phase"))
    assert _phase(table) == "support2"
    table.do(actor, cmd("next_phase"))
    assert _phase(table) == "combat"


def test_a_release_from_binding_in_its_own_turn_still_skips_it(client: TestClient) -> None:
    """4.4, line 705: 「拘束状態が解除されたターンではチェックフェイズ以外の全てのフェイズが
    スキップされます。」 A bound character released during its own check phase still has only
    the check phase; its next turn is whole."""
    table = new_game(client)
    to_planets(table)
    actor = turn_actor(table)
    seat = int(actor[5:])
    table.do("gm", cmd("set_condition", seat=seat, condition="bound", reason="拘束"))
    end_turn(table)  # its turn was skipped but for the check phase
    actor = until_turn_of(table, seat)
    assert _phase(table) == "check"
    table.do("gm", cmd("set_condition", seat=seat, condition="normal", reason="拘束効果の終了"))
    refused(table, actor, cmd("pass"), "wrong_phase")
    number = view(table, "gm")["turn"]["number"]
    table.do(actor, cmd("next_phase"))
    assert view(table, "gm")["turn"]["number"] == number + 1  # the released turn ends
    actor = until_turn_of(table, seat)
    table.do(actor, cmd("next_phase"))
    assert _phase(table) == "support1"  # the next one is whole


def _convertible_catalog() -> dict[str, Any]:
    """The sample catalog where every Special is S/G (Good may convert it), every character
    has ESP level 2 or more, and the Good and Evil ones are plain."""
    data = teleporters(sample().model_dump(mode="json"))
    for character in data["characters"]:
        character["alignment"] = {"G": "G", "E": "E", "S": "S/G"}[character["alignment"][0]]
        character["defeat"] = []
    return data


def _faction(table: Table, seat: int) -> str:
    return str(me(table, f"seat:{seat}")["faction"])


def test_a_converted_character_that_dies_stays_converted(client: TestClient) -> None:
    """3.1, line 199: 「改心によるアライメント変更は次に復活するまで持続され、復活した時に
    初期状態に戻ります。」 A converted character that dies is judged on its converted side."""
    table = new_game(
        client, options={"dice_policy": "both"}, ruleset_options={"catalog": _convertible_catalog()}
    )
    to_planets(table)  # every explorer enters at planet 0's spaceport
    explorers = [p["seat"] for p in view(table, "gm")["players"] if p["side"] == "explorer"]
    good = [s for s in explorers if _faction(table, s) == "G"]
    special = [s for s in explorers if _faction(table, s) == "S"]
    assert good and special, "the deal gave no Good and Special explorers"
    actor = until_turn_of(table, good[0])
    table.do(actor, cmd("next_phase"))  # support 1
    level = me(table, actor)["stats"]["esp_level"]
    table.do(actor, cmd("convert", target=special[0], declared=level, faces=[1, 1]))
    assert _faction(table, special[0]) == "G"
    table.do("gm", cmd("set_condition", seat=special[0], condition="dead", reason="combat"))
    assert _faction(table, special[0]) == "G"  # until revival, not until death
    table.do("gm", {"type": "end", "summary": "over"})
    result = view(table, "public")["results"][str(special[0])]
    assert (result["faction"], result["alive"]) == ("G", False)
    assert "a Special character that is dead loses" not in result["reasons"]


TWINS = {"G": "ロック", "S": "ジャマー", "E": "ストロハイム"}


def _twins_catalog() -> dict[str, Any]:
    """Three silhouette cards, one per alignment with copies for everyone: every character's
    own silhouette is its alignment's, so the explorers come in pairs of identical ones."""
    data = sample().model_dump(mode="json")
    data["silhouettes"] = [
        {"name": name, "alignment": alignment, "count": 6} for alignment, name in TWINS.items()
    ]
    for character in data["characters"]:
        character["silhouette"] = TWINS[character["alignment"][0]]
    return data


def test_a_turn_that_begins_beside_an_identical_silhouette_must_pass(client: TestClient) -> None:
    """3.2, lines 396–399: 「通常ターン開始時の時点でシルエットカードが同一のキャラクターが
    同じマスにいる場合、そのターンの主要フェイズでは必ずパスを行います。」"""
    table = new_game(client, ruleset_options={"catalog": _twins_catalog()})
    table.do("gm", cmd("deal"))
    table.do("gm", cmd("fix_characters"))
    for actor in seats(table):
        silhouette = TWINS[str(me(table, actor)["sheet"]["alignment"])[0]]
        table.do(actor, cmd("choose_silhouette", silhouette=silhouette))
    assert view(table, "gm")["stage"] == "ambush"
    hide_and_enter(table)  # every explorer on planet 0's spaceport, in twos of a silhouette
    actor = turn_actor(table)
    assert view(table, "public")["turn"]["must_pass"] is True
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    problem = refused(table, actor, cmd("move", direction="right"), "must_pass")
    assert "パス" in problem["detail"]
    refused(table, actor, cmd("recover", stat="endurance"), "must_pass")
    table.do(actor, cmd("pass"))
    for _ in range(3):  # square → support2 → combat
        table.do(actor, cmd("next_phase"))
    # 3.2 (l.396–397): 「可能な限り戦闘を発生させなければいけません。」
    refused(table, actor, cmd("next_phase"), "must_start_combat")
    fight_out(table, actor)  # a round of passes: no attack, the combat and the turn are over
    assert view(table, "public")["combat"] is None
    assert turn_actor(table) != actor
    # its twin dies: the next turn it begins alone on its square and moves as it likes
    players = view(table, "public")["players"]
    mine = next(p for p in players if f"seat:{p['seat']}" == actor)
    twin = next(p["seat"] for p in players if p["silhouette"] == mine["silhouette"] and p != mine)
    table.do("gm", cmd("set_condition", seat=twin, condition="dead", reason="combat"))
    until_turn_of(table, mine["seat"])
    assert view(table, "public")["turn"]["must_pass"] is False
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("move", direction="right"))


def _telepathy_catalog() -> dict[str, Any]:
    """Only 情報入手 and 白紙 on the planets and one kind of ability card, a [支援] one."""
    catalog = info_catalog()
    catalog["planet_cards"] = [
        {"name": "情報入手", "kind": "info", "count": 30, "text": ""},
        {"name": "白紙", "kind": "blank", "count": 6, "text": ""},
    ]
    catalog["ability_cards"] = [{"name": "テレパシー", "tags": ["全般", "支援"], "count": 12}]
    return catalog


def _to_support_phase(table: Table, actor: str) -> None:
    for _ in range(4):
        if view(table, "gm")["turn"]["phase"] in ("support1", "support2"):
            return
        turn = view(table, "gm")["turn"]
        if turn["phase"] == "main" and turn["main"] is None:
            table.do(actor, cmd("pass"))
        table.do(actor, cmd("next_phase"))
    raise AssertionError("no support phase")


def test_a_used_ability_card_turns_face_up_and_stays_until_death(client: TestClient) -> None:
    """4.7, lines 844–846: 「能力カードを使用する場合、使用する時に能力カードを表向きにする
    必要があります。表向きにしている能力カードは自分が参加した戦闘の終了時に裏向きに戻すことが
    できます。キャラクターが死亡した時、そのキャラクターが所持している表向きの能力カードは
    全て破棄されます。」"""
    table = new_game(client, ruleset_options={"catalog": _telepathy_catalog()})
    to_base(table)
    holders = [p["seat"] for p in view(table, "public")["players"] if p["ability_cards"]]
    actor = until_turn_of(table, *holders)
    seat = int(actor[5:])
    held = len(me(table, actor)["ability_cards"])
    _to_support_phase(table, actor)
    table.do(actor, cmd("use_ability_card", card="テレパシー"))
    public = next(p for p in view(table, "public")["players"] if p["seat"] == seat)
    assert public["face_up_abilities"] == ["テレパシー"] and public["ability_cards"] == held
    assert len(me(table, actor)["ability_cards"]) == held  # not removed from the hand
    for _ in range(held - 1):  # each copy held is used once, by turning it up
        table.do(actor, cmd("use_ability_card", card="テレパシー"))
    refused(table, actor, cmd("use_ability_card", card="テレパシー"), "card_face_up")
    table.do("gm", cmd("set_condition", seat=seat, condition="dead", reason="combat"))
    public = next(p for p in view(table, "public")["players"] if p["seat"] == seat)
    assert public["face_up_abilities"] == [] and public["ability_cards"] == 0


def _ability_catalog() -> dict[str, Any]:
    """Every character with its own ability used without its name ([通常] only), its own
    [代理:3] (unnamed too) and a named [支援]; the unnamed ones' names are unique markers."""
    data = sample().model_dump(mode="json")
    for character in data["characters"]:
        character["abilities"] = [
            {"name": f"HIDDEN-{uuid.uuid4().hex}", "tags": ["通常"]},
            {"name": f"PROXY-{uuid.uuid4().hex}", "tags": ["代理:3"]},
            {"name": "テレパス", "tags": ["通常", "支援"]},
        ]
    return data


def test_abilities_of_plain_timing_are_used_without_their_name(client: TestClient) -> None:
    """3.1, lines 261–262: 「能力を使用するタイミングに関する特性が[全般]・[通常]・[戦闘]のみの
    場合、その能力を使用する時に能力名を宣言せずに使用します。」 and line 373: 「代理を使用する時は
    能力名の宣言は行わず、代理を使用することだけを宣言します。」 The table sees that an ability
    was used; only its user (and, at the end, everyone) its name — byte for byte."""
    table = new_game(client, ruleset_options={"catalog": _ability_catalog()})
    to_planets(table)
    actor = to_phase(table, "support1")
    hidden, proxy, _named = (a["name"] for a in me(table, actor)["sheet"]["abilities"])
    others = ["public", *(s for s in seats(table) if s != actor)]
    problem = refused(table, actor, cmd("use_ability", ability="時間停止"), "no_such_ability")
    assert hidden in problem["detail"] and "テレパス" in problem["detail"]  # the valid ones
    used = table.do(actor, cmd("use_ability", ability=hidden))["events"][0]
    assert used["public"]["ability"] is None and used["secret"]["ability"] == hidden
    named = table.do(actor, cmd("use_ability", ability="テレパス"))["events"][0]
    assert named["public"]["ability"] == "テレパス"  # [支援]: named aloud
    table.do(actor, cmd("next_phase"))
    used = table.do(actor, cmd("use_ability", ability=proxy))["events"][0]
    assert (used["public"]["proxy"], used["public"]["main"]) == (True, True)
    for viewer in others:
        data = seen(table, viewer)
        assert hidden.encode() not in data and proxy.encode() not in data, viewer
        for event in table.events(viewer):
            if event["type"] == "chojin_locke.AbilityUsed" and event["public"]["ability"] is None:
                assert event["secret"] is None, viewer
    mine = seen(table, actor)
    assert hidden.encode() in mine and proxy.encode() in mine
    table.do("gm", {"type": "end", "summary": "over"})
    assert hidden.encode() in seen(table, "public")  # revealed at the end


def _destroy_on_face_down(client: TestClient, entry: tuple[int, int]) -> tuple[Table, bytes]:
    """A 2002 game whose entrants enter at `entry`: the first entrant's 破壊 on the face-down
    card there, refused (nothing appended); the refusal's bytes."""
    table = new_game(client, ruleset_options={"rules": "2002", "catalog": info_catalog()})
    _bases, entrants, _outside = to_base(table, entry=entry)
    actor = until_turn_of(table, *entrants)
    to_phase(table, "move")
    refused(table, actor, cmd("destroy_key"), "card_face_down")
    return table, table.send(actor, cmd("destroy_key")).content


def test_destroy_key_answers_alike_on_any_face_down_card(client: TestClient) -> None:
    """2002 rules with 4.6, line 786: 「この時、探索プレイヤーは配置場所を見てはいけません。」
    破壊 declared on a face-down 重要拠点 and on any other face-down card gets the same answer,
    byte for byte: a refusal that told them apart would show where the keys lie."""
    key = KEYS[0]  # an outer square: entering there puts the entrants on a face-down key
    on_key, over_key = _destroy_on_face_down(client, key)
    assert f"{key[0]}:{key[1]}" in view(on_key, "gm")["board"]["keys"]
    _elsewhere, over_other = _destroy_on_face_down(client, (0, 0))
    assert over_key == over_other


def _last_card_catalog() -> dict[str, Any]:
    """Blank planet cards only; the 待ち伏せ are 情報入手 (a host's catalog may say so), so the
    test knows where the only 情報入手 lie: where the base side hides its 待ち伏せ."""
    data = sample().model_dump(mode="json")
    data["planet_cards"] = [{"name": "白紙", "kind": "blank", "count": 30, "text": ""}]
    data["ambush"] = {"name": "待ち伏せ", "kind": "info", "text": "情報入手"}
    return data


def _walk(planets: list[int]) -> list[dict[str, Any]]:
    """Turn every card of `planets`: six steps right round each (the last onto its spaceport),
    then a hop to the next one's spaceport."""
    plan: list[dict[str, Any]] = []
    for index, planet in enumerate(planets):
        if index:
            plan.append(cmd("move", planet=planet))
        plan += [cmd("move", direction="right")] * 6
    return plan


def _play_turn(table: Table, actor: str, main: dict[str, Any] | None) -> None:
    """A whole 2020 turn: check, 支援1, the main action (パス if None), then the rest."""
    for body in (cmd("next_phase"), cmd("next_phase"), main or cmd("pass")):
        table.do(actor, body)
    for _ in range(4):
        table.do(actor, cmd("next_phase"))


def test_the_last_face_down_card_as_a_third_information(client: TestClient) -> None:
    """4.5, lines 774–778: 「キャラクター1人が惑星カード「情報入手」を3枚以上所持している場合に
    おいて惑星編が終了した場合、…情報入手を3枚以上所持しているキャラクターは情報入手の数だけ
    基地プレイヤーのキャラクターシートを確認することができます。その後、能力カードを1枚得ます。」
    When the holder's third 情報入手 is also the last face-down planet card (line 762), 惑星編
    ends on information all the same."""
    for _ in range(60):  # a deal whose 24 cards cover planet 0's squares 1–3 (l.740: a
        # 待ち伏せ is exchanged for a card already there)
        table = new_game(client, ruleset_options={"catalog": _last_card_catalog()})
        setup_to_ambush(table)
        laid = view(table, "public")["board"]["face_down_squares"]
        if {"0:1", "0:2", "0:3"} <= set(laid):
            break
    players = view(table, "public")["players"]
    bases = [p["seat"] for p in players if p["side"] == "base"]
    explorers = [p["seat"] for p in players if p["side"] == "explorer"]
    for index, square in enumerate((1, 2, 3)):  # planet 0's squares 1–3: the 情報入手
        base = f"seat:{bases[index % len(bases)]}"
        table.do(base, cmd("place_ambush", planet=0, square=square))
    holder, walkers = explorers[0], explorers[1:]
    shares = {w: [p for p in range(1, 6) if p % len(walkers) == i] for i, w in enumerate(walkers)}
    plans = {w: _walk(planets) for w, planets in shares.items()}
    # the holder turns planet 0's squares 0, 5 and 4, then waits for the 情報入手 to be last
    # and walks back right over them
    plans[holder] = [cmd("pass"), *(cmd("move", direction=d) for d in ("left", "left"))]
    table.do(f"seat:{holder}", cmd("enter", planet=0))
    for walker, planets in shares.items():
        table.do(f"seat:{walker}", cmd("enter", planet=planets[0]))
    table.do("gm", cmd("begin_planets"))
    for _ in range(200):
        public = view(table, "public")
        if public["stage"] != "planet":
            break
        seat = public["turn"]["seat"]
        plan = plans[seat]
        if seat == holder and not plan and public["board"]["face_down"] <= 3:
            plan += [cmd("move", direction="right")] * 5  # 0:5, 0:0, then 0:1–0:3 last
        _play_turn(table, f"seat:{seat}", plan.pop(0) if plan else None)
    events = table.events("public")
    ended = [e["public"] for e in events if e["type"] == "chojin_locke.PlanetStageEnded"]
    assert ended == [{"reason": "information"}]
    assert view(table, "public")["board"]["face_down"] == 0  # the 情報入手 was the last card
    assert me(table, f"seat:{holder}")["inspections_left"] == 3
    drawn = [e["public"]["seat"] for e in events if e["type"] == "chojin_locke.AbilityCardDrawn"]
    assert holder in drawn  # 「その後、能力カードを1枚得ます。」


def test_a_secret_choice_never_refuses_another_and_the_reveal_settles(
    client: TestClient,
) -> None:
    """4.1, lines 475–476: 「シルエットカードを選んだら自分の手元に裏向きで伏せて置きます。
    全てのプレイヤーのシルエットが決まったら全てのプレイヤーがシルエットカードを公開します。」
    Another seat's face-down choice never makes a choice fail (that refusal would tell who chose
    what, byte for byte); a card chosen more often than it has copies goes, at the reveal, to
    the first to have chosen it, and the others choose again (docs/rulings.md)."""
    marker = f"SIL-{uuid.uuid4().hex}"
    catalog = sample().model_dump(mode="json")
    catalog["silhouettes"].append({"name": marker, "alignment": "G", "count": 1})
    table = new_game(client, ruleset_options={"catalog": catalog})
    table.do("gm", cmd("deal"))
    table.do("gm", cmd("fix_characters"))
    received = {actor: b"" for actor in seats(table)}
    free = [s for s in seats(table) if me(table, s)["playing_card"]["rank"] not in (1, 10)]
    first, second = free[:2]
    for actor in (first, second):
        response = table.send(actor, cmd("choose_silhouette", silhouette=marker))
        assert response.status_code == 201, response.text  # the second is not refused
        received[actor] += response.content
    problem = refused(
        table, second, cmd("choose_silhouette", silhouette="ロックⅡ"), "unknown_silhouette"
    )
    assert marker in problem["detail"] and "ロック" in problem["detail"]  # the valid names
    others = [s for s in seats(table) if s not in (first, second)]
    others.sort(key=lambda s: me(table, s)["playing_card"]["rank"] != 1)  # Aces first
    used: dict[str, int] = {}
    for actor in others:
        mine = me(table, actor)
        name = pick(mine, used, mine["faction"] == "E")
        used[name] = used.get(name, 0) + 1
        if actor == others[-1]:
            break  # the last choice turns every card up
        response = table.send(actor, cmd("choose_silhouette", silhouette=name))
        assert response.status_code == 201, response.text
        received[actor] += response.content
        assert view(table, "public")["stage"] == "silhouettes"
    for actor in ("public", *seats(table)):
        data = seen(table, actor) + received.get(actor, b"")
        assert (marker.encode() in data) == (actor in (first, second)), actor
    table.do(others[-1], cmd("choose_silhouette", silhouette=name))
    revealed = next(
        e["public"]
        for e in table.events("public")
        if e["type"] == "chojin_locke.SilhouettesRevealed"
    )
    assert revealed["returned"] == [int(second[5:])]
    public = {f"seat:{p['seat']}": p for p in view(table, "public")["players"]}
    assert public[first]["silhouette"] == marker and public[second]["silhouette"] is None
    assert view(table, "public")["stage"] == "silhouettes"
    refused(table, second, cmd("choose_silhouette", silhouette=marker), "silhouette_gone")
    mine = me(table, second)
    table.do(second, cmd("choose_silhouette", silhouette=pick(mine, used, False)))
    assert view(table, "public")["stage"] in ("ambush", "rebalance")


def test_seven_players_base_players_flip_eighteen_over_the_explorers(client: TestClient) -> None:
    """4.5, lines 768–770: 「基地プレイヤーはプレイヤー毎に未使用の惑星カードから
    [18÷(探索プレイヤーの人数)](端数切り上げ)枚めくり」; only with 6 players or fewer does 6.2
    (line 1354) put the cards laid in place of 18 — with 7, all 36 are laid, but 18 still count."""
    catalog = info_catalog()
    # Every card 情報入手, so the explorers circling planet 0 end 惑星編 whatever the deal.
    catalog["planet_cards"] = [{"name": "情報入手", "kind": "info", "count": 66, "text": ""}]
    table = new_game(client, players=7, ruleset_options={"catalog": catalog})
    setup_to_ambush(table)
    hide_and_enter(table)
    for _ in range(120):
        if view(table, "public")["stage"] != "planet":
            break
        finish_turn(table, turn_actor(table), cmd("move", direction="right"))
    players = view(table, "public")["players"]
    explorers = sum(1 for p in players if p["side"] == "explorer")
    flipped = [
        e["public"]["cards"]
        for e in table.events("public")
        if e["type"] == "chojin_locke.PlanetCardsFlipped"
    ]
    assert flipped and all(len(cards) == -(-18 // explorers) for cards in flipped)


def test_an_ambush_is_exchanged_for_a_card_already_on_the_board(client: TestClient) -> None:
    """4.5, lines 739–741: 「待ち伏せの配置場所は36マスのいずれかであり、既に置かれている惑星
    カードと交換して配置します。交換された惑星カードは「惑星ラフノール」の惑星カードとして
    再利用される」. With six players 24 cards lie on 36 squares (6.2): an empty square takes no
    待ち伏せ (refused, nothing appended; which squares hold a card is public, ruling CL-036), and
    one
    placed on a card sends that card to 惑星ラフノール's pile."""
    table = new_game(client)
    setup_to_ambush(table)
    laid = view(table, "public")["board"]["face_down_squares"]
    assert len(laid) == 24
    empty = next(f"{p}:{s}" for p in range(6) for s in range(6) if f"{p}:{s}" not in laid)
    bases = [p["seat"] for p in view(table, "gm")["players"] if p["side"] == "base"]
    planet, square = (int(n) for n in empty.split(":"))
    problem = refused(
        table,
        f"seat:{bases[0]}",
        cmd("place_ambush", planet=planet, square=square),
        "no_planet_card_there",
    )
    assert empty in problem["detail"] and laid[0] in problem["detail"]
    planet, square = (int(n) for n in laid[0].split(":"))
    table.do(f"seat:{bases[0]}", cmd("place_ambush", planet=planet, square=square))
    board = view(table, "public")["board"]
    assert board["face_down_squares"] == laid and board["face_down"] == 24  # one for one


def test_a_partner_takes_its_leaders_alignment_for_identical_silhouettes(
    client: TestClient, service: GameService
) -> None:
    """6.1, lines 1226–1227: 「パーティーが結成されている間、パートナーのシルエットのアライメントは
    リーダーのシルエットのアライメントと同じになります」, and 3.2, line 394: silhouettes are
    identical when 「名前とアライメントの両方が同じ」. Two ロック (G) on one square are twins; once
    one is the partner of a ジャマー (S) leader its silhouette counts as (ロック, S): no twin."""
    for _ in range(30):  # a deal with a pair of twins and a character of another silhouette
        rules, by_silhouette = _explorers_by_silhouette(client, service)
        pairs = [group for group in by_silhouette.values() if len(group) == 2]
        if len(by_silhouette) >= 2 and pairs:
            break
    one, other = pairs[0]
    leader = next(s for group in by_silhouette.values() for s in group if s not in (one, other))
    assert twin_beside(rules, one) and twin_beside(rules, other)
    partnered = rules.model_copy(update={"parties": {leader: (one,)}})
    assert silhouette_identity(partnered, one) != silhouette_identity(partnered, other)
    assert not twin_beside(partnered, one) and not twin_beside(partnered, other)


def _explorers_by_silhouette(
    client: TestClient, service: GameService
) -> tuple[ChojinState, dict[str, list[int]]]:
    """A 惑星編 begun with every explorer on planet 0's spaceport, each with its alignment's
    silhouette: the rules' state, and the explorers' seats by silhouette."""
    table = new_game(client, ruleset_options={"catalog": _twins_catalog()})
    table.do("gm", cmd("deal"))
    table.do("gm", cmd("fix_characters"))
    for actor in seats(table):
        silhouette = TWINS[str(me(table, actor)["sheet"]["alignment"])[0]]
        table.do(actor, cmd("choose_silhouette", silhouette=silhouette))
    hide_and_enter(table)
    rules = service.state(table.game_id).rules
    assert isinstance(rules, ChojinState)
    groups: dict[str, list[int]] = {}
    for seat, player in sorted(rules.players.items()):
        if player.position is not None and player.revealed_silhouette:
            groups.setdefault(player.revealed_silhouette, []).append(seat)
    return rules, groups
