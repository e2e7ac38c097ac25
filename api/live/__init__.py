"""Live event streams: per-game feeds in each worker, woken in-process or over Redis."""

from api.live.config import LiveSettings
from api.live.runtime import Live

__all__ = ["Live", "LiveSettings"]
