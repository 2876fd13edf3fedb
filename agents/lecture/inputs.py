"""The lecture request: its six fields, their limits, a default, and the checks of human text.

All values are plain JSON (a ``TypedDict`` of strings), so a request sits in
LangGraph state, passes through the checkpoint serializer and the
``update_state`` forms unchanged. Bad user input raises
:class:`~agents.errors.InputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping

from typing_extensions import TypedDict

from agents.errors import InputError
from agents.lecture.duration import MAX_LECTURE_DAYS, MIN_LECTURE_MINUTES, read_duration
from agents.lecture.strings import STRINGS
from agents.strings import STRINGS as CORE_STRINGS
from agents.texts import text
from agents.validation import validate_text

LECTURE_FIELDS: tuple[str, ...] = (
    "topic",
    "audience_level",
    "duration",
    "delivery_method",
    "platform_tools",
    "constraints",
)
FIELD_MAX_LENGTH = 200
CONSTRAINTS_MAX_LENGTH = 500
HUMAN_NOTES_MAX_LENGTH = 1000


class LectureInput(TypedDict):
    """The six fields of a lecture request (all required, trimmed)."""

    topic: str
    audience_level: str
    duration: str
    delivery_method: str
    platform_tools: str
    constraints: str


DEFAULT_LECTURE_INPUT: LectureInput = {
    "topic": "업무에 바로 쓰는 AI 활용법",
    "audience_level": "비개발자 직장인 초급",
    "duration": "1일 8시간",
    "delivery_method": "강의+실습 병행",
    "platform_tools": "ChatGPT, Notion",
    "constraints": "프로젝터 없음, 노트북 1인 1대",
}


def validate_lecture_input(raw: Mapping[str, object]) -> LectureInput:
    """Checks and trims the six lecture fields.

    Each field must be text, non-empty after trimming, at most 200 characters
    (``constraints``: 500) and free of control characters; ``constraints`` may
    span lines because it is typed into a text area. The duration must read as
    a lecture (:func:`check_duration`).

    Every start checks it before anything is written (the spec's ``check_start``, on every path), and
    the graph's ``validate`` node again (a run started by other tooling).

    Raises:
        InputError: Naming the first bad field (unknown fields included).
    """
    unknown = sorted(set(raw) - set(LECTURE_FIELDS))
    if unknown:
        expected = ", ".join(LECTURE_FIELDS)
        raise InputError(str(unknown[0]), text(STRINGS, "lecture.error.unknown_field", expected=expected))
    values: dict[str, str] = {}
    for field in LECTURE_FIELDS:
        if raw.get(field) is None:
            raise InputError(field, text(CORE_STRINGS, "error.required"))
        is_constraints = field == "constraints"
        limit = CONSTRAINTS_MAX_LENGTH if is_constraints else FIELD_MAX_LENGTH
        values[field] = validate_text(raw[field], field, max_length=limit, multiline=is_constraints)
    check_duration(values["duration"])
    return LectureInput(**values)  # type: ignore[typeddict-item]  # keys are LECTURE_FIELDS, checked above


def check_duration(duration: str) -> None:
    """Refuses a duration that reads as shorter than a lecture or longer than one plan covers.

    From :data:`~agents.lecture.duration.MIN_LECTURE_MINUTES` minutes to
    :data:`~agents.lecture.duration.MAX_LECTURE_DAYS` teaching days (as
    :func:`~agents.lecture.duration.read_duration` reads it); text it cannot read passes (one full
    day is assumed, and the time reviewer says so).

    Raises:
        InputError: Naming ``duration``, with what it read and the bound.
    """
    reading = read_duration(duration)
    if reading.days > MAX_LECTURE_DAYS:
        raise InputError(
            "duration", text(STRINGS, "lecture.error.too_many_days", days=reading.days, limit=MAX_LECTURE_DAYS)
        )
    if reading.minutes < MIN_LECTURE_MINUTES:
        raise InputError(
            "duration",
            text(STRINGS, "lecture.error.too_short", minutes=reading.minutes, minimum=MIN_LECTURE_MINUTES),
        )


def validate_human_notes(notes: object, field: str = "human_notes") -> str:
    """Checks the human's rework notes: optional text, at most 1000 characters.

    Args:
        notes: The notes as given.
        field: The name the person typed them under: ``notes`` in an answer, ``human_notes`` in the state.

    Raises:
        InputError: Naming ``field``.
    """
    if notes is None or (isinstance(notes, str) and not notes.strip()):
        return ""
    return validate_text(notes, field, max_length=HUMAN_NOTES_MAX_LENGTH, multiline=True)
