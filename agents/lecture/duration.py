"""Reading a lecture's duration as teaching minutes per day, and the durations a lecture can have.

Duration reading (:func:`read_duration`, :func:`parse_duration`): ``N일``/``N days`` gives the days,
``N시간``/``N hours`` (plus ``분``/``minutes``) the *total* teaching time, unless
a per-day word (``하루``, ``매일``, ``per day``, ``a day``, ``daily``) makes it
per day. A full day is 480 teaching minutes (breaks included, the 60-minute
lunch not), so "1일 8시간" is one day of 480 minutes, 09:00-18:00. Days only
means 480 minutes a day; hours only means as many 480-minute days as needed;
more than 480 minutes a day spills onto extra days; unreadable text assumes
one full day (and says so in the review).

The request's check (:func:`agents.lecture.inputs.validate_lecture_input`) refuses a duration that
reads as less than :data:`MIN_LECTURE_MINUTES` or more than :data:`MAX_LECTURE_DAYS` days: a plan
of 3 to 5 subtopics cannot be taught in a minute, no rework can make it fit (the duration is the
human's input, not the writer's), and a schedule of thousands of days is no lecture plan (each day
is a table of the draft). :func:`read_duration` counts without laying out the days, so any number
the field can hold is read, and refused, at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

#: Teaching minutes of a full day (breaks included, lunch not), which the writer follows and the time reviewer checks.
DAY_MINUTES = 480
#: The shortest lecture a plan of 3 to 5 subtopics is written for (about ten minutes a subtopic).
MIN_LECTURE_MINUTES = 30
#: The most teaching days one plan covers: six weeks of five days.
MAX_LECTURE_DAYS = 30


@dataclass(frozen=True)
class DurationReading:
    """A duration as read, before its days are laid out.

    Attributes:
        days: Teaching days (at least one for any teaching time).
        minutes: Teaching minutes in all.
        assumed: True when the text could not be read and one full day was assumed.
    """

    days: int
    minutes: int
    assumed: bool = False


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
    """The minutes written in ``text`` (hours read exactly, as a fraction); ``None`` when it names none."""
    hours = re.search(r"(\d+(?:\.\d+)?)\s*(?:시간|hours?\b|hrs?\b|h\b)", text, re.I)
    minutes = re.search(r"(\d+)\s*(?:분|minutes?\b|mins?\b)", text, re.I)
    if not hours and not minutes:
        return None
    total = Fraction(hours.group(1)) * 60 if hours else Fraction(0)
    return round(total + (int(minutes.group(1)) if minutes else 0))


def read_duration(text: str) -> DurationReading:
    """Reads a duration such as "1일 8시간", "2 days", "3 hours", "2일, 하루 6시간" as days and minutes.

    See the module docstring for the rules. Exact arithmetic (hours as a fraction), so a number of any
    length the field holds is read as written; nothing is laid out per day.
    """
    days = _days_in(text)
    minutes = _minutes_in(text)
    if minutes is None or minutes <= 0:
        if days:
            return DurationReading(days, days * DAY_MINUTES)
        if days == 0 or minutes == 0:  # "0일", "0분": said, and nothing to teach in
            return DurationReading(0, 0)
        return DurationReading(1, DAY_MINUTES, assumed=True)
    if _PER_DAY.search(text) and days:
        minutes *= days
    return DurationReading(max(days or 1, -(-minutes // DAY_MINUTES)), minutes)


def parse_duration(text: str) -> TeachingDays:
    """The teaching minutes of each day of the duration ``text`` (see :func:`read_duration`).

    Lays out every day: for a duration the request's check let through (at most
    :data:`MAX_LECTURE_DAYS` days).
    """
    reading = read_duration(text)
    if reading.assumed or reading.days == 0:
        return TeachingDays((DAY_MINUTES,), assumed=True)
    days, minutes = reading.days, reading.minutes
    base = minutes // days
    return TeachingDays((base,) * (days - 1) + (minutes - base * (days - 1),))
