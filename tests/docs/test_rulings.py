"""Rulings and their citations agree, in whichever form docs/rulings.md is in.

- Old form (three numbered lists, before docs/tools/ruling_ids.py has run): every numbered
  citation in a ruleset's code, tests and docs names a ruling its list has.
- New form (one page per ruleset, ids `NS-001`, `CL-001`, `MD-001`): every cited id exists, every
  ruling is cited by some code or test unless its page marks it *Uncited*, and none marked so is
  cited. The migration itself is checked on a copy of the tree (idempotent, deterministic).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "tools"))

import ruling_ids  # noqa: E402

OLD_FORM = ruling_ids.is_old_form(ruling_ids.OLD.read_text(encoding="utf-8"))


@pytest.mark.skipif(not OLD_FORM, reason="docs/rulings.md is in the new form")
def test_old_form_every_numbered_citation_names_a_ruling() -> None:
    _preamble, found = ruling_ids.parse_old(ruling_ids.OLD.read_text(encoding="utf-8"))
    counts = {prefix: len(rulings) for prefix, (_intro, rulings) in found.items()}
    problems = []
    for path in ruling_ids.tracked_files():
        ruleset = ruling_ids.ruleset_of(path)
        text = (ROOT / path).read_text(encoding="utf-8")
        if ruleset is None:
            assert not ruling_ids.CITATION.search(text), f"{path} cites a ruling of no ruleset"
            continue
        _new, wrong = ruling_ids.rewrite(text, ruleset.prefix, counts[ruleset.prefix])
        if wrong:
            problems.append((path, sorted(set(wrong))))
    assert not problems, problems


@pytest.mark.skipif(OLD_FORM, reason="docs/rulings.md is still in the old form")
def test_new_form_citations_and_rulings_agree() -> None:
    defined = ruling_ids.defined_ids()
    cited: set[str] = set()
    for path in ruling_ids.code_files():
        cited |= ruling_ids.cited_ids((ROOT / path).read_text(encoding="utf-8"))
    docs_cited: set[str] = set()
    for path in ruling_ids.tracked_files():
        if path.startswith("docs/"):
            docs_cited |= ruling_ids.cited_ids((ROOT / path).read_text(encoding="utf-8"))
    assert not (cited | docs_cited) - defined["all"], "cited, not defined"
    uncited = defined["all"] - defined["uncited"] - cited
    assert not uncited, (
        f"no code or test cites these (cite them, or mark them Uncited): {sorted(uncited)}"
    )
    stale = defined["uncited"] & cited
    assert not stale, f"marked Uncited, yet cited by code or tests (drop the mark): {sorted(stale)}"


@pytest.mark.skipif(not OLD_FORM, reason="the migration has run")
def test_the_migration_on_a_copy_is_complete_idempotent_and_deterministic(tmp_path: Path) -> None:
    copies = []
    for name in ("one", "two"):
        copy = tmp_path / name
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(copy)], cwd=ROOT, check=True
        )
        copies.append(copy)
    try:
        for copy in copies:
            _sync_working_changes(copy)
            run = [sys.executable, "docs/tools/ruling_ids.py"]
            first = subprocess.run(run, cwd=copy, capture_output=True, text=True)
            assert first.returncode == 0, first.stderr
            again = subprocess.run(run, cwd=copy, capture_output=True, text=True)
            assert again.returncode == 0, again.stderr
            assert again.stdout.strip() == "nothing to change", again.stdout
            check = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "tests/docs/test_rulings.py::test_new_form_citations_and_rulings_agree",
                ],
                cwd=copy,
                capture_output=True,
                text=True,
            )
            assert check.returncode == 0, check.stdout[-3000:]
        one, two = (_tree(c) for c in copies)
        assert one == two
    finally:
        for copy in copies:
            subprocess.run(["git", "worktree", "remove", "--force", str(copy)], cwd=ROOT)


def _sync_working_changes(copy: Path) -> None:
    """The copy as this tree is now, uncommitted changes included."""
    for path in [
        *ruling_ids.tracked_files(),
        "docs/tools/ruling_ids.py",
        "tests/docs/test_rulings.py",
    ]:
        source = ROOT / path
        if source.exists():
            (copy / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy / path)


def _tree(copy: Path) -> dict[str, str]:
    return {
        str(p.relative_to(copy)): p.read_text(encoding="utf-8")
        for p in sorted(copy.rglob("*"))
        if p.is_file()
        and ".git" not in p.parts
        and p.suffix in ruling_ids.SUFFIXES
        and "__pycache__" not in p.parts
    }
