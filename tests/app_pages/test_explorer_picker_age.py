"""The explorer's and the timeline's thread pickers show how long each unfinished thread has waited and
mark an overdue one, saying waiting once; a finished thread shows no age. The clock is
``agents.ages.utc_now``, replaced here."""

from __future__ import annotations

import datetime as dt

import pytest
from streamlit.testing.v1 import AppTest

from agents import ages, lifecycle
from tests.conftest import APP_FILE
from tests.factories import start_refund


def open_page(lang: str, page: str) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang
    test.run()
    test.switch_page(page)
    test.run()
    assert not test.exception, test.exception
    return test


@pytest.mark.parametrize(
    ("lang", "overdue", "fresh"),
    [
        ("en", "refund-P0 · waiting 1 d 0 h · overdue", "refund-P1 · waiting 23 h 59 min"),  # waiting said once
        ("ko", "refund-P0 · 1일 0시간째 대기 · 기한 지남", "refund-P1 · 23시간 59분째 대기"),
    ],
)
def test_the_thread_picker_shows_age_and_overdue(store, settings, monkeypatch, lang, overdue, fresh):
    monkeypatch.setenv("HITL_SLA", "refund=24h")
    start_refund(store, settings, "P0")
    start_refund(store, settings, "P1")
    start_refund(store, settings, "P2", 50_000)  # settles: finished, no age
    first, second = (item.waiting_since for item in lifecycle.inbox(store))
    assert first is not None and second is not None and first < second
    monkeypatch.setattr(ages, "utc_now", lambda: first + (second - first) / 2 + dt.timedelta(hours=24))
    options = open_page(lang, "app_pages/explorer.py").selectbox(key="explorer-thread").options
    assert overdue in options and fresh in options, options
    (finished,) = [option for option in options if option.startswith("refund-P2")]
    assert finished in ("refund-P2 · done · paid", "refund-P2 · 완료 · 지급됨")  # id and status only
    timeline = open_page(lang, "app_pages/timeline.py").selectbox(key="timeline-thread").options
    assert overdue in timeline and fresh in timeline, timeline  # the timeline's picker names threads alike
