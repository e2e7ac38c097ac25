"""The chat the table page is built on: `say`, speakers and tabs, whispers, blind rolls."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table


def _table(client: TestClient, **body: object) -> Table:
    table = Table.create(client, seats=["Aki", "Ben"], **body)
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


def test_a_line_is_a_message_with_its_speaker_colour_and_tab(client: TestClient) -> None:
    table = _table(client)
    said = table.do(
        "seat:1",
        {
            "type": "say",
            "text": "Hello, table",
            "speaker": "Kaede",
            "color": "#aa3355",
            "tab": "雑談",
        },
    )["events"][0]
    assert said["type"] == "Said"
    assert said["public"] == {
        "text": "Hello, table",
        "speaker": "Kaede",
        "color": "#aa3355",
        "tab": "雑談",
    }
    line = table.events("seat:2")[-1]["line"]
    assert line["kind"] == "chat" and line["text"] == "Hello, table"
    assert (line["speaker"], line["color"], line["tab"]) == ("Kaede", "#aa3355", "雑談")


def test_a_line_without_a_speaker_is_spoken_by_the_seat_on_the_main_tab(
    client: TestClient,
) -> None:
    table = _table(client)
    table.do("seat:2", {"type": "say", "text": "hi"})
    line = table.events("public")[-1]["line"]
    assert (line["speaker"], line["tab"]) == ("Ben", "メイン")


def test_a_dice_command_at_the_start_of_a_line_is_rolled(client: TestClient) -> None:
    table = _table(client)
    event = table.do("seat:1", {"type": "say", "text": "2D6>=7 忍び足", "tab": "メイン"})["events"][
        0
    ]
    assert event["type"] == "DiceRolled"
    roll = event["public"]["roll"]
    assert roll["expression"] == "2D6>=7" and roll["comment"] == "忍び足"
    assert roll["draw"]["roll"] == 1
    line = event["line"]
    assert line["kind"] == "roll" and line["text"].startswith("(2D6>=7)")
    assert line["text"].endswith("忍び足")
    assert line["outcome"] == ("success" if roll["result"]["success"] else "failure")


def test_text_bcdice_does_not_know_is_a_message(client: TestClient) -> None:
    table = _table(client)
    event = table.do("seat:1", {"type": "say", "text": "hello 2d6 there"})["events"][0]
    assert event["type"] == "Said"


def test_chat_before_the_start_but_no_rolls(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    assert table.do("seat:1", {"type": "say", "text": "waiting for Ben"})["events"]
    before = table.log_bytes()
    refused = table.send("seat:1", {"type": "say", "text": "1D6"})
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_started"
    assert table.log_bytes() == before


def test_an_unknown_tab_is_refused_and_the_gm_may_open_one(client: TestClient) -> None:
    table = _table(client)
    before = table.log_bytes()
    refused = table.send("seat:1", {"type": "say", "text": "hi", "tab": "戦闘"})
    assert refused.status_code == 422
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "unknown_tab" and "メイン" in refused.json()["detail"]
    assert table.log_bytes() == before

    assert table.send("seat:1", {"type": "add_tab", "name": "戦闘"}).json()["code"] == "gm_only"
    table.do("gm", {"type": "add_tab", "name": "戦闘"})
    assert table.send("gm", {"type": "add_tab", "name": "戦闘"}).json()["code"] == "tab_exists"
    table.do("seat:1", {"type": "say", "text": "hi", "tab": "戦闘"})
    assert client.get(f"/games/{table.game_id}/view").json()["tabs"] == [
        "メイン",
        "情報",
        "雑談",
        "戦闘",
    ]


def test_bad_speaker_colour_is_refused(client: TestClient) -> None:
    table = _table(client)
    refused = table.send("seat:1", {"type": "say", "text": "hi", "color": "red;x"})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"


def test_a_whisper_is_sealed_to_its_author_the_gm_and_those_named(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"])
    table.join_all()
    table.do("gm", {"type": "start"})
    event = table.do("seat:1", {"type": "say", "text": "meet me at dawn", "to": ["seat:2"]})[
        "events"
    ][0]
    assert event["type"] == "Said" and event["sealed"]["audience"] == ["seat:1", "seat:2"]
    for reader in ("seat:1", "seat:2", "gm"):
        line = table.events(reader)[-1]["line"]
        assert line["text"] == "meet me at dawn" and not line["hidden"]
    for outsider in ("seat:3", "public"):
        response = client.get(
            f"/games/{table.game_id}/events", headers=table.auth(outsider)
        ).content
        assert b"meet me at dawn" not in response
        assert table.events(outsider)[-1]["line"]["text"] == "秘話"


def test_a_blind_roll_is_read_by_the_gm_alone(client: TestClient) -> None:
    table = _table(client)
    event = table.do("seat:1", {"type": "roll", "expression": "1D100<=50 聞き耳", "blind": True})[
        "events"
    ][0]
    assert event["sealed"]["audience"] == ["gm"]
    assert event["secret"] is None  # the roller does not see its own blind roll
    assert event["line"]["text"] == "ブラインドダイス"
    gm_line = table.events("gm")[-1]
    assert gm_line["secret"]["expression"] == "1D100<=50"
    assert gm_line["line"]["text"].startswith("(1D100<=50)")
    for other in ("seat:1", "seat:2", "public"):
        body = client.get(f"/games/{table.game_id}/events", headers=table.auth(other)).content
        assert b"1D100" not in body and b"faces" not in body.split(b'"seq":6', 1)[-1]
    assert table.events("seat:2")[-1]["line"]["text"] == "シークレットダイス"

    # The roller may not publish what it cannot read; the GM may.
    before = table.log_bytes()
    refused = table.send("seat:1", {"type": "reveal", "seq": event["seq"]})
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_secret"
    assert table.log_bytes() == before
    revealed = table.do("gm", {"type": "reveal", "seq": event["seq"]})["events"][0]
    assert revealed["line"]["concerns"] == event["seq"]
    assert table.events("seat:1")[event["seq"] - 1]["line"]["text"].startswith("(1D100<=50)")


def test_a_blind_line_in_the_chat_and_the_s_prefix(client: TestClient) -> None:
    table = _table(client)
    blind = table.do("seat:1", {"type": "say", "text": "1D20 search", "blind": True})
    assert blind["events"][0]["sealed"]["audience"] == ["gm"]
    secret = table.do("seat:1", {"type": "say", "text": "S2D6 stealth"})["events"][0]
    assert secret["sealed"]["audience"] == ["seat:1"]
    assert secret["line"]["text"].startswith("(2D6)")  # the roller reads its secret roll
    assert table.events("seat:2")[-1]["line"]["text"] == "シークレットダイス"


def test_a_whispered_roll_is_sealed_to_its_roller_the_gm_and_those_named(
    client: TestClient,
) -> None:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"])
    table.join_all()
    table.do("gm", {"type": "start"})
    event = table.do("seat:1", {"type": "say", "text": "2D6 WHISPERED_ROLL", "to": ["seat:2"]})[
        "events"
    ][0]
    assert event["type"] == "DiceRolled"
    assert event["sealed"]["audience"] == ["seat:1", "seat:2"]
    for reader in ("seat:1", "seat:2", "gm"):
        assert "WHISPERED_ROLL" in table.events(reader)[-1]["line"]["text"]
    for outsider in ("seat:3", "public"):
        body = client.get(f"/games/{table.game_id}/events", headers=table.auth(outsider)).content
        assert b"WHISPERED_ROLL" not in body
        assert table.events(outsider)[-1]["line"]["text"] == "シークレットダイス"
