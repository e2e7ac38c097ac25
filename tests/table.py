"""Drive a game through the HTTP API the way a client would."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from httpx import Response


@dataclass
class Table:
    client: TestClient
    game_id: str
    gm_token: str  # the creator's token: the GM's, or in a game without a referee the host's
    invites: dict[int, str]
    tokens: dict[str, str] = field(default_factory=dict)  # actor → token
    creator: str = "gm"  # gm, host, or the seat:N a host sits at

    @classmethod
    def create(cls, client: TestClient, seats: list[str] | None = None, **body: Any) -> Table:
        response = client.post(
            "/games", json={"title": "Test table", "seats": seats or ["Aki", "Ben"], **body}
        )
        assert response.status_code == 201, response.text
        data = response.json()
        table = cls(
            client=client,
            game_id=data["game_id"],
            gm_token=data["gm_token"] or data["host_token"],
            invites={s["seat"]: s["invite"] for s in data["seats"] if s["invite"] is not None},
            creator=data["creator"],
        )
        table.tokens[table.creator] = table.gm_token
        return table

    def join(self, seat: int, client_seed: str | None = None) -> str:
        body: dict[str, Any] = {"invite": self.invites[seat]}
        if client_seed is not None:
            body["client_seed"] = client_seed
        response = self.client.post(f"/games/{self.game_id}/join", json=body)
        assert response.status_code == 200, response.text
        self.tokens[f"seat:{seat}"] = response.json()["token"]
        return response.json()["token"]

    def join_all(self) -> None:
        for seat in self.invites:
            self.join(seat)

    def auth(self, actor: str | None) -> dict[str, str]:
        if actor is None or actor == "public":
            return {}
        return {"Authorization": f"Bearer {self.tokens[actor]}"}

    def send(self, actor: str | None, body: dict[str, Any], **headers: str) -> Response:
        return self.client.post(
            f"/games/{self.game_id}/commands", json=body, headers={**self.auth(actor), **headers}
        )

    def do(self, actor: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.send(actor, body)
        assert response.status_code == 201, response.text
        return response.json()

    def events(self, actor: str | None = None, after: int = 0) -> list[dict[str, Any]]:
        response = self.client.get(
            f"/games/{self.game_id}/events", params={"after": after}, headers=self.auth(actor)
        )
        assert response.status_code == 200, response.text
        return response.json()["events"]

    def log_bytes(self) -> bytes:
        """The creator's full event list (the GM's, or the host's: every event, secrets
        redacted), as bytes: what 'nothing appended' is checked against."""
        headers = self.auth(self.creator)
        return self.client.get(f"/games/{self.game_id}/events", headers=headers).content
