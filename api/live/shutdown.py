"""Hear the server's exit signal, so open event streams end and let the server stop.

uvicorn waits for every open response to finish before it runs the lifespan shutdown, and an
event stream never finishes by itself: without this, SIGTERM would wait forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable
from types import FrameType

EXIT_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def on_exit_signal(
    loop: asyncio.AbstractEventLoop, callback: Callable[[], None]
) -> Callable[[], None]:
    """Chain `callback` (run on `loop`) after the handler the server installed for each exit
    signal; returns a function that puts the server's handlers back.

    Does nothing off the main thread (signals cannot be handled there; e.g. TestClient) or for
    a signal nobody handles in Python (its default action ends the process anyway).
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    chained: dict[signal.Signals, tuple[Callable[..., object], Callable[..., object]]] = {}
    for signum in EXIT_SIGNALS:
        previous = signal.getsignal(signum)
        if not callable(previous):
            continue

        def handler(
            sig: int, frame: FrameType | None, previous: Callable[..., object] = previous
        ) -> None:
            try:
                previous(sig, frame)
            finally:
                with contextlib.suppress(RuntimeError):  # the loop has closed already
                    loop.call_soon_threadsafe(callback)

        signal.signal(signum, handler)
        chained[signum] = (previous, handler)

    def restore() -> None:
        for signum, (previous, handler) in chained.items():
            if signal.getsignal(signum) is handler:  # nobody replaced ours in the meantime
                signal.signal(signum, previous)

    return restore
