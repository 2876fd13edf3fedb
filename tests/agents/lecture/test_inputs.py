"""The lecture request's checks: the six fields and the human's notes."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.errors import InputError
from agents.lecture.inputs import (
    DEFAULT_LECTURE_INPUT,
    LECTURE_FIELDS,
    validate_human_notes,
    validate_lecture_input,
)
from agents.validation import BIDI_CONTROLS, LINE_BREAKS


def test_the_default_input_is_valid_and_fields_are_trimmed() -> None:
    padded = {field: f"  {value}\t" for field, value in DEFAULT_LECTURE_INPUT.items()}
    assert validate_lecture_input(padded) == DEFAULT_LECTURE_INPUT


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"topic": "   "}, "topic", "empty"),
        ({"duration": None}, "duration", "required"),
        ({"audience_level": "x" * 201}, "audience_level", "limit is 200"),
        ({"constraints": "x" * 501}, "constraints", "limit is 500"),
        ({"platform_tools": "ChatGPT\x00"}, "platform_tools", "control character"),
        ({"delivery_method": "강의\n실습"}, "delivery_method", "line break (U+000A)"),
        ({"delivery_method": "강의\u2028실습"}, "delivery_method", "line break (U+2028)"),
        ({"topic": 42}, "topic", "must be text"),
        ({"budget": "1000"}, "budget", "not a lecture field"),
    ],
)
def test_bad_input_names_the_field(change: dict, field: str, words: str) -> None:
    with pytest.raises(InputError) as raised:
        validate_lecture_input({**DEFAULT_LECTURE_INPUT, **change})
    assert raised.value.field == field
    assert words in raised.value.message
    assert isinstance(raised.value, ValueError)


def test_constraints_may_span_lines() -> None:
    assert validate_lecture_input({**DEFAULT_LECTURE_INPUT, "constraints": "프로젝터 없음\n노트북 1인 1대"})


def _is_valid(field: str, value: str) -> bool:
    text = value.strip()
    limit = 500 if field == "constraints" else 200
    allowed = "\n\t" if field == "constraints" else ""
    controls = any(
        (unicodedata.category(char) == "Cc" and char not in allowed)
        or char in BIDI_CONTROLS
        or (field != "constraints" and char in LINE_BREAKS)
        for char in text
    )
    visible = any(not (char.isspace() or unicodedata.category(char) == "Cf") for char in text)
    return visible and len(text) <= limit and not controls


@given(st.fixed_dictionaries({field: st.text(max_size=520) for field in LECTURE_FIELDS}))
def test_validation_accepts_exactly_the_valid_inputs(raw: dict[str, str]) -> None:
    invalid = [field for field in LECTURE_FIELDS if not _is_valid(field, raw[field])]
    if invalid:
        with pytest.raises(InputError) as raised:
            validate_lecture_input(raw)
        assert raised.value.field == invalid[0]
    else:
        assert validate_lecture_input(raw) == {field: raw[field].strip() for field in LECTURE_FIELDS}


def test_human_notes_are_optional_and_limited() -> None:
    assert validate_human_notes(None) == "" and validate_human_notes("  ") == ""
    assert validate_human_notes(" 실습을 늘려 주세요\n") == "실습을 늘려 주세요"
    with pytest.raises(InputError, match="human_notes"):
        validate_human_notes("x" * 1001)
