"""端数切り捨て(切り下げ): every fraction rounds toward −∞ (seed L11).

「負の数の場合より小さい方に合わせるので、厳密には切り捨てではなく切り下げである」 — Python's
floor division is exactly that, so half of −7 is −4, not −3.
"""

from __future__ import annotations


def halved(value: int) -> int:
    """½ of `value`, rounded toward −∞ (L11): half damage on a miss, crawl speed, 半壊."""
    return value // 2
