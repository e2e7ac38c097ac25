"""The `kiroku` commands over recorded games: replay, audit, export and import.

`api.cli` (the `kiroku` entry point) adds these to its parser with `add_commands`; the store
options and the service they open are shared with the other commands from here. What they print
for people is a catalog key read through `say` (api/pages/i18n's `Reader`, the terminal's
language), which `add_commands` is given and each command finds in its arguments.
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
from domain.model.messages import N_
from domain.model.verification import verify
from replay.history import History, settle
from replay.text import Say, Source

T = TypeVar("T")


def add_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], say: Say | None = None
) -> None:
    say = say or Source()
    export = commands.add_parser(
        "export", help=say("write a finished game to a JSON Lines archive")
    )
    export.add_argument("game")
    export.add_argument("-o", "--output", required=True, help=say("the archive file to write"))
    store_options(export, say)
    export.set_defaults(run=_export, say=say)

    load = commands.add_parser("import", help=say("store a game from an archive"))
    load.add_argument("archive")
    store_options(load, say)
    load.set_defaults(run=_import, say=say)

    audit = commands.add_parser("audit", help=say("the dispute report of a game or an archive"))
    audit.add_argument("game", help=say("a game id in the store, or an archive file (offline)"))
    audit.add_argument("--json", action="store_true", help=say("print the report as JSON"))
    store_options(audit, say)
    audit.set_defaults(run=_audit, say=say)

    replay = commands.add_parser("replay", help=say("step through a recorded game"))
    replay.add_argument("game", help=say("a game id in the store, or an archive file"))
    replay.add_argument("--as", dest="audience", default="gm", help=say("gm, public or seat:N"))
    replay.add_argument("--at", type=int, help=say("the seq to show (default: the last)"))
    replay.add_argument("--print", action="store_true", help=say("print one frame and exit"))
    store_options(replay, say)
    replay.set_defaults(run=_replay, say=say)


def store_options(parser: argparse.ArgumentParser, say: Say | None = None) -> None:
    say = say or Source()
    parser.add_argument("--db", help=say("SQLite file (default $KIROKU_DB or ./kiroku.db)"))
    parser.add_argument(
        "--database-url",
        help=say("postgresql://… (default $KIROKU_DATABASE_URL); overrides --db"),
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
    print(
        args.say(
            "wrote {count} events of game {game} to {path}",
            count=len(lines) - 1,
            game=args.game,
            path=args.output,
        )
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    from replay.archive import read_archive, records_from_envelopes

    header, envelopes = _read(args.archive, read_archive)
    readable = [e for e in envelopes if isinstance(e, dict)]
    report = verify(header.game_id, envelopes)
    if not report.ok:
        print(
            args.say("error: the archive does not verify: {note}", note=report.read(args.say).note),
            file=sys.stderr,
        )
        return 1
    with open_service(args) as service:
        state = service.import_game(records_from_envelopes(readable))
    print(
        args.say(
            "imported game {game} ({title}, {count} events)",
            game=state.game_id,
            title=state.title,
            count=state.version,
        )
    )
    return 0


def _audit(args: argparse.Namespace) -> int:
    from domain.adapters.bcdice_engine import BCDiceEngine
    from replay.archive import read_archive
    from replay.audit import audit, render_text, seat_names

    if Path(args.game).is_file():  # an archive: offline, no store at all (BCDice runs here)
        header, envelopes = _read(args.game, read_archive)
        engine = BCDiceEngine()
        try:
            report = audit(header.game_id, envelopes, engine.reevaluate)
        finally:
            engine.close()
    else:
        with open_service(args) as service:
            envelopes = list(service.envelopes(args.game))
            report = audit(args.game, envelopes, service.bcdice.reevaluate)
    if args.json:  # the same in every language (as every --json is): the texts' source
        print(report.model_dump_json(indent=2))
    else:
        print(render_text(report, args.say, seat_names(envelopes)))
    return 0 if report.verdict != "problems" else 3


def _replay(args: argparse.Namespace) -> int:
    from replay.cursor import ReplayCursor
    from replay.text import render_at

    history = _history(args)
    settle()
    cursor = ReplayCursor(history, args.audience, args.at)
    if args.print:
        print(render_at(cursor, say=args.say))
        return 0
    try:
        from replay.viewer import run_viewer
    except ModuleNotFoundError as missing:
        if missing.name is None or missing.name.partition(".")[0] != "textual":
            raise
        raise KirokuError(
            "tui_missing",
            N_(
                "the terminal viewer needs the tui extra: pip install 'kiroku[tui]' "
                "(or print one moment with --print)"
            ),
        ) from None
    run_viewer(cursor, args.say)
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
