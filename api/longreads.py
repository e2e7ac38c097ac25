"""Reads of a whole game — `/verify`, `/audit`, `/archive`, `/log.html` — in separate processes.

Verifying or exporting a game is pure Python over every event: tens of milliseconds for a
game of a few hundred events, seconds for 100,000. In a thread of the server it would hold
the interpreter lock against every command and stream of every table for that long (a soak
of mixed play showed exactly that tail). Every such read is therefore done by a small
process that opens the same store, and the server's thread waits for it without holding the
interpreter. The answers are those of the same functions called in process (`kiroku log`,
`kiroku audit`), and a refusal raised there is raised here again as it was.

Two lanes, one process each, started on first use and shared by the apps of this process: a
game of more than `BIG_EVENTS` events is read in the big lane, the others in the small lane,
so a table's small export never queues behind someone's seconds-long verification.

The caller is authenticated where the game is read: checking a token needs the game's
credentials, and loading a big game a worker does not hold yet takes it a second of the
interpreter too. So the route passes what the caller presented (`Presented`), and the lane's
process checks it, loading the game there, while the worker only asks the store how long it is.

The lanes' processes run at a lower scheduling priority (`KIROKU_LONG_READ_NICE`, default 10,
added to the server's niceness; 0 keeps it): an export is work a reader waits for anyway,
while a command waits for the core it takes, so on a machine with few cores the kernel gives
the core to commands first.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal, TypeVar
from urllib.parse import quote

from api.pages import i18n
from api.pages.sessionlog import (
    SessionLog,
    cocofolia_filename,
    policy,
    render_chunks,
    session_log,
)
from api.present import head_header
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.model.authentication import Authenticator, Presented
from domain.model.errors import CorruptEvent, KirokuError, RuleViolation
from domain.model.redaction import Disclosure
from domain.model.verification import VerificationReport
from replay.archive import export_lines
from replay.audit import AuditReport, audit

T = TypeVar("T")
BIG_EVENTS = 5_000  # games of more events are read in the big lane
STREAM_CHUNK = 64 * 1024  # bytes of a session log sent at a time

Lane = Literal["small", "big"]
_lanes: dict[Lane, ProcessPoolExecutor] = {}
_lanes_guard = threading.Lock()
_nice = 10  # KIROKU_LONG_READ_NICE (`configure`)


def lane_of(service: GameService, game_id: str) -> Lane:
    """The big lane for a game of more than `BIG_EVENTS` events, else the small one. Its
    length from the cached state, else from its last stored event (without reading or
    folding the others)."""
    state = service.games.cached(game_id)
    length = state.version if state is not None else service.games.last_seq(game_id)
    return "big" if length > BIG_EVENTS else "small"


def run(
    service: GameService,
    read: Callable[..., T],
    game_id: str,
    presented: Presented,
    *args: Any,
) -> T:
    """`read(service, game_id, audience, *args)` for whoever presented `presented` (checked
    first), in the game's lane (the calling thread waits without holding the interpreter
    lock)."""
    lane = _lane(lane_of(service, game_id))
    kind, value = lane.submit(_in_worker, service.env, read, game_id, presented, args).result()
    if kind == "refused":
        raise _refusal(value)
    result: T = value
    return result


def configure(nice: int) -> None:
    """How much nicer than the server the long reads' process runs (`KIROKU_LONG_READ_NICE`),
    from the settings the app is made with; before the first long read."""
    global _nice
    _nice = nice


def started() -> set[Lane]:
    """The lanes whose process has been started (and not shut down since)."""
    with _lanes_guard:
        return set(_lanes)


def shutdown() -> None:
    """Stop both lanes' processes (the next long read starts its lane again)."""
    with _lanes_guard:
        lanes = list(_lanes.values())
        _lanes.clear()
    for lane in lanes:
        lane.shutdown(wait=True, cancel_futures=True)


def _lane(name: Lane) -> ProcessPoolExecutor:
    with _lanes_guard:
        lane = _lanes.get(name)
        if lane is None:
            lane = _lanes[name] = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=_lower_priority,
                initargs=(_nice,),
            )
        return lane


def _lower_priority(increment: int) -> None:
    if increment:
        os.nice(increment)


# ----------------------------------------------------------------------------- in a lane

_services: dict[tuple[tuple[str, str], ...], GameService] = {}


def _authenticated(
    service: GameService,
    read: Callable[..., T],
    game_id: str,
    presented: Presented,
    args: tuple[Any, ...],
) -> T:
    audience = Authenticator(service.games).identify(game_id, presented)
    return read(service, game_id, audience, *args)


def _in_worker(
    env: dict[str, str],
    read: Callable[..., Any],
    game_id: str,
    presented: Presented,
    args: tuple[Any, ...],
) -> tuple[str, Any]:
    key = tuple(sorted(env.items()))
    service = _services.get(key)
    if service is None:
        while len(_services) >= 4:  # tests open many stores: keep a few
            _services.pop(next(iter(_services))).close()
        # One connection is enough here (PostgreSQL: the worker's own pools stay within the
        # server's limit).
        service = bootstrap(env={**env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"})
        _services[key] = service
    try:
        return "done", _authenticated(service, read, game_id, presented, args)
    except KirokuError as error:  # exceptions with their own fields do not pickle as such
        seq = error.seq if isinstance(error, CorruptEvent) else None
        # the catalog key and its arguments, so the caller's language reads it
        return "refused", (error.code, error.template, error.params, error.kind, seq)


def _refusal(value: tuple[str, str, dict[str, Any], Any, int | None]) -> KirokuError:
    code, template, params, kind, seq = value
    if seq is not None:
        return CorruptEvent(seq, str(params.get("why", "")))
    return KirokuError(code, template, kind=kind, params=params)


# ----------------------------------------------------------------------------- the reads


def verify_game(
    service: GameService, game_id: str, _audience: str, witness: tuple[int, str] | None
) -> VerificationReport:
    return service.verify(game_id, witness)


def audit_game(service: GameService, game_id: str, _audience: str) -> AuditReport:
    _require_ended(service, game_id)
    return audit(game_id, service.envelopes(game_id), service.bcdice.reevaluate)


def archive_bytes(service: GameService, game_id: str, _audience: str) -> bytes:
    _require_ended(service, game_id)
    return "".join(f"{line}\n" for line in export_lines(list(service.records(game_id)))).encode()


def session_log_head(
    service: GameService,
    game_id: str,
    audience: str,
    cocofolia_title: bool = False,
    language: str = i18n.DEFAULT,
) -> tuple[SessionLog, dict[str, str]]:
    """The session log as `audience` reads the game now (its first pass: what the head of the
    file needs), and the headers that go with it: the head it was read at and its
    Content-Security-Policy. `render_chunks` then writes the file from the store, in
    `language` (the exporter's)."""
    state = service.state(game_id)
    disclosure = Disclosure.of(state)
    log = session_log(
        lambda: service.records(game_id, upto=disclosure.upto),
        audience,
        disclosure,
        cocofolia_title=cocofolia_title,
        language=language,
    )
    headers = {**head_header(state), "Content-Security-Policy": policy(log)}
    headers["Content-Language"] = log.language
    headers["Content-Disposition"] = _disposition(
        cocofolia_filename(log.title) if cocofolia_title else f"kiroku-{game_id}.html"
    )
    return log, headers


def session_log_file(
    service: GameService,
    game_id: str,
    audience: str,
    cocofolia_title: bool = False,
    language: str = i18n.DEFAULT,
) -> tuple[str, dict[str, str]]:
    """The session log written (as it is made) into a temporary file, in a lane's process:
    its path (the caller streams it, then removes it) and its headers."""
    log, headers = session_log_head(service, game_id, audience, cocofolia_title, language)
    handle, path = tempfile.mkstemp(prefix="kiroku-log-", suffix=".html")
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in encoded(render_chunks(log)):
                out.write(chunk)
    except BaseException:
        os.unlink(path)
        raise
    return path, headers


def session_log_stream(
    service: GameService,
    game_id: str,
    presented: Presented,
    cocofolia_title: bool = False,
    language: str = i18n.DEFAULT,
) -> tuple[Iterator[bytes], dict[str, str]]:
    """The session log's bytes, and its headers, for whoever presented `presented`; memory
    stays bounded however long the game. A lane's process writes it into a temporary file
    (its Python does not hold this process's interpreter), then it is sent from there."""
    path, headers = run(service, session_log_file, game_id, presented, cocofolia_title, language)
    return _sent_then_removed(path), headers


def encoded(chunks: Iterable[str], size: int = STREAM_CHUNK) -> Iterator[bytes]:
    """UTF-8 bytes of `chunks`, gathered into pieces of about `size` bytes (a line at a time
    would be a send per line)."""
    pending: list[bytes] = []
    length = 0
    for chunk in chunks:
        data = chunk.encode("utf-8")
        pending.append(data)
        length += len(data)
        if length >= size:
            yield b"".join(pending)
            pending, length = [], 0
    if pending:
        yield b"".join(pending)


def _sent_then_removed(path: str) -> Iterator[bytes]:
    try:
        with open(path, "rb") as file:
            while chunk := file.read(STREAM_CHUNK):
                yield chunk
    finally:
        os.unlink(path)


def _disposition(filename: str) -> str:
    """`inline` with the file name: RFC 6266's `filename*` for a name beyond ASCII."""
    ascii_name = filename.encode("ascii", "replace").decode("ascii").replace('"', "_")
    return f"inline; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"


def _require_ended(service: GameService, game_id: str) -> None:
    if service.state(game_id).status != "ended":
        raise RuleViolation("game_not_ended", "The audit and the archive come after the game ends.")
