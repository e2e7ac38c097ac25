"""Run `kiroku serve` as a real subprocess on a free loopback port, for tests over real HTTP.

    with KirokuServer(db=tmp_path / "kiroku.db") as server:
        httpx.get(server.base_url + "/healthz")

The server runs in its own process group (uvicorn's supervisor and every worker), so stopping
it signals the whole group and waits until no member is left: no orphaned workers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

import httpx

REPO_ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes in a process group, read from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


class ServerFailed(RuntimeError):
    pass


class KirokuServer:
    """`python -m api.cli serve` with the given store and worker count; see the module doc."""

    def __init__(
        self,
        *,
        db: str | os.PathLike[str] | None = None,
        database_url: str | None = None,
        workers: int = 1,
        env: dict[str, str] | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
    ) -> None:
        self.db = os.fspath(db) if db is not None else None
        self.database_url = database_url
        self.workers = workers
        self.extra_env = dict(env or {})
        self.startup_timeout = startup_timeout
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._log_path: Path | None = None
        self.last_log = ""  # the log of the previous run, kept when it stops

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        if self._log_path is None or not self._log_path.exists():
            return ""
        return self._log_path.read_text(errors="replace")

    # ----------------------------------------------------------------------- lifecycle

    def start(self) -> KirokuServer:
        last_error: ServerFailed | None = None
        for _ in range(3):  # a free port can be taken between probing and binding it
            try:
                self._start_once()
                return self
            except ServerFailed as error:
                self.stop()
                last_error = error
                if "address already in use" not in str(error).lower():
                    break
        assert last_error is not None
        raise last_error

    def _start_once(self) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--workers", str(self.workers)]
        if self.db is not None:
            command += ["--db", self.db]
        if self.database_url is not None:
            command += ["--database-url", self.database_url]
        env = {k: v for k, v in os.environ.items() if k not in ("KIROKU_DB", "KIROKU_DATABASE_URL")}
        env.setdefault("KIROKU_LIMITS", "off")  # tests and benchmarks drive many clients
        env.update(self.extra_env)
        env["PYTHONUNBUFFERED"] = "1"
        fd, log_name = tempfile.mkstemp(prefix="kiroku-serve-", suffix=".log")
        self._log_path = Path(log_name)
        with os.fdopen(fd, "wb") as log_file:
            # cwd is the checkout under test, so `-m api.cli` imports this tree's code.
            self.process = subprocess.Popen(
                command,
                cwd=REPO_ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        with httpx.Client(timeout=2.0) as client:
            while True:
                if self.process.poll() is not None:
                    raise ServerFailed(
                        f"kiroku serve exited with {self.process.returncode}:\n{self.log()}"
                    )
                if self._healthy(client) and self._workers_started():
                    return
                if time.monotonic() > deadline:
                    raise ServerFailed(
                        f"kiroku serve not ready after {self.startup_timeout}s:\n{self.log()}"
                    )
                time.sleep(0.05)

    def _healthy(self, client: httpx.Client) -> bool:
        try:
            response = client.get(self.base_url + "/healthz")
        except httpx.HTTPError:
            return False
        return response.status_code == 200 and response.json() == {"status": "ok"}

    def _workers_started(self) -> bool:
        # /healthz answers as soon as one worker runs; wait until every worker has started.
        return self.log().count("Application startup complete") >= self.workers

    def stop(self) -> None:
        """SIGTERM the whole process group, SIGKILL whatever is left after STOP_TIMEOUT."""
        process, self.process = self.process, None
        if process is None:
            return
        pgid = process.pid  # start_new_session: the server leads its own group
        self._signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=STOP_TIMEOUT)
        while group_members(pgid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if group_members(pgid) or process.poll() is None:
            self._signal_group(pgid, signal.SIGKILL)
            process.wait(timeout=STOP_TIMEOUT)
        if self._log_path is not None:
            self.last_log = self.log()
            self._log_path.unlink(missing_ok=True)
            self._log_path = None

    @staticmethod
    def _signal_group(pgid: int, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signum)

    def __enter__(self) -> KirokuServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
        if exc is not None:  # pytest shows captured output of a failing test
            print(f"--- kiroku serve log ---\n{self.last_log}")
