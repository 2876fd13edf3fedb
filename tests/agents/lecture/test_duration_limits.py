"""A duration no lecture has is bad input: refused with its reading and the bound, before anything is written.

From 30 minutes to 30 teaching days of 8 hours; a number of any length the field holds is read (and
refused) at once, never laid out day by day.
"""

from __future__ import annotations

import json

import pytest

from agents import runs
from agents.errors import InputError
from agents.lecture.duration import MAX_LECTURE_DAYS, MIN_LECTURE_MINUTES, parse_duration, read_duration
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT, validate_lecture_input
from agents.lecture.strings import STRINGS
from agents.nodelog import node_runs
from agents.readmodel import head_checkpoint_id
from tests.agents.lecture.test_lecture_cli import start_args

HUGE = "1000000000000000000000일"


@pytest.mark.parametrize(
    ("duration", "days", "minutes"),
    [
        (HUGE, 10**21, 10**21 * 480),
        ("99999999999일", 99_999_999_999, 99_999_999_999 * 480),
        ("1분", 1, 1),
        ("0시간", 0, 0),
        ("241시간", 31, 241 * 60),
        ("2일, 하루 6시간", 2, 720),
    ],
)
def test_a_duration_is_read_as_days_and_minutes_without_laying_them_out(duration, days, minutes):
    reading = read_duration(duration)
    assert (reading.days, reading.minutes, reading.assumed) == (days, minutes, False)


@pytest.mark.parametrize(
    ("duration", "english", "korean"),
    [
        (
            HUGE,
            "duration: reads as 1,000,000,000,000,000,000,000 teaching days of 8 hours; a lecture plan covers at "
            "most 30 days",
            "duration: 하루 8시간 기준 수업일 1,000,000,000,000,000,000,000일로 읽힙니다. 강의 계획은 최대 30일까지 "
            "다룹니다",
        ),
        ("99999999999일", "reads as 99,999,999,999 teaching days", "수업일 99,999,999,999일"),
        ("1500일", "reads as 1,500 teaching days", "수업일 1,500일"),
        ("31 days", "reads as 31 teaching days", "수업일 31일"),
        ("241시간", "reads as 31 teaching days", "수업일 31일"),
        (
            "1분",
            "duration: reads as 1 min of teaching; a lecture of 3 to 5 subtopics needs at least 30 min",
            "duration: 수업 시간이 1분으로 읽힙니다. 세부 주제 3~5개를 다루려면 최소 30분이 필요합니다",
        ),
        ("29 minutes", "reads as 29 min of teaching", "29분으로"),
        ("0일", "reads as 0 min of teaching", "0분으로"),
    ],
)
def test_a_duration_no_lecture_has_is_refused_naming_the_bound(duration, english, korean):
    with pytest.raises(InputError) as refused:
        validate_lecture_input({**DEFAULT_LECTURE_INPUT, "duration": duration})
    assert refused.value.field == "duration"
    assert english in refused.value.render("en") and korean in refused.value.render("ko")


@pytest.mark.parametrize("duration", ["30분", "1일 8시간", "30일", "240시간", "반나절쯤", "2 days"])
def test_a_lecture_duration_within_the_bounds_passes(duration):
    assert validate_lecture_input({**DEFAULT_LECTURE_INPUT, "duration": duration})["duration"] == duration
    assert len(parse_duration(duration).day_minutes) <= MAX_LECTURE_DAYS


def test_the_bounds_are_the_ones_the_message_and_the_help_state():
    assert (MIN_LECTURE_MINUTES, MAX_LECTURE_DAYS) == (30, 30)
    english, korean = STRINGS["help.lecture.start.duration"]
    assert "from 30 minutes to 30 days" in english and "30분부터 30일" in korean


@pytest.mark.parametrize("duration", [HUGE, "99999999999일", "1500일", "1분"])
def test_every_start_refuses_it_before_anything_is_written(store, settings, duration):
    with pytest.raises(InputError) as refused:
        runs.start_run(store, settings, "lecture", {**DEFAULT_LECTURE_INPUT, "duration": duration}, thread_id="lt-1")
    assert refused.value.field == "duration"
    assert head_checkpoint_id(store, "lt-1") is None and not node_runs(store)


@pytest.mark.parametrize("duration", [HUGE, "99999999999일", "1500일", "1분"])
def test_the_cli_refuses_it_with_exit_2_and_writes_nothing(run_cli, duration):
    result = run_cli(*start_args(duration=duration), "--thread", "lt-cli")
    assert result.code == 2, (result.code, result.err)
    assert "duration: reads as" in result.err and "Traceback" not in result.err
    assert json.loads(run_cli("threads", "--json").out) == []


def test_the_cli_says_it_in_korean(run_cli):
    result = run_cli("--lang", "ko", *start_args(duration=HUGE))
    assert result.code == 2
    assert "강의 계획은 최대 30일까지 다룹니다" in result.err and "reads as" not in result.err
