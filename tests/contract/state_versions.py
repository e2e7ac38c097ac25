"""Fingerprints of every stored state's schema, by the version that names it.

A stored state (snapshot, projection state) is keyed by its version and schema; code whose
schema changed without a version bump would still read the old states as its own. The test
beside this module compares the schemas with state_versions.json, where each version's
fingerprint is recorded once.
"""

from __future__ import annotations

import json
from pathlib import Path

from domain.model.canonical import sha256_hex
from domain.model.game import GAME_STATE_VERSION, GameState
from domain.rulesets import all_rulesets
from projections.views import PROJECTION_STATE, PROJECTION_VERSION

RECORDED = Path(__file__).with_name("state_versions.json")
Fingerprints = dict[str, dict[str, str]]  # state → {version: fingerprint}


def _fingerprint(schema: object) -> str:
    return sha256_hex(json.dumps(schema, sort_keys=True))


def current() -> dict[str, tuple[str, str]]:
    """(version, fingerprint) of the lifecycle's state, the projection's, each built-in
    ruleset's."""
    states = {
        "lifecycle": (GAME_STATE_VERSION, _fingerprint(GameState.model_json_schema())),
        "projection": (PROJECTION_VERSION, _fingerprint(PROJECTION_STATE.json_schema())),
    }
    for ruleset in all_rulesets():
        if ruleset.State.__module__.startswith("domain."):
            states[ruleset.id] = (ruleset.version, _fingerprint(ruleset.State.model_json_schema()))
    return states


def problems(recorded: Fingerprints, now: dict[str, tuple[str, str]]) -> list[str]:
    found = []
    for name, (version, fingerprint) in sorted(now.items()):
        known = recorded.get(name, {})
        if version not in known:
            found.append(
                f"{name} version {version!r} is not recorded: add "
                f'"{version}": "{fingerprint}" under "{name}" in {RECORDED.name}'
            )
        elif known[version] != fingerprint:
            found.append(
                f"{name}'s state schema changed but its version is still {version!r}: bump the "
                f"version (states stored by older code are then folded again) and record it"
            )
    return found


def recorded() -> Fingerprints:
    data: Fingerprints = json.loads(RECORDED.read_text(encoding="utf-8"))
    return data
