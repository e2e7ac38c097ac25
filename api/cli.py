"""The `kiroku` command: serve the API, create games, check dice offline."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO, TypeVar

from api.web import PUBLIC_URL_ENV
from domain import dice
from domain.errors import KirokuError
from domain.lifecycle_events import GameOptions
from domain.service import GameService, NewGame
from domain.verification import verify
from replay.history import History, settle

T = TypeVar("T")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except (KirokuError, dice.DiceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: {error.strerror or error}: {error.filename or ''}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kiroku", description=__doc__)
    commands = parser.add_subparsers(title="commands")

    serve = commands.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument(
        "--public-url",
        help="the address players reach this server at, e.g. https://table.example.org behind "
        "a TLS proxy: used in invite links, and https makes session cookies Secure "
        "(default $KIROKU_PUBLIC_URL, else the address each request came to)",
    )
    serve.add_argument("--access-log", action="store_true", help="log every request")
    _store_options(serve)
    serve.set_defaults(run=_serve)

    game = commands.add_parser("new", help="create a game and print its GM token and invites")
    game.add_argument("title")
    game.add_argument("--ruleset", default="freeform")
    game.add_argument("--seat", action="append", required=True, help="a seat's name (repeat)")
    game.add_argument("--dice-policy", choices=["server", "manual", "both"], default="server")
    game.add_argument("--private", action="store_true", help="no public log for spectators")
    game.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a ruleset option (repeat): VALUE as text, a JSON object or list, or @FILE "
        "for a JSON file (e.g. rules=2002, catalog=@my-catalog.json)",
    )
    game.add_argument("--json", action="store_true", help="print JSON")
    _store_options(game)
    game.set_defaults(run=_new_game)

    projections = commands.add_parser("projections", help="maintain the per-audience views")
    projection_commands = projections.add_subparsers(title="projections commands", required=True)
    rebuild = projection_commands.add_parser("rebuild", help="drop the views and fold them again")
    rebuild.add_argument("--game", help="only this game (default: every game)")
    _store_options(rebuild)
    rebuild.set_defaults(run=_rebuild)

    export = commands.add_parser("export", help="write a finished game to a JSON Lines archive")
    export.add_argument("game")
    export.add_argument("-o", "--output", required=True, help="the archive file to write")
    _store_options(export)
    export.set_defaults(run=_export)

    load = commands.add_parser("import", help="store a game from an archive")
    load.add_argument("archive")
    _store_options(load)
    load.set_defaults(run=_import)

    audit = commands.add_parser("audit", help="the dispute report of a game or an archive")
    audit.add_argument("game", help="a game id in the store, or an archive file (offline)")
    audit.add_argument("--json", action="store_true", help="print the report as JSON")
    _store_options(audit)
    audit.set_defaults(run=_audit)

    replay = commands.add_parser("replay", help="step through a recorded game")
    replay.add_argument("game", help="a game id in the store, or an archive file")
    replay.add_argument("--as", dest="audience", default="gm", help="gm, public or seat:N")
    replay.add_argument("--at", type=int, help="the seq to show (default: the last)")
    replay.add_argument("--print", action="store_true", help="print one frame and exit")
    _store_options(replay)
    replay.set_defaults(run=_replay)

    roll = commands.add_parser("roll", help="evaluate a dice command offline")
    roll.add_argument("expression")
    roll.add_argument("--faces", help="comma-separated faces, e.g. 2,3,6,4 (default: random)")
    roll.set_defaults(run=_roll)
    return parser


def _store_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="SQLite file (default $KIROKU_DB or ./kiroku.db)")
    parser.add_argument(
        "--database-url", help="postgresql://… (default $KIROKU_DATABASE_URL); overrides --db"
    )


@contextmanager
def _service(args: argparse.Namespace) -> Iterator[GameService]:
    """The service over the store the options (or the environment) name, closed after use."""
    _apply_store(args)
    service = GameService()
    try:
        yield service
    finally:
        service.close()


def _apply_store(args: argparse.Namespace) -> None:
    # Through the environment, so uvicorn's worker processes see the same store.
    if args.db:
        os.environ["KIROKU_DB"] = args.db
    if args.database_url:
        os.environ["KIROKU_DATABASE_URL"] = args.database_url


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    _apply_store(args)
    if args.public_url:
        os.environ[PUBLIC_URL_ENV] = args.public_url  # read by every worker's app
    shown = os.environ.get(PUBLIC_URL_ENV) or f"http://{_url_host(args.host)}:{args.port}"
    print(f"Kiroku: open {shown.rstrip('/')}/ to create a table", flush=True)
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
        access_log=args.access_log,
    )
    return 0


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"  # listening everywhere: this machine reaches it on loopback
    return f"[{host}]" if ":" in host else host


def _new_game(args: argparse.Namespace) -> int:
    with _service(args) as service:
        created = service.create_game(
            NewGame(
                ruleset=args.ruleset,
                title=args.title,
                seat_names=args.seat,
                options=GameOptions(dice_policy=args.dice_policy, spectators=not args.private),
                ruleset_options=_ruleset_options(args.option),
            )
        )
    if args.json:
        print(
            json.dumps(
                {
                    "game_id": created.game_id,
                    "gm_token": created.gm_token,
                    "seats": [s.__dict__ for s in created.seats],
                },
                ensure_ascii=False,
            )
        )
        return 0
    print(f"game     {created.game_id}")
    print(f"gm token {created.gm_token}   (shown once)")
    for seat in created.seats:
        print(f"seat {seat.seat} {seat.name}: invite {seat.invite}")
    return 0


def _ruleset_options(pairs: list[str]) -> dict[str, object]:
    """KEY=VALUE pairs; the ruleset validates them (text such as 10 becomes a number there)."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, equals, raw = pair.partition("=")
        if not equals or not key:
            raise KirokuError("bad_option", f"An option is KEY=VALUE, not {pair!r}.")
        try:
            if raw.startswith("@"):
                value = json.loads(Path(raw[1:]).read_text(encoding="utf-8"))
            elif raw[:1] in ("{", "[") or raw in ("true", "false", "null"):
                value = json.loads(raw)
            else:
                value = raw
        except ValueError as error:
            raise KirokuError("bad_option", f"Option {key}: not valid JSON ({error}).") from None
        options[key] = value
    return options


def _rebuild(args: argparse.Namespace) -> int:
    from projections.runner import ViewRunner
    from projections.store import open_view_store

    with _service(args) as service:
        runner = ViewRunner(service.log, open_view_store(service.env))
        started = time.perf_counter()
        position = runner.rebuild(args.game)
        elapsed = time.perf_counter() - started
    scope = f"game {args.game}" if args.game else "every game"
    print(f"rebuilt the views of {scope} up to notification {position} in {elapsed:.2f} s")
    return 0


def _export(args: argparse.Namespace) -> int:
    from replay.archive import export_lines

    with _service(args) as service:
        lines = list(export_lines(list(service.records(args.game))))
    with open(args.output, "w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in lines)
    print(f"wrote {len(lines) - 1} events of game {args.game} to {args.output}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from replay.archive import read_archive, records_from_envelopes

    header, envelopes = _read(args.archive, read_archive)
    readable = [e for e in envelopes if isinstance(e, dict)]
    report = verify(header.game_id, envelopes)
    if not report.ok:
        print(f"error: the archive does not verify: {report.note}", file=sys.stderr)
        return 1
    with _service(args) as service:
        state = service.import_game(records_from_envelopes(readable))
    print(f"imported game {state.game_id} ({state.title}, {state.version} events)")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from replay.archive import read_archive
    from replay.audit import audit, render_text

    if Path(args.game).is_file():  # an archive: offline, no store at all
        header, envelopes = _read(args.game, read_archive)
        report = audit(header.game_id, envelopes)
    else:
        with _service(args) as service:
            report = audit(args.game, service.envelopes(args.game))
    print(report.model_dump_json(indent=2) if args.json else render_text(report))
    return 0 if report.verdict != "problems" else 3


def _replay(args: argparse.Namespace) -> int:
    from replay.cursor import ReplayCursor
    from replay.text import render_frame

    history = _history(args)
    settle()
    cursor = ReplayCursor(history, args.audience, args.at)
    if args.print:
        print(render_frame(cursor.current()))
        return 0
    from replay.viewer import run_viewer

    run_viewer(cursor)
    return 0


def _history(args: argparse.Namespace) -> History:
    from replay.archive import read_archive, records_from_envelopes

    if Path(args.game).is_file():
        _, envelopes = _read(args.game, read_archive)
        return History(records_from_envelopes([e for e in envelopes if isinstance(e, dict)]))
    with _service(args) as service:
        return History(service.records(args.game))


def _read(path: str, reader: Callable[[TextIO], T]) -> T:
    with open(path, encoding="utf-8") as archive:
        return reader(archive)


def _roll(args: argparse.Namespace) -> int:
    import secrets

    try:
        expression = dice.parse(args.expression)
        if args.faces:
            faces = [int(f) for f in args.faces.split(",") if f.strip()]
        else:
            faces = [
                secrets.randbelow(r.sides) + 1 for r in expression.dice for _ in range(r.count)
            ]
        result = expression.evaluate(faces)
    except dice.DiceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except ValueError:
        print("error: --faces takes whole numbers separated by commas", file=sys.stderr)
        return 1
    print(result.explanation)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
