"""The docs site's generated pages, written from the code at build time (docs/tools/hooks.py).

- `reference/http-api.md` from the app's OpenAPI document (and the document itself, as
  `reference/openapi.json`);
- `reference/cli.md` from the `kiroku` command's argparse parser;
- per registered ruleset, `reference/rulesets/<id>/commands*.md` and `events*.md` from the
  ruleset kit's declarations (domain/model/ruleset.py): each command's HTTP `type`, its docstring
  and its decider's, its fields from the command's JSON schema; each event's stored `type`, its
  docstring, its public fields and the fields sealed to an audience. A ruleset may keep prose
  the code cannot give (who sends a command, worked examples) in a notes file beside its pages
  (`docs/rulesets/<folder>/commands.notes.md`, one `## <command name>` section per command);
  the generated page takes each command's section in.

Every function here is pure over the code it reads: the same tree gives the same pages.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# A ruleset's docs folder (its hand-written pages and its notes) by ruleset id.
RULESET_FOLDERS = {
    "freeform": "freeform",
    "ninja_slayer": "ninja-slayer",
    "chojin_locke": "chojin-locke",
    "mech_d20": "mech-d20",
}
# A generated page is split by the ruleset's sub-packages when it would pass this size.
PAGE_BUDGET = 28_000

Schema = dict[str, Any]


# ---------------------------------------------------------------------------- rulesets


def ruleset_folder(ruleset_id: str) -> str:
    return RULESET_FOLDERS.get(ruleset_id, ruleset_id.replace("_", "-"))


def command_notes(ruleset_id: str) -> dict[str, str]:
    """The hand-written notes of a ruleset's commands, by command name (no prefix)."""
    path = DOCS / "rulesets" / ruleset_folder(ruleset_id) / "commands.notes.md"
    if not path.exists():
        return {}
    notes: dict[str, str] = {}
    for block in re.split(r"^## ", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
        name, _, body = block.partition("\n")
        notes[name.strip().strip("`")] = body.strip()
    return notes


def _doc(obj: object) -> str:
    raw = obj.__doc__ if isinstance(obj, type) else getattr(obj, "__doc__", None)
    return inspect.cleandoc(raw) if raw else ""


def _own_doc(cls: type) -> str:
    """A class's docstring when it wrote one (not one inherited from its base)."""
    own = cls.__dict__.get("__doc__")
    if not own:
        return ""
    for base in cls.__mro__[1:]:
        if base.__dict__.get("__doc__") == own:
            return ""
    return inspect.cleandoc(own)


def _type(schema: Schema, defs: dict[str, Schema]) -> str:
    """A JSON schema's type, short: `int ≥ 1`, `"a" | "b"`, `list[Card]`, `X | null`."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        target = defs.get(name, {})
        if "enum" in target:
            return _type(target, defs)
        return name
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    if "enum" in schema:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " | ".join(_type(s, defs) for s in schema[key])
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return _type(schema["allOf"][0], defs)
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_type({**schema, "type": k}, defs) for k in kind)
    if kind == "array":
        items = schema.get("items")
        inner = _type(items, defs) if isinstance(items, dict) else "…"
        if "prefixItems" in schema:
            inner = ", ".join(_type(s, defs) for s in schema["prefixItems"])
            return f"[{inner}]"
        return f"list[{inner}]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return f"dict[str, {_type(extra, defs)}]"
        return "object"
    names = {"integer": "int", "string": "str", "boolean": "bool", "number": "number"}
    text = names.get(str(kind), str(kind) if kind else "any")
    bounds = [
        ("minimum", "≥"),
        ("exclusiveMinimum", ">"),
        ("maximum", "≤"),
        ("exclusiveMaximum", "<"),
        ("minLength", "length ≥"),
        ("maxLength", "length ≤"),
        ("minItems", "items ≥"),
        ("maxItems", "items ≤"),
    ]
    limits = [f"{sign} {schema[key]}" for key, sign in bounds if key in schema]
    return f"{text} ({', '.join(limits)})" if limits else text


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def fields_table(schema: Schema, skip: tuple[str, ...] = ("type",)) -> str:
    """A model's fields as a Markdown table: name, type, required or default, description."""
    defs = schema.get("$defs", {})
    required = set(schema.get("required", ()))
    rows = []
    for name, field in schema.get("properties", {}).items():
        if name in skip:
            continue
        if name in required:
            need = "required"
        elif "default" in field:
            need = "default `" + json.dumps(field["default"], ensure_ascii=False) + "`"
        else:
            need = "optional"
        rows.append(
            f"| `{name}` | {_cell(_type(field, defs))} | {need} | "
            f"{_cell(field.get('description', ''))} |"
        )
    if not rows:
        return "No fields."
    return "\n".join(["| field | type | | description |", "|---|---|---|---|", *rows])


def _group(module: str, package: str) -> str:
    """The part of a ruleset a module belongs to: its sub-package, or "" for the package."""
    rest = module.removeprefix(package).lstrip(".").split(".")
    return rest[0] if len(rest) > 1 else ""


def _command_section(ruleset: Any, command: type, notes: dict[str, str]) -> str:
    type_name = command.model_fields["type"].default  # type: ignore[attr-defined]
    name = type_name.removeprefix(ruleset.prefix)
    decider = ruleset._deciders[command]
    parts = [f"### `{type_name}`", ""]
    doc = _own_doc(command)
    if doc:
        parts += [doc, ""]
    parts += [
        f"Declared in `{command.__module__}.{command.__qualname__}`, decided by "
        f"`{decider.__module__}.{decider.__name__}`.",
        "",
    ]
    decided = _doc(decider)
    if decided and decided != doc:
        parts += ["Decider: " + decided, ""]
    parts += [fields_table(command.model_json_schema()), ""]  # type: ignore[attr-defined]
    if name in notes:
        parts += [notes[name], ""]
    return "\n".join(parts)


def _event_section(ruleset: Any, event: type) -> str:
    schema = event.model_json_schema()  # type: ignore[attr-defined]
    parts = [f"### `{event.type}`", ""]  # type: ignore[attr-defined]
    doc = _own_doc(event)
    if doc:
        parts += [doc, ""]
    fold = ruleset._folds.get(event)
    folded = (
        "changes nothing in the ruleset's state (declared with `ignores`)"
        if fold is None or fold.__name__ == "_ignore"
        else f"folded by `{fold.__module__}.{fold.__name__}`"
    )
    parts += [f"Declared in `{event.__module__}.{event.__qualname__}`; {folded}.", ""]
    parts += ["Public:", "", fields_table(schema, skip=("type", "secret")), ""]
    if event.has_secret():  # type: ignore[attr-defined]
        secret = schema["properties"]["secret"]
        defs = schema.get("$defs", {})
        refs = [s["$ref"] for s in secret.get("anyOf", [secret]) if "$ref" in s]
        if refs:
            sealed = defs[refs[0].rsplit("/", 1)[-1]]
            parts += [
                "Sealed (`secret`: only its commitment is public until it is revealed):",
                "",
                fields_table({**sealed, "$defs": defs}, skip=()),
                "",
            ]
    return "\n".join(parts)


def _split(
    ruleset: Any, items: list[type], render: Any, title: str, stem: str
) -> dict[str, tuple[str, list[type]]]:
    """One page; or, when it would pass PAGE_BUDGET bytes, one per sub-package, and a
    sub-package still over it one per module."""

    def size(members: list[type]) -> int:
        return sum(len(render(item).encode()) for item in members)

    if size(items) <= PAGE_BUDGET:
        return {f"{stem}.md": (title, items)}
    root = _package_of(ruleset)
    pages: dict[str, tuple[str, list[type]]] = {}
    groups: dict[str, list[type]] = {}
    for item in items:
        groups.setdefault(_group(item.__module__, root), []).append(item)
    for group, members in groups.items():
        if size(members) <= PAGE_BUDGET or len({m.__module__ for m in members}) == 1:
            name = f"{stem}.md" if group == "" else f"{stem}-{group}.md"
            pages[name] = (title if group == "" else f"{title}: {group}", members)
            continue
        # Whole modules, in order, packed into pages of at most PAGE_BUDGET bytes each.
        modules: dict[str, list[type]] = {}
        for member in members:
            modules.setdefault(member.__module__, []).append(member)
        packed: list[list[type]] = [[]]
        for inside in modules.values():
            if packed[-1] and size(packed[-1]) + size(inside) > PAGE_BUDGET:
                packed.append([])
            packed[-1].extend(inside)
        for number, inside in enumerate(packed, 1):
            name = "-".join(part for part in (stem, group, str(number)) if part) + ".md"
            label = " ".join(part for part in (group, f"({number} of {len(packed)})") if part)
            pages[name] = (f"{title}: {label}", inside)
    return pages


def _package_of(ruleset: Any) -> str:
    modules = [c.__module__.split(".") for c in (*ruleset.commands, *ruleset.events)]
    common: list[str] = []
    for parts in zip(*modules, strict=False):
        if len(set(parts)) > 1:
            break
        common.append(parts[0])
    return ".".join(common)


def ruleset_pages(ruleset: Any) -> dict[str, str]:
    """The generated reference pages of one ruleset, by path under docs/."""
    notes = command_notes(ruleset.id)
    names = {c.model_fields["type"].default.removeprefix(ruleset.prefix) for c in ruleset.commands}
    unknown = sorted(set(notes) - names)
    if unknown:
        raise ValueError(f"{ruleset.id}: notes for commands that do not exist: {unknown}")
    base = f"reference/rulesets/{ruleset.id}"
    pages: dict[str, str] = {}
    folder = ruleset_folder(ruleset.id)
    guide = DOCS / "rulesets" / folder / "index.md"
    guide_link = f"../../../rulesets/{folder}/index.md" if guide.exists() else None

    def header(title: str, what: str) -> list[str]:
        lines = [
            f"# {title}",
            "",
            f"*Generated from the ruleset kit's declarations of `{ruleset.id}` "
            f"(`{_package_of(ruleset)}`, version {ruleset.version}): {what}.*",
            "",
        ]
        if guide_link:
            lines += [f"The ruleset's guide: [{ruleset.id}]({guide_link}).", ""]
        return lines

    def render_command(c: type) -> str:
        return _command_section(ruleset, c, notes)

    def render_event(e: type) -> str:
        return _event_section(ruleset, e)

    command_pages = _split(
        ruleset, list(ruleset.commands), render_command, f"`{ruleset.id}`: commands", "commands"
    )
    event_pages = _split(
        ruleset, list(ruleset.events), render_event, f"`{ruleset.id}`: events", "events"
    )
    for name, (title, members) in command_pages.items():
        body = header(
            title,
            "every command as `POST /games/{id}/commands` takes it, in the order play meets them",
        )
        body += [render_command(c) for c in members]
        pages[f"{base}/{name}"] = "\n".join(body)
    for name, (title, members) in event_pages.items():
        body = header(title, "every event the ruleset appends, as the log stores it")
        body += [render_event(e) for e in members]
        pages[f"{base}/{name}"] = "\n".join(body)

    index = [
        f"# `{ruleset.id}`",
        "",
        f"*Generated from the ruleset kit's declarations (version {ruleset.version}).*",
        "",
        ruleset.summary,
        "",
        f"Referee by default: **{ruleset.default_referee}**; a game without a referee "
        f"(a host) {'may' if ruleset.hosted else 'may not'} be created.",
        "",
    ]
    if guide_link:
        index += [f"The ruleset's guide: [{ruleset.id}]({guide_link}).", ""]
    index += ["## Commands", "", "| command | page | summary |", "|---|---|---|"]
    for name, (_title, members) in command_pages.items():
        for c in members:
            type_name = c.model_fields["type"].default  # type: ignore[attr-defined]
            summary = _own_doc(c).split("\n\n")[0]
            anchor = _anchor(type_name)
            index.append(f"| [`{type_name}`]({name}#{anchor}) | {name} | {_cell(summary)} |")
    index += ["", "## Events", "", "| event | page |", "|---|---|"]
    for name, (_title, members) in event_pages.items():
        for e in members:
            index.append(f"| [`{e.type}`]({name}#{_anchor(e.type)}) | {name} |")  # type: ignore[attr-defined]
    pages[f"{base}/index.md"] = "\n".join(index) + "\n"
    return pages


def _anchor(type_name: str) -> str:
    """The anchor Python-Markdown's toc gives a heading `` `type_name` ``."""
    return re.sub(r"[^\w-]", "", type_name.lower().replace(" ", "-"))


def rulesets() -> list[Any]:
    from domain.rulesets import all_rulesets

    return sorted(all_rulesets(), key=lambda r: str(r.id))


def ruleset_index() -> str:
    lines = [
        "# Rulesets: generated reference",
        "",
        "*Generated from the registry (domain/rulesets/__init__.py): every registered ruleset, "
        "its commands and its events.*",
        "",
        "| ruleset | commands | events | summary |",
        "|---|---|---|---|",
    ]
    for ruleset in rulesets():
        lines.append(
            f"| [`{ruleset.id}`]({ruleset.id}/index.md) | {len(ruleset.commands)} | "
            f"{len(ruleset.events)} | {_cell(ruleset.summary)} |"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- HTTP API


def openapi_document() -> Schema:
    """The app's OpenAPI document, from an app over a throw-away SQLite store."""
    saved = {k: os.environ.get(k) for k in ("KIROKU_DB", "KIROKU_DATABASE_URL")}
    with tempfile.TemporaryDirectory() as folder:
        os.environ["KIROKU_DB"] = str(Path(folder) / "openapi.db")
        os.environ.pop("KIROKU_DATABASE_URL", None)
        try:
            from api.app import create_app

            app = create_app()
            try:
                document: Schema = app.openapi()
            finally:
                app.state.service.close()
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    return document


def http_api_pages(document: Schema) -> dict[str, str]:
    """`reference/http-api.md` (every operation, one line each) and one page per tag."""
    operations = list(_operations(document))
    tags: dict[str, list[tuple[str, str, Schema]]] = {}
    for method, path, op in operations:
        tags.setdefault((op.get("tags") or ["other"])[0], []).append((method, path, op))
    lines = [
        "# HTTP API",
        "",
        f"*Generated from the app's OpenAPI document ({document['info']['title']} "
        f"{document['info']['version']}). The whole document: [openapi.json](openapi.json); a "
        "running server serves it at `/openapi.json` and browsable at `/docs`.*",
        "",
        "Every error is `application/problem+json` with a stable `code` and a `detail` a "
        "player understands. A ruleset's commands (`POST /games/{id}/commands`) are in the "
        "[ruleset references](rulesets/index.md).",
        "",
        "| method | path | summary |",
        "|---|---|---|",
    ]
    for tag, members in tags.items():
        for method, path, op in members:
            lines.append(
                f"| {method.upper()} | [`{path}`](http/{tag}.md#{_op_anchor(method, path)}) | "
                f"{_cell(op.get('summary', ''))} |"
            )
    pages = {"reference/http-api.md": "\n".join(lines) + "\n"}
    for tag, members in tags.items():
        page = [f"# HTTP API: {tag}", "", "*Generated from the app's OpenAPI document.*", ""]
        for method, path, op in members:
            page += _operation(method, path, op)
        pages[f"reference/http/{tag}.md"] = "\n".join(page)
    return pages


def _operation(method: str, path: str, op: Schema) -> list[str]:
    lines = [f"## {method.upper()} `{path}`", ""]
    if op.get("description"):
        lines += [op["description"].strip(), ""]
    params = op.get("parameters", [])
    if params:
        lines += ["| parameter | in | type | | description |", "|---|---|---|---|---|"]
        for p in params:
            lines.append(
                f"| `{p['name']}` | {p['in']} | {_cell(_type(p.get('schema', {}), {}))} | "
                f"{'required' if p.get('required') else 'optional'} | "
                f"{_cell(p.get('description', ''))} |"
            )
        lines.append("")
    body = op.get("requestBody", {}).get("content", {})
    for media, content in body.items():
        lines += [f"Body ({media}): {_schema_name(content.get('schema', {}))}", ""]
    lines += ["| status | answer |", "|---|---|"]
    for status, answer in op.get("responses", {}).items():
        content = answer.get("content", {})
        shape = ", ".join(
            f"{media} {_schema_name(c.get('schema', {}))}".strip() for media, c in content.items()
        )
        text = _cell(answer.get("description", ""))
        lines.append(f"| {status} | {text}{' — ' + shape if shape else ''} |")
    lines.append("")
    return lines


def _operations(document: Schema) -> Iterator[tuple[str, str, Schema]]:
    for path, item in document["paths"].items():
        for method in ("get", "post", "put", "patch", "delete"):
            if method in item:
                yield method, path, item[method]


def _op_anchor(method: str, path: str) -> str:
    return _anchor(f"{method} {path}".replace(" ", "-"))


def _schema_name(schema: Schema) -> str:
    if "$ref" in schema:
        return "`" + str(schema["$ref"]).rsplit("/", 1)[-1] + "`"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            names = [_schema_name(s) for s in schema[key]]
            return names[0] if len(names) == 1 else f"one of {len(names)} shapes"
    return f"`{schema.get('type', 'any')}`" if schema else ""


# ---------------------------------------------------------------------------- CLI


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name, sub
                for inner, subsub in _subcommands(sub):
                    yield f"{name} {inner}", subsub


def cli_page() -> str:
    from api.cli import _parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps its help to the terminal: the same everywhere
    try:
        parser = _parser()
        lines = [
            "# The `kiroku` command",
            "",
            "*Generated from the command's argparse parser (api/cli.py, replay/cli.py): "
            "each command's `--help`.*",
            "",
            "```text",
            parser.format_help().rstrip(),
            "```",
            "",
        ]
        for name, sub in _subcommands(parser):
            lines += [f"## `kiroku {name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(lines)


# ---------------------------------------------------------------------------- all


def pages() -> dict[str, str]:
    """Every generated page (and file), by path under docs/."""
    generated: dict[str, str] = {}
    document = openapi_document()
    generated.update(http_api_pages(document))
    generated["reference/openapi.json"] = json.dumps(document, ensure_ascii=False, indent=1)
    generated["reference/cli.md"] = cli_page()
    generated["reference/rulesets/index.md"] = ruleset_index()
    for ruleset in rulesets():
        generated.update(ruleset_pages(ruleset))
    return generated
