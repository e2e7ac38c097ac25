"""The `kiroku` command: serve the API, create games, check dice offline; the commands over
recorded games (replay, audit, export, import) are in replay/cli.py."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path

from eventsourcing.persistence import PersistenceError

from api.affinity import WORKERS_ENV, affinity_wanted
from api.observe import log_config
from api.web import PUBLIC_URL_ENV
from domain import dice
from domain.config import PublicServerSettings, long_read_nice, store_env
from domain.errors import KirokuError
from domain.lifecycle_events import GameOptions
from domain.service import GameService, NewGame
from domain.store import StoreUnavailable
from replay.cli import add_commands, apply_store, open_service, store_options


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        code: int = args.run(args)
        return code
    except (KirokuError, dice.DiceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except (StoreUnavailable, PersistenceError) as error:
        print(f"error: {_store_failure(error)}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: {error.strerror or error}: {error.filename or ''}", file=sys.stderr)
        return 1


def installed_version() -> str:
    """The installed distribution's version (a checkout not installed says so)."""
    try:
        return importlib.metadata.version("kiroku")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kiroku", description=__doc__)
    parser.add_argument("--version", action="version", version=f"kiroku {installed_version()}")
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
    store_options(serve)
    serve.set_defaults(run=_serve)

    game = commands.add_parser(
        "new", help="create a game and print its GM (or host) token and invites"
    )
    game.add_argument("title")
    game.add_argument("--ruleset", default="freeform")
    game.add_argument("--seat", action="append", required=True, help="a seat's name (repeat)")
    game.add_argument("--dice-policy", choices=["server", "manual", "both"], default="server")
    game.add_argument("--private", action="store_true", help="no public log for spectators")
    game.add_argument(
        "--referee",
        choices=["gm", "host"],
        help="gm: an omniscient GM; host: no referee, the creator sees no secrets "
        "(default: the ruleset's)",
    )
    game.add_argument("--host-seat", type=int, help="with --referee host: the host's own seat")
    game.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a ruleset option (repeat): VALUE as text, a JSON object or list, or @FILE "
        "for a JSON file (e.g. rules=2002, catalog=@my-catalog.json)",
    )
    game.add_argument("--json", action="store_true", help="print JSON")
    store_options(game)
    game.set_defaults(run=_new_game)

    projections = commands.add_parser("projections", help="maintain the per-audience views")
    projection_commands = projections.add_subparsers(title="projections commands", required=True)
    rebuild = projection_commands.add_parser("rebuild", help="drop the views and fold them again")
    rebuild.add_argument("--game", help="only this game (default: every game)")
    store_options(rebuild)
    rebuild.set_defaults(run=_rebuild)

    add_commands(commands)  # replay, audit, export, import: replay/cli.py

    log = commands.add_parser(
        "log", help="write a game's session log: one HTML file that verifies itself"
    )
    log.add_argument("game", help="a game id in the store, or an archive file (offline)")
    log.add_argument("-o", "--output", required=True, help="the HTML file to write")
    log.add_argument(
        "--as", dest="audience", default="public", help="before the end: gm, public or seat:N"
    )
    log.add_argument(
        "--ccfolia-title",
        action="store_true",
        help="the <title> ココフォリア's ログ出力 gives (ccfolia - logs), for tools that check it",
    )
    store_options(log)
    log.set_defaults(run=_log)

    roll = commands.add_parser("roll", help="evaluate a dice command offline")
    roll.add_argument("expression")
    roll.add_argument("--faces", help="comma-separated faces, e.g. 2,3,6,4 (default: random)")
    roll.add_argument(
        "--json",
        action="store_true",
        help="print the structured result (or refusal) as one JSON object",
    )
    roll.set_defaults(run=_roll)
    return parser


def _store_failure(error: Exception) -> str:
    if isinstance(error, StoreUnavailable):
        return str(error)
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"cannot open the event store: {reason}"


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.connections import SERVER_ENV, HandingProtocol

    apply_store(args)
    if args.public_url:
        os.environ[PUBLIC_URL_ENV] = args.public_url  # read by every worker's app
    os.environ[WORKERS_ENV] = str(args.workers)  # each worker's app: affinity or not
    os.environ[SERVER_ENV] = uuid.uuid4().hex  # which workers may take each other's connections
    try:  # a bad setting ends the command here, not in each worker or at the first long read
        affinity = affinity_wanted(store_env())
        long_read_nice()
        public = PublicServerSettings.from_env()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    # Open the store once here, before any worker starts: a store that cannot be opened (no
    # server, no database, a schema that may not be created) ends the command at once with its
    # reason, instead of uvicorn restarting workers that fail the same way forever.
    GameService().close()
    shown = os.environ.get(PUBLIC_URL_ENV) or f"http://{_url_host(args.host)}:{args.port}"
    print(f"Kiroku: open {shown.rstrip('/')}/ to create a table", flush=True)
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        # with affinity, a worker can give a client's connection to its game's owner
        http=HandingProtocol if affinity else "auto",
        log_config=log_config(public),  # api/observe.py: time, level, request id; or JSON
        access_log=args.access_log,
    )
    return 0


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"  # listening everywhere: this machine reaches it on loopback
    return f"[{host}]" if ":" in host else host


def _new_game(args: argparse.Namespace) -> int:
    with open_service(args) as service:
        created = service.create_game(
            NewGame(
                ruleset=args.ruleset,
                title=args.title,
                seat_names=args.seat,
                options=GameOptions(dice_policy=args.dice_policy, spectators=not args.private),
                ruleset_options=_ruleset_options(args.option),
                referee=args.referee,
                host_seat=args.host_seat,
            )
        )
    role = "host" if created.host else "gm"
    if args.json:
        print(
            json.dumps(
                {
                    "game_id": created.game_id,
                    "referee": role,
                    "creator": created.actor,
                    f"{role}_token": created.token,
                    "seats": [s.__dict__ for s in created.seats],
                },
                ensure_ascii=False,
            )
        )
        return 0
    print(f"game     {created.game_id}")
    print(f"{role} token {created.token}   (shown once; acts as {created.actor})")
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

    with open_service(args) as service:
        runner = ViewRunner(service.log, open_view_store(service.env))
        started = time.perf_counter()
        position = runner.rebuild(args.game)
        elapsed = time.perf_counter() - started
    scope = f"game {args.game}" if args.game else "every game"
    print(f"rebuilt the views of {scope} up to notification {position} in {elapsed:.2f} s")
    for game_id, fault in sorted(runner.damaged.items()):
        print(f"game {game_id} is stopped at event {fault.seq}: {fault.why}")
    return 0


def _log(args: argparse.Namespace) -> int:
    """Writes the file as it is made (`render_chunks`): from the store, the records are read a
    pass at a time, so memory stays bounded however long the game."""
    from api.pages.sessionlog import disclosure_after, render_chunks, session_log
    from domain.redaction import Disclosure
    from replay.archive import read_archive, records_from_envelopes

    output = Path(args.output)
    if Path(args.game).is_file():  # an archive: offline, no store at all
        with open(args.game, encoding="utf-8") as archive:
            _header, envelopes = read_archive(archive)
        readable = [e for e in envelopes if isinstance(e, dict)]
        records = records_from_envelopes(readable, strict=False)
        log = session_log(
            records, args.audience, disclosure_after(records), cocofolia_title=args.ccfolia_title
        )
        _write_chunks(output, render_chunks(log))
    else:
        with open_service(args) as service:
            state = service.state(args.game)
            disclosure = Disclosure.of(state)
            log = session_log(
                lambda: service.records(args.game, upto=disclosure.upto),
                args.audience,
                disclosure,
                cocofolia_title=args.ccfolia_title,
            )
            _write_chunks(output, render_chunks(log))
    print(f"wrote the log of {log.events} events to {args.output}")
    return 0


def _write_chunks(path: Path, chunks: Iterable[str]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for chunk in chunks:
            out.write(chunk)


def _roll(args: argparse.Namespace) -> int:
    import secrets

    try:
        expression = dice.parse(args.expression)
        if args.faces:
            faces = [int(f) for f in args.faces.split(",") if f.strip()]
            rolled = expression.replay(faces)
        else:
            rolled = expression.roll(lambda sides: secrets.randbelow(sides) + 1)
    except dice.DiceError as error:
        return _roll_refused(args, error)
    except ValueError:
        message = "--faces takes whole numbers separated by commas"
        return _roll_refused(args, dice.DiceError(dice.BAD_FACES, message))
    if args.json:
        rolled_json = {
            "expression": expression.text,
            "secret": expression.secret,
            "comment": expression.comment,
            "dice": [[r.count, r.sides] for r in rolled.requests],
            "result": rolled.result.model_dump(mode="json"),
        }
        print(json.dumps(rolled_json, ensure_ascii=False))
    else:
        print(rolled.result.explanation)
    return 0


def _roll_refused(args: argparse.Namespace, error: dice.DiceError) -> int:
    if args.json:
        refusal = {"code": error.code, "message": error.message, "position": error.position}
        print(json.dumps({"error": refusal}, ensure_ascii=False))
    else:
        print(f"error: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
