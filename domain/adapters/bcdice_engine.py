"""The BCDice engine: the server's one long-lived Node.js process running BCDice (application
layer: this module does I/O; the decider only receives its answers as data).

`bcdice/helper.mjs` answers JSON lines (its header says the protocol). The process is started
on first use, loads each game system when first asked for it, and is started again if it has
died; while it cannot run, every call raises `EngineDown` (503, nothing appended).

A fair roll is evaluated with the words of the game's committed stream for the roll's draw
number (`drawing.draw_words`): 64 words first, and twice as many each time BCDice asks for
more; BCDice's randomizer draws each face from them by `Draw.uniform`'s rule, and the decider
re-derives every face from the seed before recording it (`lifecycle.bcdice_record`).
"""

from __future__ import annotations

import atexit
import json
import logging
import re
import select
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from domain.application.settings import bcdice_dir, node_binary
from domain.dice.bcdice import (
    DEFAULT_SYSTEM,
    BCDiceResult,
    Evaluation,
    result_json,
    split_command,
)
from domain.model.commands import Command, Roll, Say
from domain.model.drawing import draw_words
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.messages import N_
from domain.model.verification import NotReevaluated

log = logging.getLogger(__name__)

# Words sent with a roll at first: enough for most rolls (a few dice, an occasional reroll);
# a roll that needs more is asked again with twice as many (each ask is a whole evaluation).
FIRST_WORDS = 16
MAX_WORDS = 1 << 16
TIMEOUT = 20.0  # seconds for one answer (loading a system the first time takes well under 1)


class EngineDown(KirokuError):
    """BCDice cannot answer right now: the request may work later. `why` (English, for the
    server's log) is logged here and never shown to the player."""

    kind = "unavailable"

    def __init__(self, why: str) -> None:
        super().__init__(
            "dice_engine_unavailable",
            N_("The dice bot (BCDice) is not answering. Please try again in a moment."),
        )
        self.why = why
        log.warning("BCDice is unavailable: %s", why)


class VersionMissing(EngineDown):
    """The BCDice version a game started with is not installed on this server."""

    def __init__(self, version: str, why: str) -> None:
        super().__init__(why)
        self.version = version


class _Died(EngineDown):
    def __init__(self) -> None:
        super().__init__("the BCDice process stopped")


class SystemInfo(BaseModel):
    """A BCDice game system as the picker lists it; `help` only where asked for."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    sort_key: str
    help: str | None = None


# Chat lines that can never be a command of any system are not sent to BCDice: a line whose
# first character is not ASCII (Japanese chat) cannot start one of BCDice's commands after
# its optional S (every system's COMMAND_PATTERN starts with ASCII), nor can an empty one.
_MAYBE_COMMAND = re.compile(r"^\s*[\x21-\x7e\uff01-\uff5e]")


class BCDiceEngine:
    """One Node.js process for the whole server; calls are serialised by a lock (BCDice
    evaluates synchronously, so the process could not answer two at once anyway)."""

    def __init__(self, folder: str | None = None, node: str | None = None) -> None:
        self.folder = Path(folder or bcdice_dir())
        self.node = node or node_binary()
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._next = 0
        self._systems: dict[str, list[SystemInfo]] = {}
        self._info: dict[tuple[str, str], SystemInfo] = {}
        self._version: str | None = None
        self.starts = 0  # how many times the process was started (restarts show here)

    # ------------------------------------------------------------------------- process

    def _start(self) -> subprocess.Popen[bytes]:
        helper = self.folder / "helper.mjs"
        if not (self.folder / "node_modules" / "bcdice").is_dir():
            raise EngineDown(f"BCDice is not installed: run `make serve` (npm ci in {self.folder})")
        if self.node is None or not Path(self.node).exists():
            raise EngineDown("no Node.js found: install the project (pip install -e .)")
        self.starts += 1
        return subprocess.Popen(
            [self.node, str(helper)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=self.folder,
        )

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            try:
                return self._ask(request)
            except _Died:
                # It had died since the last call (a crash, a kill): start it again, once.
                return self._ask(request)

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._process is None or self._process.poll() is not None:
            if self._process is not None:
                log.warning(
                    "the BCDice process exited (%s): starting it again", self._process.returncode
                )
            self._process = self._start()
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        self._next += 1
        request = {"id": self._next, **request}
        try:
            process.stdin.write(json.dumps(request, ensure_ascii=False).encode() + b"\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], TIMEOUT)
            line = process.stdout.readline() if ready else None
        except OSError:
            line = b""
        if not line:
            self._kill()
            if line is not None:  # end of file: it died
                raise _Died()
            raise EngineDown("the BCDice process did not answer in time")
        answer: dict[str, Any] = json.loads(line)
        if answer.get("id") != self._next:
            self._kill()
            raise EngineDown("the BCDice process answered out of turn")
        return answer

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def close(self) -> None:
        with self._lock:
            if self._process is not None and self._process.stdin is not None:
                self._process.stdin.close()
                try:
                    self._process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                self._process = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    # ------------------------------------------------------------------------- queries

    def version(self) -> str:
        """The BCDice version (npm package) new games start with."""
        if self._version is None:
            self._version = str(self._call({"op": "versions"})["main"])
        return self._version

    def systems(self, version: str | None = None) -> list[SystemInfo]:
        """Every game system of BCDice `version` (default: the current one), by sort key."""
        key = version or self.version()
        found = self._systems.get(key)
        if found is None:
            answer = self._checked({"op": "systems", "version": key})
            found = sorted(
                (
                    SystemInfo(id=s["id"], name=s["name"], sort_key=s["sort_key"])
                    for s in answer["systems"]
                ),
                key=lambda s: s.sort_key,
            )
            self._systems[key] = found
        return found

    def info(self, system: str, version: str | None = None) -> SystemInfo:
        """A system with its help text (BCDice's HELP_MESSAGE); KirokuError if unknown."""
        key = (version or self.version(), system)
        found = self._info.get(key)
        if found is None:
            answer = self._checked({"op": "info", "version": key[0], "system": system})
            found = SystemInfo(
                id=answer["system"],
                name=answer["name"],
                sort_key=answer["sort_key"],
                help=answer["help"],
            )
            self._info[key] = found
        return found

    def _checked(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self._call(request)
        if "error" in answer:
            raise _refusal(request, answer)
        return answer

    # ------------------------------------------------------------------------- evaluation

    def evaluate(
        self,
        system: str,
        command: str,
        *,
        version: str | None = None,
        faces: list[int] | None = None,
        words: Callable[[int], list[int]] | None = None,
        exact: bool = True,
    ) -> Evaluation:
        """BCDice's answer to `command` in `system`: with `faces` given one by one to its
        randomizer, or with `words(count)` giving the first `count` words of a fair stream
        (asked again for more while BCDice needs them). A command BCDice does not know gives
        an Evaluation without result; faces that do not fit it raise `bad_faces` (faces left
        over too, unless not `exact`: BCDice's own test data gives some)."""
        used = version or self.version()
        request: dict[str, Any] = {
            "op": "eval",
            "version": used,
            "system": system,
            "command": command,
        }
        count = FIRST_WORDS
        while True:
            if faces is not None:
                request["faces"] = list(faces)
                request["exact"] = exact
            else:
                request["words"] = words(count) if words is not None else []
            answer = self._call(request)
            if answer.get("more") and faces is None and words is not None and count < MAX_WORDS:
                count *= 2
                continue
            if answer.get("more"):
                raise KirokuError("dice_limit", N_("This command rolls too many dice."))
            break
        if "error" in answer:
            raise _refusal(request, answer)
        raw = answer.get("result")
        result = None
        if raw is not None:
            result = BCDiceResult(
                text=raw["text"],
                secret=bool(raw["secret"]),
                success=bool(raw["success"]),
                failure=bool(raw["failure"]),
                critical=bool(raw["critical"]),
                fumble=bool(raw["fumble"]),
                rands=tuple((int(v), int(s)) for v, s in raw["rands"]),
            )
        return Evaluation(system=system, version=used, command=command, result=result)

    def reevaluate(
        self, system: str, version: str, command: str, faces: list[int]
    ) -> tuple[dict[str, Any], list[int]] | None:
        """For the audit (`verification.Reevaluate`): BCDice `version`'s result on these faces
        as the event records it, and the sides of each call; NotReevaluated when that version
        cannot run here."""
        try:
            evaluation = self.evaluate(system, command, version=version, faces=faces)
        except EngineDown as down:
            raise NotReevaluated(version) from down
        if evaluation.result is None:
            return None
        return result_json(evaluation.result), list(evaluation.result.sides)

    def for_command(self, state: GameState, command: Command) -> Evaluation | None:
        """BCDice's answer to a chat line or roll of this game, with its faces from draw
        `state.draws + 1` of the game's stream (or the manual faces); None for any other
        command, and for a chat line that cannot be a command."""
        if isinstance(command, Say):
            if not _MAYBE_COMMAND.match(command.text):
                return None
            text, faces, entropy = command.text, None, command.entropy
        elif isinstance(command, Roll):
            text, faces, entropy = command.expression, command.faces, command.entropy
        else:
            return None
        number = state.draws + 1
        return self.evaluate(
            state.system or DEFAULT_SYSTEM,
            split_command(text)[0],
            version=state.bcdice,
            faces=faces,
            words=lambda count: draw_words(state, count, number=number, entropy=entropy),
        )


_SHARED: BCDiceEngine | None = None
_SHARED_GUARD = threading.Lock()


def shared_engine() -> BCDiceEngine:
    """The process's one engine (one Node.js process however many services it serves),
    stopped when the process exits."""
    global _SHARED
    with _SHARED_GUARD:
        if _SHARED is None:
            _SHARED = BCDiceEngine()
            atexit.register(_SHARED.close)
        return _SHARED


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# What the helper's known failures say (bcdice/helper.mjs `Failure`), their numbers as params.
_FAILURES = {
    "faces_short": N_("{command} needs more than the {given} faces given."),
    "faces_left": N_("{command} uses {used} faces, not the {given} given."),
    "faces_range": N_("{command}: face {index} ({face}) is not a face of a {sides}-sided die."),
}


def _refusal(request: dict[str, Any], answer: dict[str, Any]) -> KirokuError:
    """The error the helper answered, as a refusal in the player's words: a known failure its
    catalog sentence with the helper's numbers; anything else (a JavaScript exception inside
    BCDice) a sentence of ours, its raw English message only in the server's log."""
    code, why = str(answer.get("code") or "bcdice_error"), str(answer.get("error"))
    given = answer.get("params")
    numbers = {str(k): v for k, v in given.items()} if isinstance(given, dict) else {}
    command = str(request.get("command"))
    if code == "unknown_system":
        return KirokuError(
            "unknown_system",
            N_("BCDice has no game system {system}."),
            params={"system": str(request.get("system"))},
        )
    if code == "version_unavailable":
        return VersionMissing(str(numbers.get("version", request.get("version"))), why)
    template = _FAILURES.get(code)
    if template is not None:
        wanted = set(_PLACEHOLDER.findall(template)) - {"command"}
        if not wanted <= numbers.keys():  # a helper that sent no numbers
            template, wanted = N_("The faces given do not fit {command}."), set()
        params = {name: numbers[name] for name in wanted}
        return KirokuError("bad_faces", template, params={**params, "command": command})
    log.warning("BCDice could not evaluate %r (%s): %s", command, code, why)
    return KirokuError(
        "bcdice_error", N_("BCDice could not evaluate {command}."), params={"command": command}
    )
