"""The dashboard's one way of writing amounts, times, empty cells and stored codes."""

from __future__ import annotations

import datetime as dt
import math
from zoneinfo import ZoneInfo

import pandas as pd
import pyarrow as pa
import pytest

from dashboard.formats import amount, cell, clean_frame, code_word, timestamp, to_datetime


@pytest.mark.parametrize(
    ("value", "signed", "english", "korean"),
    [
        (500_000, False, "500,000 KRW", "500,000원"),
        (1, False, "1 KRW", "1원"),
        (-450_000, True, "-450,000 KRW", "-450,000원"),
        (50_000, True, "+50,000 KRW", "+50,000원"),
        (None, False, "—", "—"),
        ("", False, "—", "—"),
        ("abc", False, "abc", "abc"),  # a damaged state is shown as it is
        (True, False, "True", "True"),
    ],
)
def test_an_amount_has_separators_and_the_unit_of_the_language(value, signed, english, korean):
    assert amount(value, signed=signed, lang="en") == english
    assert amount(value, signed=signed, lang="ko") == korean


@pytest.mark.parametrize(
    "value",
    [
        dt.datetime(2026, 12, 1, 9, 30, 0, 250_000, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 1, 18, 30, 0, tzinfo=dt.timezone(dt.timedelta(hours=9))),  # KST
        dt.datetime(2026, 12, 1, 9, 30, 0),  # no zone: UTC, as the save file writes them
        "2026-12-01T09:30:00+00:00",
        "2026-12-01T18:30:00+09:00",
        "2026-12-01 09:30:00",
        dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC).timestamp(),
        int(dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC).timestamp()),
    ],
)
def test_every_kind_of_time_is_shown_in_one_zone_with_the_zone_named(value, monkeypatch):
    monkeypatch.setenv("HITL_TIMEZONE", "UTC")
    assert timestamp(value) == "2026-12-01 09:30:00 UTC"
    monkeypatch.setenv("HITL_TIMEZONE", "Asia/Seoul")  # HITL_TIMEZONE: approvers who work in KST
    assert timestamp(value) == "2026-12-01 18:30:00 KST"
    assert timestamp(value, ZoneInfo("Europe/Berlin")) == "2026-12-01 10:30:00 CET"  # a table's zone, read once


def test_times_are_shown_in_the_machines_zone_by_default(monkeypatch):
    monkeypatch.delenv("HITL_TIMEZONE", raising=False)
    moment = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC)
    local = moment.astimezone()
    assert timestamp(moment) == f"{local:%Y-%m-%d %H:%M:%S} {local.tzname()}"


@pytest.mark.parametrize(("value", "shown"), [(None, ""), ("", ""), ("soon", "soon"), (math.nan, "")])
def test_a_missing_or_unreadable_time_is_empty_or_shown_as_it_is(value, shown):
    assert timestamp(value) == shown
    assert to_datetime(value) is None


def test_no_cell_is_none_or_nan_and_other_cells_keep_their_type():
    assert [cell(v) for v in (None, math.nan, 0, False, "x", 1.5)] == ["", "", 0, False, "x", 1.5]
    frame = clean_frame(pd.DataFrame({"n": [1.0, None, 0.86], "s": ["a", None, "c"], "b": [True, False, True]}))
    assert frame.to_dict("list") == {"n": ["1", "", "0.86"], "s": ["a", "", "c"], "b": [True, False, True]}
    untouched = pd.DataFrame({"n": [1, 2]})
    assert clean_frame(untouched) is untouched


def test_a_column_with_gaps_is_one_type_so_arrow_takes_it_as_it_is():
    frame = clean_frame(pd.DataFrame({"efficiency": [0.86, None], "count": [3, None]}))
    table = pa.Table.from_pandas(frame, preserve_index=False)  # Streamlit's own conversion; no fallback needed
    assert table.column("efficiency").to_pylist() == ["0.86", ""] and table.column("count").to_pylist() == ["3", ""]


@pytest.mark.parametrize(
    ("kind", "code", "english", "korean"),
    [
        ("status", "waiting", "waiting", "대기 중"),
        ("status", "attention", "needs attention", "확인 필요"),
        ("status", "running", "running", "실행 중"),
        ("status", "done", "done", "완료"),
        ("outcome", "paid", "paid", "지급됨"),
        ("outcome", "rejected", "rejected", "거절됨"),
        ("outcome", "executed", "executed", "실행됨"),
        ("outcome", "refused", "refused", "거부됨"),
        ("outcome", "saved", "saved", "저장됨"),
        ("decision", "approve", "approve", "승인"),
        ("decision", "reject", "reject", "거절"),
        ("decision", "edit", "edit", "금액 수정"),
        ("nodelog", "interrupted", "interrupted", "인터럽트"),
        ("nodelog", "ok", "ok", "정상 종료"),
        ("decision", "shrug", "shrug", "shrug"),  # an unknown code is shown as it is
        ("decision", "", "", ""),
        ("decision", None, "", ""),
    ],
)
def test_a_stored_code_is_shown_as_a_word_and_stays_a_code(kind, code, english, korean):
    assert code_word(kind, code, lang="en") == english
    assert code_word(kind, code, lang="ko") == korean
