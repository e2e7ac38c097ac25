"""A state's schema never changes under the same version (tests/contract/state_versions.py)."""

from __future__ import annotations

from tests.contract.state_versions import current, problems, recorded


def test_every_stored_state_schema_is_recorded_under_its_version() -> None:
    assert problems(recorded(), current()) == []


def test_a_schema_change_without_a_version_bump_is_named() -> None:
    now = current()
    version, _fingerprint = now["ninja_slayer"]
    changed = {**now, "ninja_slayer": (version, "another schema")}
    (problem,) = problems(recorded(), changed)
    assert "ninja_slayer's state schema changed" in problem and repr(version) in problem
    bumped = {**now, "ninja_slayer": ("999", "another schema")}
    (unrecorded,) = problems(recorded(), bumped)
    assert "ninja_slayer version '999' is not recorded" in unrecorded
