"""Reading a lecture's duration as teaching minutes per day.

Duration parsing (:func:`parse_duration`): ``N일``/``N days`` gives the days,
``N시간``/``N hours`` (plus ``분``/``minutes``) the *total* teaching time, unless
a per-day word (``하루``, ``매일``, ``per day``, ``a day``, ``daily``) makes it
per day. A full day is 480 teaching minutes (breaks included, the 60-minute
lunch not), so "1일 8시간" is one day of 480 minutes, 09:00-18:00. Days only
means 480 minutes a day; hours only means as many 480-minute days as needed;
more than 480 minutes a day spills onto extra days; unreadable text assumes
one full day (and says so in the review).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from agents.lecture.prompts import DAY_MINUTES


@dataclass(frozen=True)
class TeachingDays:
    """Teaching minutes per day (breaks included, lunch excluded).

    Attributes:
        day_minutes: One entry per day.
        assumed: True when the duration text could not be read and one full
            day was assumed.
    """

    day_minutes: tuple[int, ...]
    assumed: bool = False


_DAY_WORDS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "one day": 1, "two days": 2, "three days": 3}
_PER_DAY = re.compile(r"하루|매일|일일|per day|a day|/day|daily|each day", re.I)


def _days_in(text: str) -> int | None:
    match = re.search(r"(\d+)\s*(?:일(?!차)|days?\b)", text, re.I)
    if match:
        return int(match.group(1))
    for word, days in _DAY_WORDS.items():
        if word in text.lower():
            return days
    return None


def _minutes_in(text: str) -> int | None:
    hours = re.search(r"(\d+(?:\.\d+)?)\s*(?:시간|hours?\b|hrs?\b|h\b)", text, re.I)
    minutes = re.search(r"(\d+)\s*(?:분|minutes?\b|mins?\b)", text, re.I)
    if not hours and not minutes:
        return None
    total = float(hours.group(1)) * 60 if hours else 0.0
    return round(total + (int(minutes.group(1)) if minutes else 0))


def parse_duration(text: str) -> TeachingDays:
    """Reads a duration such as "1일 8시간", "2 days", "3 hours", "2일, 하루 6시간".

    See the module docstring for the rules.
    """
    days = _days_in(text)
    minutes = _minutes_in(text)
    if minutes is None or minutes <= 0:
        if days:
            return TeachingDays((DAY_MINUTES,) * days)
        return TeachingDays((DAY_MINUTES,), assumed=True)
    if _PER_DAY.search(text) and days:
        minutes *= days
    days = max(days or 1, math.ceil(minutes / DAY_MINUTES))
    base = minutes // days
    return TeachingDays((base,) * (days - 1) + (minutes - base * (days - 1),))
