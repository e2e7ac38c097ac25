"""A battle map's background picture (pictures.py, api/routes/pictures.py): PNG, JPEG or WebP
recognised by its bytes, size-limited, named by its hash, carried in the hashed log and served
under headers where nothing in it can run; refusals append nothing."""

from __future__ import annotations

import base64
import hashlib
import struct
import zlib

from fastapi.testclient import TestClient

from domain.rulesets.mech_d20.pictures import MAX_PICTURE_BYTES
from tests.table import Table

from .harness import Game
from .script import Script

GRID = {"width": 4, "height": 3}


def png(width: int = 2, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80\x60\x40" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
WEBP = (
    b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00"
    b"\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def test_png_jpeg_and_webp_are_named_by_their_hash_and_others_refused() -> None:
    game = Game()
    for raw, media in ((png(), "image/png"), (JPEG, "image/jpeg"), (WEBP, "image/webp")):
        event = game.do("gm", "set_map", grid=GRID, background=b64(raw))[0]
        assert event.background.sha256 == hashlib.sha256(raw).hexdigest()
        assert event.background.media_type == media
        assert game.rules.background == event.background.sha256
    for raw in (SVG, b"<html><script>x</script></html>", b"GIF89a" + b"\x00" * 20):
        game.refused("gm", "set_map", "bad_picture", grid=GRID, background=b64(raw))
    game.refused("gm", "set_map", "bad_picture", grid=GRID, background="not base64!")
    big = png() + b"\x00" * (MAX_PICTURE_BYTES + 1 - len(png()))
    game.refused("gm", "set_map", "picture_too_large", grid=GRID, background=b64(big))
    game.refused("gm", "set_map", "no_map", grid=None, background=b64(png()))


def test_a_new_picture_on_the_same_map_keeps_the_units_where_they_stand() -> None:
    game = Game()
    game.add("aki")
    game.do("gm", "set_map", grid=GRID)
    game.do("seat:1", "place_unit", unit="aki", x=1, y=1)
    game.do("gm", "set_map", grid=GRID, background=b64(png()))
    assert game.unit("aki").position is not None


def test_over_http_the_picture_is_served_safely_and_refusals_append_nothing(
    client: TestClient,
) -> None:
    table = Table.create(client, seats=["Aki"], ruleset="mech_d20", options={"dice_policy": "both"})
    script = Script(table)
    table.join(1)
    table.do("gm", {"type": "start"})
    problem = script.refuse("gm", "set_map", "bad_picture", grid=GRID, background=b64(SVG))
    assert "PNG" in problem["detail"]
    raw = png()
    script.do("gm", "set_map", grid=GRID, background=b64(raw))
    sha = hashlib.sha256(raw).hexdigest()
    view = script.rules("seat:1")
    assert view["background"] == {"sha256": sha, "media_type": "image/png", "size": len(raw)}
    for reader in ("seat:1", "public"):
        got = client.get(f"/games/{table.game_id}/pictures/{sha}", headers=table.auth(reader))
        assert got.status_code == 200 and got.content == raw
        assert got.headers["content-type"] == "image/png"
        assert got.headers["x-content-type-options"] == "nosniff"
        assert "sandbox" in got.headers["content-security-policy"]
        assert got.headers["content-security-policy"].startswith("default-src 'none'")
    missing = client.get(f"/games/{table.game_id}/pictures/{'0' * 64}")
    assert missing.status_code == 404
    assert client.get(f"/games/{table.game_id}/pictures/..%2Fetc").status_code in (404, 422)
