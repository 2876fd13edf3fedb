"""How long an unfinished thread has waited, in words, and whether it is past its deadline.

Every function takes the clock (``now``) as a parameter, so what a page, the CLI or a test shows for a
given moment is fixed by that moment alone; :func:`utc_now` is the one place the real clock is read.
"""

from __future__ import annotations

import datetime as dt

from agents.strings import STRINGS
from agents.texts import Text, text


def utc_now() -> dt.datetime:
    """The current time, UTC (the clock the CLI and the pages pass down)."""
    return dt.datetime.now(dt.UTC)


def age_seconds(since: dt.datetime, now: dt.datetime) -> float:
    """Seconds from ``since`` to ``now`` (0 when ``since`` lies ahead: clocks of two machines differ)."""
    return max(0.0, (now - since).total_seconds())


def span_text(seconds: float) -> Text:
    """A span in words, to the unit a person reads: ``45 s``, ``12 min``, ``3 h 20 min``, ``2 d 5 h``."""
    whole = int(seconds)
    days, rest = divmod(whole, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return text(STRINGS, "age.days", days=days, hours=hours)
    if hours:
        return text(STRINGS, "age.hours", hours=hours, minutes=minutes)
    if minutes:
        return text(STRINGS, "age.minutes", minutes=minutes)
    return text(STRINGS, "age.seconds", seconds=secs)


def age_text(since: dt.datetime, now: dt.datetime) -> Text:
    """How long a thread has waited: ``waiting 3 h 20 min`` / ``3시간 20분째 대기``."""
    return text(STRINGS, "age.waiting", span=span_text(age_seconds(since, now)))


def is_overdue(since: dt.datetime | None, deadline: int | None, now: dt.datetime) -> bool:
    """Whether an item unfinished since ``since`` is past its deadline (in seconds; None: it has none)."""
    return since is not None and deadline is not None and age_seconds(since, now) > deadline
