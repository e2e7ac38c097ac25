"""The `kiroku` commands over recorded games: replay, audit, export and import.

`api.cli` (the `kiroku` entry point) adds these to its parser with `add_commands`; the store
options and the service they open are shared with the other commands from here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO, TypeVar

from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.model.errors import KirokuError
from domain.model.verification import verify
from replay.history import History, settle

T = TypeVar("T")


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser("export", help="write a finished game to a JSON Lines archive")
    export.add_argument("game")
    export.add_argument("-o", "--output", required=True, help="the archive file to write")
    store_options(export)
    export.set_defaults(run=_export)

    load = commands.add_parser("import", help="store a game from an archive")
    load.add_argument("archive")
    store_options(load)
    load.set_defaults(run=_import)

    audit = commands.add_parser("audit", help="the dispute report of a game or an archive")
    audit.add_argument("game", help="a game id in the store, or an archive file (offline)")
    audit.add_argument("--json", action="store_true", help="print the report as JSON")
    store_options(audit)
    audit.set_defaults(run=_audit)

    replay = commands.add_parser("replay", help="step through a recorded game")
    replay.add_argument("game", help="a game id in the store, or an archive file")
    replay.add_argument("--as", dest="audience", default="gm", help="gm, public or seat:N")
    replay.add_argument("--at", type=int, help="the seq to show (default: the last)")
    replay.add_argument("--print", action="store_true", help="print one frame and exit")
    store_options(replay)
    replay.set_defaults(run=_replay)


def store_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="SQLite file (default $KIROKU_DB or ./kiroku.db)")
    parser.add_argument(
        "--database-url", help="postgresql://… (default $KIROKU_DATABASE_URL); overrides --db"
    )


def apply_store(args: argparse.Namespace) -> None:
    # Through the environment, so uvicorn's worker processes see the same store.
    if args.db:
        os.environ["KIROKU_DB"] = args.db
    if args.database_url:
        os.environ["KIROKU_DATABASE_URL"] = args.database_url


@contextmanager
def open_service(args: argparse.Namespace) -> Iterator[GameService]:
    """The service over the store the options (or the environment) name, closed after use."""
    apply_store(args)
    service = bootstrap()
    try:
        yield service
    finally:
        service.close()


def _export(args: argparse.Namespace) -> int:
    from replay.archive import export_lines

    with open_service(args) as service:
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
    with open_service(args) as service:
        state = service.import_game(records_from_envelopes(readable))
    print(f"imported game {state.game_id} ({state.title}, {state.version} events)")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from domain.adapters.bcdice_engine import BCDiceEngine
    from replay.archive import read_archive
    from replay.audit import audit, render_text

    if Path(args.game).is_file():  # an archive: offline, no store at all (BCDice runs here)
        header, envelopes = _read(args.game, read_archive)
        engine = BCDiceEngine()
        try:
            report = audit(header.game_id, envelopes, engine.reevaluate)
        finally:
            engine.close()
    else:
        with open_service(args) as service:
            report = audit(args.game, service.envelopes(args.game), service.bcdice.reevaluate)
    print(report.model_dump_json(indent=2) if args.json else render_text(report))
    return 0 if report.verdict != "problems" else 3


def _replay(args: argparse.Namespace) -> int:
    from replay.cursor import ReplayCursor
    from replay.text import render_at

    history = _history(args)
    settle()
    cursor = ReplayCursor(history, args.audience, args.at)
    if args.print:
        print(render_at(cursor))
        return 0
    try:
        from replay.viewer import run_viewer
    except ModuleNotFoundError as missing:
        if missing.name is None or missing.name.partition(".")[0] != "textual":
            raise
        raise KirokuError(
            "tui_missing",
            "the terminal viewer needs the tui extra: pip install 'kiroku[tui]' "
            "(or print one moment with --print)",
        ) from None
    run_viewer(cursor)
    return 0


def _history(args: argparse.Namespace) -> History:
    from replay.archive import read_archive, records_from_envelopes

    if Path(args.game).is_file():
        _, envelopes = _read(args.game, read_archive)
        return History(records_from_envelopes([e for e in envelopes if isinstance(e, dict)]))
    with open_service(args) as service:
        return History(service.records(args.game))


def _read(path: str, reader: Callable[[TextIO], T]) -> T:
    with open(path, encoding="utf-8") as archive:
        return reader(archive)
