"""Point code, tests and docs at the docs pages' new places (the docs site of issue #36).

    python docs/tools/moved_docs.py            # rewrite, in place
    python docs/tools/moved_docs.py --check    # change nothing; list what would change

Only the old paths are rewritten (`docs/dice.md` → `docs/reference/dice.md`, …); a new path never
matches an old one, so running it again changes nothing. Lines of Python made longer than ruff's
limit are wrapped as docs/tools/ruling_ids.py wraps them. Afterwards every `docs/….md` a file
names must exist: the run lists any that does not.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ruling_ids import ROOT, fit_lines, tracked_files

MOVED = {
    "docs/design.md": "docs/explanation/design/index.md",
    "docs/dice.md": "docs/reference/dice.md",
    "docs/live.md": "docs/reference/live.md",
    "docs/replay.md": "docs/reference/replay.md",
    "docs/verification.md": "docs/reference/verification.md",
    "docs/writing-a-ruleset.md": "docs/how-to/write-a-ruleset.md",
    "docs/rulesets/chojin-locke.md": "docs/rulesets/chojin-locke/index.md",
    "docs/rulesets/ninja-slayer.md": "docs/rulesets/ninja-slayer/index.md",
    "docs/rulesets/mech-d20.md": "docs/rulesets/mech-d20/index.md",
}
OLD = re.compile("|".join(re.escape(old) for old in MOVED) + r"(?![\w/-])")
NAMED = re.compile(r"\bdocs/[\w/.-]+?\.md\b")
SKIP = {"docs/tools/moved_docs.py"}
# Pages docs/tools/kiroku_docs.py writes at build time: named, never on disk.
GENERATED = (
    "docs/reference/cli.md",
    "docs/reference/http-api.md",
    "docs/reference/http/",
    "docs/reference/rulesets/",
)


def plan() -> tuple[dict[Path, str], list[str]]:
    writes: dict[Path, str] = {}
    missing: list[str] = []
    for path in tracked_files():
        if path in SKIP:
            continue
        text = (ROOT / path).read_text(encoding="utf-8")
        new = OLD.sub(lambda m: MOVED[m.group()], text)
        if path.endswith(".py"):
            new = fit_lines(text, new)
        if new != text:
            writes[ROOT / path] = new
        if path.startswith("docs/tools/"):
            continue
        for named in sorted(set(NAMED.findall(new))):
            if not (ROOT / named).exists() and not named.startswith(GENERATED):
                missing.append(f"{path}: {named}")
    return writes, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; list the changes")
    args = parser.parse_args(argv)
    writes, missing = plan()
    for path in sorted(writes):
        if not args.check:
            path.write_text(writes[path], encoding="utf-8")
        print(f"{'would write' if args.check else 'wrote'} {path.relative_to(ROOT)}")
    if not writes:
        print("nothing to change")
    for line in missing:
        print(f"names a page that does not exist: {line}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
