"""Only terms are translated inside a message (issue 33 item 4): an argument the message
declares as a term (`N_("…")`, a `Term`, a `Message`) is read in the reader's language; a name
the players typed reads as typed, even one spelled exactly like a catalog key."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.errors import read
from domain.model.messages import N_, Message, Term
from tests.table import Table

JA = {"Accept-Language": "ja"}
EN = {"Accept-Language": "en"}
NO_SESSION = "{name} has no browser session to revoke."


def test_a_term_is_translated_and_a_typed_name_is_not() -> None:
    assert read(NO_SESSION, {"name": N_("移動フェイズ")}, "en") == (
        "Movement Phase has no browser session to revoke."
    )
    assert (
        read(NO_SESSION, {"name": Term("host")}, "ja")
        == "ホストにはサインアウトさせるブラウザがありません。"
    )
    assert read(NO_SESSION, {"name": "移動フェイズ"}, "en") == (
        "移動フェイズ has no browser session to revoke."
    )
    assert (
        read(NO_SESSION, {"name": "host"}, "ja")
        == "hostにはサインアウトさせるブラウザがありません。"
    )
    # a Message argument and a tuple of terms are read too
    said = Message("Only the {referee} can {what}.", {"referee": "GM", "what": N_("end the game")})
    assert read("{field}: {reason}", {"field": "GM", "reason": said}, "ja") == (
        "GM：ゲームを終了することができるのはGMだけです。"
    )


def test_a_placeholder_named_for_a_term_reads_its_plain_text() -> None:
    """A status read back from the state is plain text: the message's {status} marks it."""
    said = read("{found} is {status} and cannot act.", {"found": "気絶", "status": "気絶"}, "en")
    assert said == "気絶 is Kizetsu (unconscious) and cannot act."


def test_seats_named_like_catalog_keys_keep_their_names(client: TestClient) -> None:
    table = Table.create(client, seats=["移動フェイズ", "host"])
    for seat, headers, name in ((1, EN, "移動フェイズ"), (2, JA, "host")):
        body = {"type": "revoke_sessions", "audience": f"seat:{seat}"}
        refused = table.send("gm", body, **headers).json()
        assert refused["code"] == "no_sessions", refused
        assert refused["detail"].startswith(f"{name} has" if headers is EN else f"{name}には")
    # the referee's phrases are terms: still read in the reader's language
    table.join_all()
    refused = table.send("seat:1", {"type": "start"}, **JA).json()
    assert refused["code"] == "gm_only"
    assert refused["detail"] == "ゲームを開始することができるのはGMだけです。"
