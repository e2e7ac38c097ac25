"""Rulings with stable ids: docs/rulings.md's three numbered lists become one page per ruleset in
its docs folder (`NS-001`, `CL-001`, `MD-001`: the number is the ruling's position in today's
list, zero-padded), and every citation by position in code, tests and docs ("ruling 96",
"rulings 84 and 85", "rulings 67–73", "(docs/rulings.md 18)", 「裁定62」) is rewritten to the ids.

    python docs/tools/ruling_ids.py            # convert and rewrite, in place
    python docs/tools/ruling_ids.py --check    # change nothing; list what would change

A file's citations refer to the list of the ruleset the file belongs to, from its path
(chojin_locke → CL, ninja_slayer → NS, mech_d20 → MD); a file that cites rulings by number but
belongs to no ruleset, or cites a number its ruleset's list does not have, stops the run with
the list of them (nothing is written). Safe to run again: once docs/rulings.md is an index the
conversion is skipped, and citations already by id are left alone; the same tree always gives
the same result.

A ruling no code or test cites is marked *Uncited* on its page (today most of the early rulings:
code cited them as "docs/rulings.md" without a number); tests/docs/test_rulings.py fails on a
cited id that does not exist, on an unmarked ruling nobody cites, and on a marked one that is
cited (drop the mark when adding the citation).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tokenize
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "docs" / "rulings.md"


@dataclass(frozen=True)
class RulesetRulings:
    prefix: str  # the id's prefix, e.g. "CL"
    heading: str  # its section's heading in the old docs/rulings.md
    folder: str  # docs/rulesets/<folder>/
    path_marks: tuple[str, ...]  # a file whose path holds one of these belongs to the ruleset


RULESETS = (
    RulesetRulings("NS", "ニンジャスレイヤー", "ninja-slayer", ("ninja_slayer", "ninja-slayer")),
    RulesetRulings("CL", "超人ロック", "chojin-locke", ("chojin_locke", "chojin-locke")),
    RulesetRulings("MD", "メカd20", "mech-d20", ("mech_d20", "mech-d20")),
)
BY_PREFIX = {r.prefix: r for r in RULESETS}
PAGE_BUDGET = 28_000  # bytes: a ruleset's rulings over it are split, CHUNK rulings a page
CHUNK = 20
UNCITED = (
    "*Uncited: no code or test cites this ruling by its id yet (the table applies it, or its "
    "code is still to cite it).*"
)
SUFFIXES = {".py", ".js", ".html", ".css", ".md", ".toml", ".txt"}
SELF = {"docs/tools/ruling_ids.py", "tests/docs/test_rulings.py", "docs/rulings.md"}

# "ruling 96", "Rulings 84 and 85", "rulings 67–73", "rulings 74, 86", "rulings 92-93"
NUMBERS = (
    r"\d+(?:\s*[–-]\s*\d+)?(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*,\s*and\s+)\d+(?:\s*[–-]\s*\d+)?)*"
)
CITATION = re.compile(rf"\b(?P<word>[Rr]ulings?)(?P<space>\s+)(?P<numbers>{NUMBERS})\b(?![\w.]\d)")
# "(docs/rulings.md 18)": the old list's position after the file's name
FILE_CITATION = re.compile(r"docs/rulings\.md (?P<numbers>\d+)\b")
# 「裁定62」 in a string a player reads
JAPANESE = re.compile(r"裁定(?P<numbers>\d+)")
ONE_NUMBER = re.compile(r"\d+")
ID = re.compile(r"\b(?P<prefix>NS|CL|MD)-(?P<number>\d{3})\b")
ID_RANGE = re.compile(r"\b(NS|CL|MD)-(\d{3})\s*[–-]\s*(?:\1-)?(\d{3})\b")


# ------------------------------------------------------------------------- the old lists


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    body: str  # Markdown, the list item's text de-dented


def parse_old(text: str) -> tuple[str, dict[str, tuple[str, list[Ruling]]]]:
    """The old page: its preamble, and per ruleset prefix its section's intro and rulings."""
    sections = re.split(r"^## ", text, flags=re.M)
    preamble = sections[0]
    found: dict[str, tuple[str, list[Ruling]]] = {}
    for section in sections[1:]:
        heading, _, rest = section.partition("\n")
        ruleset = next((r for r in RULESETS if r.heading == heading.strip()), None)
        if ruleset is None:
            raise SystemExit(f"docs/rulings.md: a section no ruleset has: {heading!r}")
        items = re.split(r"^(?=\d+\. )", rest, flags=re.M)
        intro = items[0].strip()
        rulings = []
        for position, item in enumerate(items[1:], 1):
            number, _, first = item.partition(". ")
            if int(number) != position:
                raise SystemExit(f"{heading}: ruling {number} is at position {position}")
            lines = item.rstrip("\n").split("\n")
            indent = len(number) + 2
            body = [first.split("\n", 1)[0]] + [
                line[indent:] if line[:indent].strip() == "" else line.lstrip()
                for line in lines[1:]
            ]
            text_body = "\n".join(body).strip()
            match = re.match(r"\*\*(.+?)\*\*", text_body)
            title = match.group(1).rstrip(".") if match else text_body.split("\n")[0][:60]
            rulings.append(Ruling(f"{ruleset.prefix}-{position:03d}", title, text_body))
        found[ruleset.prefix] = (intro, rulings)
    return preamble, found


def is_old_form(text: str) -> bool:
    return re.search(r"^1\. ", text, flags=re.M) is not None


# ------------------------------------------------------------------------- citations


def ruleset_of(path: str) -> RulesetRulings | None:
    for ruleset in RULESETS:
        if any(mark in path for mark in ruleset.path_marks):
            return ruleset
    return None


def _expand(numbers: str) -> list[int]:
    """Every number a citation names, its ranges expanded."""
    cited: list[int] = []
    for part in re.split(r"\s*,\s*and\s+|\s*,\s*|\s+and\s+|\s+or\s+", numbers):
        bounds = [int(n) for n in ONE_NUMBER.findall(part)]
        cited += list(range(bounds[0], bounds[-1] + 1)) if len(bounds) == 2 else bounds
    return cited


def _ids(numbers: str, prefix: str) -> str:
    """`84 and 85` → `CL-084 and CL-085`; `67–73` → `CL-067–CL-073`, separators kept."""
    return ONE_NUMBER.sub(lambda m: f"{prefix}-{int(m.group()):03d}", numbers)


def rewrite(text: str, prefix: str, count: int) -> tuple[str, list[int]]:
    """The text with its numbered citations by id, and the numbers out of the list's range."""
    wrong: list[int] = []

    def check(numbers: str) -> None:
        wrong.extend(n for n in _expand(numbers) if not 1 <= n <= count)

    def cite(match: re.Match[str]) -> str:
        check(match["numbers"])
        return f"{match['word']}{match['space']}{_ids(match['numbers'], prefix)}"

    def cite_file(match: re.Match[str]) -> str:
        check(match["numbers"])
        return f"ruling {_ids(match['numbers'], prefix)}"

    def cite_japanese(match: re.Match[str]) -> str:
        check(match["numbers"])
        return f"裁定{_ids(match['numbers'], prefix)}"

    text = FILE_CITATION.sub(cite_file, text)
    text = CITATION.sub(cite, text)
    text = JAPANESE.sub(cite_japanese, text)
    return text, wrong


def cited_ids(text: str) -> set[str]:
    """Every ruling id a text cites, ranges (`CL-067–CL-073`) expanded."""
    ids = {m.group() for m in ID.finditer(text)}
    for prefix, low, high in ID_RANGE.findall(text):
        ids |= {f"{prefix}-{n:03d}" for n in range(int(low), int(high) + 1)}
    return ids


def tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    return sorted(
        path
        for path in listed
        if path and Path(path).suffix in SUFFIXES and path not in SELF and (ROOT / path).exists()
    )


def code_files() -> list[str]:
    """The files whose citations count as code or tests implementing a ruling."""
    return [
        p
        for p in tracked_files()
        if p.split("/", 1)[0] in {"api", "domain", "projections", "replay", "tests"}
    ]


LINE_LENGTH = 100  # pyproject.toml's [tool.ruff] line-length


def fit_lines(old: str, new: str) -> str:
    """A Python file's lines that the ids made longer than LINE_LENGTH, wrapped as the text they
    are: a comment goes on in a comment below, a docstring's (any triple-quoted string's) line
    on the next line at the same indentation, a comment rule of dashes loses dashes; a line of
    code that cannot wrap (a one-line string) gets `# noqa: E501`. The rewrite keeps lines one
    for one, so old and new lines pair up."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    if len(old_lines) != len(new_lines):
        return new
    long = [
        n
        for n, (before, after) in enumerate(zip(old_lines, new_lines, strict=True))
        if width(after) > LINE_LENGTH and after != before
    ]
    if not long:
        return new
    kinds = _token_kinds(new)
    out: list[str] = []
    for n, line in enumerate(new_lines):
        out += _fit(line, kinds.get(n + 1, [])) if n in long else [line]
    return "\n".join(out)


def width(text: str) -> int:
    """A line's width as ruff measures it: East Asian wide and fullwidth characters count 2."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _last_space_within(line: str, start: int) -> int:
    """The index of the last space after `start` that leaves the line's head within the limit."""
    best, used = -1, 0
    for index, char in enumerate(line):
        if used > LINE_LENGTH:
            break
        if char == " " and index > start:
            best = index
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return best


def _token_kinds(text: str) -> dict[int, list[tuple[int, int, str]]]:
    """Per line (1-based): the comment and triple-quoted string spans on it (start, end, kind)."""
    kinds: dict[int, list[tuple[int, int, str]]] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return kinds
    for token in tokens:
        if token.type == tokenize.COMMENT:
            kinds.setdefault(token.start[0], []).append((token.start[1], token.end[1], "comment"))
        elif token.type == tokenize.STRING and token.string.lstrip("rbuRBUfF")[:3] in {
            '"""',
            "'''",
        }:
            for row in range(token.start[0], token.end[0] + 1):
                start = token.start[1] if row == token.start[0] else 0
                end = token.end[1] if row == token.end[0] else 10**6
                kinds.setdefault(row, []).append((start, end, "text"))
    return kinds


def _fit(line: str, kinds: list[tuple[int, int, str]]) -> list[str]:
    dashes = re.search(r"-{10,}", line)
    if dashes and width(line) - LINE_LENGTH < len(dashes.group()) - 3:
        cut = width(line) - LINE_LENGTH
        return [line[: dashes.start()] + line[dashes.start() + cut :]]
    indent = line[: len(line) - len(line.lstrip())]
    split = _last_space_within(line, len(indent) + 10)
    kind = next((k for start, end, k in kinds if start <= split < end), None)
    if split < 0 or kind is None:
        return [line + "  # noqa: E501"] if kind is None and "noqa" not in line else [line]
    head, rest = line[:split].rstrip(), line[split + 1 :]
    if kind == "comment":
        comment_at = next(start for start, _end, k in kinds if k == "comment")
        code_indent = indent if comment_at > len(indent) else line[:comment_at]
        tail = f"{code_indent}# {rest}"
        if width(tail) <= LINE_LENGTH:
            return [head, tail]
        return [head, *_fit(tail, [(len(code_indent), len(tail), "comment")])]
    tail = f"{indent}{rest}"
    return [head, *(_fit(tail, [(0, len(tail), "text")]) if width(tail) > LINE_LENGTH else [tail])]


# ------------------------------------------------------------------------- the new pages


def rulings_dir(ruleset: RulesetRulings) -> Path:
    return ROOT / "docs" / "rulesets" / ruleset.folder


def _entry(ruling: Ruling, cited: bool, prefix: str, count: int) -> str:
    body, _wrong = rewrite(ruling.body, prefix, count)
    lines = [f"## {ruling.id}: {ruling.title} {{ #{ruling.id} }}", "", body, ""]
    if not cited:
        lines += [UNCITED, ""]
    return "\n".join(lines)


def ruleset_pages(
    ruleset: RulesetRulings, intro: str, rulings: list[Ruling], cited: set[str]
) -> dict[Path, str]:
    count = len(rulings)
    intro, _wrong = rewrite(intro, ruleset.prefix, count)
    about = (
        f"Each ruling has a stable id ({ruleset.prefix}-001 …), the number its place in the list "
        "when ids were given; code, tests and docs cite it by id. A new ruling is appended at the "
        "end of the last page with the next number, quoting the seed's line; a ruling is never "
        "renumbered. A ruling no code or test cites by id is marked *Uncited*; citing it in the "
        "code that implements it, drop the mark (tests/docs/test_rulings.py checks both ways)."
    )
    entries = [_entry(r, r.id in cited, ruleset.prefix, count) for r in rulings]
    title = f"# {ruleset.heading}: rulings"
    single = "\n".join([title, "", intro, "", about, "", *entries])
    folder = rulings_dir(ruleset)
    if len(single.encode()) <= PAGE_BUDGET:
        return {folder / "rulings.md": single.rstrip() + "\n"}
    pages: dict[Path, str] = {}
    index = [title, "", intro, "", about, "", "| id | ruling |", "|---|---|"]
    for start in range(0, count, CHUNK):
        chunk = rulings[start : start + CHUNK]
        name = f"rulings-{start + 1:03d}.md"
        for ruling in chunk:
            index.append(f"| [{ruling.id}]({name}#{ruling.id}) | {ruling.title} |")
        page = [
            f"# {ruleset.heading}: rulings {chunk[0].id}–{chunk[-1].id}",
            "",
            "The list and how rulings are kept: [rulings](rulings.md).",
            "",
            *entries[start : start + CHUNK],
        ]
        pages[folder / name] = "\n".join(page).rstrip() + "\n"
    pages[folder / "rulings.md"] = "\n".join(index).rstrip() + "\n"
    return pages


def index_page(preamble: str) -> str:
    title, _, rest = preamble.strip().partition("\n")
    lines = [title, "", rest.strip(), ""] if rest.strip() else [title, ""]
    for ruleset in RULESETS:
        lines.append(
            f"- [{ruleset.heading}](rulesets/{ruleset.folder}/rulings.md): `{ruleset.prefix}-001` …"
        )
    return "\n".join(lines).rstrip() + "\n"


def defined_ids() -> dict[str, set[str]]:
    """The ids each ruleset's pages define, and (under "table-only") the ones marked so."""
    defined: dict[str, set[str]] = {"all": set(), "uncited": set()}
    for ruleset in RULESETS:
        for page in sorted(rulings_dir(ruleset).glob("rulings*.md")):
            for block in re.split(r"^## ", page.read_text(encoding="utf-8"), flags=re.M)[1:]:
                match = re.match(rf"({ruleset.prefix}-\d{{3}}):", block)
                if match:
                    defined["all"].add(match.group(1))
                    if UNCITED in block:
                        defined["uncited"].add(match.group(1))
    return defined


# ------------------------------------------------------------------------- the run


def plan() -> tuple[dict[Path, str], list[str]]:
    """Every file to write (path → new text) and every problem found; writes nothing."""
    writes: dict[Path, str] = {}
    problems: list[str] = []
    counts: dict[str, int] = {}
    old_text = OLD.read_text(encoding="utf-8") if OLD.exists() else ""
    converting = is_old_form(old_text)
    if converting:
        preamble, found = parse_old(old_text)
        counts = {prefix: len(rulings) for prefix, (_intro, rulings) in found.items()}
    else:
        ids = defined_ids()["all"]
        for prefix in BY_PREFIX:
            counts[prefix] = max((int(i[3:]) for i in ids if i.startswith(prefix)), default=0)

    cited: set[str] = set()
    for path in tracked_files():
        text = (ROOT / path).read_text(encoding="utf-8")
        ruleset = ruleset_of(path)
        if ruleset is None:
            if CITATION.search(text) or FILE_CITATION.search(text) or JAPANESE.search(text):
                problems.append(f"{path}: cites rulings by number but belongs to no ruleset")
            continue
        new, wrong = rewrite(text, ruleset.prefix, counts.get(ruleset.prefix, 0))
        if wrong:
            problems.append(f"{path}: {ruleset.prefix} has no ruling {sorted(set(wrong))}")
        if path.endswith(".py"):
            new = fit_lines(text, new)
        if new != text:
            writes[ROOT / path] = new
        if path.split("/", 1)[0] in {"api", "domain", "projections", "replay", "tests"}:
            cited |= cited_ids(new)

    if converting:
        for prefix, (intro, rulings) in found.items():
            writes.update(ruleset_pages(BY_PREFIX[prefix], intro, rulings, cited))
        writes[OLD] = index_page(preamble)
    return writes, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; list the changes")
    args = parser.parse_args(argv)
    writes, problems = plan()
    if problems:
        print("nothing written; fix these first (by hand):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    for path in sorted(writes):
        relative = path.relative_to(ROOT)
        if args.check:
            print(f"would write {relative}")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(writes[path], encoding="utf-8")
        print(f"wrote {relative}")
    if not writes:
        print("nothing to change")
    return 0


if __name__ == "__main__":
    sys.exit(main())
