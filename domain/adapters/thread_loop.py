"""One background thread working through a queue: the writer's and the snapshots' loop.

The thread starts on the first item put and hands what is queued to `step`, up to `max_batch`
items at a time; what `step` returns is handed back first in the next batch. `close` lets
everything queued and left be handled, then joins the thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
_STOP = object()


class ThreadLoop(Generic[T]):
    def __init__(
        self, name: str, step: Callable[[list[T]], list[T]], *, max_batch: int = 1
    ) -> None:
        self._name = name
        self._step = step
        self._max_batch = max_batch
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    def put(self, item: T) -> None:
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
        self._queue.put(item)

    def running_here(self) -> bool:
        return threading.current_thread() is self._thread

    @property
    def busy(self) -> bool:
        """Is anything put not handled yet?"""
        return self._queue.unfinished_tasks > 0

    def flush(self) -> None:
        """Wait until everything put so far has been handled."""
        if self._thread is not None:
            self._queue.join()

    def close(self) -> None:
        with self._guard:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()

    def _run(self) -> None:
        left: list[T] = []
        stopping = False
        while left or not stopping:
            batch, taken = left, 0
            while len(batch) < self._max_batch and not stopping:
                try:
                    item = self._queue.get(block=not batch)  # waits only for a first item
                except queue.Empty:
                    break
                taken += 1
                if item is _STOP:
                    stopping = True
                else:
                    batch.append(item)  # type: ignore[arg-type]
            try:
                left = self._step(batch) if batch else []
            except Exception:  # the loop goes on: `step` answers its own items' callers
                log.exception("%s failed a batch of %d", self._name, len(batch))
                left = []
            finally:
                for _ in range(taken):
                    self._queue.task_done()
