"""The OpenAPI document builds and describes every endpoint and command type."""

from __future__ import annotations

from fastapi.testclient import TestClient

from domain.rulesets import all_rulesets


def test_openapi_lists_every_endpoint_and_command(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = set(spec["paths"])
    assert {
        "/games",
        "/games/{game_id}/join",
        "/games/{game_id}/commands",
        "/games/{game_id}/events",
        "/games/{game_id}/view",
        "/games/{game_id}/stream",
        "/games/{game_id}/verify",
        "/games/{game_id}/replay",
        "/games/{game_id}/audit",
        "/healthz",
    } <= paths
    text = client.get("/openapi.json").text
    built_in = [r for r in all_rulesets() if type(r).__module__.startswith("domain.")]
    assert {"freeform"} <= {r.id for r in built_in}
    command_types = {"start", "roll", "note", "reveal", "end"} | {
        command.model_fields["type"].default for ruleset in built_in for command in ruleset.commands
    }
    for command_type in command_types:
        assert f'"{command_type}"' in text, command_type
    security = spec["components"]["securitySchemes"]
    assert any(scheme.get("scheme") == "bearer" for scheme in security.values())
