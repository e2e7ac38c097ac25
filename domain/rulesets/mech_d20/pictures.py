"""A battle map's background picture, uploaded by the GM with `set_map` (issue 37).

PNG, JPEG or WebP only, recognised by the bytes themselves (never by a name or a declared type:
an SVG, HTML or anything else is refused), at most `MAX_PICTURE_BYTES`, named by the sha256 of
its bytes. The picture travels inside the `MapSet` event, so it is part of the log's hashed
record: an export carries it, the chain verifies it, and a replay shows the same picture. It is
served from `GET /games/{id}/pictures/{sha256}` (api/routes/pictures.py) with the type found
here and headers under which nothing in it can run.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.errors import KirokuError

# Base64 of this many bytes fits the API's 64 KiB request body (api/limits.py) with the map.
MAX_PICTURE_BYTES = 45_000
MAX_ENCODED = 4 * ((MAX_PICTURE_BYTES + 2) // 3)
MediaType = Literal["image/png", "image/jpeg", "image/webp"]


class Picture(BaseModel):
    model_config = ConfigDict(frozen=True)

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    media_type: MediaType
    size: int = Field(ge=1, le=MAX_PICTURE_BYTES)
    data: str = Field(max_length=MAX_ENCODED, description="the bytes, base64")


def sniff(raw: bytes) -> MediaType | None:
    """The picture's type from its first bytes (PNG signature and IHDR, JPEG SOI, RIFF/WEBP)."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n") and raw[12:16] == b"IHDR":
        return "image/png"
    if raw.startswith(b"\xff\xd8\xff") and raw.endswith(b"\xff\xd9"):
        return "image/jpeg"
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP" and raw[12:15] == b"VP8":
        return "image/webp"
    return None


def picture_of(encoded: str) -> Picture:
    """Check an uploaded picture (base64) and name it by its hash, or refuse it."""
    if len(encoded) > MAX_ENCODED:
        raise KirokuError(
            "picture_too_large",
            "背景画像は{MAX_PICTURE_BYTES}バイトまで。",
            params={"MAX_PICTURE_BYTES": MAX_PICTURE_BYTES},
        )
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise KirokuError("bad_picture", "背景画像はbase64で送ること。") from error
    if not raw or len(raw) > MAX_PICTURE_BYTES:
        raise KirokuError(
            "picture_too_large",
            "背景画像は{MAX_PICTURE_BYTES}バイトまで。",
            params={"MAX_PICTURE_BYTES": MAX_PICTURE_BYTES},
        )
    media = sniff(raw)
    if media is None:
        raise KirokuError(
            "bad_picture", "背景画像はPNG、JPEG、WebPのいずれか (ファイルの中身で判定する) に限る。"
        )
    digest = hashlib.sha256(raw).hexdigest()
    return Picture(
        sha256=digest, media_type=media, size=len(raw), data=base64.b64encode(raw).decode()
    )


def picture_bytes(picture: Picture) -> bytes:
    return base64.b64decode(picture.data)
