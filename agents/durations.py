"""Times and durations as text: the node log's exports, the CLI and the Timeline page share them."""

from __future__ import annotations

from datetime import UTC, datetime


def iso_utc(epoch_seconds: float) -> str:
    """ISO-8601 UTC timestamp with microseconds, e.g. ``2025-01-02T03:04:05.123456+00:00``."""
    return datetime.fromtimestamp(epoch_seconds, tz=UTC).isoformat(timespec="microseconds")


def exact_duration(seconds: float) -> str:
    """A duration as exact as the clock times beside it: ``0.180 ms`` (to the microsecond), ``4.200 s``."""
    if seconds < 1:
        return f"{seconds * 1000:.3f} ms"
    return f"{seconds:.3f} s"


def format_duration(seconds: float) -> str:
    """Short human text for a duration: ``850 ms``, ``4.2 s``, ``12 min 3 s``, ``2 h 5 min``."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 59.95:  # anything that would print as "60.0 s" reads better as minutes
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"
