"""The `kiroku` command: serve the API, create games, check dice offline; the commands over
recorded games (replay, audit, export, import) are in replay/cli.py.

What it prints for people (messages, refusals, help) comes from the pages' catalogs
(api/pages/i18n/), in the terminal's language: `KIROKU_LANG`, else the locale (`LC_ALL`,
`LC_MESSAGES`, `LANG`): English when it says en, else Japanese. `--json` output is the same in
every language."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import secrets
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from eventsourcing.persistence import PersistenceError

from api.errors import read_in
from api.observe import log_config
from api.pages.i18n import LANGUAGES, Reader, argparse_words, from_environment
from api.web import PUBLIC_URL_ENV
from domain import dice
from domain.adapters.bcdice_engine import BCDiceEngine
from domain.adapters.store import StoreUnavailable
from domain.application.bootstrap import bootstrap, load_rulesets
from domain.application.service import NewGame
from domain.application.settings import PublicServerSettings, Settings
from domain.dice.bcdice import DEFAULT_SYSTEM, result_json, split_command
from domain.model.errors import KirokuError
from domain.model.lifecycle_events import GameOptions
from domain.model.messages import N_
from replay.cli import add_commands, apply_store, open_service, store_options


def main(argv: Sequence[str] | None = None) -> int:
    load_rulesets()
    say = Reader(from_environment())
    with argparse_words(say.language):  # argparse's own words in the terminal's language
        parser = _parser(say)
        args = parser.parse_args(argv)
        if not hasattr(args, "run"):
            parser.print_help()
            return 2
    try:
        code: int = args.run(args)
        return code
    except KirokuError as error:
        _error(say, read_in(error, say.language))
        return 1
    except dice.DiceError as error:
        _error(say, say(error.message))
        return 1
    except (StoreUnavailable, PersistenceError) as error:
        _error(say, _store_failure(error, say))
        return 1
    except OSError as error:
        _error(say, f"{error.strerror or error}: {error.filename or ''}")
        return 1


def _error(say: Reader, message: str) -> None:
    print(say("error: {message}", message=message), file=sys.stderr)


def installed_version() -> str:
    """The installed distribution's version (a checkout not installed says so)."""
    try:
        return importlib.metadata.version("kiroku")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def _parser(say: Reader | None = None) -> argparse.ArgumentParser:
    """The command's parser, its help in `say`'s language (English for the docs' reference)."""
    say = say or Reader("en")
    parser = argparse.ArgumentParser(
        prog="kiroku",
        description=say(
            "Kiroku: a game log for tabletop play. Serve the table, create games, "
            "replay and audit them, roll dice offline."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"kiroku {installed_version()}",
        help=say("show program's version number and exit"),
    )
    commands = parser.add_subparsers(title=say("commands"))

    serve = commands.add_parser("serve", help=say("run the HTTP API"))
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help=say(
            "processes on this one host, sharing its port (default 1): more commands a second "
            "across many games, none for a single game; no more than the host's cores. To serve "
            "from several hosts, run one `kiroku serve` each behind a proxy that hashes on the "
            "game id (deploy/, docs/how-to/scale-out.md)"
        ),
    )
    serve.add_argument(
        "--public-url",
        help=say(
            "the address players reach this server at, e.g. https://table.example.org behind "
            "a TLS proxy: used in invite links, and https makes session cookies Secure "
            "(default $KIROKU_PUBLIC_URL, else the address each request came to)"
        ),
    )
    serve.add_argument("--access-log", action="store_true", help=say("log every request"))
    store_options(serve, say)
    serve.set_defaults(run=_serve, say=say)

    game = commands.add_parser(
        "new", help=say("create a game and print its GM (or host) token and invites")
    )
    game.add_argument("title")
    game.add_argument("--ruleset", default="freeform")
    game.add_argument("--seat", action="append", required=True, help=say("a seat's name (repeat)"))
    game.add_argument("--dice-policy", choices=["server", "manual", "both"], default="server")
    game.add_argument("--private", action="store_true", help=say("no public log for spectators"))
    game.add_argument(
        "--referee",
        choices=["gm", "host"],
        help=say(
            "gm: an omniscient GM; host: no referee, the creator sees no secrets "
            "(default: the ruleset's)"
        ),
    )
    game.add_argument("--host-seat", type=int, help=say("with --referee host: the host's own seat"))
    game.add_argument(
        "--system",
        help=say(
            "the BCDice game system of its chat rolls, e.g. Cthulhu7th (kiroku systems; "
            "default: the ruleset's, else DiceBot)"
        ),
    )
    game.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=say(
            "a ruleset option (repeat): VALUE as text, a JSON object or list, or @FILE "
            "for a JSON file (e.g. rules=2002, catalog=@my-catalog.json)"
        ),
    )
    game.add_argument("--json", action="store_true", help=say("print JSON"))
    store_options(game, say)
    game.set_defaults(run=_new_game, say=say)

    projections = commands.add_parser("projections", help=say("maintain the per-audience views"))
    projection_commands = projections.add_subparsers(
        title=say("projections commands"), required=True
    )
    rebuild = projection_commands.add_parser(
        "rebuild", help=say("drop the views and fold them again")
    )
    rebuild.add_argument("--game", help=say("only this game (default: every game)"))
    store_options(rebuild, say)
    rebuild.set_defaults(run=_rebuild, say=say)

    add_commands(commands, say)  # replay, audit, export, import: replay/cli.py

    log = commands.add_parser(
        "log", help=say("write a game's session log: one HTML file that verifies itself")
    )
    log.add_argument("game", help=say("a game id in the store, or an archive file (offline)"))
    log.add_argument("-o", "--output", required=True, help=say("the HTML file to write"))
    log.add_argument(
        "--as", dest="audience", default="public", help=say("before the end: gm, public or seat:N")
    )
    log.add_argument(
        "--ccfolia-title",
        action="store_true",
        help=say(
            "the <title> ココフォリア's ログ出力 gives (ccfolia - logs), for tools that check it"
        ),
    )
    log.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help=say("the file's language (default: the terminal's, from KIROKU_LANG or the locale)"),
    )
    store_options(log, say)
    log.set_defaults(run=_log, say=say)

    roll = commands.add_parser(
        "roll", help=say("evaluate a dice command with BCDice, offline (kiroku roll -- CC<=54)")
    )
    roll.add_argument(
        "expression", nargs="?", help=say("the command (after --: it may start with -)")
    )
    roll.add_argument(
        "--system", default=DEFAULT_SYSTEM, help=say("BCDice game system (kiroku systems)")
    )
    roll.add_argument(
        "--faces",
        help=say(
            "comma-separated faces, BCDice's randomizer calls in order, e.g. 3,5 (default: random)"
        ),
    )
    roll.add_argument(
        "--json",
        action="store_true",
        help=say("print the structured result (or refusal) as one JSON object"),
    )
    roll.add_argument(
        "--batch",
        metavar="FILE",
        help=say('JSON lines {"command": …, "faces": […]}: one JSON object a line for each'),
    )
    roll.set_defaults(run=_roll, say=say)

    systems = commands.add_parser("systems", help=say("list BCDice's game systems"))
    systems.add_argument(
        "--json", action="store_true", help=say("print JSON (with each help text)")
    )
    systems.set_defaults(run=_systems, say=say)
    return parser


def _store_failure(error: Exception, say: Reader) -> str:
    if isinstance(error, StoreUnavailable):
        return str(error)
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return say("cannot open the event store: {reason}", reason=reason)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    apply_store(args)
    if args.public_url:
        os.environ[PUBLIC_URL_ENV] = args.public_url  # read by every worker's app
    try:  # a bad setting ends the command here, not in each worker or at the first long read
        settings = Settings.load()
        public = PublicServerSettings.from_env()
    except ValueError as error:
        _error(args.say, args.say(str(error)))
        return 2
    # Open the store once here, before any worker starts: a store that cannot be opened (no
    # server, no database, a schema that may not be created) ends the command at once with its
    # reason, instead of uvicorn restarting workers that fail the same way forever.
    bootstrap(settings).close()
    shown = settings.public_url or f"http://{_url_host(args.host)}:{args.port}"
    print(args.say("Kiroku: open {url}/ to create a table", url=shown.rstrip("/")), flush=True)
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_config=log_config(public),  # api/observe.py: time, level, request id; or JSON
        access_log=args.access_log,
        # A worker still starting on a busy host (importing takes seconds there) answers its
        # supervisor's health check late: not killed and restarted for it.
        timeout_worker_healthcheck=30,
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
                system=args.system,
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
    say = args.say
    print(say("game: {game}", game=created.game_id))
    token = (
        N_("host token: {token}   (shown once)")
        if created.host
        else N_("GM token: {token}   (shown once)")
    )
    print(say(token, token=created.token))
    if created.host:
        print(say("the host plays {name}", name=_seat_name(args.seat, created.actor)))
    for seat in created.seats:
        print(
            say(
                "seat {seat} {name}: invite {invite}",
                seat=seat.seat,
                name=seat.name,
                invite=seat.invite,
            )
        )
    return 0


def _seat_name(names: Sequence[str], actor: str) -> str:
    """The name of the seat `actor` (seat:N) sits in, of the names given in order."""
    number = int(actor.partition(":")[2] or 0)
    return names[number - 1] if 1 <= number <= len(names) else actor


def _ruleset_options(pairs: list[str]) -> dict[str, object]:
    """KEY=VALUE pairs; the ruleset validates them (text such as 10 becomes a number there)."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, equals, raw = pair.partition("=")
        if not equals or not key:
            raise KirokuError(
                "bad_option", N_("An option is KEY=VALUE, not {pair}."), params={"pair": pair}
            )
        try:
            if raw.startswith("@"):
                value = json.loads(Path(raw[1:]).read_text(encoding="utf-8"))
            elif raw[:1] in ("{", "[") or raw in ("true", "false", "null"):
                value = json.loads(raw)
            else:
                value = raw
        except ValueError as error:
            raise KirokuError(
                "bad_option",
                N_("Option {key}: not valid JSON ({error})."),
                params={"key": key, "error": str(error)},
            ) from None
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
    say = args.say
    scope = say("game {game}", game=args.game) if args.game else say("every game")
    print(
        say(
            "rebuilt the views of {scope} up to notification {position} in {seconds} s",
            scope=scope,
            position=position,
            seconds=f"{elapsed:.2f}",
        )
    )
    for game_id, fault in sorted(runner.damaged.items()):
        print(
            say(
                "game {game} is stopped at event {seq}: {why}",
                game=game_id,
                seq=fault.seq,
                why=fault.why,
            )
        )
    return 0


def _log(args: argparse.Namespace) -> int:
    """Writes the file as it is made (`render_chunks`): from the store, the records are read a
    pass at a time, so memory stays bounded however long the game."""
    from api.pages.sessionlog import disclosure_after, render_chunks, session_log
    from domain.model.redaction import Disclosure
    from replay.archive import read_archive, records_from_envelopes

    output = Path(args.output)
    language = args.lang or args.say.language  # the terminal's, unless --lang says
    if Path(args.game).is_file():  # an archive: offline, no store at all
        with open(args.game, encoding="utf-8") as archive:
            _header, envelopes = read_archive(archive)
        readable = [e for e in envelopes if isinstance(e, dict)]
        records = records_from_envelopes(readable, strict=False)
        log = session_log(
            records,
            args.audience,
            disclosure_after(records),
            cocofolia_title=args.ccfolia_title,
            language=language,
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
                language=language,
            )
            _write_chunks(output, render_chunks(log))
    print(args.say("wrote the log of {count} events to {path}", count=log.events, path=args.output))
    return 0


def _write_chunks(path: Path, chunks: Iterable[str]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for chunk in chunks:
            out.write(chunk)


def _roll(args: argparse.Namespace) -> int:
    """BCDice's answer, offline: with --faces as its randomizer calls, else random faces drawn
    by the fair stream's rule from this machine's randomness."""
    engine = BCDiceEngine()
    try:
        if args.batch:
            with open(args.batch, encoding="utf-8") as lines:
                for line in lines:
                    if line.strip():
                        print(
                            json.dumps(_batch_line(engine, args.system, line), ensure_ascii=False)
                        )
            return 0
        if not args.expression:
            _error(args.say, args.say("give a command (kiroku roll -- CMD) or --batch FILE"))
            return 2
        try:
            faces = _faces(args.faces)
            answer = _evaluated(engine, args.system, args.expression, faces)
        except KirokuError as error:
            return _roll_refused(args, error.code, error.message, read_in(error, args.say.language))
        if answer is None:
            message = args.say(
                "{system} does not know the command {command}",
                system=args.system,
                command=args.expression,
            )
            json_message = f"{args.system} does not know the command {args.expression!r}"
            return _roll_refused(args, "dice_unsupported", json_message, message)
        print(
            json.dumps(answer, ensure_ascii=False) if args.json else answer["result"]["explanation"]
        )
        return 0
    finally:
        engine.close()


def _faces(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(f) for f in text.split(",") if f.strip()]
    except ValueError:
        raise KirokuError(
            "bad_faces", N_("--faces takes whole numbers separated by commas")
        ) from None


def _evaluated(
    engine: BCDiceEngine, system: str, line: str, faces: list[int] | None
) -> dict[str, Any] | None:
    command, comment = split_command(line)
    evaluation = engine.evaluate(
        system,
        command,
        faces=faces,
        words=lambda count: [secrets.randbits(32) for _ in range(count)],
    )
    if evaluation.result is None:
        return None
    return {
        "system": evaluation.system,
        "bcdice": evaluation.version,
        "command": command,
        "comment": comment,
        "secret": evaluation.result.secret,
        "dice": [[value, sides] for value, sides in evaluation.result.rands],
        "result": result_json(evaluation.result),
    }


def _batch_line(engine: BCDiceEngine, system: str, line: str) -> dict[str, Any]:
    try:
        item = json.loads(line)
        command = str(item["command"])
        faces = [int(f) for f in item.get("faces", [])] if "faces" in item else None
        answer = _evaluated(engine, str(item.get("system") or system), command, faces)
    except KirokuError as error:
        return {"error": {"code": error.code, "message": error.message}}
    except (ValueError, KeyError, TypeError) as error:
        return {"error": {"code": "bad_line", "message": f"not a batch line: {error}"}}
    if answer is None:
        return {"error": {"code": "dice_unsupported", "message": "BCDice gives no result"}}
    return answer


def _roll_refused(args: argparse.Namespace, code: str, message: str, said: str) -> int:
    """`--json` keeps its message as it always read (English); a person reads `said`."""
    if args.json:
        print(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False))
    else:
        _error(args.say, said)
    return 1


def _systems(args: argparse.Namespace) -> int:
    engine = BCDiceEngine()
    try:
        systems = engine.systems()
        if args.json:
            listed = [engine.info(s.id).model_dump() for s in systems]
            print(json.dumps({"bcdice": engine.version(), "systems": listed}, ensure_ascii=False))
            return 0
        for system in systems:
            print(f"{system.id}\t{system.name}")
        return 0
    finally:
        engine.close()


if __name__ == "__main__":
    raise SystemExit(main())
